"""Turn a genome into a timed schedule: list scheduling with the engine's exact timing.

Tasks are taken in priority order once their predecessors are placed; each goes to the agent
(and board, stove, dispenser, table) that finishes it best, timed by `timing.Walker`; for food
that cooks, "best" is, as the genome says, the earliest its dish could reach a window from the
stove, or the earliest it is ready. Stations
keep calendars of who holds what when; a few reservations keep the lowest unserved dish able to
finish, so a genome decodes to a deadlock only rarely (and then scores as infeasible).

The steps of each kind of task live in the step classes `PrepSteps`, `PlateSteps` and
`WareMoves`; what they may ask of the decoder, and what it asks of them, is `contract`."""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable

from ..model import INF, KitchenModel
from .contract import Option
from .plate_steps import PlateSteps
from .prep_steps import PrepSteps
from .tasks import (
    BRING,
    DELIVER,
    FILL,
    HAND,
    HOLD,
    MOVE,
    PASS,
    PREP,
    RELAY,
    WASH,
    Genome,
    Task,
    bring_key,
    fill_key,
    hand_key,
    move_key,
    serve_key,
    wash_key,
)
from .timing import EV0, OPEN, AgentClock, Batch, Cookware, Infeasible, Op, Schedule, Walker
from .ware_moves import WareMoves

MAX_REPAIRS = 8  # decodes of one genome that delay ingredients prepared too early


