"""A lower bound on the agents' walking that knows an agent holds one thing at a time.

Every valid plan moves these things, each in one hand and alone:
- every raw ingredient that is chopped for a served dish (F), from its dispenser to a board: a raw
  ingredient in a container never comes out alone again, and a board chops only a lone one;
- every plate that is served (P), from where its life starts (a table it stands on, or a sink
  that washed it) to a serving window;
- every dirty plate that is washed for a serve (R), from the plate return to a sink;
- every chopped ingredient a pan cooks (X), from its board to a stove (`hand_pans`);
- every part of a dish onto its plate (`hand_plating`): its cooked food, in its cookware (C),
  each chopped ingredient not cooked (G) and each raw one (N), unless the plate is brought to it.

Follow each agent tile by tile up to the last serve, its hand empty-or-holding-something-else (E)
or holding one of the above. Summed over the agents this is a flow over (tile, hand) with a unit
leaving each agent's start: one step costs 1, a pick-up turns E into F, P or R where it can
happen, a put-down turns it back, and a station keeps count of what was put on it and taken from
it (a hand-over). So the least cost of such a flow, a linear program, is at most the agents'
total walking; with the chopping and washing they must do besides, divided over the agents, it is
a lower bound on the OCT. Unlike the other bounds it counts walking back empty-handed: to fetch
the next ingredient, from the window after a serve. And the agents' walks reach every kind of
place the orders need from where they start: at least a Steiner tree (`visit_tree`), and across
every cut that the program's loops might otherwise leave unvisited (`hand_reach`). A lone agent
also walks round every counter it puts something on from one side and takes it from another
(`hand_turns`).
"""

from __future__ import annotations

import math

from game.engine import Level
from game.engine.kitchen import CHOP_TIME, WASH_TIME

from ..model import INF
from .bounder import Bounder
from .cost import Cost
from .hand_flow import HandFlow
from .hand_pans import pan_trips
from .hand_plating import plate_meetings, served_phases, settle
from .hand_reach import must_visit, reach_cuts
from .hands import CHOPPED, DIRTY, EMPTY, PLATE, POT, POTTED, RAW, SURFACES, plate_hands
from .lp_rows import add_row, minimize, signed, total
from .visit_tree import visit_tree

EPS = 1e-6  # an LP optimum a hair above an integer is that integer


