"""The least OCT of a one-agent level over all valid plans, proven by search.

    from game.planners.solver.exact import exact_optimum
    best = exact_optimum(level, "paracook", max_states=200_000)   # Exact, or None if unknown
    best.oct, best.plan                                            # the plan simulates to best.oct

The search runs the real engine (`Simulation.run(resume=True)` on a kitchen rebuilt from a
compact state), so every transition follows the rules exactly as `simulate` does, and the plan
it returns is checked by `simulate` before it is given out.

States: the agent's tile and what it holds, what every station holds (pan and pot counters
included), dirty plates waiting and due, orders served; the time is the cost. Macro actions:
walk (shortest path) to a tile beside a station, maybe wait there, then Interact or Process.
A* on time with an admissible heuristic (`Estimate`), re-opening, and dominance: the same
state reached later is dropped. A budget of expanded states (and optionally seconds) ends the
search with "unknown", never with a wrong value.

Why no optimal plan is missed (plans whose Waits are whole numbers, like every other duration):
1. One agent can only walk, wait, or act at a station from a tile next to it. Between two
   station actions only where it ends up and when it acts matter, so the walk can be the
   shortest one and any idle time a wait on the tile it acts from.
2. The kitchen changes only by the agent's actions and by the engine's tick at each event time:
   cooking finishes (a pan or pot on a stove reaching its ready time) and dirty plates come
   back. An Interact at time t > 0 always follows a tick at t, so whether food is cooked when
   the agent acts does not depend on other ticks. The solver's plans tick at every change
   instant as well (walks and waits are split there): cooking finishes and plates return as
   early as the rules allow, which only moves a cookware's stamp earlier, and so a later batch
   in the same pan or pot is ready earlier, never later.
3. Between two change instants the kitchen stands still, so an action is never worse done at
   the earliest moment: on arrival, or, for what waits on a change (food finishing on that
   stove, a dirty plate coming back), at that instant. Acting earlier only writes earlier
   stamps (cooking started, a dish served), bringing later changes forward. The exception is
   lifting cookware whose food is still cooking off a stove under documented rules (its
   cooking pauses), which is tried at every instant until the food is done.
   "Earlier is never worse" would fail only for a plan that needs food to stay uncooked in a
   pan or pot on a stove past the time it could have finished, to plate it uncooked.
4. Making an ingredient no remaining order needs is never useful and is not searched: such an
   item can only sit somewhere, be moved, or be thrown away. The one exception is a paracook
   quirk: an extra batch cooked and thrown away "pre-heats" a pan or pot (its counters keep
   running), which a plan could use to cook a needed batch sooner when it reaches the cookware
   more than a full cooking time later; plans doing that are outside this search.
Scenario options that make earlier worse (`burn_after`, `serve_within`) are not supported.
"""

from __future__ import annotations

import heapq
import math
import time as clock
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, get_rules, simulate
from game.engine.items import Container, DirtyPlate, Ingredient, Item
from game.engine.kitchen import CHOP_TIME, WASH_TIME
from game.engine.level import COOKWARE_TIME, PAN_INGREDIENTS, POT_INGREDIENTS, default_cookware
from game.engine.plan import Action
from game.engine.rules import RuleSet
from game.engine.simulator import Simulation

from .model import INF, Geometry

DEFAULT_MAX_STATES = 300_000
HOLDING = ("table", "chopping_board", "dispenser", "stove", "sink")  # stations with a surface
PLAIN_KINDS = ("table", "chopping_board", "dispenser", "sink", "trash")  # effects independent of time
PROCESS_TIME = {"chopping_board": CHOP_TIME, "sink": WASH_TIME}
MISSING = object()
DIRTY = "dirty"
AGENT = ""  # an item's place when the agent holds it


class Unsupported(ValueError):
    """The level is outside what the exact search handles (agents, scenario options)."""


@dataclass
class Exact:
    """A proven optimum: no valid plan serves every order earlier than `oct`."""

    oct: float
    plan: dict[str, list[dict[str, Any]]]
    rules: str
    states: int  # states expanded
    seconds: float


@dataclass
class Outcome:
    """How a search ended: optimal (with `exact`), unsolvable (no plan serves the orders) or
    budget (the state or time budget ran out first: unknown)."""

    status: str
    exact: Exact | None = None
    states: int = 0
    seconds: float = 0.0
    reason: str = ""


