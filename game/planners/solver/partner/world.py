"""What the partner search sees of a run: the engine runs the whole plan (fixed queues as given,
the free agents' queues so far) and this reads the kitchen at one instant and at the end.

Nothing here decides what the rules allow: the engine's run is the judge; these views only
steer the search (which stations are worth walking to, how much work is left)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game.engine import Level
from game.engine.items import Container, DirtyPlate, Ingredient, Item
from game.engine.kitchen import Kitchen
from game.engine.level import default_cookware
from game.engine.plan import Plan
from game.engine.rules import RuleSet
from game.engine.simulator import Simulation


def code(item: Item | None) -> Any:
    """A hashable description of an item: None, "dirty", (name, state) or (kind, contents)."""
    if item is None:
        return None
    if isinstance(item, Ingredient):
        return (item.name, item.state)
    if isinstance(item, DirtyPlate):
        return "dirty"
    return (item.kind, tuple(sorted((i.name, i.state) for i in item.contents)))


@dataclass(frozen=True)
class View:
    """The kitchen at one instant: what every agent holds and where it stands, what every
    station holds, when cooking finishes on each stove, dirty plates waiting and due."""

    time: float
    held: dict[str, Any]
    pos: dict[str, tuple[int, int]]
    surfaces: dict[str, Any]
    ready: dict[str, float]
    dirty: int
    pending: tuple[float, ...]
    served: int

    def key(self) -> tuple:
        return (
            tuple(sorted(self.held.items())),
            tuple(sorted(self.surfaces.items(), key=lambda kv: kv[0])),
            self.dirty,
            self.pending,
            self.served,
        )


def view_of(kitchen: Kitchen, now: float) -> View:
    ready = {}
    for name in kitchen.stoves:
        item = kitchen.surface[name]
        if isinstance(item, Container) and item.is_cookware and item.cooking:
            ready[name] = item.stamp + item.required - item.processed
    return View(
        now,
        {a.name: code(a.held) for a in kitchen.agents},
        {a.name: a.pos for a in kitchen.agents},
        {n: code(i) for n, i in kitchen.surface.items()},
        ready,
        sum(kitchen.dirty_plates.values()),
        tuple(kitchen.pending_returns),
        len(kitchen.served),
    )


class Probe(Simulation):
    """A run that also keeps the view at the first event instant at or after `at`."""

    def __init__(self, level: Level, plan: Plan, rules: RuleSet, at: float):
        super().__init__(level, plan, rules, record=False)
        self.at = at
        self.seen: View | None = None

    def _snapshot(self) -> None:  # called by the engine after every event instant
        if self.seen is None and self.now >= self.at:
            self.seen = view_of(self.kitchen, self.now)


# -- how much work is left ---------------------------------------------------------------------
def ladder(state: str, cookware: str | None) -> int:
    """Steps from nothing to a plated ingredient of this need: fetched, on a board, chopped,
    in the pan or pot, cooked, plated (those the need goes through)."""
    if state == "raw":
        return 2
    if state == "chopped":
        return 4
    return 6 if cookware == "pan" else 4


def reached(want: str, cookware: str | None, state: str, where: str) -> int:
    """How far an ingredient in `state`, lying `where` (loose, board, plate, pan or pot), is up
    the ladder of a need (0 when it cannot serve it)."""
    plated = where == "plate"
    if want == "raw":
        return (2 if plated else 1) if state == "raw" else 0
    loose = where in ("loose", "board")
    if want == "chopped":
        if state == "raw":
            return (2 if where == "board" else 1) if loose else 0
        return (4 if plated else 3) if state == "chopped" else 0
    if state == "cooked":
        top = ladder("cooked", cookware)
        return top if plated else top - 1
    if cookware == "pan":
        if state == "raw":
            return (2 if where == "board" else 1) if loose else 0
        if state == "chopped":
            return 4 if where == "pan" else (3 if loose else 0)
        return 0
    if state == "raw":
        return 2 if where == "pot" else (1 if loose else 0)
    return 0


class Work:
    """Steps left to serve the remaining orders, from the kitchen at the end of a run."""

    def __init__(self, level: Level):
        book = level.recipe_book
        self.orders = level.orders
        self.needs: list[list[tuple[str, str, str | None]]] = []
        for order in level.orders:
            recipe = book.get(order)
            ings = recipe.ingredients if recipe else ()
            self.needs.append(
                [
                    (
                        i.item,
                        i.state,
                        (i.cookware or default_cookware(i.item)) if i.state == "cooked" else None,
                    )
                    for i in ings
                ]
            )

    def left(self, kitchen: Kitchen) -> int:
        served = len(kitchen.served)
        pool = list(_ingredients(kitchen))
        used = [False] * len(pool)
        total = 0
        for needs in self.needs[served:]:
            total += 1  # serving it
            for item, state, cookware in needs:
                best, pick = 0, -1
                for k, (name, st, where) in enumerate(pool):
                    if used[k] or name != item:
                        continue
                    r = reached(state, cookware, st, where)
                    if r > best:
                        best, pick = r, k
                if pick >= 0:
                    used[pick] = True
                total += ladder(state, cookware) - best
        return total


def _ingredients(kitchen: Kitchen) -> Iterable[tuple[str, str, str]]:
    boards = kitchen.level.station_by_name
    places = [(n, i) for n, i in kitchen.surface.items()] + [("", a.held) for a in kitchen.agents]
    for place, item in places:
        if isinstance(item, Ingredient):
            on_board = place and boards[place].kind == "chopping_board"
            yield item.name, item.state, "board" if on_board else "loose"
        elif isinstance(item, Container):
            for i in item.contents:
                yield i.name, i.state, item.kind