def hand_bound(level: Level, bounder: Bounder | None = None, spent: Cost | None = None) -> int:
    """The least OCT the agents' hands allow (0 when the level has nothing to bound); the work
    it took is added to `spent`."""
    b = bounder or Bounder(level)
    walk = least_walking(level, b, spent)
    if walk is None:
        return 0
    chops = sum(1 for items in b.dishes for _, k in items if k in ("chop", "pan"))
    washes = max(0, len(b.dishes) - len(b.plates))
    return -(-(walk + CHOP_TIME * chops + WASH_TIME * washes) // max(1, len(level.agents)))


def least_walking(level: Level, bounder: Bounder | None = None, spent: Cost | None = None) -> int | None:
    """The least total walking of all agents before the last serve; None when it cannot tell."""
    if not level.orders or not level.agents:
        return None
    program = HandProgram(level, bounder or Bounder(level))
    walk = program.solve()
    if spent is not None:
        spent.seconds += program.spent.seconds
    return walk


class HandProgram(HandFlow):
    """The whole program: walking, the things every plan moves, the cuts; its optimum."""

    # -- the model --------------------------------------------------------------------------
    def solve(self) -> int | None:
        if not self.tiles:
            return None
        self._walking()
        for a in self.level.agents:
            self.balance[(a.pos, EMPTY)].append((1, 1.0))
        ends = []
        for p in sorted(self.tiles):  # an agent may stop anywhere, empty-handed
            ends.append(self.change_out(p))
        add_row(self.lp, total(ends), "==", len(self.level.agents))
        holders = [s.name for s in self.level.stations if s.kind in SURFACES]
        if not self._raw(holders) or not self._potted(holders) or not self._plates(holders):
            return None  # something needed is out of reach: the other bounds say so
        if not pan_trips(self, holders):
            return None
        settle(self)
        self._visits()
        self.presence()
        for terms in self.balance.values():
            add_row(self.lp, signed(terms), "==", 0)
        minimize(self.lp, total(self.cost))
        self.spent.lp_built(self.lp)
        if not self.solve_lp() or not reach_cuts(self):
            return None
        return max(0, math.ceil(self.lp.Objective().Value() - EPS))

    def _visits(self) -> None:
        """The agents walk at least a tree touching every kind of place they must visit."""
        tree = visit_tree(self.tiles, {a.pos for a in self.level.agents}, must_visit(self))
        if 0 < tree < INF:
            add_row(self.lp, total(self.cost), ">=", tree)

    def presence(self) -> None:
        """A hand changes only on a tile an agent walks onto (or starts on), at most as often per
        visit as there are things of its kind."""
        starts = {a.pos for a in self.level.agents}
        into: dict = {}
        for (_, q), vs in self.steps.items():
            into.setdefault(q, []).extend(vs)
        for p, changes in self.events.items():
            if p in starts:
                continue
            for v, most in changes:
                add_row(self.lp, total([v]), "<=", total(into.get(p, []), most))

    def _walking(self) -> None:
        for p in self.tiles:
            for q in self.level.neighbours(p):
                if q in self.tiles:
                    hands = []
                    for h in self.hands:
                        v = self.var(f"w{h}{p}{q}")
                        self.balance[(p, h)].append((-1, v))
                        self.balance[(q, h)].append((1, v))
                        self.inflow[(q, h)].append(v)
                        hands.append(v)
                    # the step in any hand, one variable, so that the cuts stay short
                    step = self.var(f"s{p}{q}")
                    add_row(self.lp, total([step]), "==", total(hands))
                    self.steps[(p, q)] = [step]
                    self.cost.append(step)

    def _raw(self, holders: list[str]) -> bool:
        b = self.b
        need = self.needed(("chop", "pan"))
        if not need:
            return True
        for item, count in sorted(need.items()):
            if not self.exactly(count, self.changes(b.dispensers.get(item, ()), EMPTY, RAW, f"pick{item}")):
                return False
        self.chops = self.changes(b.boards, RAW, EMPTY, "chop")
        for s in b.boards:  # a chopped ingredient lies on the board it was chopped on
            self.lying[(s, CHOPPED)][0].extend(self.chops[s])
        if not self.exactly(sum(need.values()), self.chops):
            return False
        self.balanced(*self.relays(holders, RAW))
        return True

    def _potted(self, holders: list[str]) -> bool:
        """Rice and pasta go into a pot one at a time, alone in a hand: into a pot on a stove, or
        into one standing elsewhere, which is then carried to a stove with at most one dish's
        worth in it (a plate takes all a pot holds)."""
        b = self.b
        need = self.needed(("pot",))
        if not need:
            return True
        for item, count in sorted(need.items()):
            if not self.exactly(
                count, self.changes(b.dispensers.get(item, ()), EMPTY, POTTED, f"pick{item}")
            ):
                return False
        on_stove = self.changes(b.stoves, POTTED, EMPTY, "boil")
        elsewhere = self.changes(holders, POTTED, EMPTY, "fill")
        if not self.exactly(sum(need.values()), on_stove, elsewhere):
            return False
        self.balanced(*self.relays(holders, POTTED))
        per_pot = max(sum(1 for _, k in items if k == "pot") for items in b.dishes)
        lifts = self.changes(holders, EMPTY, POT, "lift")
        self.balanced(*self.relays(holders, POT))
        self.onto = self.changes(b.stoves, POT, EMPTY, "stove")
        for c in holders:  # a pot filled away from a stove is carried to one, and only such a pot
            add_row(self.lp, total(elsewhere[c]), "<=", total(lifts[c], per_pot))
            add_row(self.lp, total(lifts[c]), "<=", total(elsewhere[c]))
        for s in b.stoves:
            self.food[s] += on_stove[s] + self.onto[s]
        return True

    def _plates(self, holders: list[str]) -> bool:
        """Plates from where their lives start to the windows, meeting cookware on the way when
        their dishes cook (`hand_plating`)."""
        b = self.b
        n = len(b.dishes)
        washes = max(0, n - len(b.plates))
        phases = plate_hands(b)
        serves = {h: self.changes(b.windows, h, EMPTY, f"serve{h}") for h in phases}
        if not self.exactly(n, *serves.values()):
            return False
        served_phases(self, serves)
        relays = {h: self.relays(holders, h, PLATE) for h in phases}
        # per (counter, phase): what makes a plate stand there and what ends it, beside puts/takes
        here: dict[tuple[str, str], tuple[list, list]] = {}
        for s in holders:
            here[(s, PLATE)] = ([1.0] * sum(1 for p in b.plates if p == s), [])
        if washes:
            if not b.plate_return or not b.sinks:
                return False
            if not self.exactly(washes, self.changes([b.plate_return], EMPTY, DIRTY, "dirty")):
                return False
            washed = self.changes(b.sinks, DIRTY, EMPTY, "wash")
            if not self.exactly(washes, washed):
                return False
            self.balanced(*self.relays(holders, DIRTY))
            # a clean plate is taken from the sink that washed it
            clean = self.changes(b.sinks, EMPTY, PLATE, "clean")
            self.record_turns(PLATE, washed, clean)
            for s in b.sinks:
                here[(s, PLATE)] = (list(washed[s]), list(clean[s]))
        for (s, h), (made, ended) in plate_meetings(self, holders).items():
            got = here.setdefault((s, h), ([], []))
            got[0].extend(made)
            got[1].extend(ended)
        for h, (puts, takes) in relays.items():
            for s in holders:
                got = here.setdefault((s, h), ([], []))
                got[0].extend(puts[s])
                got[1].extend(takes[s])
        for made, ended in here.values():  # a plate taken or changed here stood here first
            add_row(self.lp, total(ended), "<=", total(made))
        for s in holders:  # a plate put down is taken up again
            put_down = total(v for puts, _ in relays.values() for v in puts[s])
            add_row(self.lp, put_down, "<=", total(v for _, takes in relays.values() for v in takes[s]))
        return True