class Decoder(PrepSteps, PlateSteps, WareMoves):
    def __init__(self, model: KitchenModel, tasks: list[Task]):
        self.model = model
        self.tasks = tasks
        geo = model.geo
        self.dist = geo.dist
        self.to_station = geo.to_station
        self.stand = geo.stand
        self.sides: dict[tuple, int] = {}  # (tile, station, nxt) -> `pick` when nobody waits
        self.work = 0  # ways of doing a task weighed, all decodes together: see `best_way`
        self.serve_walks: dict[str, int] = {}
        self.plates = len(model.plates)
        self.restricted = any(a is not None for a in model.allowed)
        self.kinds = {s.name: s.kind for s in model.level.stations}
        window = frozenset(("serving_window",))
        self.servers = [
            a
            for a, tile in enumerate(model.geo.agent_tiles)
            if model.may_use(a, window) and any(self.to_station[w][tile] < INF for w in model.windows)
        ]
        # who may put a dish's plate on a table, and who may take it from there to a window
        table = frozenset(("table",))
        self.takers = [a for a in self.servers if model.may_use(a, table | window)]
        self.putters = {a for a in range(len(model.agent_names)) if model.may_use(a, table)}
        pan_work = frozenset(("stove", "chopping_board"))  # who may bring a pan to a board
        self.pan_carriers = [a for a in range(len(model.agent_names)) if model.may_use(a, pan_work)]
        self._pass_tables: dict[tuple[int, str], list[str]] = {}
        self._nearest: dict[tuple[str, str], list[str]] = {}
        self.cooked_kinds = {n.kind for n in model.needs if n.kind in model.cookware}
        chop_work = frozenset(("table", "chopping_board"))  # who may take raw food to a board
        self.chop_takers = [a for a in range(len(model.agent_names)) if model.may_use(a, chop_work)]
        self._hand_tables: dict[tuple[int, int], list[str]] = {}
        self._stageable: dict[str, bool] = {}
        # effect name -> the method applying it (`commit`)
        self._effects = {
            n.removeprefix("effect_"): getattr(self, n) for n in dir(self) if n.startswith("effect_")
        }
        self.washes = [t for t in tasks if t.kind == WASH]
        self.by_dish: list[list[Task]] = [[] for _ in range(model.dishes)]
        for t in tasks:
            self.by_dish[t.dish].append(t)

    # -- geometry --------------------------------------------------------------------
    def pick(self, tile: int, station: str, nxt: str | None, t: int = 0, ready: int = 0) -> int:
        """The side of the station to act from, leaving at t from `tile` for an action allowed
        from `ready` on: the one after which `nxt` is reached soonest. An agent that would wait
        there anyway may as well walk round to the side nearer `nxt` (a far side of a table)."""
        # to_station[station][tile] is the least walk from `tile` to a side of the station
        if ready > t and ready > t + self.to_station[station][tile]:
            row = self.dist[tile]
            after = self.to_station[nxt] if nxt else None
            return min(
                self.stand[station],
                key=lambda u: (max(t + row[u], ready) + (after[u] if after else 0), row[u], u),
            )
        key = (tile, station, nxt)
        best = self.sides.get(key)
        if best is None:
            row = self.dist[tile]
            after = self.to_station[nxt] if nxt else None
            best = min(self.stand[station], key=lambda u: (row[u] + (after[u] if after else 0), row[u], u))
            self.sides[key] = best
        return best

    # -- state -------------------------------------------------------------------------
    def reset(self, genome: Genome, release: dict[int, int] | None = None) -> None:
        m = self.model
        self.genome = genome
        self.release = release or {}
        self.late: dict[int, int] = {}  # need id -> start time that would make its dish in time
        self.prepared: dict[int, tuple[int, int | None]] = {}  # need id -> (start, fresh since)
        self.agents = [AgentClock(tile) for tile in m.geo.agent_tiles]
        self.events: list[int] = []  # the engine events of the schedule so far, in time order
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

    def nearest(self, key: tuple[str, str], station: str, spots, n: int) -> list[str]:
        """The n spots nearest the station that an agent can stand beside; cached by `key`."""
        got = self._nearest.get(key)
        if got is None:
            near = self.model.geo.station_distance
            ranked = sorted((near(station, s), s) for s in spots if self.stand.get(s))
            got = self._nearest[key] = [s for d, s in ranked[:n] if d < INF]
        return got

    def on(self, stove: str) -> str:
        """The stove the cookware that starts on `stove` stands on now."""
        return self.cook[stove].at or stove

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
        # what would end after the last serve serves nothing, and under `paracook` the engine's
        # OCT runs to the last action (putting a pan back after the last dish, say): leave it out
        end = self.serves[-1][0] if self.serves else 0
        ops = [[op for op in a.ops if op.t + op.dur <= end] for a in self.agents]
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
        return (
            self.model.flexible
            and not self.holds_plate(dish)
            and self.genome.method.get(move_key(dish)) == MOVE
        )

    def brings(self, dish: int) -> bool:
        return (
            self.model.flexible
            and not self.holds_plate(dish)
            and self.genome.method.get(bring_key(dish)) == BRING
        )

    def passes(self, dish: int) -> bool:
        return self.genome.method.get(serve_key(dish)) == PASS

    def fills(self, need_id: int) -> bool:
        return self.genome.method.get(fill_key(need_id)) == FILL

    def hands(self, need_id: int) -> bool:
        return self.genome.method.get(hand_key(need_id)) == HAND

    def choppers(self, idx: int) -> list[int]:
        """The agents that may take what this one puts on a table raw to a board."""
        return [a for a in self.chop_takers if a != idx] if idx in self.putters else []

    def reaches(self, a: int, station: str) -> bool:
        """Whether agent a can walk next to the station from where it starts."""
        return self.to_station[station][self.model.geo.agent_tiles[a]] < INF

    def hand_tables(self, idx: int, j: int) -> list[str]:
        """The tables both agents can reach from where they start; cached."""
        got = self._hand_tables.get((idx, j))
        if got is None:
            got = self._hand_tables[(idx, j)] = [
                t for t in self.model.tables if self.reaches(idx, t) and self.reaches(j, t)
            ]
        return got

    def fillers(self, idx: int) -> list[int]:
        """The agents that may bring a pan to the board this one chops on."""
        return [a for a in self.pan_carriers if a != idx]

    def partners(self, idx: int) -> list[int]:
        """The agents that may take a plate this one hands over on a table."""
        return [a for a in self.takers if a != idx] if idx in self.putters else []

    def pass_tables(self, tile: int, window: str) -> list[str]:
        """Up to two tables, best first, over which a plate held on `tile` reaches the window
        sooner than by walking round (a hand-over); cached."""
        key = (tile, window)
        got = self._pass_tables.get(key)
        if got is None:
            row, to_window = self.dist[tile], self.to_station[window]
            direct = to_window[tile]
            ways = []
            for table in self.model.tables:
                sides = self.stand[table]
                if not sides:
                    continue
                via = min(row[u] for u in sides) + min(to_window[u] for u in sides)
                if via < direct:
                    ways.append((via, table))
            got = self._pass_tables[key] = [t for _, t in sorted(ways)[:2]]
        return got

    def dish_task(self, dish: int, kind: str) -> Task:
        return next(t for t in self.by_dish[dish] if t.kind == kind)

    def relayed(self, need_id: int) -> bool:
        """Whether a cooked ingredient goes over a table to the agent who puts it in (a raw one
        handed over to be chopped, `hands`, goes in with its chopper instead)."""
        return self.model.flexible and self.genome.method.get(need_id) == RELAY and not self.hands(need_id)

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
        best = self.best_way(task, self.agents_for(task))
        if best is None and self.genome.agent[task.id] is not None:
            best = self.best_way(task, range(len(self.agents)))
        if best is None:
            if self.late_options:  # every way was too late: ask for the least delay
                self.late = min(self.late_options, key=lambda d: max(d.values()))
            return False
        self.commit(best[1], best[2])
        return True

    def best_way(self, task: Task, agents: Iterable[int]) -> Option | None:
        """The soonest way these agents have of doing the task. Each way weighed counts one unit
        of `work`: what a decode costs grows with it (walks timed, stations checked), so the
        search's budget is set in it, a measure of effort the same on every machine."""
        best = None
        for idx in agents:
            for cand in self.candidates(task, idx):
                self.work += 1
                if cand is not None and (best is None or cand[0] < best[0]):
                    if self.restricted and not self.allowed(idx, cand[1]):
                        continue
                    best = cand
        return best

    def allowed(self, idx: int, w: Walker) -> bool:
        kinds = frozenset(self.kinds[op[3]] for op in w.ops)  # op[3]: Op.station
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
        self.effect_partner(w)
        apply = self._effects
        for eff in effects:
            apply[eff[0]](*eff[1:])

    def effect_partner(self, w: Walker) -> None:
        """The walker's agent does what it tried out (a task's own agent, or a partner's)."""
        a = self.agents[w.idx]
        a.tile, a.t, a.s, a.seq = w.tile, w.t, w.s, w.seq
        ops = [Op(*op) for op in w.ops]
        a.ops.extend(ops)
        for op in ops:
            insort(self.events, op.t)
            if op.dur:
                insort(self.events, op.t + op.dur)

    def effect_cal(self, station: str, start: tuple, end: tuple, tag: tuple) -> None:
        self.cal.setdefault(station, []).append([start, end, tag])

    def effect_close(self, station: str, tag: tuple, end: tuple) -> None:
        for iv in self.cal[station]:
            if iv[2] == tag:
                iv[1] = end
                return
        raise AssertionError(f"no open interval {tag} on {station}")

    def effect_stage(self, need_id: int, station: str, ev: tuple) -> None:
        self.stage[need_id] = (station, ev)

    def effect_deliver(self, dish: int, ev: tuple) -> None:
        self.delivered.setdefault(dish, []).append(ev)

    def effect_park(self, dish: int, station: str, ev: tuple) -> None:
        self.park[dish] = (station, ev)
        self.park_tag[dish] = ("park", dish)

    def effect_cooked(self, needs: list[int], t: int) -> None:
        for need_id in needs:
            self.cooked_since[need_id] = t

    def effect_add(self, stove: str, dish: int, t: int, need_id: int) -> None:
        c = self.cook[stove]
        c.add(t, self.events)
        b = c.open
        if b is None:
            b = c.open = Batch(dish, t, c.count)
        else:  # tasks are placed out of time order: keep the latest
            b.last_t, b.cum = max(b.last_t, t), c.count
        b.needs.append(need_id)

    def effect_prepared(self, need_id: int, start: int, fresh: int | None) -> None:
        self.prepared.setdefault(need_id, (start, fresh))

    def effect_unstage(self, need_id: int) -> None:
        del self.stage[need_id]

    def effect_placed(self, stove: str, ev: tuple) -> None:
        """The cookware, filled away from its stove, stands on it again: its batch is noticed
        done only from then on."""
        c = self.cook[stove]
        c.placed = ev
        c.place(ev[0])
        c.open.last_t = max(c.open.last_t, ev[0])

    def effect_scoop(self, stove: str, ev: tuple) -> None:
        c = self.cook[stove]
        c.open = None
        c.last_scoop = ev
        if not self.model.cumulative:  # emptied cookware starts afresh
            c.reset()

    def effect_serve(self, ev: tuple) -> None:
        self.serves.append(ev)

    def effect_dirty(self, ev: tuple) -> None:
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
        free = sum(1 for c in self.cook.values() if c.kind == kind and c.open is None and not c.retired) - 1
        opened = {c.open.dish for c in self.cook.values() if c.open is not None and c.kind == kind}
        need = 0
        for d in range(dish):
            if d not in opened and any(
                t.kind == PREP and t.id in self.left and t.need.kind == kind for t in self.by_dish[d]
            ):
                need += 1
        return free >= need

    def stageable(self, station: str) -> bool:
        """Whether some agent that can serve can also take a staged item from the station
        (fixed for the kitchen: cached)."""
        got = self._stageable.get(station)
        if got is None:
            got = self._stageable[station] = self._may_take_staged(station)
        return got

    def _may_take_staged(self, station: str) -> bool:
        if not self.model.flexible:
            return True
        kind = frozenset((self.kinds[station],))
        return any(
            self.to_station[station][self.model.geo.agent_tiles[a]] < INF and self.model.may_use(a, kind)
            for a in self.servers
        )

    def held_open(self, station: str) -> bool:
        for iv in self.cal.get(station, ()):
            if iv[1] == OPEN:
                return True
        return False

    def may_stage_on_board(self, board: str, task: Task) -> bool:
        if any(b != board and not self.held_open(b) for b in self.model.boards):
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
        parks = any(t.id in self.left and not self.holds_plate(t.dish) for t in self.washes)
        return not parks or any(t != table and not self.held_open(t) for t in self.model.tables)
