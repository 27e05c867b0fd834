"""The building blocks of the hands' program (`hand_bound`): a flow over (tile, hand), where a
hand is what an agent holds (the letters of `hands`), and the changes of hand at stations.

The parts of the program (`hand_pans`, `hand_plating`, `hand_reach`, `hand_turns`) add their
variables and constraints through these; `hand_bound.HandProgram` puts them together."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from game.engine import Level

from .bounder import Bounder
from .cost import Cost
from .hands import (
    CARRIED,
    COOKED,
    DIRTY,
    EMPTY,
    PANNED,
    POT,
    POTTED,
    RAW,
    cooked_items,
    extra_hands,
    plate_hands,
    totals,
)
from .lp_rows import add_row, total


class HandFlow:
    """The program's variables and the ways to add changes of hand to it."""

    def __init__(self, level: Level, b: Bounder):
        # ortools takes most of a second to load: it loads when a bound is first worked out, not
        # when the package is imported (a window asking for `known_bound` on its own thread)
        from ortools.linear_solver import pywraplp

        self.level = level
        self.b = b
        self.lp = pywraplp.Solver.CreateSolver("GLOP")
        # each round of cuts solves again from the last basis: the dual simplex takes up from it
        self.lp.SetSolverSpecificParametersAsString("use_dual_simplex: true use_preprocessing: false")
        self.spent = Cost()  # the work of building and solving the program, in estimated seconds
        self.tiles = self._reachable()
        self.most = self._things()  # how many things each hand may carry in all
        # the hands that carry something on this level (the others would stay empty)
        self.hands = (EMPTY, *(h for h in (*CARRIED, *extra_hands(b)) if self.most.get(h)))
        self.stand = {s.name: [p for p in level.neighbours(s.pos) if p in self.tiles] for s in level.stations}
        # per (tile, hand): flow in minus flow out, as lists of (sign, variable)
        self.balance: dict[tuple, list] = {(p, h): [] for p in self.tiles for h in self.hands}
        self.inflow: dict[tuple, list] = {key: [] for key in self.balance}  # arrivals in each hand
        self.steps: dict[tuple, list] = {}  # (tile, next tile): the step, in any hand
        self.cost: list = []
        # per (counter, hand): the changes that put such a thing on it and take one off, as
        # (tile, variable)
        self.turns: dict[tuple[str, str], tuple[list, list]] = {}
        self.chops: dict[str, list] = {}  # raw ingredients put on each board to be chopped
        self.initial = {s.name for s in level.stations if s.item}  # counters that start full
        # per stove: the changes that bring it food to cook, and those that use such food up
        self.food: dict[str, list] = {s: [] for s in b.stoves}
        self.uses: dict[str, list] = {s: [] for s in b.stoves}
        self.onto: dict[str, list] = {}  # cookware carried onto each stove with food to cook (K)
        # per (counter, kind of thing): the changes that make one lie there and those that end it
        self.lying: defaultdict[tuple[str, str], tuple[list, list]] = defaultdict(lambda: ([], []))
        # per tile: every change there, with how often one visit may make it at most: as often as
        # there are things of its kind (`HandProgram.presence`)
        self.events: defaultdict[tuple, list] = defaultdict(list)

    def solve_lp(self) -> bool:
        """Solve the program as it stands (its work counted in `spent`); whether it is optimal."""
        status = self.lp.Solve()
        self.spent.lp_solved(self.lp)
        return status == self.lp.OPTIMAL

    def _things(self) -> dict[str, int]:
        """Per hand, how many things it may carry in all, so how often one visit may pick one up or
        put one down: the plates served, the ingredients of each kind, the dirty plates washed."""
        b = self.b
        kinds = [k for items in b.dishes for _, k in items]
        n = len(b.dishes)
        out = dict.fromkeys(plate_hands(b), n) | totals(b)
        out |= {RAW: kinds.count("chop") + kinds.count("pan"), POTTED: kinds.count("pot")}
        out |= {POT: cooked_items(b), COOKED: cooked_items(b), PANNED: kinds.count("pan")}
        out[DIRTY] = max(0, n - len(b.plates))
        return out

    def _reachable(self) -> set:
        tiles: set = set()
        for a in self.level.agents:
            tiles.update(self.level.distances(a.pos))
        return tiles

    # -- building blocks ------------------------------------------------------------------
    def var(self, name: str):
        return self.lp.NumVar(0.0, self.lp.infinity(), name)

    def change(self, tile, before: str, after: str, name: str):
        """A hand at `tile` changes from `before` to `after`, as often as the variable says."""
        v = self.var(name)
        if (tile, before) not in self.balance or (tile, after) not in self.balance:
            v.SetUb(0.0)  # a hand this level has no use for
            return v
        self.balance[(tile, before)].append((-1, v))
        self.balance[(tile, after)].append((1, v))
        self.inflow[(tile, after)].append(v)
        most = self.most.get(after if after != EMPTY else before, 0)
        if most:
            self.events[tile].append((v, most))
        return v

    def change_out(self, tile):
        v = self.var(f"end{tile}")
        self.balance[(tile, EMPTY)].append((-1, v))
        return v

    def changes(self, stations: Iterable[str], before: str, after: str, tag: str) -> dict[str, list]:
        return {
            s: [self.change(p, before, after, f"{tag}{s}{p}") for p in self.stand.get(s, ())]
            for s in stations
        }

    def exactly(self, count: int, *groups: dict[str, list]) -> bool:
        """These changes happen `count` times in all; False when they cannot happen at all."""
        vs = [v for group in groups for g in group.values() for v in g]
        if not vs:
            return count == 0
        add_row(self.lp, total(vs), "==", count)
        return True

    def needed(self, kinds: tuple[str, ...]) -> dict[str, int]:
        """How many of each ingredient prepared in one of these ways the orders need."""
        need: dict[str, int] = {}
        for items in self.b.dishes:
            for item, kind in items:
                if kind in kinds:
                    need[item] = need.get(item, 0) + 1
        return need

    def relays(self, holders: list[str], hand: str, kind: str | None = None) -> tuple[dict, dict]:
        """Things in this hand put on counters and taken off them (counted as things of `kind`
        for the turn cuts: a plate is one whatever it holds)."""
        puts = self.changes(holders, hand, EMPTY, f"put{hand}")
        takes = self.changes(holders, EMPTY, hand, f"take{hand}")
        self.record_turns(kind or hand, puts, takes)
        return puts, takes

    def record_turns(self, hand: str, puts: dict, takes: dict) -> None:
        """Remember these changes as things of one kind put on and taken off each counter
        (`hand_turns`)."""
        for s in puts:
            on, off = self.turns.setdefault((s, hand), ([], []))
            on += zip(self.stand[s], puts[s], strict=True)
            off += zip(self.stand[s], takes[s], strict=True)

    def balanced(self, puts: dict, takes: dict) -> None:
        for s in puts:  # what is put down here is taken up again
            add_row(self.lp, total(puts[s]), "==", total(takes[s]))