# -- compact states ---------------------------------------------------------------------------
# An item's code: None, DIRTY, (name, state) for an ingredient, or (kind, contents, counters)
# for a container. A cooking pan or pot's counters are kept as its ready time ("r"), which
# ticks do not change, so a state waited on keeps its code; under documented rules cookware off
# a stove keeps its remaining time instead ("p"), because cooking pauses there.
def encode(item: Item | None, on_stove: bool, pauses: bool) -> Any:
    if item is None:
        return None
    if isinstance(item, Ingredient):
        return (item.name, item.state)
    if isinstance(item, DirtyPlate):
        return DIRTY
    contents = tuple(sorted((i.name, i.state) for i in item.contents))
    if not item.is_cookware:
        return ("plate", contents, ())
    if item.cooking and item.stamp != 0:
        if on_stove or not pauses:
            counters: tuple = ("r", item.stamp + item.required - item.processed, item.required)
        else:
            counters = ("p", item.required - item.processed, item.required)
    else:
        counters = ("x", item.processed, item.required, item.stamp, item.cooking)
    return (item.kind, contents, counters)


def decode(code: Any, now: float) -> Item | None:
    if code is None:
        return None
    if code == DIRTY:
        return DirtyPlate()
    if len(code) == 2:
        return Ingredient(code[0], code[1])
    kind, contents, counters = code
    c = Container(kind)
    c.contents = [Ingredient(n, s) for n, s in contents]
    if counters:
        form = counters[0]
        if form == "r":  # ready at counters[1]: as if last ticked now
            c.required, c.stamp, c.cooking = counters[2], now, True
            c.processed = now + counters[2] - counters[1]
        elif form == "p":
            c.required, c.stamp, c.cooking = counters[2], now, True
            c.processed = counters[2] - counters[1]
        else:
            c.processed, c.required, c.stamp, c.cooking = counters[1:]
    return c


@dataclass(frozen=True, slots=True)
class State:
    tile: int
    held: Any
    surfaces: tuple  # one code per station of HOLDING kind, in `Stepper.names` order
    dirty: int  # dirty plates waiting at the plate return
    pending: tuple  # times dirty plates are due
    served: int


def ready_time(code: Any) -> float | None:
    """When a cooking pan or pot on a stove finishes (None when it is not cooking)."""
    if not isinstance(code, tuple) or len(code) != 3 or not code[2]:
        return None
    counters = code[2]
    if counters[0] == "r":
        return counters[1]
    if counters[0] == "x" and counters[4]:  # started at t = 0
        return counters[2] - counters[1]
    return None


class Stepper:
    """Runs a few actions of the one agent from a compact state, with the engine's own rules."""

    def __init__(self, level: Level, rules: RuleSet, geo: Geometry):
        self.level = level
        self.rules = rules
        self.geo = geo
        self.agent_name = level.agents[0].name
        self.sim = Simulation(level, {self.agent_name: ()}, rules, record=False)
        self.kitchen = self.sim.kitchen
        self.agent = self.kitchen.agents[0]
        self.names = [n for n in dict.fromkeys(s.name for s in level.stations) if self.kind(n) in HOLDING]
        self.slot = {n: i for i, n in enumerate(self.names)}
        self.on_stove = [self.kind(n) == "stove" for n in self.names]
        self.stove_slots = [i for i, s in enumerate(self.on_stove) if s]
        self.plate_return = self.kitchen.plate_return
        self.pauses = rules.cooking_pauses_off_stove

    def kind(self, name: str) -> str | None:
        return self.level.station_by_name[name].kind

    def start(self) -> State:
        k = self.kitchen
        surfaces = tuple(
            encode(k.surface[n], s, self.pauses) for n, s in zip(self.names, self.on_stove, strict=True)
        )
        tile = self.geo.index[self.agent.pos]
        return State(tile, None, surfaces, 0, (), 0)

    def step(self, state: State, now: float, actions: tuple[Action, ...]) -> tuple[State, float] | None:
        """The state after the actions, and its time; None if an action fails. Only the
        station acted on and the stoves where something cooks (ticks advance it) can change,
        so only they are rebuilt."""
        k, agent, sim = self.kitchen, self.agent, self.sim
        surface = k.surface
        codes = state.surfaces
        touched = [i for i in self.stove_slots if ready_time(codes[i]) is not None]  # ticks cook these
        slot = self.slot.get(actions[-1].target)
        if slot is not None and slot not in touched:
            touched.append(slot)
        names = self.names
        for i in self.stove_slots:  # idle cookware stays out of the run's ticks
            surface[names[i]] = None
        for i in touched:
            code = codes[i]
            surface[names[i]] = None if code is None else decode(code, now)
        agent.pos = self.geo.tiles[state.tile]
        agent.held = decode(state.held, now)
        if self.plate_return is not None:
            k.dirty_plates[self.plate_return] = state.dirty
        k.pending_returns = list(state.pending)
        k.remaining = list(self.level.orders[state.served :])
        k.served = []
        k.in_use.clear()
        agent.queue, agent.next, agent.current, agent.registered = actions, 0, None, False
        sim.now = now
        if sim.run(resume=True) is not None:
            return None
        pauses = self.pauses
        new_codes = list(codes)
        for i in touched:
            item = surface[names[i]]
            new_codes[i] = None if item is None else encode(item, self.on_stove[i], pauses)
        held = encode(agent.held, False, pauses)
        dirty = k.dirty_plates[self.plate_return] if self.plate_return is not None else 0
        served = len(self.level.orders) - len(k.remaining)
        new = State(
            self.geo.index[agent.pos], held, tuple(new_codes), dirty, tuple(k.pending_returns), served
        )
        return new, sim.now


