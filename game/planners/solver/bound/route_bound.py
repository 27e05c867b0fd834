"""A lower bound that counts walking: the agents' routes through the visits every plan makes.

Every valid plan makes at least these station visits, each one action of one agent:
- a pick-up at a dispenser for every ingredient of every dish;
- a Process (`CHOP_TIME`) at a chopping board for every ingredient chopped;
- per dish and kind of cookware it cooks in: an Interact at a stove once the last of its
  ingredients is in the cookware and it stands on the stove (putting the ingredient in, or the
  cookware back), and one after they are cooked (a plate takes them, or the cookware is lifted);
- per dish a plate's first touch in the life that serves it (at the table where it starts, or
  picking it up clean from a sink), and the serve itself at a window;
- per dish beyond the plates on the map a dirty plate taken at the plate return and a Process
  (`WASH_TIME`) at a sink, which under `paracook` a team may start before the plate is in it
  (`early_wash`).

An agent does its visits one after another, each from a tile beside the station, walking the
shortest path from tile to tile, and an item needs its carrying time between visits (`Carry`). Leaving out every other action only
makes plans shorter, so the least makespan of this
relaxation is a lower bound. CP-SAT solves it (agents' routes as circuits with optional visits)
for a fixed amount of deterministic time; the bound used is the one it proves, so the result is
the same on every machine and sound even when the search is cut short."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine import Level
from game.engine.kitchen import CHOP_TIME, RETURN_DELAY, WASH_TIME
from game.engine.level import COOKWARE_TIME

from ..model import INF, Geometry
from .bounder import Bounder
from .cost import Cost

# deterministic time CP-SAT may spend (its own work units: roughly seconds on one core)
DEFAULT_EFFORT = 1.0
HORIZON = 2000  # latest time a visit may take place in the model
# (visit, tile beside a station) pairs: larger relaxations are left out, too slow to help (on the
# suite's 60 one-order team levels and the 12 human-study levels up to 60 pairs, every one over
# 40 pairs, 41-54 of them, ended its solve with no bound, 0, after 2-4 s)
MAX_NODES = 40


@dataclass
class Visit:
    name: str
    locs: tuple[str, ...]  # stations where it may happen
    dur: int = 0


@dataclass
class Orders:
    """The visits' order, as the model is built: (u, v, gap) means t_v >= t_u + gap + carrying."""

    prec: list[tuple[int, int, int]] = field(default_factory=list)
    same_stove: list[tuple[int, int]] = field(default_factory=list)  # (load, unload)
    lower: dict[int, int] = field(default_factory=dict)  # visit -> static earliest time
    serves: list[int] = field(default_factory=list)
    origins: list[int] = field(default_factory=list)  # where the j-th plate life starts
    washes: list[tuple[int, int]] = field(default_factory=list)  # (return, wash)


