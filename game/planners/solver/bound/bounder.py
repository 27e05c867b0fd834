"""A lower bound on the OCT of any valid plan, under either rule set.

Relaxations used (each holds for every plan):
- Items move only in a hand or in a carried container, one tile per time unit. With several
  agents an item may be put on a station from one side and picked up from another, so carrying
  distances are measured on floor tiles where all tiles next to one holding station count as
  one place (`Carry`); a lone agent walks every tile itself. From the start, an item is taken
  from a side only once some agent can have walked there (two agents: `TeamCarry`).
- The first agent reaches a dispenser no sooner than its walking distance.
- A pot or pan finishes its K-th ingredient no sooner than dur * K after its first ingredient went
  in (both rule sets: `paracook` counts from the first ever, `documented` cooks batches one after
  another), and no ingredient is cooked before it is in cookware on a stove. The first goes in
  only once the food and that piece have met at a station, each brought from where it starts.
  Each ingredient cooks in one piece: sharing the orders' ingredients out over the pieces, a
  piece's first is one of its own, or food cooked and thrown away before them (a turn more).
- Every part of a dish meets a plate at some station, and the plate then reaches a window.
- Dishes are served in order; a dish past the plates on the map needs a plate that came back
  dirty `RETURN_DELAY` after an earlier serve and was washed: `WASH_TIME` after it reached the
  sink for a lone agent, at once with company (`paracook` checks a wash when it ends, and another
  agent may have started it on the empty sink; `wash_wait`).
- Chopping boards chop one ingredient at a time (`CHOP_TIME` each), each board from when an ingredient can
  first reach it.
- Agents work one action at a time: the carrying, chopping and washing the dishes need, shared out
  over the agents, takes at least its total divided by the number of agents (carrying counted as
  if handed over at stations even for a lone agent, which may leave several items on a counter
  and walk round it once).
- Agents hold one thing at a time: the walking that moving raw ingredients to the boards, chopped
  ones to the pans and plates to the windows (by way of the cookware their dishes cook in)
  takes, walking back included, and the walk from the starts to every kind of place the orders
  need, is at least a linear program's optimum (`hand_bound`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from game.engine import Level
from game.engine.kitchen import CHOP_TIME, RETURN_DELAY, WASH_TIME
from game.engine.level import COOKWARE_TIME, PAN_INGREDIENTS, POT_INGREDIENTS, default_cookware

from ..model import INF
from .carry import NOT_HOLDING, Carry
from .team_carry import TeamCarry

MAX_SHARINGS = 50_000  # ways to share ingredients out over pots or pans that are tried in full


@dataclass
@dataclass
class Bound:
    value: int  # INF when no plan can serve the level (something needed is out of reach)
    terms: dict[str, int] = field(default_factory=dict)  # the strongest argument of each kind
    # the seconds working it out is estimated to take, from the solvers' counts of their work
    # (`cost`): the same on every machine, so that the planner can take them from its limit
    cost: float = 0.0

    @property
    def finite(self) -> bool:
        return self.value < INF

    def describe(self) -> str:
        if not self.finite:
            return "none: no plan can serve this level (something it needs is out of reach)"
        return f"{self.value} ({', '.join(f'{k} {v}' for k, v in self.terms.items())})"


class Bounder:
    """The relaxations per dish (see the module docstring) and the distances they share."""

    def __init__(self, level: Level):
        self.level = level
        # how soon an item can get somewhere: a lone agent hands nothing over (what it puts down
        # on one side it walks round to take), so it walks every tile the item travels; two
        # agents hand over only where the other one can be (`TeamCarry`); more are counted as
        # if a helper stood behind every counter ...
        agents = len(level.agents)
        if agents == 2:
            self.carry: Carry = TeamCarry(level)
        else:
            self.carry = Carry(level, handoffs=agents > 1)
        # ... but how long items are held is shorter: after one walk round a counter an agent can
        # take several items it left there, so the work bound counts carrying as if handed over
        self.held = self.carry if agents > 2 else Carry(level, handoffs=True)
        stations = [s for s in level.stations]
        kinds: dict[str, list[str]] = {}
        for s in stations:
            if s.kind and s.name not in kinds.get(s.kind, []):
                kinds.setdefault(s.kind, []).append(s.name)
        self.kinds = kinds
        self.windows = kinds.get("serving_window", [])
        self.boards = kinds.get("chopping_board", [])
        self.stoves = kinds.get("stove", [])
        self.sinks = kinds.get("sink", [])
        returns = [s.name for s in stations if s.kind == "plate_return"]
        self.plate_return = returns[0] if returns else None
        self.plates = [s.name for s in stations if s.item == "plate"]
        # the pots and pans where they start, by kind
        self.wares = {k: [s.name for s in stations if s.item == k] for k in COOKWARE_TIME}
        self.cookware = {k: len(names) for k, names in self.wares.items()}
        self.dispensers: dict[str, list[str]] = {}
        for s in stations:
            if s.kind == "dispenser" and s.provides:
                self.dispensers.setdefault(s.provides, []).append(s.name)
        self.agents = [a.pos for a in level.agents]
        # where food and cookware, or a part and its plate, can meet: any station that holds
        # what is put on it
        self.meeting_places = [s.name for s in stations if s.kind and s.kind not in NOT_HOLDING + ("sink",)]
        self._firsts: dict[str, list[int]] = {}  # per kind of cookware, see `firsts`
        self._first_with: dict[tuple[str, str], int] = {}  # see `first_with`
        self.serves: list[int] = []  # per dish, the earliest it can be served (set by `bound`)
        self.dishes = []
        for order in level.orders:
            recipe = level.recipe_book.get(order)
            items = []
            for ing in recipe.ingredients if recipe else ():
                kind = {"raw": "raw", "chopped": "chop"}.get(ing.state)
                if ing.state == "cooked":
                    kind = ing.cookware or default_cookware(ing.item)
                items.append((ing.item, kind or "raw"))
            self.dishes.append(items)

    # -- distances ---------------------------------------------------------------------
    def walk_to(self, station: str) -> int:
        """Earliest any agent can stand next to the station."""
        adj = set(self.carry.adjacent[station])
        best = INF
        for pos in self.agents:
            dist = self.level.distances(pos)
            best = min([best] + [dist[p] for p in adj if p in dist])
        return best

    def fetch(self, a: str, b: str) -> int:
        """Earliest an item waiting at a (from the start) can be held next to b."""
        together = self.carry.from_start(a, b)
        return together if together is not None else self.walk_to(a) + self.cd(a, b)

    def cd(self, a: str, b: str) -> int:
        return self.carry.between(a, b)

    def hd(self, a: str, b: str) -> int:
        """Least time some agent holds an item carried from a to b."""
        return self.held.between(a, b)

    def to_window(self, station: str) -> int:
        return min((self.cd(station, w) for w in self.windows), default=INF)

    # -- per ingredient -------------------------------------------------------------------
    def chopped_at(self, item: str) -> list[tuple[str, int]]:
        """(board, earliest end of chopping this item there) for every board."""
        out = []
        for b in self.boards:
            t = min((self.fetch(d, b) for d in self.dispensers.get(item, ())), default=INF)
            out.append((b, t + CHOP_TIME))
        return out

    def first_in(self, kind: str) -> int:
        """Earliest any ingredient can go into cookware of this kind."""
        return min(self.firsts(kind), default=INF)

    def firsts(self, kind: str) -> list[int]:
        """For each pot or pan of this kind, earliest, ascending, its cooking can start counting
        for the orders: an ingredient they need goes in (`first_with`), or other food cooked and
        thrown away before it (`warm_start`)."""
        if kind in self._firsts:
            return self._firsts[kind]
        foods = sorted({item for items in self.dishes for item, k in items if k == kind})
        out = [
            min([self.first_with(kind, c, item) for item in foods] + [self.warm_start(kind, c)])
            for c in self.wares[kind]
        ]
        self._firsts[kind] = sorted(out)
        return self._firsts[kind]

    def warm_start(self, kind: str, ware: str) -> int:
        """Under `paracook` a pot or pan counts from its first ingredient ever, so food no order
        needs, cooked and thrown away first, starts the count sooner, but takes a turn of it:
        as if the orders' first went in one cooking time after that food."""
        accepted = POT_INGREDIENTS if kind == "pot" else PAN_INGREDIENTS
        return (
            min((self.first_with(kind, ware, i) for i in sorted(accepted)), default=INF) + COOKWARE_TIME[kind]
        )

    def first_with(self, kind: str, ware: str, item: str) -> int:
        """Earliest this ingredient can go into this pot or pan: the food and the cookware must
        meet at some station (one held next to it, the other on it), each coming from where it
        starts (cookware may be carried to the food)."""
        key = (ware, item)
        got = self._first_with.get(key)
        if got is None:
            got = INF
            for m in self.meeting_places:
                got = min(got, max(0 if ware == m else self.fetch(ware, m), self.food_at(item, kind, m)))
            self._first_with[key] = got
        return got

    def food_at(self, item: str, kind: str, m: str) -> int:
        """Earliest the ingredient, ready to cook, can be held next to station m."""
        if kind == "pan":
            return min((t + self.cd(b, m) for b, t in self.chopped_at(item)), default=INF)
        return min((self.fetch(d, m) for d in self.dispensers.get(item, ())), default=INF)

    def cooked_at(self, item: str, kind: str) -> list[tuple[str, int]]:
        """(stove, earliest the ingredient is cooked there) for every stove: it must be on the
        stove in its cookware, and cookware counts its time from its first ingredient."""
        first = self.first_in(kind) + COOKWARE_TIME[kind]
        return [(s, max(self.food_at(item, kind, s), first)) for s in self.stoves]

    def part_at(self, item: str, kind: str, m: str) -> int:
        """Earliest the ingredient, prepared as the dish wants it, can be held next to m."""
        if kind == "raw":
            return min((self.fetch(d, m) for d in self.dispensers.get(item, ())), default=INF)
        made = self.chopped_at(item) if kind == "chop" else self.cooked_at(item, kind)
        return min((t + self.cd(where, m) for where, t in made), default=INF)

    def served(self, item: str, kind: str, plated: bool) -> int:
        """Earliest a dish with this part can be served: the part and a plate meet at some
        station, and the plate goes on to a window (with `plated`, one of the map's plates)."""
        best = INF
        for m in self.meeting_places:
            plate = min((0 if p == m else self.fetch(p, m) for p in self.plates), default=INF)
            meet = max(self.part_at(item, kind, m), plate if plated else 0)
            best = min(best, meet + self.to_window(m))
        # the direct carry can be longer than by way of a station (hand-overs differ)
        direct = min((self.part_at(item, kind, w) for w in self.windows), default=INF)
        return max(best, direct)

    # -- the bound ----------------------------------------------------------------------
    def bound(self) -> Bound:
        n = len(self.dishes)
        plates = len(self.plates)
        agents = max(1, len(self.agents))
        plate_first = min((self.fetch(p, w) for p in self.plates for w in self.windows), default=INF)
        wash_cycle = INF
        if self.plate_return and self.sinks:
            wash_cycle = min(
                RETURN_DELAY + self.cd(self.plate_return, s) + self.wash_wait() + self.to_window(s)
                for s in self.sinks
            )
        earliest = [
            max([1] + [self.served(i, k, d < plates) for i, k in items])
            for d, items in enumerate(self.dishes)
        ]
        terms = {"dish": 0, "order": 0, "plates": 0, "cookware": 0, "boards": 0, "work": 0}
        serve: list[int] = []
        for d in range(n):
            own = max(earliest[d], plate_first if d < plates else 0)
            terms["dish"] = max(terms["dish"], own)
            s = max(own, serve[-1] if serve else 0)
            if d >= plates:
                s = max(s, serve[d - plates] + wash_cycle)
                terms["plates"] = max(terms["plates"], serve[d - plates] + wash_cycle)
            for name, value in (
                ("cookware", self.cookware_bound(d)),
                ("boards", self.board_bound(d)),
                ("work", -(-self.work(d) // agents)),
            ):
                terms[name] = max(terms[name], value)
                s = max(s, value)
            serve.append(s)
        terms["order"] = serve[-1]
        self.serves = serve
        return Bound(min(serve[-1], INF), {k: min(v, INF) for k, v in terms.items()})

    def wash_wait(self) -> int:
        """How long a dirty plate must stand in a sink before it is clean. A lone agent puts it
        down and then washes it (`WASH_TIME`). With company, under `paracook` (sinks not
        exclusive, a Process's effect checked when it ends), one agent may start washing the
        empty sink and another put the plate in just before that ends: no time at all."""
        return WASH_TIME if len(self.agents) <= 1 else 0

    def cookware_bound(self, d: int) -> int:
        best = 0
        for kind in COOKWARE_TIME:
            named = [i for items in self.dishes[: d + 1] for i, k in items if k == kind]
            if named and self.cookware[kind]:
                out = min((self.to_window(s) for s in self.stoves), default=INF)
                best = max(best, self.cooked_by(kind, len(named), named) + out)
        return best

    def cooked_by(self, kind: str, count: int, items: list[str] | None = None) -> int:
        """Earliest `count` ingredients can all be cooked: each pot or pan cooks its n-th no
        sooner than n * dur after its first went in. Giving each next ingredient to the piece
        that would finish it soonest is optimal for this. With the ingredients named (`items`),
        also no sooner than the best sharing of them out over the pieces allows (`shared_out`)."""
        dur = COOKWARE_TIME[kind]
        ends = list(self.firsts(kind))
        if not ends:
            return INF
        done = 0
        for _ in range(count):
            k = min(range(len(ends)), key=lambda i: ends[i] + dur)
            ends[k] += dur
            done = max(done, ends[k])
        if items and len(self.wares[kind]) ** len(items) <= MAX_SHARINGS:
            done = max(done, self.shared_out(kind, items))
        return done

    def shared_out(self, kind: str, items: list[str]) -> int:
        """The least time the named ingredients can all be cooked, over every way of sharing them
        out over the pots or pans of this kind: a piece given n of them finishes its last no
        sooner than n * dur after its first ingredient went in, which is one of them (or
        other food, `warm_start`)."""
        dur = COOKWARE_TIME[kind]
        wares = self.wares[kind]
        own = [[self.first_with(kind, c, item) for item in items] for c in wares]
        warm = [self.warm_start(kind, c) for c in wares]
        best = INF
        for sharing in itertools.product(range(len(wares)), repeat=len(items)):
            worst = 0
            for c in set(sharing):
                mine = [own[c][j] for j, k in enumerate(sharing) if k == c]
                worst = max(worst, min(min(mine), warm[c]) + len(mine) * dur)
            best = min(best, worst)
        return best

    def board_bound(self, d: int) -> int:
        items = [i for items in self.dishes[: d + 1] for i, k in items if k in ("chop", "pan")]
        if not items or not self.boards:
            return 0
        # each board chops its first no sooner than an ingredient can reach it; each next one
        # goes to the board that would finish it soonest
        ends = [
            min(t - CHOP_TIME for i in set(items) for b, t in self.chopped_at(i) if b == board)
            for board in self.boards
        ]
        done = 0
        for _ in items:
            k = min(range(len(ends)), key=lambda j: ends[j])
            ends[k] += CHOP_TIME
            done = max(done, ends[k])
        return done + min(self.to_window(b) for b in self.boards)

    def work(self, d: int) -> int:
        """Carrying, chopping and washing that dishes 0..d cannot do without."""
        total = 0
        origins = self.plates + self.sinks
        plate_trip = min((self.hd(p, w) for p in origins for w in self.windows), default=0)
        for items in self.dishes[: d + 1]:
            pan_trip = pot_trip = 0
            for item, kind in items:
                disps = self.dispensers.get(item, ())
                if kind in ("chop", "pan"):
                    total += CHOP_TIME + min((self.hd(x, b) for x in disps for b in self.boards), default=0)
                if kind == "pan":
                    pan_trip = max(
                        pan_trip, min((self.hd(b, s) for b in self.boards for s in self.stoves), default=0)
                    )
                if kind == "pot":
                    pot_trip = max(
                        pot_trip, min((self.hd(x, s) for x in disps for s in self.stoves), default=0)
                    )
            total += pan_trip + pot_trip + plate_trip
        washes = max(0, d + 1 - len(self.plates))
        if washes and self.plate_return and self.sinks:
            total += washes * (WASH_TIME + min(self.hd(self.plate_return, s) for s in self.sinks))
        return total
