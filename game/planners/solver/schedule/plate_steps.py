"""How one agent can handle plates: move one, bring a pan to it, wash one, assemble and serve a
dish (mixed into the Decoder)."""

from __future__ import annotations

from itertools import permutations

from game.engine.kitchen import RETURN_DELAY, WASH_TIME

from ..model import INF
from .contract import StepBase
from .tasks import PREP, Task
from .timing import OPEN, Infeasible, Walker

MAX_PERMUTED_STOPS = 4  # up to 4! routes through the stops of one dish are tried


class PlateSteps(StepBase):
    # -- plates ---------------------------------------------------------------------------
    def move_plate(self, task: Task, idx: int):
        """Carry the dish's plate to another table (one that the agents bringing pans reach)."""
        dish = task.dish
        spot, park_ev = self.park[dish]
        cooks = [a for a in range(len(self.agents)) if self.model.may_use(a, frozenset(("stove",)))]
        after = (park_ev, *self.delivered.get(dish, ()))  # food already on it goes along
        for table in self.model.tables:
            if table == spot:
                continue
            w = self.fresh(idx)
            try:
                take = w.at(spot, table, 0, after)
                put = w.at(table, None)
            except Infeasible:
                continue
            if self.blocker(table, put, OPEN) is not None:
                continue
            near = min((self.to_station[table][self.model.geo.agent_tiles[a]] for a in cooks), default=INF)
            score = (w.t + (0 if near < INF else INF),)
            yield (
                score,
                w,
                [
                    ("close", spot, self.park_tag[dish], take),
                    ("cal", table, put, OPEN, ("park", dish)),
                    ("park", dish, table, put),
                ],
            )

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
            ready = c.ready(c.open)
            on = self.on(stove)
            got = w.at(on, spot, ready)
            if burn is not None and got[0] > ready + burn:
                return None
            pour = w.at(spot, on, 0, (park_ev,))
            back = w.at(on, None)
            effects += [
                ("deliver", dish, pour),
                ("cooked", list(c.open.needs), ready),
                ("scoop", stove, back),
            ]
        return ((w.t,), w, effects)

    def wash_steps(self, idx: int, dish: int, nxt: str) -> tuple[Walker, list[tuple]] | None:
        """Take the dish's dirty plate and wash it; the walker ends holding the clean plate."""
        best = None
        for sink in self.model.sinks:
            try:
                start, take = self.take_dirty(idx, dish, sink)
            except Infeasible:
                continue
            got = self.sink_steps(start, dish, sink, nxt)
            if got is not None and (best is None or got[0].t < best[0].t):
                best = (got[0], [("dirty", take), got[1]])
        return best

    def take_dirty(self, idx: int, dish: int, nxt: str) -> tuple[Walker, tuple]:
        """The agent takes the dish's dirty plate from the return as soon as it is back."""
        k = dish - self.plates  # this dish washes the k-th dirty plate to come back
        due = self.serves[k][0] + RETURN_DELAY
        prev = (self.dirty_takes[k - 1],) if k > 0 else ()
        w = self.fresh(idx)
        return w, w.at(self.model.plate_return, nxt, due, prev)

    def sink_steps(self, start: Walker, dish: int, sink: str, nxt: str | None) -> tuple[Walker, tuple] | None:
        """The walker, holding a dirty plate, washes it at the sink once that is free: the walker
        holding the clean plate and the sink's calendar entry, or None."""
        bump = None
        while True:
            w = start.clone()
            put = w.at(sink, sink, bump[0] if bump else 0, (bump,) if bump else ())
            w.at(sink, sink, 0, (), "Process", WASH_TIME)
            got = w.at(sink, nxt)
            end = self.blocker(sink, put, got)
            if end is None:
                return w, ("cal", sink, put, got, ("wash", dish))
            if end == OPEN:
                return None
            bump = end

    def wash(self, task: Task, idx: int):
        dish = task.dish
        if not self.washes_alone(idx):
            yield from self.wash_handed(task, idx)
            return
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
            yield (score, w, effects + [("cal", table, ev, OPEN, ("park", dish)), ("park", dish, table, ev)])

    def washes_alone(self, idx: int) -> bool:
        """Whether the agent reaches both the plate return and a sink from where it starts."""
        m = self.model
        return self.reaches(idx, m.plate_return) and any(self.reaches(idx, s) for s in m.sinks)

    def wash_handed(self, task: Task, idx: int):
        """The dirty plate taken from the return by one agent and put on a table, where another
        takes it to a sink, washes it and puts it on a table for the dish (walled kitchens)."""
        window = self.model.windows[0]
        for j in range(len(self.agents)):
            if j == idx or not self.washes_from_table(j):
                continue
            for table in self.hand_tables(idx, j):
                for sink in self.model.sinks:
                    got = self.attempt(self.wash_over, idx, j, task.dish, table, sink)
                    if got is None:
                        continue
                    w, other, effects = got
                    for spot in self.model.tables:
                        park = other.clone()
                        ev = self.attempt(park.at, spot, None)
                        if ev is None or self.blocker(spot, ev, OPEN) is not None:
                            continue
                        score = (park.t + self.to_station[window][park.tile], park.t)
                        yield (
                            score,
                            w,
                            effects
                            + [
                                ("partner", park),
                                ("cal", spot, ev, OPEN, ("park", task.dish)),
                                ("park", task.dish, spot, ev),
                            ],
                        )

    def washes_from_table(self, j: int) -> bool:
        may = self.model.may_use(j, frozenset(("table", "sink")))
        return may and any(self.reaches(j, s) for s in self.model.sinks)

    def wash_over(self, idx: int, j: int, dish: int, table: str, sink: str):
        start, take = self.take_dirty(idx, dish, table)
        got = self.over_table(start, self.fresh(j), table, sink)
        if got is None:
            return None
        w, other, put, took = got
        washed = self.sink_steps(other, dish, sink, None)
        if washed is None:
            return None
        other, wash = washed
        return w, other, [("dirty", take), ("cal", table, put, took, ("hand", dish)), wash]

    def assemble(self, task: Task, idx: int):
        dish = task.dish
        stops: list[tuple] = []  # (station, kind, dep event or ready time, need id or stove)
        for t in self.by_dish[dish]:
            if t.kind == PREP and t.need.id in self.stage:
                station, ev = self.stage[t.need.id]
                stops.append((station, "stage", ev, t.need.id))
        for stove, c in self.cook.items():
            if c.open is not None and c.open.dish == dish:
                stops.append((self.on(stove), "scoop", c.ready(c.open), stove))
        deliveries = tuple(self.delivered.get(dish, ()))
        prev_serve = self.serves[dish - 1] if dish > 0 else None
        orders = list(permutations(stops)) if len(stops) <= MAX_PERMUTED_STOPS else [tuple(stops)]
        for window in self.model.windows:
            for order in orders:
                cand = self.attempt(self.assemble_route, dish, idx, order, deliveries, prev_serve, window)
                if cand is not None:
                    yield cand

    def delay(self, late: dict[int, int], need_id: int, by: int) -> None:
        """Ask for the ingredient's preparation to start `by` later than it did."""
        start = self.prepared[need_id][0]
        late[need_id] = max(late.get(need_id, 0), start + by)

    def assemble_route(
        self, dish: int, idx: int, stops: tuple, deliveries: tuple, prev_serve: tuple | None, window: str
    ):
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
                batch = self.cook[ref].open
                for need_id in batch.needs:
                    fresh[need_id] = dep  # cooked on the first tick at or after `dep`
                if burn is not None and ev[0] > dep + burn:
                    for need_id in batch.needs:
                        self.delay(late, need_id, ev[0] - dep - burn)
                effects.append(("scoop", ref, ev))
        w, ev, handed = self.serve_leg(dish, w, window, prev_serve)
        effects += handed
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
        moving = w.moving + sum(e[1].moving for e in handed if e[0] == "partner")
        return ((ev[0], moving), w, effects)

    def serve_leg(self, dish: int, w: Walker, window: str, prev_serve: tuple | None):
        """(the assembler's walker, the serve's event, effects beyond the assembler's): it serves
        the plate it holds, or, when the genome says PASS and that serves it sooner, puts it on a
        table from which another agent takes it to the window (the search weighs the other
        agent's time by flipping PASS back to SERVE)."""
        deps = (prev_serve,) if prev_serve else ()
        best = None
        direct = w.clone()
        try:
            best = (direct, direct.at(window, None, 1, deps), [])
        except Infeasible:  # the assembler cannot reach a window: only a hand-over can serve
            pass
        for table in self.pass_tables(w.tile, window) if self.passes(dish) else ():
            mine = w.clone()
            try:
                put = mine.at(table, None)
            except Infeasible:
                continue
            for j in self.partners(w.idx):
                other = self.fresh(j)
                try:
                    take = other.at(table, window, 0, (put,))
                    ev = other.at(window, None, 1, deps)
                except Infeasible:
                    continue
                if (best is None or ev[0] < best[1][0]) and self.blocker(table, put, take) is None:
                    best = (mine, ev, [("cal", table, put, take, ("pass", dish)), ("partner", other)])
        if best is None:
            raise Infeasible
        return best