class RouteBound:
    def __init__(self, level: Level, rules: str):
        self.level = level
        self.rules = rules
        self.b = Bounder(level)
        self.geo = Geometry(level)
        self.visits: list[Visit] = []
        can_use = (getattr(level, "options", None) or {}).get("can_use") or {}
        self.allowed = [can_use.get(name) for name in level.agent_names]
        self.kind = {s.name: s.kind for s in level.stations}
        self.spent = Cost()  # the solve's work, in estimated seconds

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
        # ortools takes most of a second to load: loaded when this bound is first worked out
        from ortools.sat.python import cp_model

        b = self.b
        if not b.windows or not b.dishes:
            return 0
        g = Orders()
        if not self._dishes(g) or not self._plates(g):
            return 0
        if sum(len(self.geo.stand.get(loc, ())) for v in self.visits for loc in v.locs) > MAX_NODES:
            return None
        m = cp_model.CpModel()
        t = [m.NewIntVar(0, HORIZON, v.name) for v in self.visits]
        self.at = [{loc: m.NewBoolVar(f"{v.name}@{loc}") for loc in v.locs} for v in self.visits]
        for choice in self.at:
            m.AddExactlyOne(choice.values())
        if not self._precedences(m, t, g) or not self._plate_order(m, t, g):
            return 0
        self._boards(m, t)
        if not self._routes(m, t, len(self.visits)):
            return 0
        m.Minimize(t[g.serves[-1]])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_deterministic_time = effort
        solver.parameters.random_seed = 0
        status = solver.Solve(m)
        self.spent.cp_sat_solved(solver.response_proto.deterministic_time)
        if status == cp_model.OPTIMAL:
            return int(solver.ObjectiveValue())
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            return max(0, int(solver.BestObjectiveBound()))
        return 0  # infeasible: the other bound says why no plan exists

    def _dishes(self, g: Orders) -> bool:
        """Each dish's visits: its serve, its cookware loaded and unloaded, each ingredient picked
        up (and chopped); False when some dish cannot be made."""
        b = self.b
        cooked_kinds = [k for k in COOKWARE_TIME if b.cookware.get(k)]
        for d, items in enumerate(b.dishes):
            serve = self.add(f"serve{d}", b.windows)
            g.serves.append(serve)
            loads: dict[str, tuple[int, int]] = {}
            for kind in sorted({k for _, k in items if k in COOKWARE_TIME}):  # not hash order
                if kind not in cooked_kinds or not self._cooks(g, d, kind, loads):
                    return False
            for item, kind in items:
                if not self._ingredient(g, d, item, kind, loads):
                    return False
        return True

    def _cooks(self, g: Orders, d: int, kind: str, loads: dict[str, tuple[int, int]]) -> bool:
        """Dish d's cookware of this kind is loaded and unloaded at one stove, unloaded no sooner
        than the cookware can have cooked every such ingredient up to this dish."""
        b = self.b
        load = self.add(f"load{d}{kind}", b.stoves)
        unload = self.add(f"unload{d}{kind}", b.stoves)
        loads[kind] = (load, unload)
        g.same_stove.append((load, unload))
        prior = sum(1 for its in b.dishes[: d + 1] for _, k in its if k == kind)
        first = b.first_in(kind)
        if first >= INF:
            return False
        g.lower[unload] = first + COOKWARE_TIME[kind] * -(-prior // b.cookware[kind])
        g.prec.append((unload, g.serves[d], 0))
        return True

    def _ingredient(self, g: Orders, d: int, item: str, kind: str, loads: dict[str, tuple[int, int]]) -> bool:
        """The ingredient is picked up, chopped if the dish wants it so, and goes into its
        cookware or to the serve."""
        b = self.b
        disps = b.dispensers.get(item)
        if not disps:
            return False
        pick = self.add(f"pick{d}{item}", disps)
        after = pick
        if kind in ("chop", "pan"):
            if not b.boards:
                return False
            chop = self.add(f"chop{d}{item}", b.boards, CHOP_TIME)
            g.prec.append((pick, chop, 0))
            after = chop
        gap = self.visits[after].dur
        if kind in COOKWARE_TIME:
            load, unload = loads[kind]
            g.prec.append((after, load, gap))
            if self.rules == "documented":  # each ingredient added cooks its full time
                g.prec.append((after, unload, gap + COOKWARE_TIME[kind]))
        else:
            g.prec.append((after, g.serves[d], gap))
        return True

    def _plates(self, g: Orders) -> bool:
        """Where each plate's life starts, and the dirty plates returned and washed."""
        b = self.b
        n = len(b.dishes)
        plate_locs = list(b.plates) + (list(b.sinks) if n > len(b.plates) else [])
        if not plate_locs:
            return False
        g.origins = [self.add(f"plate{j}", plate_locs) for j in range(n)]
        if n > len(b.plates):
            if not b.plate_return or not b.sinks:
                return False
            for k in range(n - len(b.plates)):
                ret = self.add(f"return{k}", [b.plate_return])
                wash = self.add(f"wash{k}", b.sinks, WASH_TIME)
                g.washes.append((ret, wash))
        return True

    def _precedences(self, m, t, g: Orders) -> bool:
        for v, low in g.lower.items():
            m.Add(t[v] >= low)
        for u, v, gap in g.prec:
            if not self._after(m, t, u, v, gap):
                return False
        for load, unload in g.same_stove:  # cooked where the last load left it
            prec_ok = self._after(m, t, load, unload, 0)
            for s in self.visits[load].locs:
                m.Add(self.at[load][s] == self.at[unload][s])
            if not prec_ok:
                return False
        return True

    def _plate_order(self, m, t, g: Orders) -> bool:
        """Dishes are served in order, on plates whose lives started in order; dirty plates are
        returned and washed in the order they are taken."""
        serves = g.serves
        for d in range(1, len(serves)):
            m.Add(t[serves[d]] >= t[serves[d - 1]])
        for j, o in enumerate(g.origins):  # the j-th plate life to start did so before the j-th serve
            out = self.carry(self.visits[o], self.visits[serves[0]])
            m.Add(t[serves[j]] >= t[o] + out)
            if j:
                m.Add(t[o] >= t[g.origins[j - 1]])
        for k, (ret, wash) in enumerate(g.washes):  # in the order dirty plates are taken
            m.Add(t[ret] >= t[serves[k]] + RETURN_DELAY)
            if k:
                m.Add(t[ret] >= t[g.washes[k - 1][0]])
            if not self._after(m, t, ret, wash, self.early_wash()):
                return False
            if not self._after(m, t, wash, serves[-1], WASH_TIME):
                return False
        return True

    def early_wash(self) -> int:
        """How long before its dirty plate reaches the sink a wash may start: under `paracook` a
        sink is not exclusive and a wash's effect is checked when it ends, so with company one
        agent may start washing the empty sink and another put the plate in before it ends."""
        alone = len(self.level.agents) <= 1
        return 0 if alone or self.rules == "documented" else -WASH_TIME

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
        chops = [i for i, v in enumerate(self.visits) if v.dur == CHOP_TIME and v.name.startswith("chop")]
        if len(chops) > 1:
            ivs = [m.NewFixedSizeIntervalVar(t[i], CHOP_TIME, f"iv{i}") for i in chops]
            m.AddCumulative(ivs, [1] * len(ivs), len(self.b.boards))
        for board in self.b.boards:  # and each board one at a time
            on = [
                m.NewOptionalFixedSizeIntervalVar(t[i], CHOP_TIME, self.at[i][board], f"on{i}{board}")
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
    return route_bound_spent(level, rules, effort)[0]


def route_bound_spent(level: Level, rules: str, effort: float = DEFAULT_EFFORT) -> tuple[int | None, float]:
    """`route_bound` and the work it took, in estimated seconds (`cost`)."""
    if not level.orders:
        return 0, 0.0
    routes = RouteBound(level, rules)
    value = routes.solve(effort)
    return value, routes.spent.seconds
