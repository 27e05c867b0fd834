"""A lower bound that counts walking: the agents' routes through the visits every plan makes.

Every valid plan makes at least these station visits, each one action of one agent:
- a pick-up at a dispenser for every ingredient of every dish;
- a Process (4) at a chopping board for every ingredient chopped;
- per dish and kind of cookware it cooks in: an Interact at a stove once the last of its
  ingredients is in the cookware and it stands on the stove (putting the ingredient in, or the
  cookware back), and one after they are cooked (a plate takes them, or the cookware is lifted);
- per dish a plate's first touch in the life that serves it (at the table where it starts, or
  picking it up clean from a sink), and the serve itself at a window;
- per dish beyond the plates on the map a dirty plate taken at the plate return and a Process
  (6) at a sink.

An agent does its visits one after another, each from a tile beside the station, walking the
shortest path from tile to tile, and an item needs its carrying time between visits (`Carry`). Leaving out every other action only
makes plans shorter, so the least makespan of this
relaxation is a lower bound. CP-SAT solves it (agents' routes as circuits with optional visits)
for a fixed amount of deterministic time; the bound used is the one it proves, so the result is
the same on every machine and sound even when the search is cut short."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import Level
from game.engine.level import COOKWARE_TIME

from .bound import CHOP, INF, RETURN_DELAY, WASH, _Bounder
from .model import Geometry

# deterministic time CP-SAT may spend (its own work units: roughly seconds on one core)
DEFAULT_EFFORT = 1.0
MAX_NODES = 60  # (visit, tile beside a station) pairs: larger relaxations are left out (too slow to help)


@dataclass
class Visit:
    name: str
    locs: tuple[str, ...]  # stations where it may happen
    dur: int = 0


class RouteBound:
    def __init__(self, level: Level, rules: str):
        self.level = level
        self.rules = rules
        self.b = _Bounder(level)
        self.geo = Geometry(level)
        self.visits: list[Visit] = []
        can_use = (getattr(level, "options", None) or {}).get("can_use") or {}
        self.allowed = [can_use.get(name) for name in level.agent_names]
        self.kind = {s.name: s.kind for s in level.stations}

    # -- distances ------------------------------------------------------------------------
    def walk(self, a: str, b: str) -> int:
        if a not in self.geo.stand or b not in self.geo.stand:
            return INF
        return self.geo.station_distance(a, b)

    def leg(self, u: Visit, v: Visit) -> int:
        return min((self.walk(a, b) for a in u.locs for b in v.locs), default=INF)

    def carry(self, u: Visit, v: Visit) -> int:
        return min((self.b.cd(a, b) for a in u.locs for b in v.locs), default=INF)

    # -- the model ------------------------------------------------------------------------
    def add(self, name: str, locs, dur: int = 0) -> int:
        self.visits.append(Visit(name, tuple(locs), dur))
        return len(self.visits) - 1

    def solve(self, effort: float = DEFAULT_EFFORT) -> int | None:
        """The proven lower bound on the last serve (0 when the model cannot be built)."""
        from ortools.sat.python import cp_model

        b = self.b
        if not b.windows or not b.dishes:
            return 0
        m = cp_model.CpModel()
        horizon = 2000
        prec: list[tuple[int, int, int]] = []  # (u, v, gap): t_v >= t_u + gap + carrying
        same_stove: list[tuple[int, int]] = []
        lower: dict[int, int] = {}  # v -> static earliest time
        serves = []
        cooked_kinds = [k for k in COOKWARE_TIME if b.cookware.get(k)]
        per_kind_total = {k: 0 for k in cooked_kinds}
        n = len(b.dishes)
        for d, items in enumerate(b.dishes):
            serve = self.add(f"serve{d}", b.windows)
            serves.append(serve)
            loads: dict[str, tuple[int, int]] = {}
            for kind in {k for _, k in items if k in COOKWARE_TIME}:
                if kind not in cooked_kinds:
                    return 0
                load = self.add(f"load{d}{kind}", b.stoves)
                unload = self.add(f"unload{d}{kind}", b.stoves)
                loads[kind] = (load, unload)
                per_kind_total[kind] += sum(1 for _, k in items if k == kind)
                cook = COOKWARE_TIME[kind]
                same_stove.append((load, unload))
                prior = sum(1 for its in b.dishes[: d + 1] for _, k in its if k == kind)
                first = b.first_in(kind)
                if first >= INF:
                    return 0
                lower[unload] = first + cook * -(-prior // b.cookware[kind])
                prec.append((unload, serve, 0))
            for item, kind in items:
                disps = b.dispensers.get(item)
                if not disps:
                    return 0
                pick = self.add(f"pick{d}{item}", disps)
                after = pick
                if kind in ("chop", "pan"):
                    if not b.boards:
                        return 0
                    chop = self.add(f"chop{d}{item}", b.boards, CHOP)
                    prec.append((pick, chop, 0))
                    after = chop
                gap = self.visits[after].dur
                if kind in COOKWARE_TIME:
                    load, unload = loads[kind]
                    prec.append((after, load, gap))
                    if self.rules == "documented":  # each ingredient added cooks its full time
                        prec.append((after, unload, gap + COOKWARE_TIME[kind]))
                else:
                    prec.append((after, serve, gap))
        plate_locs = list(b.plates) + (list(b.sinks) if n > len(b.plates) else [])
        if not plate_locs:
            return 0
        origins = [self.add(f"plate{j}", plate_locs) for j in range(n)]
        washes = []
        if n > len(b.plates):
            if not b.plate_return or not b.sinks:
                return 0
            for k in range(n - len(b.plates)):
                ret = self.add(f"return{k}", [b.plate_return])
                wash = self.add(f"wash{k}", b.sinks, WASH)
                washes.append((ret, wash))
        nv = len(self.visits)
        if sum(len(self.geo.stand.get(loc, ())) for v in self.visits for loc in v.locs) > MAX_NODES:
            return None
        t = [m.NewIntVar(0, horizon, v.name) for v in self.visits]
        self.at = [{loc: m.NewBoolVar(f"{v.name}@{loc}") for loc in v.locs} for v in self.visits]
        for choice in self.at:
            m.AddExactlyOne(choice.values())
        for v, low in lower.items():
            m.Add(t[v] >= low)
        for u, v, gap in prec:
            if not self._after(m, t, u, v, gap):
                return 0
        for load, unload in same_stove:  # cooked where the last load left it
            prec_ok = self._after(m, t, load, unload, 0)
            for s in self.visits[load].locs:
                m.Add(self.at[load][s] == self.at[unload][s])
            if not prec_ok:
                return 0
        for d in range(1, n):
            m.Add(t[serves[d]] >= t[serves[d - 1]])
        for j, o in enumerate(origins):  # the j-th plate life to start did so before the j-th serve
            out = self.carry(self.visits[o], self.visits[serves[0]])
            m.Add(t[serves[j]] >= t[o] + out)
            if j:
                m.Add(t[o] >= t[origins[j - 1]])
        for k, (ret, wash) in enumerate(washes):  # in the order dirty plates are taken
            m.Add(t[ret] >= t[serves[k]] + RETURN_DELAY)
            if k:
                m.Add(t[ret] >= t[washes[k - 1][0]])
            if not self._after(m, t, ret, wash, 0) or not self._after(m, t, wash, serves[-1], WASH):
                return 0
        self._boards(m, t)
        if not self._routes(m, t, nv):
            return 0
        m.Minimize(t[serves[-1]])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_deterministic_time = effort
        solver.parameters.random_seed = 0
        status = solver.Solve(m)
        if status == cp_model.OPTIMAL:
            return int(solver.ObjectiveValue())
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            return max(0, int(solver.BestObjectiveBound()))
        return 0  # infeasible: the other bound says why no plan exists

    def _after(self, m, t, u: int, v: int, gap: int) -> bool:
        """t_v >= t_u + gap + the carrying time between the stations the two visits chose."""
        pairs = [(a, b, self.b.cd(a, b)) for a in self.visits[u].locs for b in self.visits[v].locs]
        least = min(c for _, _, c in pairs)
        if least >= INF:
            return False
        m.Add(t[v] >= t[u] + gap + least)
        for a, b, c in pairs:
            if least < c < INF:
                m.Add(t[v] >= t[u] + gap + c).OnlyEnforceIf([self.at[u][a], self.at[v][b]])
            elif c >= INF:
                m.AddBoolOr([self.at[u][a].Not(), self.at[v][b].Not()])
        return True

    def _boards(self, m, t) -> None:
        """At most as many chops at once as there are boards (a board chops one at a time)."""
        chops = [i for i, v in enumerate(self.visits) if v.dur == CHOP and v.name.startswith("chop")]
        if len(chops) > 1:
            ivs = [m.NewFixedSizeIntervalVar(t[i], CHOP, f"iv{i}") for i in chops]
            m.AddCumulative(ivs, [1] * len(ivs), len(self.b.boards))
        for board in self.b.boards:  # and each board one at a time
            on = [
                m.NewOptionalFixedSizeIntervalVar(t[i], CHOP, self.at[i][board], f"on{i}{board}")
                for i in chops
                if board in self.at[i]
            ]
            if len(on) > 1:
                m.AddNoOverlap(on)

    def _routes(self, m, t, nv: int) -> bool:
        """Each visit is made by exactly one agent from one tile beside the station it chose;
        an agent walks between its visits (tile to tile, so an agent's route is exact)."""
        nodes = [(v, loc, tile) for v, loc in self.nodes(nv) for tile in self.geo.stand[loc]]
        done_by: dict[tuple[int, str], list] = {node: [] for node in self.nodes(nv)}
        dist = self.geo.dist
        for a in range(len(self.geo.agent_tiles)):
            here = self.geo.agent_tiles[a]
            mine = [(v, loc, tile) for v, loc, tile in nodes if self.may(a, loc) and dist[here][tile] < INF]
            arcs = [(0, 0, m.NewBoolVar(f"idle{a}"))]
            for i, (v, loc, tile) in enumerate(mine, 1):
                lit = m.NewBoolVar(f"s{a}_{i}")
                arcs.append((0, i, lit))
                m.Add(t[v] >= dist[here][tile]).OnlyEnforceIf(lit)
                arcs.append((i, 0, m.NewBoolVar(f"e{a}_{i}")))
                skip = m.NewBoolVar(f"k{a}_{i}")
                arcs.append((i, i, skip))
                done_by[(v, loc)].append(skip.Not())
            for i, (u, _, tu) in enumerate(mine, 1):
                for j, (v, _, tv) in enumerate(mine, 1):
                    if u == v or dist[tu][tv] >= INF:
                        continue
                    lit = m.NewBoolVar(f"x{a}_{i}_{j}")
                    arcs.append((i, j, lit))
                    m.Add(t[v] >= t[u] + self.visits[u].dur + dist[tu][tv]).OnlyEnforceIf(lit)
            m.AddCircuit(arcs)
        for (v, loc), lits in done_by.items():
            if not lits:
                m.Add(self.at[v][loc] == 0)
            else:
                m.Add(sum(lits) == self.at[v][loc])
        return True

    def nodes(self, nv: int) -> list[tuple[int, str]]:
        return [(v, loc) for v in range(nv) for loc in self.visits[v].locs if self.geo.stand.get(loc)]

    def may(self, agent: int, loc: str) -> bool:
        kinds = self.allowed[agent]
        return kinds is None or self.kind.get(loc) in kinds


def route_bound(level: Level, rules: str, effort: float = DEFAULT_EFFORT) -> int | None:
    """The routing relaxation's proven lower bound on OCT (see the module docstring); None when
    the level is too large for it."""
    if not level.orders:
        return 0
    return RouteBound(level, rules).solve(effort)