# -- the heuristic -------------------------------------------------------------------------------
@dataclass(frozen=True)
class NeedSpec:
    item: str
    state: str  # raw | chopped | cooked
    cookware: str | None


class Estimate:
    """A lower bound on the time left until the last order is served: every ingredient still
    to serve must follow its chain (reach it, board, chop, stove, cook, window) on its own, and
    the agent must still chop everything not yet chopped, one at a time."""

    def __init__(self, level: Level, geo: Geometry, stepper: Stepper):
        self.geo = geo
        self.stepper = stepper
        book = level.recipe_book
        self.needs: list[list[NeedSpec]] = []  # needs of orders[served:], per served count
        self.first_needs: list[int] = []  # how many of them the next order has
        for served in range(len(level.orders) + 1):
            specs = []
            for order in level.orders[served:]:
                recipe = book.get(order)
                if recipe is None:
                    specs.append(NeedSpec("?", "missing", None))
                    continue
                for ing in recipe.ingredients:
                    cw = (ing.cookware or default_cookware(ing.item)) if ing.state == "cooked" else None
                    specs.append(NeedSpec(ing.item, ing.state, cw))
            self.needs.append(specs)
            first = level.orders[served] if served < len(level.orders) else None
            self.first_needs.append(len(book[first].ingredients) if first in book else 0)
        self.need_count = [Counter(s.item for s in specs) for specs in self.needs]
        kinds = {n: s.kind for n, s in level.station_by_name.items()}
        groups = {
            "board": [n for n, k in kinds.items() if k == "chopping_board"],
            "stove": [n for n, k in kinds.items() if k == "stove"],
            "window": [n for n, k in kinds.items() if k == "serving_window"],
            "sink": [n for n, k in kinds.items() if k == "sink" and geo.stand.get(n)],
        }
        self.dispensers: dict[str, list[str]] = {}
        for s in level.stations:
            if s.kind == "dispenser" and s.provides and geo.reachable(s.name):
                self.dispensers.setdefault(s.provides, []).append(s.name)
        n = len(geo.tiles)
        # from each tile / station side to the nearest station of a group
        self.tile_to = {
            g: [min((geo.to_station[s][t] for s in names), default=INF) for t in range(n)]
            for g, names in groups.items()
        }
        self.station_to = {
            g: {s: min((self.tile_to[g][t] for t in geo.stand[s]), default=INF) for s in geo.stand}
            for g in groups
        }
        self.board_to_stove = min((self.station_to["stove"][b] for b in groups["board"]), default=INF)
        self.stove_to_window = min((self.station_to["window"][s] for s in groups["stove"]), default=INF)
        self.board_to_window = min((self.station_to["window"][b] for b in groups["board"]), default=INF)
        self.stove_names = set(groups["stove"])
        self.groups = groups
        self.between = {
            a: {b: min((geo.to_station[b][t] for t in geo.stand[a]), default=INF) for b in geo.stand}
            for a in geo.stand
        }

    def to(self, group: str, where: str, tile: int) -> int:
        return self.tile_to[group][tile] if where == AGENT else self.station_to[group][where]

    def reach(self, where: str, tile: int, now: float) -> float:
        return now if where == AGENT else now + self.geo.to_station[where][tile]

    def value(self, state: State, now: float) -> float:
        """A time no plan from this state serves its last order before (INF: none can).

        Two bounds, the larger wins. Chains: each ingredient still to serve must, on its own,
        be reached, carried to a board, chopped, carried to a stove, cooked and carried to the
        window. Hands: with one hand the agent carries one thing at a time and stands still to
        chop, so its remaining time is at least the walk to its first station, plus every raw
        ingredient's carry to a board and its chop, plus the longest carry to a stove for pan
        and for pot food (several may share one trip), plus a plate's carry to the window."""
        tile = state.tile
        specs = self.needs[state.served]
        window = self.tile_to["window"][tile]
        if not specs:
            return now
        items, cookware = self.inventory(state)
        kinds = Counter(spec.cookware for spec in specs if spec.cookware)
        ready_lb = {kind: self.cook_bound(cookware, kind, now, kinds[kind] > 1) for kind in COOKWARE_TIME}
        best = now + window
        carries = 0
        to_stove = {"pan": 0, "pot": 0}
        meets: list[tuple[str | None, list[tuple[str, str]]]] = []
        to_cook: list[tuple[str, float, float]] = []  # needs not in any pan or pot yet
        for spec in specs:
            if spec.state == "missing":
                return INF
            chain, chop, stove, meet, started = self.need_bound(spec, items, ready_lb, tile, now)
            if chain >= INF:
                return INF
            best = max(best, chain)
            carries += chop
            if spec.cookware:
                to_stove[spec.cookware] = max(to_stove[spec.cookware], stove)
                if not started:
                    to_cook.append((spec.cookware, chop, stove))
            meets.append((spec.cookware, meet))
        plate = INF
        first = INF if state.held is None else 0
        meets = meets[: self.first_needs[state.served]]  # the next order's plate
        dirty = bool(state.dirty or state.pending)
        for where, code in self.places(state):
            if where != AGENT:
                first = min(first, self.geo.to_station[where][tile])
            if is_plate(code):
                plate = min(plate, self.assembly(where, meets, tile))
            dirty = dirty or code == DIRTY
        if dirty:  # the next dish may go on a plate not washed yet
            for sink in self.groups["sink"]:
                plate = min(plate, self.assembly(sink, meets, tile))
        if first:  # empty-handed, the agent can also start at a dispenser or the plate return
            starts = [d for spec in specs for d in self.dispensers.get(spec.item, ())]
            if (state.dirty or state.pending) and self.stepper.plate_return in self.geo.stand:
                starts.append(self.stepper.plate_return)
            first = min([first] + [self.geo.to_station[d][tile] for d in starts])
            if first >= INF:
                first = 0
        if plate >= INF:
            return INF  # no plate the agent can reach, and none to wash
        hands = now + first + carries + to_stove["pan"] + to_stove["pot"] + plate
        if len(to_cook) > 1 and all(ready_lb[k][0] and ready_lb[k][2] >= INF for k, _, _ in to_cook):
            best = max(best, now + first + self.last_batch(to_cook))
        return math.ceil(max(best, hands))

    def last_batch(self, to_cook: list[tuple[str, float, float]]) -> float:
        """With fresh cookware and two or more batches still to start: the last one starts only
        after all their carrying and chopping (one hand; food for one kind of cookware may share
        its trip to the stove), cooks, and goes to the window. If two share a kind, the later
        one may finish 2K after the earlier one went in instead."""
        chops = sum(c for _, c, _ in to_cook)
        trips: dict[str, float] = {}
        for kind, _, stove in to_cook:
            trips[kind] = max(trips.get(kind, 0), stove)
        shortest = min(COOKWARE_TIME[k] for k, _, _ in to_cook)
        out = chops + sum(trips.values()) + shortest
        kinds = Counter(k for k, _, _ in to_cook)
        for kind, n in kinds.items():
            if n > 1:
                first_in = min(c + s for k, c, s in to_cook if k == kind)
                out = min(out, first_in + 2 * COOKWARE_TIME[kind])
        return out + self.stove_to_window

    def places(self, state: State):
        yield AGENT, state.held
        for where, code in zip(self.stepper.names, state.surfaces, strict=True):
            if code is not None:
                yield where, code

    def inventory(self, state: State) -> tuple[list[tuple], list[tuple]]:
        """Every ingredient (name, state, where, container code or None) and every pan or pot
        (code, where)."""
        items: list[tuple] = []
        cookware: list[tuple] = []
        places = [(AGENT, state.held)] + list(zip(self.stepper.names, state.surfaces, strict=True))
        for where, code in places:
            if code is None or code == DIRTY:
                continue
            if len(code) == 2:
                items.append((code[0], code[1], where, None))
                continue
            if code[0] != "plate":
                cookware.append((code, where))
            for name, st in code[1]:
                items.append((name, st, where, code))
        return items, cookware

    def cook_bound(self, cookware: list[tuple], kind: str, now: float, several: bool):
        """What bounds the finish of a batch put into a `kind` at time t: (fresh, cap, base).
        A fresh one cooks it by min(t + K, max(t, cap)): with several batches of that kind to
        come, a second one in the same cookware finishes 2K after the first went in, perhaps
        sooner than K after its own start (the counters run on); one that has cooked before
        finishes it by max(t, base)."""
        k = COOKWARE_TIME[kind]
        cap = now + 2 * k if several else INF
        fresh = False
        base = INF
        for code, _ in cookware:
            if code[0] != kind:
                continue
            counters = code[2]
            if counters[0] == "r":
                base = min(base, counters[1] + k)
            elif counters[0] == "p":
                base = min(base, now + counters[1] + k)
            elif counters[3] == 0:  # never started (or reset): the batch cooks in full
                fresh = True
            else:
                base = min(base, counters[3] + counters[2] - counters[1] + k)
        return fresh, cap, base

    def need_bound(self, spec: NeedSpec, items: list[tuple], ready_lb: dict, tile: int, now: float):
        """The chain bound of one need, its least carry-and-chop and carry-to-stove parts, and
        where it can meet the plate, each over every item that could become it (one already
        made, or a new one)."""
        best = chop = stove = INF
        meet: list[tuple[str, str]] = []
        candidates = [(st, where, inside) for item, st, where, inside in items if item == spec.item]
        candidates += [("raw", d, None) for d in self.dispensers.get(spec.item, ())]
        for st, where, inside in candidates:
            lb = self.item_bound(spec, st, where, inside, ready_lb, tile, now)
            if lb >= INF:
                continue
            best = min(best, lb)
            loose_raw = st == "raw" and inside is None
            needs_chop = loose_raw and (spec.state == "chopped" or spec.cookware == "pan")
            chop = min(chop, self.chop_bound(where, tile) if needs_chop else 0)
            on_stove = inside is not None and where in self.stove_names
            if spec.cookware and st != "cooked":
                if on_stove:
                    go = 0
                elif needs_chop:
                    go = self.board_to_stove
                else:
                    go = self.to("stove", where, tile)
                stove = min(stove, go)
            else:
                stove = 0
            if inside is not None and inside[0] == "plate":
                meet.append(("plate", where))
            elif spec.cookware and st != "cooked" and not on_stove:
                meet.append(("group", "stove"))
            elif needs_chop:
                meet.append(("group", "board"))
            else:
                meet.append(("at", where))
        return best, chop, stove, meet, any(inside is not None for _, _, inside in candidates)

    def apart(self, a: str, b: str, tile: int) -> int:
        if a == AGENT:
            return 0 if b == AGENT else self.geo.to_station[b][tile]
        if b == AGENT:
            return self.geo.to_station[a][tile]
        return self.between[a][b]

    def assembly(self, plate: str, meets: list, tile: int) -> float:
        """Least carrying to bring every need together on the plate at `plate` and that plate
        to the window. The plate walks a path P from its place to the window; each ingredient
        is carried from where it ends up (L) to a point of P, at least e = dist(L, P). As
        |P| + 2e >= d(plate, L) + d(L, window) =: c, the carrying is at least
        min over |P| >= d(plate, window) of |P| + sum max(0, (c - |P|) / 2). Food sharing a
        kind of cookware may travel together, so it counts once (its least c)."""
        window = self.to("window", plate, tile)
        costs: list[float] = []
        shared: dict[str, float] = {}
        for cookware, options in meets:
            c = INF
            for how, where in options:
                if how == "plate":
                    c = min(
                        c,
                        0
                        if where == plate
                        else self.apart(plate, where, tile) + self.to("window", where, tile),
                    )
                elif how == "at":
                    c = min(c, self.apart(plate, where, tile) + self.to("window", where, tile))
                else:
                    for s in self.groups[where]:
                        c = min(c, self.apart(plate, s, tile) + self.station_to["window"][s])
            if c >= INF:
                continue
            if cookware:
                shared[cookware] = min(shared.get(cookware, INF), c)
            else:
                costs.append(c)
        costs += shared.values()
        # convex in |P| with slope 1 - (costs above |P|) / 2: least where at most two lie above
        costs.sort(reverse=True)
        length = max(window, costs[2]) if len(costs) > 2 else window
        return length + sum(c - length for c in costs if c > length) / 2

    def item_bound(self, spec, st, where, inside, ready_lb, tile, now) -> float:
        reach = self.reach(where, tile, now)
        in_plate = inside is not None and inside[0] == "plate"
        in_cookware = inside is not None and not in_plate
        if st == spec.state:
            return reach + self.to("window", where, tile)
        if st == "raw" and not inside and spec.state == "chopped":
            return reach + self.chop_bound(where, tile) + self.board_to_window
        if spec.state != "cooked" or in_plate or st == "cooked":
            return INF  # past it, or on a plate where it can no longer change
        if in_cookware:
            ready = ready_time(inside)
            if ready is None:
                ready = now if inside[2][0] != "p" else now + inside[2][1]
            if where in self.stove_names:
                return max(ready, reach) + self.to("window", where, tile)
            return max(ready, reach + self.to("stove", where, tile)) + self.stove_to_window
        fresh, cap, base = ready_lb[spec.cookware]
        if st == "raw" and spec.cookware == "pan":
            t = reach + self.chop_bound(where, tile)
            lead = self.board_to_stove
        elif (st == "raw" and spec.cookware == "pot") or st == "chopped":
            t = reach
            lead = self.to("stove", where, tile)
        else:
            return INF
        cooked = min(min(t + COOKWARE_TIME[spec.cookware], max(t, cap)) if fresh else INF, max(t, base))
        return max(cooked, t + lead) + self.stove_to_window

    def chop_bound(self, where: str, tile: int) -> float:
        return self.to("board", where, tile) + CHOP_TIME


