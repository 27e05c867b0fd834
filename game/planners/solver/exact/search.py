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
A* on time with an admissible heuristic (`estimate.Estimate`), re-opening, and dominance: the same
state reached later is dropped. A budget of expanded states or of work (and optionally seconds)
ends the search with "unknown", never with a wrong value. With a `weight` above 1 the same search looks
for plans instead (weighted A*, anytime): each plan it finds is checked and the search goes on
for a faster one; it proves an optimum only by running out of states to search.

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
4. Of two sides of a station, acting on arrival from one that lies beyond the other (a shortest
   path to it runs by the other side) is never better when nothing changes by itself between the
   two arrivals: acting from the nearer side has the same effect sooner, and the agent can walk
   on and still be at the far side when it would have arrived there. So it is not searched.
5. Making an ingredient no remaining order needs is never useful and is not searched: such an
   item can only sit somewhere, be moved, or be thrown away. The one exception is a paracook
   quirk: an extra batch cooked and thrown away "pre-heats" a pan or pot (its counters keep
   running), which a plan could use to cook a needed batch sooner when it reaches the cookware
   more than a full cooking time later; plans doing that are outside this search.
Scenario options that make earlier worse (`burn_after`, `serve_within`) are not supported.
"""

from __future__ import annotations

import heapq
import time as clock
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from game.engine import Level, get_rules, simulate
from game.engine.kitchen import CHOP_TIME, WASH_TIME
from game.engine.plan import Action
from game.engine.rules import RuleSet

from ..model import INF, Geometry
from .estimate import Estimate
from .state import DIRTY, State, Stepper, is_cookware, is_ingredient, is_plate, ready_time, stove_takes

DEFAULT_MAX_STATES = 300_000
YIELD_EVERY = 256  # expanded states between two progress reports
PLAIN_KINDS = ("table", "chopping_board", "dispenser", "sink", "trash")  # effects independent of time
PROCESS_TIME = {"chopping_board": CHOP_TIME, "sink": WASH_TIME}
MISSING = object()


class Unsupported(ValueError):
    """The level is outside what the exact search handles (agents, scenario options)."""


@dataclass
class Exact:
    """A plan the search found, checked by the engine; with the status optimal, a proven
    optimum: no valid plan serves every order earlier than `oct`."""

    oct: float
    plan: dict[str, list[dict[str, Any]]]
    rules: str
    states: int  # states expanded
    seconds: float


@dataclass
class Outcome:
    """How a search ended: optimal (with `exact`), unsolvable (no plan serves the orders; with
    `below`, none does so before it), budget (the state or time budget ran out first: the
    optimum is unknown, but at least `lower`, the largest estimate the search had reached) or,
    for a weighted search, found (the budget ran out after `exact`, its best plan so far)."""

    status: str
    exact: Exact | None = None
    states: int = 0
    seconds: float = 0.0
    reason: str = ""
    lower: float = 0  # a proven lower bound on the optimum (the optimum itself when found)


@dataclass
class Search:
    level: Level
    rules: RuleSet
    max_states: int
    time_limit: float | None
    below: float = INF  # only plans that serve every order before this are searched
    # > 1: weighted A*, anytime: states are taken in order of time + weight x estimate left,
    # which reaches a plan far sooner; each plan found becomes the cutoff and the search goes on
    # (ending with the best found, proven optimal only if every state below it was searched)
    weight: float = 1.0
    # a budget of work as well (None: none): one unit per successor weighed and per run of the
    # engine's step, the two costs that differ most by level; the planner's limit buys these
    max_work: int | None = None
    geo: Geometry = field(init=False)
    outcome: Outcome = field(init=False)

    def __post_init__(self) -> None:
        self.geo = Geometry(self.level)
        self.stepper = Stepper(self.level, self.rules, self.geo)
        self.estimate = Estimate(self.level, self.geo, self.stepper)
        self.targets = self._targets()
        self.effects: dict[tuple, Any] = {}  # remembered engine effects (see transition)
        self.work = 0  # units of work done (see `max_work`)
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
        here = self.geo.dist[state.tile]
        for name, kind, tiles in self.targets:
            acts = self.acts(state, name, kind)
            if not acts:
                continue
            for tile in tiles:
                arrive = now + here[tile]
                passed = self.passed(here, tile, tiles, now, changes)
                for act in acts:
                    for when in self.moments(state, name, kind, act, arrive, now):
                        if passed and when == arrive:
                            continue
                        actions = self.macro(state, now, tile, when, act, name, changes)
                        yield (
                            actions,
                            self.transition(state, now, actions, (name, kind, act, tile, when), changes),
                        )

    def passed(
        self, here: list[int], tile: int, tiles: tuple[int, ...], now: float, changes: list[float]
    ) -> bool:
        """Whether acting on arrival from this tile is never better than acting from another
        side of the station on the way to it: that side lies on a shortest path here, and
        nothing changes by itself between the two arrivals, so the action has the same effect
        there, sooner, and the agent can still be here by the time it would have arrived."""
        dist = self.geo.dist
        arrive = now + here[tile]
        for u in tiles:
            if u == tile or here[u] + dist[u][tile] > here[tile]:
                continue
            if not any(now + here[u] < c <= arrive for c in changes):
                return True
        return False

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
            self.work += 1
            return self.stepper.step(state, now, actions)
        memo = (name, act, state.held, top)
        effect = self.effects.get(memo, MISSING)
        if effect is MISSING:
            self.work += 1
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
        for _ in self.steps():
            pass
        return self.outcome

    def steps(self) -> Iterator[int]:
        """The search, yielding the states expanded so far every `YIELD_EVERY` (stop iterating
        to cancel); `outcome` says how it ended."""
        self.outcome = Outcome("budget", reason="stopped before the search began")
        self.outcome = yield from self._search()

    def _search(self) -> Generator[int, None, Outcome]:
        started = clock.monotonic()
        start = self.stepper.start()
        h0 = self.estimate.value(start, 0)
        if h0 >= INF:
            return Outcome("unsolvable", reason="an order needs something the agent cannot reach or make")
        if h0 >= self.below:
            return Outcome(
                "unsolvable", reason=f"no plan can serve every order before {self.below:g}", lower=h0
            )
        best: dict[Any, float] = {self.key(start, 0): 0}
        parents: list[tuple[int, tuple[Action, ...]]] = [(-1, ())]
        heap = [(self.priority(h0, 0), 0, 0, 0, h0, start)]
        expanded = 0
        orders = len(self.level.orders)
        plain = self.weight == 1
        floor = h0 if plain else 0  # A*: every f popped is at most the optimum
        cutoff = min(INF, self.below)  # estimates at or past this are not searched
        found: Exact | None = None  # the best plan so far (weighted search)
        while heap:
            f, _, now, node, h, state = heapq.heappop(heap)
            if plain:
                floor = max(floor, f)
            if h >= cutoff or best.get(self.key(state, now), INF) < now:
                continue
            if state.served == orders:
                found = self.verified(node, parents, now, expanded, started)
                if plain:
                    return Outcome("optimal", found, expanded, found.seconds, lower=now)
                cutoff = now
                self.outcome = Outcome("found", found, expanded, found.seconds, "a plan, not proven optimal")
                continue
            expanded += 1
            if expanded % YIELD_EVERY == 0:
                self.outcome = Outcome(
                    "found" if found else "budget",
                    found,
                    expanded,
                    reason=f"stopped after {expanded} states",
                    lower=floor,
                )
                yield expanded
            if self.spent(expanded) or (
                self.time_limit is not None
                and expanded % YIELD_EVERY == 0
                and clock.monotonic() - started > self.time_limit
            ):
                return Outcome(
                    "found" if found else "budget",
                    found,
                    states=expanded,
                    seconds=clock.monotonic() - started,
                    reason=f"stopped after {expanded - 1} states",
                    lower=floor,
                )
            self._expand(state, now, node, cutoff, best, parents, heap)
        return self._exhausted(found, expanded, floor, clock.monotonic() - started)

    def spent(self, expanded: int) -> bool:
        """Whether the budget of states, or of work, has run out."""
        return expanded > self.max_states or (self.max_work is not None and self.work > self.max_work)

    def _expand(
        self, state: State, now: float, node: int, cutoff: float, best: dict, parents: list, heap: list
    ):
        """Push every successor of the state reached sooner than before and worth searching."""
        for actions, stepped in self.successors(state, now):
            self.work += 1
            if stepped is None:
                continue
            new, t = stepped
            key = self.key(new, t)
            if best.get(key, INF) <= t:
                continue
            h = self.estimate.value(new, t)
            if h >= cutoff:
                continue
            best[key] = t
            parents.append((node, actions))
            heapq.heappush(heap, (self.priority(h, t), -t, t, len(parents) - 1, h, new))

    def _exhausted(self, found: Exact | None, expanded: int, floor: float, seconds: float) -> Outcome:
        """How a search that ran out of states to search ended."""
        if found is not None:  # every state that could lead below it was searched
            return Outcome("optimal", found, expanded, seconds, lower=found.oct)
        before = "" if self.below >= INF else f" before {self.below:g}"
        return Outcome(
            "unsolvable",
            states=expanded,
            seconds=seconds,
            reason=f"every reachable state was searched and none serves every order{before}",
            lower=max(floor, self.below) if self.below < INF else floor,
        )

    def priority(self, h: float, t: float) -> float:
        return h if self.weight == 1 else t + self.weight * (h - t)

    def verified(self, node: int, parents: list, oct_: float, expanded: int, started: float) -> Exact:
        """The plan that reached `node`, checked by the engine to serve every order at `oct_`."""
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
        return Exact(oct_, plan, self.rules.name, expanded, clock.monotonic() - started)


def proven_below(outcome: Outcome, oct_: float, plan: dict, rules: str) -> Outcome:
    """A search that found nothing faster than a plan in hand (of this OCT) proves that plan
    optimal: that proof; any other outcome as it is."""
    if outcome.status != "unsolvable" or oct_ >= INF:
        return outcome
    proof = Exact(oct_, plan, rules, outcome.states, outcome.seconds)
    return replace(outcome, status="optimal", exact=proof, lower=oct_)


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
    below: float = INF,
    weight: float = 1.0,
    max_work: int | None = None,
) -> Outcome:
    """Search for the least OCT; see Outcome for how it ends. `max_states` (expanded states)
    and `max_work` (see `Search.max_work`) keep the answer deterministic; `time_limit` (seconds)
    may end it sooner on a slow machine; `below` skips every plan that is not faster than that
    (a plan in hand already is); a `weight` above 1 looks for plans first (see `Search.weight`)."""
    check_supported(level)
    return Search(level, get_rules(rules), max_states, time_limit, below, weight, max_work).run()


def exact_optimum(
    level: Level,
    rules: str | RuleSet = "paracook",
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> Exact | None:
    """The least OCT over every valid plan, with a plan reaching it; None when unknown (the
    budget ran out) or when no plan serves the orders."""
    return exact_search(level, rules, max_states, time_limit).exact
