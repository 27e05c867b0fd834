"""Moving a pot or pan to another stove while it is filled away from its own (mixed into the
Decoder): the cookware that stands on the other stove, unused, is first set aside on a table.
Food that cooks far from every window can then finish on a stove beside one, and what was set
aside may later be filled the same way and put down on a stove left empty (a swap)."""

from __future__ import annotations

from .contract import StepBase
from .timing import OPEN, Walker

MOVE_TARGETS = 1  # stoves nearer a window tried for each pot or pan, nearest first
ASIDE_SPOTS = 2  # tables nearest the stove tried for setting its own cookware aside
# a move is tried only where it shortens the food's walk to a window by this much: setting the
# other cookware aside and carrying this one over costs at least as much again
MIN_GAIN = 4


class WareMoves(StepBase):
    def destinations(self, stove: str) -> list[str | None]:
        """Where the cookware of `stove`, filled away from it, may be put down: back (None), or
        on a stove nearer a window, either empty or holding unused cookware of another kind that
        can be spared. Cookware set aside goes only to an empty stove."""
        c = self.cook[stove]
        taken = {w.at for w in self.cook.values() if w.at is not None}
        if c.retired:
            empty = [
                t for t, y in self.cook.items() if y.at is not None and t not in taken and self.stand.get(t)
            ]
            return sorted(empty, key=lambda t: (self.window_walk(t), t))[:MOVE_TARGETS]
        out: list[str | None] = [None]
        # only a genome that chooses cookware by its food's walk to a window weighs the move
        if not self.genome.to_window or c.at is not None or c.count or c.open is not None:
            return out
        here = self.window_walk(stove)
        ranked = []
        for t, y in self.cook.items():
            if t == stove or t in taken or not self.stand.get(t):
                continue
            walk = self.window_walk(t)
            if y.at is not None:  # empty: nothing to set aside first
                if walk < here:
                    ranked.append((walk, t))
                continue
            if y.retired or y.kind == c.kind or y.count or y.open is not None:
                continue
            if self.spare(t) and walk + MIN_GAIN <= here:
                ranked.append((walk, t))
        return out + [t for _, t in sorted(ranked)[:MOVE_TARGETS]]

    def spare(self, stove: str) -> bool:
        """Whether the unused cookware on `stove` may be set aside: no order cooks in its kind,
        another of its kind stays, or the genome fetches everything still to cook in it in the
        cookware itself (which then goes to the stove a move leaves empty: a swap)."""
        kind = self.cook[stove].kind
        if kind not in self.cooked_kinds:
            return True
        if any(k != stove and o.kind == kind and not o.retired for k, o in self.cook.items()):
            return True
        if kind != "pot" and len(self.pan_carriers) < 2:  # a pan is filled by a partner
            return False
        return all(self.fills(n.id) for n in self.model.needs if n.kind == kind)

    def set_aside_ware(self, kind: str) -> list[str]:
        """The cookware of this kind standing aside on a table (keyed by the stove it began on)."""
        return [s for s in self.model.cookware[kind] if self.cook[s].retired]

    def aside_spots(self, stove: str) -> list[str]:
        """The tables nearest a stove, for setting its cookware aside."""
        return self.nearest(("aside", stove), stove, self.model.tables, ASIDE_SPOTS)

    def clear_for(self, w: Walker, stove: str, to: str | None) -> list[tuple] | None:
        """With `to`, the walker first sets aside the cookware standing there (if any), before
        it takes the one of `stove` (to put it down on `to`): the effects ([] without `to`), or
        None when it cannot."""
        if to is None:
            return []
        if self.cook[to].at is not None:  # an empty stove
            return [("moved", stove, to)]
        aside = self.set_aside(w, to, self.on(stove))
        return None if aside is None else aside + [("moved", stove, to)]

    def set_aside(self, w: Walker, to: str, nxt: str) -> list[tuple] | None:
        """The walker lifts the unused cookware off stove `to` and leaves it on a table: the
        effects, or None when no table near it stays free."""
        for spot in self.aside_spots(to):
            trial = w.clone()
            trial.at(to, spot)
            put = trial.at(spot, nxt)
            if self.blocker(spot, put, OPEN) is None:
                w.at(to, spot)  # the same steps, for real
                w.at(spot, nxt)
                return [("cal", spot, put, OPEN, ("aside", to)), ("retire", to, spot, put)]
        return None

    def lifted(self, stove: str, ev: tuple) -> list[tuple]:
        """Taking the cookware up at `ev` ends its stay on a table, if it was set aside."""
        c = self.cook[stove]
        return [("close", c.at, ("aside", stove), ev)] if c.retired else []

    def effect_retire(self, stove: str, spot: str, ev: tuple) -> None:
        c = self.cook[stove]
        c.retired, c.at, c.placed = True, spot, ev

    def effect_moved(self, stove: str, to: str) -> None:
        c = self.cook[stove]
        c.retired, c.at = False, to