# -- the search ----------------------------------------------------------------------------------
@dataclass
class Search:
    level: Level
    rules: RuleSet
    max_states: int
    time_limit: float | None
    geo: Geometry = field(init=False)

    def __post_init__(self) -> None:
        self.geo = Geometry(self.level)
        self.stepper = Stepper(self.level, self.rules, self.geo)
        self.estimate = Estimate(self.level, self.geo, self.stepper)
        self.targets = self._targets()
        self.effects: dict[tuple, Any] = {}  # remembered engine effects (see transition)
        self.signatures = [
            self.level.recipe_book[o].signature() if o in self.level.recipe_book else None
            for o in self.level.orders
        ]

    def _targets(self) -> list[tuple[str, str, tuple[int, ...]]]:
        """(station, kind, tiles beside it) for every station the agent can use."""
        out = []
        for name, tiles in self.geo.stand.items():
            kind = self.level.station_by_name[name].kind
            if kind is not None and tiles:
                out.append((name, kind, tiles))
        return out

    # -- macros ---------------------------------------------------------------------------------
    def acts(self, state: State, name: str, kind: str) -> list[str]:
        """The actions at a station that can succeed from this state (the engine has the last
        word; this only skips the ones that certainly fail or make what nobody needs)."""
        held = state.held
        top = state.surfaces[self.stepper.slot[name]] if name in self.stepper.slot else None
        out = []
        if kind in ("table", "chopping_board", "dispenser"):
            if held is None and top is None:
                if kind == "dispenser" and self.wanted(state, self.level.station_by_name[name].provides):
                    out.append("Interact")
            elif not (is_ingredient(held) and is_ingredient(top)) and not (held == DIRTY and top is not None):
                out.append("Interact")
            if kind == "chopping_board" and is_ingredient(top) and top[1] == "raw":
                out.append("Process")
        elif kind == "stove":
            if stove_takes(held, top):
                out.append("Interact")
        elif kind == "sink":
            if (held is None and top is not None and top != DIRTY) or (held == DIRTY and top is None):
                out.append("Interact")
            if top == DIRTY:
                out.append("Process")
        elif kind == "plate_return":
            if held is None and (state.dirty or state.pending):
                out.append("Interact")
        elif kind == "serving_window":
            want = self.signatures[state.served] if state.served < len(self.signatures) else None
            if is_plate(held) and want is not None and tuple(sorted(f"{n}:{s}" for n, s in held[1])) == want:
                out.append("Interact")
        elif kind == "trash":
            if held is not None:
                out.append("Interact")
        return out

    def wanted(self, state: State, item: str | None) -> bool:
        """Is one more `item` needed: fewer exist than the remaining orders use?"""
        if item is None:
            return False
        need = self.estimate.need_count[state.served].get(item, 0)
        if not need:
            return False
        have = sum(1 for i in self.estimate.inventory(state)[0] if i[0] == item)
        return have < need

    def changes(self, state: State, now: float) -> list[float]:
        """Instants after now at which something changes by itself."""
        out = set(state.pending)
        for i in self.stepper.stove_slots:
            ready = ready_time(state.surfaces[i])
            if ready is not None:
                out.add(ready if ready > now else now + 1)  # overdue: the next tick finishes it
        return sorted(t for t in out if t > now)

    def macro(
        self, state: State, now: float, tile: int, when: float, act: str, name: str, changes: list[float]
    ) -> tuple[Action, ...]:
        """Walk to tile (ticking at each change on the way), wait until `when`, then act."""
        geo = self.geo
        d = geo.dist[state.tile][tile]
        out: list[Action] = []
        if d:
            src, dst = geo.tiles[state.tile], geo.tiles[tile]
            inside = [e for e in changes if now < e < now + d]
            if inside:
                path = self.level.path(src, dst)
                out += [Action("MoveTo", path[int(e - now)]) for e in inside]
            out.append(Action("MoveTo", dst))
        at = now + d
        for e in changes:
            if at < e < when:
                out.append(Action("Wait", duration=e - at))
                at = e
        if when > at:
            out.append(Action("Wait", duration=when - at))
        out.append(Action(act, name))
        return tuple(out)

    def successors(self, state: State, now: float):
        changes = self.changes(state, now)
        for name, kind, tiles in self.targets:
            acts = self.acts(state, name, kind)
            if not acts:
                continue
            for tile in tiles:
                arrive = now + self.geo.dist[state.tile][tile]
                for act in acts:
                    for when in self.moments(state, name, kind, act, arrive, now):
                        actions = self.macro(state, now, tile, when, act, name, changes)
                        yield (
                            actions,
                            self.transition(state, now, actions, (name, kind, act, tile, when), changes),
                        )

    def transition(self, state: State, now: float, actions: tuple[Action, ...], what: tuple, changes: list):
        """The engine's step, remembered: an Interact or Process at a table, board, dispenser,
        sink or trash, with no pan or pot in hand or on it, does the same to hand and station
        whenever it happens; when nothing changes by itself during the macro either, the
        remembered effect is the whole step."""
        name, kind, act, tile, when = what
        slot = self.stepper.slot.get(name)
        top = None if slot is None else state.surfaces[slot]
        end = when + (PROCESS_TIME[kind] if act == "Process" else 0)
        steady = (
            kind in PLAIN_KINDS
            and not is_cookware(state.held)
            and not is_cookware(top)
            and (not changes or end < changes[0])
        )
        if not steady:
            return self.stepper.step(state, now, actions)
        memo = (name, act, state.held, top)
        effect = self.effects.get(memo, MISSING)
        if effect is MISSING:
            stepped = self.stepper.step(state, now, actions)
            self.effects[memo] = (
                None
                if stepped is None
                else (stepped[0].held, top if slot is None else stepped[0].surfaces[slot])
            )
            return stepped
        if effect is None:
            return None
        held, new_top = effect
        surfaces = state.surfaces
        if slot is not None:
            surfaces = surfaces[:slot] + (new_top,) + surfaces[slot + 1 :]
        return State(tile, held, surfaces, state.dirty, state.pending, state.served), end

    def moments(self, state: State, name: str, kind: str, act: str, arrive: float, now: float) -> list[float]:
        """When to act: on arrival, or at the change the action waits for."""
        out = [arrive]
        if act != "Interact":
            return out
        if kind == "stove":
            ready = ready_time(state.surfaces[self.stepper.slot[name]])
            if ready is not None:
                ready = max(ready, now + 1)
                if ready > arrive and state.held is None and self.stepper.pauses:
                    # lifting it pauses its cooking: idling first, on the stove, may be better
                    out = list(range(int(arrive), int(ready) + 1))
                elif ready > arrive:
                    out.append(ready)
        elif kind == "plate_return" and not state.dirty and not any(p <= arrive for p in state.pending):
            out = [min(state.pending)] if state.pending else []  # wait for the next dirty plate
        return out

    def key(self, state: State, now: float) -> Any:
        for i in self.stepper.stove_slots:
            ready = ready_time(state.surfaces[i])
            if ready is not None and ready <= now:  # finishes at the next tick, whenever it is
                return (state, now)
        return state

    # -- A* -----------------------------------------------------------------------------------------
    def run(self) -> Outcome:
        started = clock.monotonic()
        start = self.stepper.start()
        h0 = self.estimate.value(start, 0)
        if h0 >= INF:
            return Outcome("unsolvable", reason="an order needs something the agent cannot reach or make")
        best: dict[Any, float] = {self.key(start, 0): 0}
        parents: list[tuple[int, tuple[Action, ...]]] = [(-1, ())]
        heap = [(h0, 0, 0, 0, start)]
        expanded = 0
        orders = len(self.level.orders)
        while heap:
            f, _, now, node, state = heapq.heappop(heap)
            if best.get(self.key(state, now), INF) < now:
                continue
            if state.served == orders:
                return self.finish(node, parents, now, expanded, started)
            expanded += 1
            if expanded > self.max_states or (
                self.time_limit is not None
                and expanded % 256 == 0
                and clock.monotonic() - started > self.time_limit
            ):
                return Outcome(
                    "budget",
                    states=expanded,
                    seconds=clock.monotonic() - started,
                    reason=f"stopped after {expanded - 1} states",
                )
            for actions, stepped in self.successors(state, now):
                if stepped is None:
                    continue
                new, t = stepped
                key = self.key(new, t)
                if best.get(key, INF) <= t:
                    continue
                h = self.estimate.value(new, t)
                if h >= INF:
                    continue
                best[key] = t
                parents.append((node, actions))
                heapq.heappush(heap, (h, -t, t, len(parents) - 1, new))
        return Outcome(
            "unsolvable",
            states=expanded,
            seconds=clock.monotonic() - started,
            reason="every reachable state was searched and none serves every order",
        )

    def finish(self, node: int, parents: list, oct_: float, expanded: int, started: float) -> Outcome:
        actions: list[Action] = []
        while node > 0:
            node, step = parents[node]
            actions[:0] = step
        plan = {self.stepper.agent_name: [a.to_dict() for a in actions]}
        result = simulate(self.level, plan, self.rules, record=False)
        if not (result.done and result.time == oct_):
            raise AssertionError(
                f"exact search: the plan found runs to {result.time} (done={result.done}, "
                f"error={result.error}), not {oct_}"
            )
        seconds = clock.monotonic() - started
        exact = Exact(oct_, plan, self.rules.name, expanded, seconds)
        return Outcome("optimal", exact, expanded, seconds)


