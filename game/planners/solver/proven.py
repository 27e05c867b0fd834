"""The planner's solution checked against the exact search.

One agent: a better plan when the search finds one, and a bound raised to the proven optimum, or
to the floor the search reached when its budget ran out. A team: the search plans each agent
alone (the others idle), since one agent's best plan is a plan for the team, and on a one-order
level it can beat the team's; only plans faster than the planner's are searched for. The bound
stays: a team may be faster than any one of its agents."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from game.engine import Level, parse_plan, simulate

from .bound import Bound, lower_bound
from .exact import DEFAULT_MAX_STATES, Outcome, Unsupported, exact_search, proven_below
from .model import INF
from .planner import Solution


@dataclass
class Solo:
    """What the exact search found for each agent of a team planning alone."""

    outcomes: dict[str, Outcome | str]  # per agent: the outcome, or why it was not searched
    used: str | None = None  # the agent whose plan replaced the team's


def with_exact(sol: Solution, max_states: int = DEFAULT_MAX_STATES) -> tuple[Solution, Outcome | Solo | str]:
    """(the solution, improved where the exact search proves more; the search's outcome (for a
    team, each agent's), or why the level is outside it)."""
    if len(sol.level.agents) > 1:
        return _alone(sol, max_states)
    own = sol.extra.get("exact")
    if own is not None and own.status == "optimal":  # the planner's own exact search proved it
        return sol, own
    below = sol.oct if sol.done else INF
    try:
        outcome = exact_search(sol.level, sol.rules, max_states, below=below)
    except Unsupported as e:
        return sol, str(e)
    outcome = proven_below(outcome, below, sol.plan, sol.rules)
    if outcome.status == "unsolvable":
        return sol, outcome
    bound = _raised(sol.bound, math.ceil(outcome.lower - 1e-9) if outcome.lower else 0)
    found = outcome.exact
    if found is not None and (not sol.done or found.oct < sol.oct):
        return replace(_with_plan(sol, found.plan), bound=bound, note="the exact search's plan"), outcome
    return replace(sol, bound=bound), outcome


def _raised(bound: Bound, floor: float) -> Bound:
    return Bound(max(bound.value, floor), {**bound.terms, "exact": floor})


def _with_plan(sol: Solution, plan: dict) -> Solution:
    recorded = sol.result.timeline is not None
    result = simulate(sol.level, parse_plan(plan, sol.level.agent_names), sol.rules, record=recorded)
    return replace(sol, plan=plan, result=result)


def alone(level: Level, agent: str) -> Level:
    """The level with only this agent in it."""
    return replace(level, agents=tuple(a for a in level.agents if a.name == agent), _cache={})


def _alone(sol: Solution, max_states: int) -> tuple[Solution, Solo]:
    solo = Solo({})
    for agent in sol.level.agent_names:
        below = sol.oct if sol.done else INF
        level = alone(sol.level, agent)
        floor = lower_bound(level, sol.rules)
        if not floor.finite:
            solo.outcomes[agent] = (
                "it cannot serve the orders alone (something they need is out of its reach)"
            )
            continue
        if floor.value >= below:  # the lone agent's bound already says it cannot be faster
            solo.outcomes[agent] = f"its lower bound alone is {floor.value:g}, no faster than the team's plan"
            continue
        try:
            outcome = exact_search(level, sol.rules, max_states, below=below)
        except Unsupported as e:
            solo.outcomes[agent] = str(e)
            continue
        solo.outcomes[agent] = outcome
        found = outcome.exact
        if found is None:
            continue
        plan = {name: found.plan[agent] if name == agent else [] for name in sol.level.agent_names}
        better = _with_plan(sol, plan)
        if better.done and (not sol.done or better.oct < sol.oct):  # the engine has the last word
            sol, solo.used = replace(better, note=f"{agent} alone: the exact search's plan"), agent
    return sol, solo


def describe_outcome(outcome: Outcome | Solo | str) -> str:
    if isinstance(outcome, Solo):
        return "\n".join(
            _describe_alone(agent, o, agent == outcome.used) for agent, o in outcome.outcomes.items()
        )
    if isinstance(outcome, str):
        return f"  exact search: not for this level ({outcome})"
    if outcome.status == "optimal" and outcome.exact is not None:
        return f"  optimum {outcome.exact.oct:g}, proven by the exact search ({outcome.states} states, {outcome.seconds:.1f} s)"
    if outcome.status == "unsolvable":
        return f"  exact search: no plan serves every order ({outcome.reason})"
    floor = math.ceil(outcome.lower - 1e-9)
    at_least = f": at least {floor}" if floor > 0 else ""  # a weighted search proves no floor
    return f"  optimum unknown{at_least} (exact search stopped after {outcome.states} states)"


def _describe_alone(agent: str, outcome: Outcome | str, used: bool) -> str:
    if isinstance(outcome, str):
        return f"  {agent} alone: not searched: {outcome}"
    if outcome.exact is not None:
        tail = ", used: faster than the team's plan" if used else ""
        return f"  {agent} alone: best {outcome.exact.oct:g} (exact search, {outcome.states} states){tail}"
    if outcome.status == "unsolvable":
        return f"  {agent} alone: nothing faster than the team's plan ({outcome.states} states)"
    return f"  {agent} alone: unknown, at least {math.ceil(outcome.lower - 1e-9)} ({outcome.states} states)"
