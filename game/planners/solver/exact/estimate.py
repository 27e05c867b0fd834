"""The admissible heuristic of the exact one-agent search: a time before which no plan from a
state can serve its last order."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from game.engine import Level
from game.engine.kitchen import CHOP_TIME
from game.engine.level import COOKWARE_TIME, default_cookware

from ..model import INF, Geometry
from .state import DIRTY, State, Stepper, is_plate, ready_time

AGENT = ""  # an item's place when the agent holds it


ASSEMBLY_CACHE = 200_000  # entries kept (about one per state searched)


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
        self.kind_count = [Counter(s.cookware for s in specs if s.cookware) for specs in self.needs]
        self._group_cost: dict[tuple[str, str], float] = {}  # see `assembly_cost`
        self._assembly: dict[tuple, float] = {}
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
        kinds = self.kind_count[state.served]
        ready_lb = {kind: self.cook_bound(cookware, kind, now, n > 1) for kind, n in kinds.items()}
        by_item: dict[str, list[tuple]] = {}
        for item in items:
            by_item.setdefault(item[0], []).append(item)
        best = now + window
        carries = 0
        to_stove = {"pan": 0, "pot": 0}
        meets: list[tuple[str | None, list[tuple[str, str]]]] = []
        to_cook: list[tuple[str, float, float]] = []  # needs not in any pan or pot yet
        for spec in specs:
            if spec.state == "missing":
                return INF
            chain, chop, stove, meet, started = self.need_bound(
                spec, by_item.get(spec.item, ()), ready_lb, tile, now
            )
            if chain >= INF:
                return INF
            best = max(best, chain)
            carries += chop
            if spec.cookware:
                to_stove[spec.cookware] = max(to_stove[spec.cookware], stove)
                if not started:
                    to_cook.append((spec.cookware, chop, stove))
            meets.append((spec.cookware, tuple(meet)))
        plate, first = self.plate_and_start(state, specs, tuple(meets), tile)
        if plate >= INF:
            return INF  # no plate the agent can reach, and none to wash
        hands = now + first + carries + to_stove["pan"] + to_stove["pot"] + plate
        if len(to_cook) > 1 and all(ready_lb[k][0] and ready_lb[k][2] >= INF for k, _, _ in to_cook):
            best = max(best, now + first + self.last_batch(to_cook))
        return math.ceil(max(best, hands))

    def plate_and_start(self, state: State, specs: list, meets: tuple, tile: int) -> tuple[float, float]:
        """The least time a plate can be assembled (the next order's parts `meets` brought to
        it) and taken to the window, and the walk to the agent's first station (0 when it holds
        something)."""
        plate = INF
        first = INF if state.held is None else 0
        meets = tuple(meets[: self.first_needs[state.served]])  # the next order's plate
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
        return plate, first

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
        candidates = [(st, where, inside) for _, st, where, inside in items]  # items of spec.item
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

    def assembly(self, plate: str, meets: tuple, tile: int) -> float:
        """`assembly_cost`, cached: states differ mostly in time, seldom in this."""
        key = (plate, meets, tile)
        got = self._assembly.get(key)
        if got is None:
            if len(self._assembly) >= ASSEMBLY_CACHE:
                self._assembly.clear()
            got = self._assembly[key] = self.assembly_cost(plate, meets, tile)
        return got

    def assembly_cost(self, plate: str, meets: tuple, tile: int) -> float:
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
                elif plate != AGENT:
                    c = min(c, self.group_cost(plate, where))
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

    def group_cost(self, plate: str, group: str) -> float:
        """From a plate on a station, by way of a station of the group, to a window; cached."""
        key = (plate, group)
        got = self._group_cost.get(key)
        if got is None:
            window = self.station_to["window"]
            got = min((self.between[plate][s] + window[s] for s in self.groups[group]), default=INF)
            self._group_cost[key] = got
        return got

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