def is_ingredient(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 2


def stove_takes(held: Any, top: Any) -> bool:
    """Can an Interact at a stove holding `top` succeed with `held` in hand (the stove rule)?"""
    if held is None:
        return top is not None
    if top is None:
        return is_cookware(held)
    if is_ingredient(held):
        name, state = held
        if top[0] == "pan":
            return state == "chopped" and name in PAN_INGREDIENTS
        return state == "raw" and name in POT_INGREDIENTS
    return is_plate(held)


def is_cookware(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 3 and code[0] in COOKWARE_TIME


def is_plate(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 3 and code[0] == "plate"


def check_supported(level: Level) -> None:
    if len(level.agents) != 1:
        raise Unsupported(f"the exact search is for one agent; this level has {len(level.agents)}")
    for option in ("burn_after", "serve_within"):
        if level.options.get(option) is not None:
            raise Unsupported(f"the exact search does not handle the {option} option")


def exact_search(
    level: Level,
    rules: str | RuleSet = "paracook",
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> Outcome:
    """Search for the least OCT; see Outcome for how it ends. `max_states` (expanded states)
    keeps the answer deterministic; `time_limit` (seconds) may end it sooner on a slow machine."""
    check_supported(level)
    return Search(level, get_rules(rules), max_states, time_limit).run()


def exact_optimum(
    level: Level,
    rules: str | RuleSet = "paracook",
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> Exact | None:
    """The least OCT over every valid plan, with a plan reaching it; None when unknown (the
    budget ran out) or when no plan serves the orders."""
    return exact_search(level, rules, max_states, time_limit).exact


__all__ = ["DEFAULT_MAX_STATES", "Exact", "Outcome", "Unsupported", "exact_optimum", "exact_search"]
