"""How one agent can prepare an ingredient: fetch, chop, put it on the plate, leave it out for
the plate, put it in a pot or pan, or hand it over on a table (mixed into the Decoder)."""

from __future__ import annotations

from .contract import StepBase
from .tasks import STAGE, Task
from .timing import CHOP, OPEN, Batch, Walker

FILL_SPOTS = 2  # surfaces near a dispenser tried for filling a pot there


class PrepSteps(StepBase):
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
        if self.hands(need.id) and (yield from self.any_of(self.hand_overs(task, idx, method))):
            return
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

    @staticmethod
    def any_of(cands):
        """Yield the candidates; return whether any of them is one (not None)."""
        found = False
        for cand in cands:
            found = found or cand is not None
            yield cand
        return found

    def hand_ways(self, task: Task, idx: int):
        """(partner, table, dispenser, board) for handing the ingredient over raw to be chopped."""
        for j in self.choppers(idx):
            for table in self.hand_tables(idx, j):
                for disp in task.need.dispensers:
                    for board in self.model.boards:
                        yield j, table, disp, board

    def hand_overs(self, task: Task, idx: int, method: str):
        """The ingredient put on a table raw for another agent, who chops it and leaves it on the
        board for the plate (`method` STAGE) or takes it to the parked plate."""
        for j, table, disp, board in self.hand_ways(task, idx):
            if method == STAGE and self.stageable(board) and self.may_stage_on_board(board, task):
                how = "stage"
            elif task.dish in self.park:
                how = "deliver"
            else:
                continue
            yield self.attempt(self.hand_chop, task, idx, j, disp, table, board, how)

    def hand_chop(self, task: Task, idx: int, j: int, disp: str, table: str, board: str, how: str):
        need_id, keep = task.need.id, how == "stage"
        spot, park_ev = (None, None) if keep else self.park[task.dish]
        got = self.handed_chop(idx, j, disp, table, board, spot, keep, need_id)
        if got is None:
            return None
        w, other, put_board, chopped, effects = got
        effects = effects + [("partner", other)]
        if keep:
            effects += [
                ("cal", board, put_board, OPEN, ("stage", need_id)),
                ("stage", need_id, board, chopped),
            ]
        else:
            effects.append(("deliver", task.dish, other.at(spot, None, 0, (park_ev,))))
        return ((max(w.t, other.t),), w, effects)

    def handed_chop(
        self, idx: int, j: int, disp: str, table: str, board: str, nxt: str | None, keep: bool, need_id: int
    ):
        """Agent idx hands the ingredient over the table to agent j, who chops it on the board:
        (idx's walker, j's walker, the put on the board, the chop's end, effects), or None."""
        got = self.hand_to(idx, j, disp, table, board, need_id)
        if got is None:
            return None
        w, other, taken, effects = got
        got = self.board_steps(other, taken, board, nxt, keep, need_id)
        if got is None:
            return None
        other, put_board, chopped, _, chop_effects = got
        return w, other, put_board, chopped, effects + chop_effects

    def hand_overs_to_cook(self, task: Task, idx: int):
        """The ingredient put on a table raw for another agent, who chops it and puts it in a
        pan."""
        for stove in self.stoves_for(task.need, task.dish):
            for j, table, disp, board in self.hand_ways(task, idx):
                cand = self.attempt(self.hand_cook, task, idx, j, disp, table, board, stove)
                if cand is None:
                    continue
                w, add, effects, end = cand
                ready = self.ready_after_add(stove, task.dish, add[0])
                yield (
                    (ready + self.serve_walk(stove), ready, end),
                    w,
                    effects + [("add", stove, task.dish, add[0], task.need.id)],
                )

    def hand_cook(self, task: Task, idx: int, j: int, disp: str, table: str, board: str, stove: str):
        need_id = task.need.id
        got = self.handed_chop(idx, j, disp, table, board, self.on(stove), False, need_id)
        if got is None:
            return None
        w, other, _, _, effects = got
        after = self.cook[stove].free_from()
        if self.reaches(j, self.on(stove)):
            add = other.at(self.on(stove), None, after[0], (after,))
            return w, add, effects + [("partner", other)], max(w.t, other.t)
        # the chopper cannot reach the stove: the chopped food goes over a table once more
        best = None
        for k in self.cookers(j):
            for back in self.hand_tables(j, k):
                taker = w if k == idx else self.fresh(k)
                got = self.attempt(self.over_table, other, taker, back, self.on(stove))
                if got is None:
                    continue
                chopper, cook, put, take = got
                add = self.attempt(cook.at, self.on(stove), None, after[0], (after,))
                if add is not None and (best is None or add < best[1]):
                    best = (chopper, add, cook, [("cal", back, put, take, ("hand", need_id))])
        if best is None:
            return None
        chopper, add, cook, passed = best
        if cook.idx == idx:  # the fetcher takes it back
            return cook, add, effects + passed + [("partner", chopper)], max(cook.t, chopper.t)
        return (
            w,
            add,
            effects + passed + [("partner", chopper), ("partner", cook)],
            max(w.t, cook.t, chopper.t),
        )

    def cookers(self, j: int) -> list[int]:
        """The agents other than j that may take chopped food from a table to a stove."""
        work = frozenset(("table", "stove"))
        pans = self.model.cookware.get("pan", ())
        return [
            k
            for k in range(len(self.agents))
            if k != j and self.model.may_use(k, work) and any(self.reaches(k, s) for s in pans)
        ]

    def hand_to(self, idx: int, j: int, disp: str, table: str, board: str, need_id: int):
        """Agent idx fetches the ingredient and puts it on the table, agent j takes it from there
        towards the board: (idx's walker, j's walker, (dispenser, take event), effects), or None."""
        got = self.fetch(idx, disp, table, need_id)
        if got is None:
            return None
        start, ev = got
        got = self.over_table(start, self.fresh(j), table, board)
        if got is None:
            return None
        w, other, put, take = got
        return w, other, (disp, ev), [("cal", table, put, take, ("hand", need_id))]

    def over_table(self, start: Walker, taker: Walker, table: str, toward: str):
        """The walker puts what it holds on the table once that is free, and the taker takes it
        from there (on its way to `toward`): (both walkers, the put and take events), or None."""
        bump = None
        while True:
            w = start.clone()
            put = w.at(table, None, bump[0] if bump else 0, (bump,) if bump else ())
            other = taker.clone()
            take = other.at(table, toward, 0, (put,))
            end = self.blocker(table, put, take)
            if end is None:
                return w, other, put, take
            if end == OPEN:
                return None
            bump = end

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
        return (
            (w.t,),
            w,
            [
                ("cal", disp, ev, OPEN, ("stage", need_id)),
                ("stage", need_id, disp, put),
                ("prepared", need_id, ev[0], None),
            ],
        )

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
        return (
            (w.t,),
            w,
            [
                ("cal", disp, ev, ev, ("take",)),
                ("deliver", task.dish, put),
                ("prepared", task.need.id, ev[0], None),
            ],
        )

    def chop_steps(
        self, idx: int, disp: str, board: str, nxt_after: str | None, keep: bool, need_id: int
    ) -> tuple[Walker, tuple, tuple, tuple, list[tuple]] | None:
        """Fetch, put on the board, chop; take it back unless `keep`. Returns the walker, the put
        event, the chop's end event, the board's release event (OPEN when kept) and effects."""
        got = self.fetch(idx, disp, board, need_id)
        if got is None:
            return None
        start, ev = got
        return self.board_steps(start, (disp, ev), board, nxt_after, keep, need_id)

    def board_steps(
        self, start: Walker, taken: tuple, board: str, nxt_after: str | None, keep: bool, need_id: int
    ) -> tuple[Walker, tuple, tuple, tuple, list[tuple]] | None:
        """`chop_steps` from when the walker holds the ingredient, `taken` as (dispenser, event)."""
        disp, ev = taken
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
            return (
                (w.t,),
                w,
                effects + [("cal", board, put, OPEN, ("stage", need_id)), ("stage", need_id, board, chopped)],
            )
        spot, park_ev = self.park[task.dish]
        got = self.chop_steps(idx, disp, board, spot, False, need_id)
        if got is None:
            return None
        w, _, _, _, effects = got
        ev = w.at(spot, None, 0, (park_ev,))
        return ((w.t,), w, effects + [("deliver", task.dish, ev)])

    def prepare(self, idx: int, disp: str, board: str | None, dest: str, need_id: int):
        """Fetch the ingredient (chopping it first when `board` is given) towards `dest`:
        the walker afterwards and the effects so far, or None when it cannot be done."""
        if board is None:
            got = self.fetch(idx, disp, dest, need_id)
            if got is None:
                return None
            w, ev = got
            return w, [("cal", disp, ev, ev, ("take",)), ("prepared", need_id, ev[0], None)]
        got = self.chop_steps(idx, disp, board, dest, False, need_id)
        return None if got is None else (got[0], got[4])

    def carry_stage(self, task: Task, idx: int, disp: str, board: str | None, table: str):
        """Leave the ingredient (chopped first if `board`) on a free table for the plate, or
        for the agent who takes it on to the stove."""
        need_id = task.need.id
        got = self.prepare(idx, disp, board, table, need_id)
        if got is None:
            return None
        start, effects = got
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
        return (
            (w.t,),
            w,
            effects + [("cal", table, ev, OPEN, ("stage", need_id)), ("stage", need_id, table, ev)],
        )

    def stoves_for(self, need, dish: int) -> list[str]:
        """Cookware this ingredient may go into now: its dish's open batch, or a free one."""
        out = []
        for stove in self.model.cookware[need.kind]:
            c = self.cook[stove]
            if c.retired or (c.open is not None and c.open.dish != dish):
                continue
            if c.open is None and not self.may_open_batch(stove, dish):
                continue
            out.append(stove)
        return out

    def serve_walk(self, stove: str, to: str | None = None) -> int:
        """The least walk from beside the cookware's stove (or `to`, where it is moved) to beside
        a window, the cooked food's last leg, when the genome chooses cookware by it (0
        otherwise)."""
        return self.window_walk(to or self.on(stove)) if self.genome.to_window else 0

    def window_walk(self, station: str) -> int:
        got = self.serve_walks.get(station)
        if got is None:
            got = min(
                (self.to_station[w][u] for w in self.model.windows for u in self.stand[station]), default=0
            )
            self.serve_walks[station] = got
        return got

    def ready_after_add(self, stove: str, dish: int, t: int) -> int:
        c = self.cook[stove]
        b = c.open
        batch = Batch(dish, t if b is None else max(b.last_t, t), c.count + 1)
        return c.probe(t, self.events).ready(batch)

    def cooked(self, task: Task, idx: int):
        need, dish = task.need, task.dish
        if need.kind == "pan" and self.hands(need.id):
            if (yield from self.any_of(self.hand_overs_to_cook(task, idx))):
                return
        if self.relayed(need.id):
            boards = self.model.boards if need.kind == "pan" else [None]
            for disp in need.dispensers:
                for board in boards:
                    for table in self.model.tables:
                        if self.may_stage_on_table(table):
                            yield self.attempt(self.carry_stage, task, idx, disp, board, table)
            return
        if need.kind == "pan" and self.fills(need.id):
            yield from self.fills_of(task, idx)
        if need.kind == "pot" and self.fills(need.id):
            yield from self.pot_fills(task, idx)
        for stove in self.stoves_for(need, dish):
            for disp in need.dispensers:
                boards = self.model.boards if need.kind == "pan" else [None]
                for board in boards:
                    cand = self.attempt(self.cook_steps, task, idx, disp, board, stove)
                    if cand is None:
                        continue
                    w, add, effects = cand
                    ready = self.ready_after_add(stove, dish, add[0])
                    yield (
                        (ready + self.serve_walk(stove), ready, w.t),
                        w,
                        effects + [("add", stove, dish, add[0], need.id)],
                    )

    def fills_of(self, task: Task, idx: int):
        """Chop the ingredient and leave it on the board while another agent brings an empty pan
        from its stove, fills it there and takes it back, or on to a stove nearer a window (see
        `ware_moves`): under `paracook` the pan cooks from the moment it is filled, on the way
        too."""
        need, dish = task.need, task.dish
        chops: dict[tuple[str, str], tuple | None] = {}  # the chop is the same for every pan
        for stove in self.fillable(need, dish):
            if self.cook[stove].open is not None:
                continue
            for to in self.destinations(stove):
                for disp in need.dispensers:
                    for board in self.model.boards:
                        if (disp, board) not in chops:
                            chops[disp, board] = self.attempt(
                                self.chop_steps, idx, disp, board, None, True, need.id
                            )
                        chopped = chops[disp, board]
                        if chopped is None:
                            continue
                        for j in self.fillers(idx):
                            yield self.attempt(self.fill_steps, task, chopped, j, board, stove, to)

    def fill_steps(self, task: Task, chopped_got: tuple, j: int, board: str, stove: str, to: str | None):
        need_id, c = task.need.id, self.cook[stove]
        w, put, chopped, _, effects = chopped_got
        other = self.fresh(j)
        on = self.on(stove)
        moved = self.clear_for(other, stove, to)
        if moved is None:
            return None
        dest = to or on
        after = c.free_from()
        lift = other.at(on, board, after[0], (after,))  # takes the empty pan
        fill = other.at(board, dest, 0, (chopped,))
        back = other.at(dest, None)
        added = fill[0] if self.model.cumulative else back[0]
        ready = max(self.ready_after_add(stove, task.dish, added), back[0] + 1)
        return (
            (ready + self.serve_walk(stove, dest), ready, w.t),
            w,
            effects
            + [
                ("cal", board, put, fill, ("fill", need_id)),
                ("partner", other),
                ("add", stove, task.dish, added, need_id),
                *self.lifted(stove, lift),
                *moved,
                ("placed", stove, back),
            ],
        )

    def fillable(self, need, dish: int) -> list[str]:
        """Cookware that may be taken to the food: what `stoves_for` offers, and what stands
        set aside (it goes on to an empty stove)."""
        return self.stoves_for(need, dish) + self.set_aside_ware(need.kind)

    def pot_fills(self, task: Task, idx: int):
        """Take the empty pot from its stove to the food: set it down on a surface near the
        dispenser, put the food in, and take it back, or on to a stove nearer a window (see
        `ware_moves`). Under `paracook` it cooks from the moment it is filled, on the way too."""
        need, dish = task.need, task.dish
        for stove in self.fillable(need, dish):
            if self.cook[stove].open is not None:
                continue
            for to in self.destinations(stove):
                for disp in need.dispensers:
                    for spot in self.fill_spots(disp):
                        yield self.attempt(self.pot_fill_steps, task, idx, disp, spot, stove, to)

    def fill_spots(self, disp: str) -> list[str]:
        """The nearest surfaces to a dispenser that a pot can stand on while it is filled: a
        table, or another dispenser's top (one with the pot on top cannot hand out food)."""
        spots = [*self.model.tables, *(d for ds in self.model.dispensers.values() for d in ds if d != disp)]
        return self.nearest(("fill", disp), disp, spots, FILL_SPOTS)

    def pot_fill_steps(self, task: Task, idx: int, disp: str, spot: str, stove: str, to: str | None):
        need_id, c = task.need.id, self.cook[stove]
        after = c.free_from()
        on = self.on(stove)
        bump = None
        while True:
            w = self.fresh(idx)
            moved = self.clear_for(w, stove, to)
            if moved is None:
                return None
            lift = w.at(on, spot, max(after[0], self.release.get(need_id, 0)), (after,))  # the empty pot
            put = w.at(spot, disp, bump[0] if bump else 0, (bump,) if bump else ())
            ev = w.at(disp, spot)
            fill = w.at(spot, spot)  # the food goes into the pot ...
            lift = w.at(spot, to or on)  # ... which is taken up again
            end = self.blocker(spot, put, lift) or self.blocker(disp, ev, ev)
            if end is None:
                break
            if end == OPEN:
                return None
            bump = end
        back = w.at(to or on, None)
        added = fill[0] if self.model.cumulative else back[0]
        ready = max(self.ready_after_add(stove, task.dish, added), back[0] + 1)
        return (
            (ready + self.serve_walk(stove, to), ready, w.t),
            w,
            [
                ("cal", disp, ev, ev, ("take",)),
                ("cal", spot, put, lift, ("fill", need_id)),
                ("prepared", need_id, ev[0], None),
                ("add", stove, task.dish, added, need_id),
                *self.lifted(stove, lift),
                *moved,
                ("placed", stove, back),
            ],
        )

    def cook_steps(self, task: Task, idx: int, disp: str, board: str | None, stove: str):
        after = self.cook[stove].free_from()
        got = self.prepare(idx, disp, board, self.on(stove), task.need.id)
        if got is None:
            return None
        w, effects = got
        add = w.at(self.on(stove), None, after[0], (after,))
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
            yield (
                (ready + self.serve_walk(stove), ready, w.t),
                w,
                [
                    ("close", table, ("stage", need.id), take),
                    ("unstage", need.id),
                    ("add", stove, dish, add[0], need.id),
                ],
            )

    def relay_steps(self, idx: int, table: str, ev: tuple, stove: str):
        after = self.cook[stove].free_from()
        w = self.fresh(idx)
        take = w.at(table, self.on(stove), 0, (ev,))
        add = w.at(self.on(stove), None, after[0], (after,))
        return w, take, add
