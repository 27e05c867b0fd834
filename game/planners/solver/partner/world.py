"""What the partner search sees of a run: the engine runs the whole plan (fixed queues as given,
the free agents' queues so far) and this reads the kitchen at one instant and at the end.

Nothing here decides what the rules allow: the engine's run is the judge; these views only
steer the search (which stations are worth walking to, how much work is left)."""

from __future__ import annotations

from collections import Counter
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
HOP = 6  # a walk between two stations, about
# what each step up a need's ladder is worth, in time: fetched, on a board, chopped, in the pan
# or pot, cooked, plated (those the need goes through). Equal weights ranked best on the study
# kitchens (weighing chopping and cooking by their durations made the search greedier for them
# and slower to a good plan); a run goes on to the end of the fixed queues, so food put on to
# cook counts as cooked at once
STEPS = {
    "raw": (HOP, HOP),
    "chopped": (HOP, HOP, HOP, HOP),
    "pot": (HOP, HOP, HOP, HOP),
    "pan": (HOP, HOP, HOP, HOP, HOP, HOP),
}
SERVE = HOP
NO_PLATE = 6 * HOP  # an order with no plate in sight


def steps_of(state: str, cookware: str | None) -> tuple[int, ...]:
    return STEPS[state] if state != "cooked" else STEPS["pan" if cookware == "pan" else "pot"]


def ladder(state: str, cookware: str | None) -> int:
    """Steps from nothing to a plated ingredient of this need."""
    return len(steps_of(state, cookware))


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


CARRIED = 0.5  # of the next step, for an ingredient in a free agent's hand


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

    def left(self, kitchen: Kitchen, free: Iterable[str] = (), stuck: str | None = None) -> float:
        """Work left, in time (`STEPS`), at the end of a run; an ingredient in a free agent's
        hand counts half its next step done (it is on its way to the next station), and what a
        fixed agent holds then is out of reach for good, unless the run stopped at its error
        (`stuck`): the partner may yet make that action succeed."""
        served = len(kitchen.served)
        hands = {a.name for a in kitchen.agents if a.name in set(free)}
        reach = hands | ({stuck} if stuck else set())
        wants = [Counter(f"{n}:{st}" for n, st, _ in needs) for needs in self.needs[served:]]
        pool = list(_ingredients(kitchen, hands, reach, wants))
        used = [False] * len(pool)
        ready = {
            id(a.held)
            for a in kitchen.agents
            if a.name in hands
            and isinstance(a.held, Container)
            and a.held.kind == "plate"
            and Counter(i.key for i in a.held.contents) in wants
        }
        owner: dict[int, int] = {}  # container -> the order its food goes to (all of it: one batch)
        plateless = 0  # orders with no plate begun
        total = 0.0
        for j, needs in enumerate(self.needs[served:]):
            total += SERVE
            mine: int | None = None  # the plate this order is being put together on
            for item, state, cookware in needs:
                steps = steps_of(state, cookware)
                best, pick, box = 0.0, -1, None
                for k, (name, st, where, carried, held_in) in enumerate(pool):
                    if used[k] or name != item or owner.get(held_in, j) != j:
                        continue
                    if where == "plate" and mine is not None and held_in != mine:
                        where = "loose"  # food on another plate: still to be brought together
                    r = reached(state, cookware, st, where)
                    done = float(sum(steps[:r]))
                    if r and carried and r < len(steps):
                        done += CARRIED * steps[r]
                    if done > best:
                        best, pick, box = done, k, held_in
                if pick >= 0:
                    used[pick] = True
                    if box is not None:
                        owner[box] = j
                        if pool[pick][2] == "plate" and mine is None:
                            mine = box
                total += sum(steps) - best
            if mine is not None and mine in ready:  # a free agent carries it, complete, to be served
                total -= CARRIED * SERVE
            if mine is None:
                plateless += 1
        supply = _plates(kitchen, hands, set(owner))
        return total + sum(supply[k] if k < len(supply) else NO_PLATE for k in range(plateless))


def _ingredients(
    kitchen: Kitchen, hands: set[str], reach: set[str], wants: list[Counter[str]]
) -> Iterable[tuple[str, str, str, bool, int | None]]:
    """(name, state, where, in a free agent's hand, which container) of every ingredient in the
    kitchen that can
    still be served: food on a plate that fits no remaining order (it would have to be thrown
    away) does not count."""
    boards = kitchen.level.station_by_name
    places = [(n, i, False) for n, i in kitchen.surface.items()]
    # a fixed agent's hand at the end of its queue stays full for good; one the run stopped at
    # an error counts (the partner may yet make that action succeed)
    places += [("", a.held, a.name in hands) for a in kitchen.agents if a.name in reach]
    for place, item, carried in places:
        if isinstance(item, Ingredient):
            on_board = place and boards[place].kind == "chopping_board"
            yield item.name, item.state, "board" if on_board else "loose", carried, None
        elif isinstance(item, Container):
            if item.contents and not _fits(item, wants):
                continue  # a plate, pan or pot whose food fits no one order: all of it is lost
            # food in a pan or pot cooks only on a stove: off one it is as far as loose food
            cooks = not item.is_cookware or (place and boards[place].kind == "stove")
            where = item.kind if cooks else "loose"
            for i in item.contents:
                yield i.name, i.state, where, carried, id(item)


def _plates(kitchen: Kitchen, hands: set[str], taken: set[int]) -> list[float]:
    """What it costs to have each plate no order has begun (cheapest first): an empty clean one
    nothing, a dirty one in a sink its wash, one in a free hand the sink and the wash, one waiting
    or due at the plate return the walk, the sink and the wash."""
    kinds = kitchen.level.station_by_name
    out: list[float] = []
    places = [(n, i) for n, i in kitchen.surface.items()] + [
        ("", a.held) for a in kitchen.agents if a.name in hands
    ]
    for place, item in places:
        if (
            isinstance(item, Container)
            and item.kind == "plate"
            and not item.contents
            and id(item) not in taken
        ):
            out.append(0.0)
        elif isinstance(item, DirtyPlate):
            out.append(HOP if place and kinds[place].kind == "sink" else 2 * HOP)
    out += [3 * HOP] * (sum(kitchen.dirty_plates.values()) + len(kitchen.pending_returns))
    return sorted(out)


def _fits(box: Container, wants: list[Counter[str]]) -> bool:
    """Whether the food in a plate, pan or pot (which all goes onto one plate) is part of what
    one remaining order is served with, once cooked."""
    have = Counter(i.key if box.kind == "plate" else f"{i.name}:cooked" for i in box.contents)
    return any(all(want[k] >= n for k, n in have.items()) for want in wants)
