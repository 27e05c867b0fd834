"""Planning around fixed queues: some agents' actions are given (a person's, say), the planner
plans the others.

    from game.planners.solver import solve
    sol = solve(level, fixed={"agent1": queue})   # agent1's queue kept byte-identical
    sol.plan["agent2"], sol.oct, sol.bound         # the bound holds for the same constraint

`Planner(..., fixed=...)` and `solve(..., fixed=...)` route here (planner.py); this package
checks the fixed queues (ValueError naming agent and action), proves impossibility where it can
(`Unsolvable`, in words), bounds the constrained OCT and searches the free agents' queues with
the engine as judge (`search.PartnerSearch`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from game.engine import Action, Level, PlanError, get_rules, parse_plan
from game.engine.plan import read_action

from ..bound import Bound, lower_bound
from ..model import Unsolvable
from .checks import check_all_fixed, check_in_time, check_possible
from .fixed import FixedQueues, check_fixed, time_fixed
from .search import PartnerSearch

# a plan in the making: yields while it works (so that it can be stopped), returns the plan
Planning = Generator[None, None, Mapping[str, Sequence[Mapping[str, Any]]]]
SHARED = ("table", "chopping_board", "stove", "sink")  # stations whose state a fixed agent changes
# limits of the schedule searches whose plans seed the search: the quick ones first (a plan in a
# tenth of a second or so, to improve on), the longer ones after the first two rounds
ALONE_FIRST = 0.05
ALONE_LATER = 1.0
RUNS_PER_SECOND = 800  # engine runs a second on a busy 2-core machine: the limit sets the budget
MIN_RUNS = 200

__all__ = ["Partner", "constrained_bound", "check_fixed"]


def constrained_bound(free: Bound, fixed: FixedQueues) -> Bound:
    """The bound for the same constraint: the unconstrained one (every plan with these queues is
    a plan), and each fixed agent's queue end (OCT is the last event: its trailing actions
    count too, Waits included)."""
    if not free.finite:
        return free
    terms = dict(free.terms)
    value = free.value
    for agent in fixed.raw:
        end = fixed.end(agent)
        term = math.floor(end)  # a whole bound, never above the end (a Wait may be 2.5)
        if term > 0:
            terms[f"{agent} fixed"] = term
            value = max(value, term)
    return Bound(value, terms)


class Partner:
    """One constrained planning run. Raises ValueError for bad fixed input and Unsolvable
    when the fixed queues rule every plan out."""

    def __init__(
        self,
        level: Level,
        rules: str,
        fixed: Mapping[str, Sequence[Mapping[str, Any]]],
        time_limit: float,
        hint: Mapping[str, Any] | None = None,
    ):
        self.level = level
        self.rules = rules
        raw = check_fixed(level, fixed)
        self.raw = raw
        self.fixed = time_fixed(level, get_rules(rules), raw)
        self.free = [a for a in level.agent_names if a not in raw]
        if not self.free:
            check_all_fixed(level, rules, raw)
        check_possible(level, rules, self.fixed)
        self.budget = max(MIN_RUNS, int(RUNS_PER_SECOND * time_limit))
        self.search = PartnerSearch(level, get_rules(rules), self.fixed, self.budget) if self.free else None
        self.hint = self._hint(hint)
        self.note = ""
        self.impossible = ""  # why no plan exists, when the search found none and that is proven

    def bound_for(self, free: Bound, alone: bool = True) -> Bound:
        """The constrained bound; the search stops once a plan reaches it. Fixed queues with no
        Interact or Process change nothing in the kitchen: then every plan is one of the free
        agents alone, and (with `alone`, a second bound to work out) their own bound holds too."""
        bound = constrained_bound(free, self.fixed)
        if alone and self.free and bound.finite and self.inert():
            keep = tuple(a for a in self.level.agents if a.name in self.free)
            own = lower_bound(self.level.replace(agents=keep), self.rules)
            if own.value > bound.value:
                bound = Bound(own.value, {**bound.terms, "free agents alone": own.value})
            if not own.finite:
                self.impossible = (
                    f"{', '.join(self.fixed.raw)} never act at a station, and "
                    f"{', '.join(self.free)} alone cannot serve the orders (something they need is "
                    "out of their reach)"
                )
        if self.search is not None and bound.finite:
            self.search.floor = max(self.search.floor, bound.value)
        return bound

    def inert(self) -> bool:
        """No fixed action acts on a station (walks, Waits and Finish only)."""
        return all(a.name not in ("Interact", "Process") for q in self.fixed.actions.values() for a in q)

    def explain(self) -> None:
        """No plan found: prove why none exists where a check can (then `impossible` says it)."""
        try:
            if self.impossible:
                raise Unsolvable(self.impossible)
            check_in_time(self.level, self.rules, self.fixed)
        except Unsolvable as e:
            self.impossible = str(e)
            self.note = f"unsolvable: {e}"

    @property
    def used(self) -> int:
        return self.search.used if self.search else 0

    def steps(self, plan: Callable[[Level, float], Planning] | None = None) -> Iterator[int]:
        """The search. `plan(level, limit)` plans a level (the schedule search, on a budget the
        limit sets): given it, plans of the free agents alone (`alone_levels`) are tried before
        the first round (quick ones: a plan is in early even where the search around the fixed
        queues would take long to find one), and after the first two rounds (or at the end of
        the budget) a plan made without the constraint and longer ones of the free agents
        alone, each's free agents' queues tried as they are."""
        if self.search is None:
            return
        first, later = [], []
        if plan is not None:
            alone = self.alone_levels()
            first = [partial(self._seed_queues, plan, lv, ALONE_FIRST) for lv in alone]
            later = [partial(self._seed_queues, plan, lv, ALONE_LATER) for lv in [self.level, *alone]]
        yield from self.search.steps(later, self.hint, first)
        if self.search.best is None:
            self.note = (
                f"no plan for {', '.join(self.free)} around the fixed queues found in {self.used} runs"
            )

    def _hint(self, hint: Mapping[str, Any] | None) -> list[dict[str, tuple[Action, ...]]]:
        """The free agents' queues of a hinted plan (a plan object or anything with a `plan`),
        read like any plan: ValueError for one of the wrong shape. When the hint's queue for a
        fixed agent differs from the one fixed now by a shift in time from some action on (a
        Wait put in or taken out, a walk made longer), the free queues shifted the same way
        from the same instant follow, so that the partner keeps in step."""
        if not hint:
            return []
        try:
            plan = parse_plan(hint, self.level.agent_names)
        except PlanError as e:
            raise ValueError(f"hint: {e}") from None
        free = {a: plan[a] for a in self.free if plan[a]}
        if not free:
            return []
        shifted = self._shifted(plan, free)
        return [free] + ([shifted] if shifted else [])

    def _shifted(self, plan: Mapping[str, tuple[Action, ...]], free: dict) -> dict | None:
        """The free queues shifted as the one changed fixed queue is (None when there is not
        exactly one, or the shift cannot be made with Waits)."""
        rules = get_rules(self.rules)
        changed = [a for a in self.fixed.actions if plan[a] != self.fixed.actions[a]]
        if len(changed) != 1:
            return None
        agent = changed[0]
        old, new = plan[agent], self.fixed.actions[agent]
        i = next(
            (k for k, (x, y) in enumerate(zip(old, new, strict=False)) if x != y), min(len(old), len(new))
        )
        before = time_fixed(self.level, rules, {agent: [x.to_dict() for x in old]})
        spans = self.fixed.timed[agent]
        if before.independent is not None or self.fixed.independent is not None or not spans:
            return None
        at = spans[i].start if i < len(spans) else self.fixed.end(agent)
        delta = self.fixed.end(agent) - before.end(agent)
        if delta == 0 or not math.isfinite(delta):
            return None
        timed = time_fixed(self.level, rules, {a: [x.to_dict() for x in q] for a, q in free.items()})
        out = {}
        for a, queue in free.items():
            k = next((t.index for t in timed.timed[a] if t.start >= at), len(queue))
            out[a] = _moved(queue, k, delta)
            if out[a] is None:
                return None
        return out

    def _seed_queues(
        self, plan: Callable[[Level, float], Planning], level: Level, limit: float
    ) -> Generator[None, None, dict[str, tuple[Action, ...]]]:
        """The free agents' queues of the plan made for this level."""
        found = yield from plan(level, limit)
        return {a: tuple(read_action(x) for x in found.get(a, ())) for a in self.free}

    def alone_levels(self) -> list[Level]:
        """The kitchen for the free agents alone, the fixed ones gone (their plan is a plan
        here when the fixed queues never act at a station: agents never block each other);
        first, where the fixed queues act on tables, boards, stoves or sinks, the same with
        those stations walled off, so that its plan leaves what the fixed agents use alone
        (the fixed ones' food then goes unused: a plan, if a slower one). None when the fixed
        queues serve: the free agents' plan serves every order itself, one serve too many."""
        if self.fixed.serves(self.level):
            return []
        keep = tuple(a for a in self.level.agents if a.name in self.free)
        alone = self.level.replace(agents=keep)
        used = {
            a.target
            for q in self.fixed.actions.values()
            for a in q
            if a.name in ("Interact", "Process") and isinstance(a.target, str)
        }
        shut = [s for s in self.level.stations if s.name in used and s.kind in SHARED]
        if not shut:
            return [alone]
        walled = alone.replace(
            stations=tuple(s for s in self.level.stations if s not in shut),
            walls=self.level.walls + tuple(s.pos for s in shut),
        )
        return [walled, alone]

    def best(self) -> tuple[float, dict[str, list[dict[str, Any]]]] | None:
        """(OCT, whole plan) of the best plan so far: fixed queues as given, the others found."""
        if self.search is None:
            return 0.0, self.plan({})
        node = self.search.best
        if node is None:
            return None
        return node.oct, self.plan({a: [x.to_dict() for x in q] for a, q in node.queues.items()})

    def plan(self, free: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
        """The whole plan in the level's agent order; a fixed queue is a fresh copy of the given."""
        return {
            a: check_fixed(self.level, {a: self.raw[a]})[a] if a in self.raw else free.get(a, [])
            for a in self.level.agent_names
        }


def _moved(queue: tuple[Action, ...], k: int, delta: float) -> tuple[Action, ...] | None:
    """The queue with its actions from index k on later by `delta` (a Wait put in), or sooner
    (its Waits from k on made shorter; None when they are too short)."""
    if delta > 0:
        d = int(delta) if float(delta).is_integer() else delta
        return queue[:k] + (Action("Wait", duration=d),) + queue[k:]
    left, out = -delta, list(queue)
    for j in range(k, len(out)):
        if left <= 0:
            break
        if out[j].name == "Wait":
            if not isinstance(out[j].duration, int | float) or isinstance(out[j].duration, bool):
                return None  # a Wait the engine will refuse: no shift through it
            cut = min(left, out[j].duration)
            left -= cut
            rest = out[j].duration - cut
            rest = int(rest) if float(rest).is_integer() else rest
            out[j] = Action("Wait", duration=rest)
    if left > 0:
        return None
    return tuple(a for a in out if not (a.name == "Wait" and a.duration == 0))
