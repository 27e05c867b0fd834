"""Turn a genome into a timed schedule: list scheduling with the engine's exact timing.

Tasks are taken in priority order once their predecessors are placed; each goes to the agent
(and board, stove, dispenser, table) that finishes it best. Every interaction gets an event
`(t, s, agent, seq)`: its time, the start of the action the agent is finishing then (the
engine handles agents at one instant in that order, map order breaking ties) and its place in
the agent's chain of instant actions. One interaction that needs another's effect must come
strictly later in that order, so same-instant hand-overs are exact, never off by one."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import NamedTuple

from game.engine.level import COOKWARE_TIME

from .model import INF, KitchenModel
from .tasks import (
    BRING,
    DELIVER,
    HOLD,
    MOVE,
    PREP,
    RELAY,
    STAGE,
    WASH,
    Genome,
    Task,
    bring_key,
    move_key,
    wash_key,
)

CHOP, WASH_TIME, RETURN_DELAY = 4, 6, 10
EV0 = (0, -3, -1, 0)  # before anything: the initial state
OPEN = (INF, 0, 0, 0)  # an interval nobody has closed yet
MAX_STOP_PERMUTATIONS = 24
MAX_REPAIRS = 8  # decodes of one genome that delay ingredients prepared too early


class Op(NamedTuple):
    """One Interact or Process at time t from a tile; `late` splits the wait before it."""

    t: int
    tile: int
    action: str
    station: str
    dur: int
    late: bool


@dataclass
class AgentClock:
    tile: int
    t: int = 0
    s: int = -1  # start of the action whose end the agent is handled at
    seq: int = 0
    ops: list[Op] = field(default_factory=list)


@dataclass
class Batch:
    dish: int
    first_t: int
    last_t: int
    n: int
    cum: int  # items ever put in this cookware, this batch included
    needs: list[int] = field(default_factory=list)


@dataclass
class Cookware:
    kind: str
    first_t: int | None = None
    count: int = 0
    open: Batch | None = None
    last_scoop: tuple = EV0

    def ready(self, b: Batch, cumulative: bool) -> int:
        dur = COOKWARE_TIME[self.kind]
        base = self.first_t + dur * b.cum if cumulative else b.first_t + dur * b.n
        return max(b.last_t + 1, base)


@dataclass
class Schedule:
    ops: list[list[Op]]
    serve_times: list[int]
    moving: int

    @property
    def makespan(self) -> int:
        return self.serve_times[-1] if self.serve_times else 0

    @property
    def cost(self) -> tuple[int, int, int]:
        return (self.makespan, sum(self.serve_times), self.moving)


class Walker:
    """One agent trying out a task: times each interaction without touching the decoder."""

    __slots__ = ("dec", "idx", "tile", "t", "s", "seq", "ops", "moving")

    def __init__(self, dec: Decoder, idx: int):
        a = dec.agents[idx]
        self.dec, self.idx = dec, idx
        self.tile, self.t, self.s, self.seq = a.tile, a.t, a.s, a.seq
        self.ops: list[Op] = []
        self.moving = 0

    def clone(self) -> Walker:
        w = Walker.__new__(Walker)
        w.dec, w.idx, w.tile, w.t, w.s, w.seq = self.dec, self.idx, self.tile, self.t, self.s, self.seq
        w.ops, w.moving = list(self.ops), self.moving
        return w

    def at(self, station: str, nxt: str | None, t_min: int = 0, deps: tuple = (),
           action: str = "Interact", dur: int = 0) -> tuple:
        """Go next to `station` and act there as early as allowed; return the event."""
        dec = self.dec
        tile = dec.pick(self.tile, station, nxt)
        d = dec.dist[self.tile][tile]
        if d >= INF:
            raise Infeasible  # this agent cannot reach the station
        arr = self.t + d
        dep = max(deps) if deps else None
        t = max(arr, t_min, dep[0] if dep else 0)
        idx = self.idx
        while True:
            late = False
            if t > arr:
                s, seq = arr, 0
                if dep is not None and dep >= (t, s, idx, seq):
                    s, late = t - 1, True
            elif d > 0:
                s, seq = arr - d, 0
            else:
                s, seq = self.s, self.seq + 1
            ev = (t, s, idx, seq)
            if dep is not None and dep >= ev:
                t += 1
                continue
            break
        self.ops.append(Op(t, tile, action, station, dur, late))
        self.moving += d
        self.tile = tile
        if dur:
            self.t, self.s, self.seq = t + dur, t, 0
            return (t + dur, t, idx, 0)
        self.t, self.s, self.seq = t, s, seq
        return ev


class Infeasible(Exception):
    pass


class Decoder:
    def __init__(self, model: KitchenModel, tasks: list[Task]):
        self.model = model
        self.tasks = tasks
        geo = model.geo
        self.dist = geo.dist
        self.to_station = geo.to_station
        self.stand = geo.stand
        self._pick: dict[tuple, int] = {}
        self.plates = len(model.plates)
        self.restricted = any(a is not None for a in model.allowed)
        self.kinds = {s.name: s.kind for s in model.level.stations}
        window = frozenset(("serving_window",))
        self.servers = [a for a, tile in enumerate(model.geo.agent_tiles) if model.may_use(a, window)
                        and any(self.to_station[w][tile] < INF for w in model.windows)]
        self.by_dish: list[list[Task]] = [[] for _ in range(model.dishes)]
        for t in tasks:
            self.by_dish[t.dish].append(t)

    # -- geometry --------------------------------------------------------------------
    def pick(self, tile: int, station: str, nxt: str | None) -> int:
        key = (tile, station, nxt)
        best = self._pick.get(key)
        if best is None:
            row = self.dist[tile]
            after = self.to_station[nxt] if nxt else None
            best = min(self.stand[station],
                       key=lambda u: (row[u] + (after[u] if after else 0), row[u], u))
            self._pick[key] = best
        return best

    # -- state -------------------------------------------------------------------------
    def reset(self, genome: Genome, release: dict[int, int] | None = None) -> None:
        m = self.model
        self.genome = genome
        self.release = release or {}
        self.late: dict[int, int] = {}  # need id -> start time that would make its dish in time
        self.prepared: dict[int, tuple[int, int | None]] = {}  # need id -> (start, fresh since)
        self.agents = [AgentClock(tile) for tile in m.geo.agent_tiles]
        self.cal: dict[str, list[list]] = {}
        self.cook = {s: Cookware(kind) for kind, stoves in m.cookware.items() for s in stoves}
        self.stage: dict[int, tuple[str, tuple]] = {}  # need id -> (station, ready event)
        self.park: dict[int, tuple[str, tuple]] = {}  # dish -> (station, event)
        self.park_tag: dict[int, tuple] = {}  # dish -> the tag of its plate's interval there
        self.cooked_since: dict[int, int] = {}  # need id -> cooked no later than (brought pans)
        self.delivered: dict[int, list[tuple]] = {}
        self.serves: list[tuple] = []
        self.dirty_takes: list[tuple] = []
        self.done: set[int] = set()
        self.left = {t.id for t in self.tasks}
        for p, station in enumerate(m.plates):
            self.cal.setdefault(station, []).append([EV0, OPEN, ("plate", p)])
        for d in range(min(m.dishes, self.plates)):
            self.park[d] = (m.plates[genome.plates[d]], EV0)
            self.park_tag[d] = ("plate", genome.plates[d])

    def method(self, need_id: int) -> str:
        return self.genome.method.get(need_id, DELIVER)

    def holds_plate(self, dish: int) -> bool:
        return dish >= self.plates and self.genome.method.get(wash_key(dish)) == HOLD

    # -- the schedule --------------------------------------------------------------------
    def decode(self, genome: Genome) -> Schedule | None:
        """The schedule of a genome, or None. On levels with freshness or burning limits, a dish
        served too late has the ingredients prepared too early delayed, and is decoded again."""
        release: dict[int, int] = {}
        for _ in range(MAX_REPAIRS):
            if self.run(genome, release):
                break
            if not self.late:
                return None
            for need_id, t in self.late.items():
                release[need_id] = max(release.get(need_id, 0), t)
        else:
            return None
        ops = [a.ops for a in self.agents]
        moving = self.moving_total(ops)
        return Schedule(ops, [ev[0] for ev in self.serves], moving)

    def run(self, genome: Genome, release: dict[int, int]) -> bool:
        self.reset(genome, release)
        order = sorted(self.tasks, key=lambda t: genome.keys[t.id])
        pending = list(order)
        while pending:
            for i, task in enumerate(pending):
                if self.ready(task) and self.place(task):
                    self.done.add(task.id)
                    self.left.discard(task.id)
                    del pending[i]
                    break
            else:
                return False
        return True

    def moving_total(self, ops: list[list[Op]]) -> int:
        total = 0
        for idx, agent_ops in enumerate(ops):
            tile = self.model.geo.agent_tiles[idx]
            for op in agent_ops:
                total += self.dist[tile][op.tile]
                tile = op.tile
        return total

    def ready(self, task: Task) -> bool:
        done, dish = self.done, task.dish
        if task.kind == PREP:
            if self.wants_delivery(task) and self.moves(dish):
                return self.dish_task(dish, MOVE).id in done
            if dish >= self.plates and not self.holds_plate(dish) and self.wants_delivery(task):
                return self.wash_task(dish).id in done
            return True
        if task.kind == MOVE:
            if not self.moves(dish):
                return True
            return dish < self.plates or self.wash_task(dish).id in done
        if task.kind == BRING:
            if not self.brings(dish):
                return True
            return all(t.id in done for t in self.by_dish[dish] if t.kind in (PREP, RELAY, MOVE, WASH))
        if task.kind == RELAY:
            return not self.relayed(task.need.id) or self.prep_task(task.need.id).id in done
        if task.kind == WASH:
            if self.holds_plate(dish):
                return True
            return self.assemble_task(dish - self.plates).id in done and self.prev_take_done(dish)
        # assemble
        if any(t.id not in done for t in self.by_dish[dish] if t.kind in (PREP, RELAY, MOVE, BRING)):
            return False
        if dish > 0 and self.assemble_task(dish - 1).id not in done:
            return False
        if dish >= self.plates:
            if self.holds_plate(dish):
                return self.assemble_task(dish - self.plates).id in done and self.prev_take_done(dish)
            return self.wash_task(dish).id in done
        return True

    def prev_take_done(self, dish: int) -> bool:
        return dish - 1 < self.plates or len(self.dirty_takes) >= dish - self.plates

    def wants_delivery(self, task: Task) -> bool:
        return task.need.kind in ("raw", "chop") and self.method(task.need.id) == DELIVER

    def moves(self, dish: int) -> bool:
        return self.model.flexible and not self.holds_plate(dish) and \
            self.genome.method.get(move_key(dish)) == MOVE

    def brings(self, dish: int) -> bool:
        return self.model.flexible and not self.holds_plate(dish) and \
            self.genome.method.get(bring_key(dish)) == BRING

    def dish_task(self, dish: int, kind: str) -> Task:
        return next(t for t in self.by_dish[dish] if t.kind == kind)

    def relayed(self, need_id: int) -> bool:
        return self.model.flexible and self.genome.method.get(need_id) == RELAY

    def prep_task(self, need_id: int) -> Task:
        return next(t for t in self.tasks if t.kind == PREP and t.need.id == need_id)

    def wash_task(self, dish: int) -> Task:
        return next(t for t in self.by_dish[dish] if t.kind == WASH)

    def assemble_task(self, dish: int) -> Task:
        return self.by_dish[dish][-1]

    def agents_for(self, task: Task) -> list[int]:
        fixed = self.genome.agent[task.id]
        n = len(self.agents)
        if fixed is not None and fixed < n:
            return [fixed]
        return list(range(n))

    def place(self, task: Task) -> bool:
        if task.kind == WASH and self.holds_plate(task.dish):
            return True  # the dish's assembly washes its own plate
        if task.kind == RELAY and not self.relayed(task.need.id):
            return True  # the ingredient went straight into its pot or pan
        if task.kind == MOVE and not self.moves(task.dish):
            return True  # the plate is assembled where it is
        if task.kind == BRING and not self.brings(task.dish):
            return True  # the plate's carrier scoops the cooked food
        self.late_options: list[dict[int, int]] = []
        best = None
        for idx in self.agents_for(task):
            for cand in self.candidates(task, idx):
                if cand is not None and (best is None or cand[0] < best[0]):
                    if self.restricted and not self.allowed(idx, cand[1]):
                        continue
                    best = cand
        if best is None and self.genome.agent[task.id] is not None:
            for idx in range(len(self.agents)):
                for cand in self.candidates(task, idx):
                    if cand is not None and (best is None or cand[0] < best[0]):
                        if self.restricted and not self.allowed(idx, cand[1]):
                            continue
                        best = cand
        if best is None:
            if self.late_options:  # every way was too late: ask for the least delay
                self.late = min(self.late_options, key=lambda d: max(d.values()))
            return False
        self.commit(best[1], best[2])
        return True

    def allowed(self, idx: int, w: Walker) -> bool:
        kinds = frozenset(self.kinds[op.station] for op in w.ops)
        return self.model.may_use(idx, kinds)

    def attempt(self, option, *args):
        """One option of a task, or None when the agent cannot do it that way."""
        try:
            return option(*args)
        except Infeasible:
            return None

    def candidates(self, task: Task, idx: int):
        try:
            if task.kind == PREP:
                kind = task.need.kind
                if kind == "raw":
                    yield from self.raw(task, idx)
                elif kind == "chop":
                    yield from self.chop(task, idx)
                else:
                    yield from self.cooked(task, idx)
            elif task.kind == RELAY:
                yield from self.relay(task, idx)
            elif task.kind == MOVE:
                yield from self.move_plate(task, idx)
            elif task.kind == BRING:
                yield from self.bring(task, idx)
            elif task.kind == WASH:
                yield from self.wash(task, idx)
            else:
                yield from self.assemble(task, idx)
        except Infeasible:
            return

    # -- commit -------------------------------------------------------------------------
    def commit(self, w: Walker, effects: list[tuple]) -> None:
        a = self.agents[w.idx]
        a.tile, a.t, a.s, a.seq = w.tile, w.t, w.s, w.seq
        a.ops.extend(w.ops)
        for eff in effects:
            getattr(self, "_eff_" + eff[0])(*eff[1:])

    def _eff_cal(self, station: str, start: tuple, end: tuple, tag: tuple) -> None:
        self.cal.setdefault(station, []).append([start, end, tag])

    def _eff_close(self, station: str, tag: tuple, end: tuple) -> None:
        for iv in self.cal[station]:
            if iv[2] == tag:
                iv[1] = end
                return
        raise AssertionError(f"no open interval {tag} on {station}")

    def _eff_stage(self, need_id: int, station: str, ev: tuple) -> None:
        self.stage[need_id] = (station, ev)

    def _eff_deliver(self, dish: int, ev: tuple) -> None:
        self.delivered.setdefault(dish, []).append(ev)

    def _eff_park(self, dish: int, station: str, ev: tuple) -> None:
        self.park[dish] = (station, ev)
        self.park_tag[dish] = ("park", dish)

    def _eff_cooked(self, needs: list[int], t: int) -> None:
        for need_id in needs:
            self.cooked_since[need_id] = t

    def _eff_add(self, stove: str, dish: int, t: int, need_id: int) -> None:
        c = self.cook[stove]
        if c.first_t is None:
            c.first_t = t
        c.count += 1
        b = c.open
        if b is None:
            b = c.open = Batch(dish, t, t, 1, c.count)
        else:
            b.last_t, b.n, b.cum = t, b.n + 1, c.count
        b.needs.append(need_id)

    def _eff_prepared(self, need_id: int, start: int, fresh: int | None) -> None:
        self.prepared.setdefault(need_id, (start, fresh))

    def _eff_unstage(self, need_id: int) -> None:
        del self.stage[need_id]

    def _eff_scoop(self, stove: str, ev: tuple) -> None:
        c = self.cook[stove]
        c.open = None
        c.last_scoop = ev

    def _eff_serve(self, ev: tuple) -> None:
        self.serves.append(ev)

    def _eff_dirty(self, ev: tuple) -> None:
        self.dirty_takes.append(ev)

    # -- calendars -----------------------------------------------------------------------
    def blocker(self, station: str, a: tuple, b: tuple) -> tuple | None:
        """End of an interval on the station overlapping [a, b] (OPEN if it never ends)."""
        for start, end, _ in self.cal.get(station, ()):
            if start < b and a < end:
                return end
        return None

    # -- reservations that keep the lowest unserved dish able to finish ---------------------
    def unplaced(self, dish_max: int, pred, exclude: int) -> bool:
        for d in range(dish_max + 1):
            for t in self.by_dish[d]:
                if t.kind == PREP and t.id in self.left and t.id != exclude and pred(t.need):
                    return True
        return False

    def may_open_batch(self, stove: str, dish: int) -> bool:
        kind = self.cook[stove].kind
        free = sum(1 for c in self.cook.values() if c.kind == kind and c.open is None) - 1
        need = 0
        for d in range(dish):
            has_open = any(c.open is not None and c.open.dish == d and c.kind == kind
                           for c in self.cook.values())
            if not has_open and any(t.kind == PREP and t.id in self.left and t.need.kind == kind
                                    for t in self.by_dish[d]):
                need += 1
        return free >= need

    def stageable(self, station: str) -> bool:
        """Whether some agent that can serve can also take a staged item from the station."""
        if not self.model.flexible:
            return True
        kind = frozenset((self.kinds[station],))
        return any(self.to_station[station][self.model.geo.agent_tiles[a]] < INF
                   and self.model.may_use(a, kind) for a in self.servers)

    def held_open(self, station: str) -> bool:
        return any(end == OPEN for _, end, _ in self.cal.get(station, ()))

    def may_stage_on_board(self, board: str, task: Task) -> bool:
        free = sum(1 for b in self.model.boards if b != board and not self.held_open(b))
        if free >= 1:
            return True
        return not self.unplaced(task.dish, lambda n: n.kind in ("chop", "pan"), task.id)

    def may_stage_on_dispenser(self, disp: str, task: Task) -> bool:
        item = task.need.item
        others = [d for d in self.model.dispensers[item] if d != disp and not self.held_open(d)]
        if others:
            return True
        return not self.unplaced(task.dish, lambda n: n.item == item, task.id)

    def may_stage_on_table(self, table: str) -> bool:
        """Keep a table free for every washed plate still to be put down."""
        free = sum(1 for t in self.model.tables if t != table and not self.held_open(t))
        parks = sum(1 for t in self.tasks if t.kind == WASH and t.id in self.left
                    and not self.holds_plate(t.dish))
        return free >= min(parks, 1)

    # -- preparing ingredients --------------------------------------------------------------
    def fresh(self, idx: int) -> Walker:
        return Walker(self, idx)

    def raw(self, task: Task, idx: int):
        need, dish = task.need, task.dish
        method = STAGE if self.holds_plate(dish) else self.method(need.id)
        found = False
        for disp in need.dispensers:
            if method == STAGE and self.stageable(disp) and self.may_stage_on_dispenser(disp, task):
                cand = self.attempt(self.raw_stage, task, idx, disp)
            elif dish in self.park:
                cand = self.attempt(self.raw_deliver, task, idx, disp)
            else:
                cand = None
            found = found or cand is not None
            yield cand
        if self.model.flexible and (method == STAGE or not found):
            for disp in need.dispensers:
                yield from self.table_stages(task, idx, disp, None)

    def chop(self, task: Task, idx: int):
        need, dish = task.need, task.dish
        method = STAGE if self.holds_plate(dish) else self.method(need.id)
        found = False
        for disp in need.dispensers:
            for board in self.model.boards:
                if method == STAGE and self.stageable(board) and self.may_stage_on_board(board, task):
                    cand = self.attempt(self.chop_on_board, task, idx, disp, board, "stage")
                elif dish in self.park:
                    cand = self.attempt(self.chop_on_board, task, idx, disp, board, "deliver")
                else:
                    cand = None
                found = found or cand is not None
                yield cand
        if self.model.flexible and (method == STAGE or not found):
            for disp in need.dispensers:
                for board in self.model.boards:
                    yield from self.table_stages(task, idx, disp, board)

    def table_stages(self, task: Task, idx: int, disp: str, board: str | None):
        for table in self.model.tables:
            if self.stageable(table) and self.may_stage_on_table(table):
                yield self.attempt(self.carry_stage, task, idx, disp, board, table)

    def raw_stage(self, task: Task, idx: int, disp: str):
        """Take the ingredient and put it straight back on the dispenser's top for the plate."""
        need_id = task.need.id
        bump = None
        while True:
            w = self.fresh(idx)
            t_min = max(self.release.get(need_id, 0), bump[0] if bump else 0)
            ev = w.at(disp, disp, t_min, (bump,) if bump else ())
            put = w.at(disp, None)
            end = self.blocker(disp, ev, OPEN)
            if end is None:
                break
            if end == OPEN:
                return None
            bump = end
        return ((w.t,), w, [("cal", disp, ev, OPEN, ("stage", need_id)), ("stage", need_id, disp, put),
                            ("prepared", need_id, ev[0], None)])

    def fetch(self, idx: int, disp: str, nxt: str | None, need_id: int) -> tuple[Walker, tuple] | None:
        """Walk to a dispenser and take a new ingredient when its top is empty (and not before
        the ingredient's release time, if a repair set one)."""
        bump = None
        release = self.release.get(need_id, 0)
        while True:
            w = self.fresh(idx)
            ev = w.at(disp, nxt, max(release, bump[0] if bump else 0), (bump,) if bump else ())
            end = self.blocker(disp, ev, ev)
            if end is None:
                return w, ev
            if end == OPEN:
                return None
            bump = end

    def raw_deliver(self, task: Task, idx: int, disp: str):
        spot, park_ev = self.park[task.dish]
        got = self.fetch(idx, disp, spot, task.need.id)
        if got is None:
            return None
        w, ev = got
        put = w.at(spot, None, 0, (park_ev,))
        return ((w.t,), w, [("cal", disp, ev, ev, ("take",)), ("deliver", task.dish, put),
                            ("prepared", task.need.id, ev[0], None)])

    def chop_steps(self, idx: int, disp: str, board: str, nxt_after: str | None, keep: bool,
                   need_id: int) -> tuple[Walker, tuple, tuple, tuple, list[tuple]] | None:
        """Fetch, put on the board, chop; take it back unless `keep`. Returns the walker, the put
        event, the chop's end event, the board's release event (OPEN when kept) and effects."""
        got = self.fetch(idx, disp, board, need_id)
        if got is None:
            return None
        start, ev = got
        bump = None
        while True:
            w = start.clone()
            put = w.at(board, board, bump[0] if bump else 0, (bump,) if bump else ())
            chopped = w.at(board, None if keep else board, 0, (), "Process", CHOP)
            release = OPEN if keep else w.at(board, nxt_after)
            end = self.blocker(board, put, release)
            if end is None:
                break
            if end == OPEN:
                return None
            bump = end
        effects = [("cal", disp, ev, ev, ("take",)), ("prepared", need_id, ev[0], chopped[0])]
        if not keep:
            effects.append(("cal", board, put, release, ("chop",)))
        return w, put, chopped, release, effects

    def chop_on_board(self, task: Task, idx: int, disp: str, board: str, how: str):
        need_id = task.need.id
        if how == "stage":
            got = self.chop_steps(idx, disp, board, None, True, need_id)
            if got is None:
                return None
            w, put, chopped, _, effects = got
            return ((w.t,), w, effects + [("cal", board, put, OPEN, ("stage", need_id)),
                                          ("stage", need_id, board, chopped)])
        spot, park_ev = self.park[task.dish]
        got = self.chop_steps(idx, disp, board, spot, False, need_id)
        if got is None:
            return None
        w, _, _, _, effects = got
        ev = w.at(spot, None, 0, (park_ev,))
        return ((w.t,), w, effects + [("deliver", task.dish, ev)])

    def carry_stage(self, task: Task, idx: int, disp: str, board: str | None, table: str):
        """Leave the ingredient (chopped first if `board`) on a free table for the plate, or
        for the agent who takes it on to the stove."""
        need_id = task.need.id
        if board is None:
            got = self.fetch(idx, disp, table, need_id)
            if got is None:
                return None
            start, ev = got
            effects = [("cal", disp, ev, ev, ("take",)), ("prepared", need_id, ev[0], None)]
        else:
            got = self.chop_steps(idx, disp, board, table, False, need_id)
            if got is None:
                return None
            start, effects = got[0], got[4]
        bump = None
        while True:
            w = start.clone()
            ev = w.at(table, None, bump[0] if bump else 0, (bump,) if bump else ())
            end = self.blocker(table, ev, OPEN)
            if end is None:
                break
            if end == OPEN:
                return None
            bump = end
        return ((w.t,), w, effects + [("cal", table, ev, OPEN, ("stage", need_id)),
                                      ("stage", need_id, table, ev)])

    def stoves_for(self, need, dish: int) -> list[str]:
        """Cookware this ingredient may go into now: its dish's open batch, or a free one."""
        out = []
        for stove in self.model.cookware[need.kind]:
            c = self.cook[stove]
            if c.open is not None and c.open.dish != dish:
                continue
            if c.open is None and not self.may_open_batch(stove, dish):
                continue
            out.append(stove)
        return out

    def ready_after_add(self, stove: str, dish: int, t: int) -> int:
        c = self.cook[stove]
        b = c.open
        if b is None:
            probe = Cookware(c.kind, t if c.first_t is None else c.first_t)
            return probe.ready(Batch(dish, t, t, 1, c.count + 1), self.model.cumulative)
        probe = Cookware(c.kind, c.first_t)
        return probe.ready(Batch(dish, b.first_t, t, b.n + 1, c.count + 1), self.model.cumulative)

    def cooked(self, task: Task, idx: int):
        need, dish = task.need, task.dish
        if self.relayed(need.id):
            boards = self.model.boards if need.kind == "pan" else [None]
            for disp in need.dispensers:
                for board in boards:
                    for table in self.model.tables:
                        if self.may_stage_on_table(table):
                            yield self.attempt(self.carry_stage, task, idx, disp, board, table)
            return
        for stove in self.stoves_for(need, dish):
            for disp in need.dispensers:
                boards = self.model.boards if need.kind == "pan" else [None]
                for board in boards:
                    cand = self.attempt(self.cook_steps, task, idx, disp, board, stove)
                    if cand is None:
                        continue
                    w, add, effects = cand
                    ready = self.ready_after_add(stove, dish, add[0])
                    yield ((ready, w.t), w, effects + [("add", stove, dish, add[0], need.id)])

    def cook_steps(self, task: Task, idx: int, disp: str, board: str | None, stove: str):
        c = self.cook[stove]
        after = c.last_scoop if c.open is None else None
        need_id = task.need.id
        if board is None:
            got = self.fetch(idx, disp, stove, need_id)
            if got is None:
                return None
            w, ev = got
            effects = [("cal", disp, ev, ev, ("take",)), ("prepared", need_id, ev[0], None)]
        else:
            got = self.chop_steps(idx, disp, board, stove, False, need_id)
            if got is None:
                return None
            w, effects = got[0], got[4]
        add = w.at(stove, None, after[0] if after else 0, (after,) if after else ())
        return w, add, effects

    def relay(self, task: Task, idx: int):
        """Take a staged ingredient from its table to a pot or pan."""
        need, dish = task.need, task.dish
        table, ev = self.stage[need.id]
        for stove in self.stoves_for(need, dish):
            cand = self.attempt(self.relay_steps, idx, table, ev, stove)
            if cand is None:
                continue
            w, take, add = cand
            ready = self.ready_after_add(stove, dish, add[0])
            yield ((ready, w.t), w, [("close", table, ("stage", need.id), take), ("unstage", need.id),
                                     ("add", stove, dish, add[0], need.id)])

    def relay_steps(self, idx: int, table: str, ev: tuple, stove: str):
        c = self.cook[stove]
        after = (c.last_scoop,) if c.open is None else ()
        w = self.fresh(idx)
        take = w.at(table, stove, 0, (ev,))
        add = w.at(stove, None, after[0][0] if after else 0, after)
        return w, take, add

    # -- plates ---------------------------------------------------------------------------
    def move_plate(self, task: Task, idx: int):
        """Carry the dish's plate to another table (one that the agents bringing pans reach)."""
        dish = task.dish
        spot, park_ev = self.park[dish]
        cooks = [a for a in range(len(self.agents)) if self.model.may_use(a, frozenset(("stove",)))]
        for table in self.model.tables:
            if table == spot:
                continue
            w = self.fresh(idx)
            try:
                take = w.at(spot, table, 0, (park_ev,))
                put = w.at(table, None)
            except Infeasible:
                continue
            if self.blocker(table, put, OPEN) is not None:
                continue
            near = min((self.to_station[table][self.model.geo.agent_tiles[a]] for a in cooks), default=INF)
            score = (w.t + (0 if near < INF else INF),)
            yield (score, w, [("close", spot, self.park_tag[dish], take),
                              ("cal", table, put, OPEN, ("park", dish)), ("park", dish, table, put)])

    def bring(self, task: Task, idx: int):
        """Carry each cooked pan or pot of the dish to its plate, empty it there, put it back."""
        dish = task.dish
        stoves = [s for s, c in self.cook.items() if c.open is not None and c.open.dish == dish]
        for order in permutations(stoves):
            cand = self.attempt(self.bring_route, dish, idx, order)
            if cand is not None:
                yield cand

    def bring_route(self, dish: int, idx: int, stoves: tuple):
        spot, park_ev = self.park[dish]
        w = self.fresh(idx)
        effects: list[tuple] = []
        burn = self.model.burn_after
        for stove in stoves:
            c = self.cook[stove]
            ready = c.ready(c.open, self.model.cumulative)
            got = w.at(stove, spot, ready)
            if burn is not None and got[0] > ready + burn:
                return None
            pour = w.at(spot, stove, 0, (park_ev,))
            back = w.at(stove, None)
            effects += [("deliver", dish, pour), ("cooked", list(c.open.needs), ready),
                        ("scoop", stove, back)]
        return ((w.t,), w, effects)

    def wash_steps(self, idx: int, dish: int, nxt: str) -> tuple[Walker, list[tuple]] | None:
        """Take the dish's dirty plate and wash it; the walker ends holding the clean plate."""
        m = self.model
        k = dish - self.plates  # this dish washes the k-th dirty plate to come back
        due = self.serves[k][0] + RETURN_DELAY
        prev = (self.dirty_takes[k - 1],) if k > 0 else ()
        best = None
        for sink in m.sinks:
            bump = None
            while True:
                w = self.fresh(idx)
                try:
                    take = w.at(m.plate_return, sink, due, prev)
                except Infeasible:
                    w = None
                    break
                put = w.at(sink, sink, bump[0] if bump else 0, (bump,) if bump else ())
                w.at(sink, sink, 0, (), "Process", WASH_TIME)
                got = w.at(sink, nxt)
                end = self.blocker(sink, put, got)
                if end is None:
                    break
                if end == OPEN:
                    w = None
                    break
                bump = end
            if w is not None and (best is None or w.t < best[0].t):
                best = (w, [("dirty", take), ("cal", sink, put, got, ("wash", dish))])
        return best

    def wash(self, task: Task, idx: int):
        dish = task.dish
        window = self.model.windows[0]
        for table in self.model.tables:
            got = self.attempt(self.wash_steps, idx, dish, table)
            if got is None:
                return
            w, effects = got
            ev = w.at(table, None)
            if self.blocker(table, ev, OPEN) is not None:
                continue
            score = (w.t + self.to_station[window][w.tile], w.t)
            yield (score, w, effects + [("cal", table, ev, OPEN, ("park", dish)),
                                        ("park", dish, table, ev)])

    def assemble(self, task: Task, idx: int):
        dish = task.dish
        stops: list[tuple] = []  # (station, kind, dep event or ready time, need id or stove)
        cumulative = self.model.cumulative
        for t in self.by_dish[dish]:
            if t.kind == PREP and t.need.id in self.stage:
                station, ev = self.stage[t.need.id]
                stops.append((station, "stage", ev, t.need.id))
        for stove, c in self.cook.items():
            if c.open is not None and c.open.dish == dish:
                stops.append((stove, "scoop", c.ready(c.open, cumulative), stove))
        deliveries = tuple(self.delivered.get(dish, ()))
        prev_serve = self.serves[dish - 1] if dish > 0 else None
        orders = list(permutations(stops)) if len(stops) <= 4 else [tuple(stops)]
        for window in self.model.windows:
            for order in orders:
                cand = self.attempt(self.assemble_route, dish, idx, order, deliveries, prev_serve, window)
                if cand is not None:
                    yield cand

    def delay(self, late: dict[int, int], need_id: int, by: int) -> None:
        """Ask for the ingredient's preparation to start `by` later than it did."""
        start = self.prepared[need_id][0]
        late[need_id] = max(late.get(need_id, 0), start + by)

    def assemble_route(self, dish: int, idx: int, stops: tuple, deliveries: tuple,
                       prev_serve: tuple | None, window: str):
        effects: list[tuple] = []
        first = stops[0][0] if stops else window
        if self.holds_plate(dish):
            got = self.wash_steps(idx, dish, first)
            if got is None:
                return None
            w, effects = got
        else:
            w = self.fresh(idx)
            spot, park_ev = self.park[dish]
            take = w.at(spot, first, 0, deliveries + (park_ev,))
            effects.append(("close", spot, self.park_tag[dish], take))
        burn = self.model.burn_after
        late: dict[int, int] = {}
        fresh: dict[int, int] = {}
        for i, (station, kind, dep, ref) in enumerate(stops):
            nxt = stops[i + 1][0] if i + 1 < len(stops) else window
            if kind == "stage":
                ev = w.at(station, nxt, 0, (dep,))
                effects.append(("close", station, ("stage", ref), ev))
            else:
                ev = w.at(station, nxt, dep)
                batch = self.cook[station].open
                for need_id in batch.needs:
                    fresh[need_id] = dep  # cooked on the first tick at or after `dep`
                if burn is not None and ev[0] > dep + burn:
                    for need_id in batch.needs:
                        self.delay(late, need_id, ev[0] - dep - burn)
                effects.append(("scoop", station, ev))
        ev = w.at(window, None, 1, (prev_serve,) if prev_serve else ())
        within = self.model.serve_within
        if within is not None:
            for need in self.model.dish_needs[dish]:
                since = self.prepared.get(need.id, (0, None))[1]
                if since is None:
                    since = fresh.get(need.id, self.cooked_since.get(need.id))
                if since is not None and ev[0] - since > within:
                    self.delay(late, need.id, ev[0] - since - within)
        if late:
            self.late_options.append(late)
            return None
        effects.append(("serve", ev))
        return ((ev[0], w.moving), w, effects)
