"""The planner's solution checked against the exact search (one-agent levels): a better plan
when the search finds one, and a bound raised to the proven optimum, or to the floor the search
reached when its budget ran out."""

from __future__ import annotations

import math
from dataclasses import replace

from game.engine import parse_plan, simulate

from .bound import Bound
from .exact import DEFAULT_MAX_STATES, Outcome, Unsupported, exact_search
from .planner import Solution


def with_exact(sol: Solution, max_states: int = DEFAULT_MAX_STATES) -> tuple[Solution, Outcome | str]:
    """(the solution, improved where the exact search proves more; the search's outcome, or why
    the level is outside it)."""
    try:
        outcome = exact_search(sol.level, sol.rules, max_states)
    except Unsupported as e:
        return sol, str(e)
    if outcome.status == "unsolvable":
        return sol, outcome
    floor = math.ceil(outcome.lower - 1e-9) if outcome.lower else 0
    bound = Bound(max(sol.bound.value, floor), {**sol.bound.terms, "exact": floor})
    found = outcome.exact
    if found is not None and (not sol.done or found.oct < sol.oct):
        plan = found.plan
        recorded = sol.result.timeline is not None
        result = simulate(sol.level, parse_plan(plan, sol.level.agent_names), sol.rules, record=recorded)
        return replace(sol, plan=plan, result=result, bound=bound, note="the exact search's plan"), outcome
    return replace(sol, bound=bound), outcome


def describe_outcome(outcome: Outcome | str) -> str:
    if isinstance(outcome, str):
        return f"  exact search: not for this level ({outcome})"
    if outcome.status == "optimal" and outcome.exact is not None:
        return f"  optimum {outcome.exact.oct:g}, proven by the exact search ({outcome.states} states, {outcome.seconds:.1f} s)"
    if outcome.status == "unsolvable":
        return f"  exact search: no plan serves every order ({outcome.reason})"
    return f"  optimum unknown: at least {math.ceil(outcome.lower - 1e-9)} (exact search stopped after {outcome.states} states)"
