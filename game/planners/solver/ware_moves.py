"""Moving a pot or pan to another stove while it is filled away from its own (mixed into the
Decoder): the cookware that stands on the other stove, unused, is first set aside on a table.
Food that cooks far from every window can then finish on a stove beside one."""

from __future__ import annotations

from .timing import OPEN, Walker

MOVE_TARGETS = 1  # stoves nearer a window tried for each pot or pan, nearest first
ASIDE_SPOTS = 2  # tables nearest the stove tried for setting its own cookware aside
# a move is tried only where it shortens the food's walk to a window by this much: setting the
# other cookware aside and carrying this one over costs at least as much again
MIN_GAIN = 4


class WareMoves:
    def destinations(self, stove: str) -> list[str | None]:
        """Where the cookware of `stove`, filled away from it, may be put down: back (None), or
        on a stove nearer a window whose own cookware, of another kind, is still unused and can
        be spared (no order cooks in its kind, or another of its kind stays)."""
        out: list[str | None] = [None]
        c = self.cook[stove]
        # only a genome that chooses cookware by its food's walk to a window weighs the move
        if not self.genome.to_window or c.at is not None or c.count or c.open is not None:
            return out
        here = self.window_walk(self.on(stove))
        taken = {w.at for w in self.cook.values() if w.at is not None}
        ranked = []
        for t, y in self.cook.items():
            if t == stove or t in taken or y.at is not None or y.retired or y.kind == c.kind:
                continue
            if y.count or y.open is not None or not self.stand.get(t):
                continue
            spare = y.kind not in self.cooked_kinds or any(
                k != t and o.kind == y.kind and not o.retired for k, o in self.cook.items()
            )
            walk = self.window_walk(t)
            if spare and walk + MIN_GAIN <= here:
                ranked.append((walk, t))
        return out + [t for _, t in sorted(ranked)[:MOVE_TARGETS]]

    def aside_spots(self, stove: str) -> list[str]:
        """The tables nearest a stove, for setting its cookware aside."""
        return self.nearest(("aside", stove), stove, self.model.tables, ASIDE_SPOTS)

    def clear_for(self, w: Walker, stove: str, to: str | None) -> list[tuple] | None:
        """With `to`, the walker first sets aside the cookware standing there, before it takes
        the one of `stove` (to put it down on `to`): the effects ([] without `to`), or None when
        it cannot."""
        if to is None:
            return []
        aside = self.set_aside(w, to, self.on(stove))
        return None if aside is None else aside + [("moved", stove, to)]

    def set_aside(self, w: Walker, to: str, nxt: str) -> list[tuple] | None:
        """The walker lifts the unused cookware off stove `to` and leaves it on a table for
        good: the effects, or None when no table near it stays free."""
        for spot in self.aside_spots(to):
            trial = w.clone()
            trial.at(to, spot)
            put = trial.at(spot, nxt)
            if self.blocker(spot, put, OPEN) is None:
                w.at(to, spot)  # the same steps, for real
                w.at(spot, nxt)
                return [("cal", spot, put, OPEN, ("aside", to)), ("retire", to)]
        return None

    def _eff_retire(self, stove: str) -> None:
        self.cook[stove].retired = True

    def _eff_moved(self, stove: str, to: str) -> None:
        self.cook[stove].at = to
