"""On a one-agent, one-order level the planner gives the exact search most of its limit: the plan is
the optimum when the search proves one in time, the bound rises to what it proves, the progress
counts its states, and stopping it keeps the best plan so far."""

from __future__ import annotations

from pathlib import Path

import pytest
from kitchens import kitchen
from test_solver_bound_routes import TINY

from game.engine import simulate
from game.levels import load_level
from game.planners.solver import Planner, Progress, lower_bound, solve
from game.planners.solver.planner import (
    BUDGET_SHARE,
    EXACT_SHARE,
    EXACT_WORK_S,
    WORK_S,
    WORK_SPARE,
    exact_budget,
)

ROOT = Path(__file__).resolve().parents[1]
UNPROVEN = ROOT / "levels/suite/salad/seed_84/agent_num_1/orders_num_1.yaml"  # thousands of states


def tiny():
    rows, stations, order, *_ = TINY[0]  # the schedule search alone takes 10, the optimum is 8
    return kitchen(rows, stations, (order,))


def test_the_default_plan_of_a_lone_agent_with_one_order_is_the_proven_optimum():
    for rules in ("paracook", "documented"):
        alone = solve(tiny(), rules, time_limit=0.2, exact=False)
        sol = solve(tiny(), rules, time_limit=0.2)
        assert alone.oct == 10 and sol.oct == 8 == simulate(tiny(), sol.plan, rules).time
        assert sol.bound.value == 8 and sol.bound.terms["exact"] == 8 and sol.gap == 0
        assert sol.extra["exact"].status == "optimal" and sol.note == "the exact search's plan"


def test_a_plan_the_exact_search_cannot_beat_is_kept_and_proven_optimal():
    rows, stations, order, _, _, planned = TINY[1]  # the schedule search finds the optimum, 7
    level = kitchen(rows, stations, (order,))
    sol = solve(level, time_limit=0.2)
    assert sol.oct == planned == sol.bound.value and sol.note == ""
    assert sol.extra["exact"].status == "optimal" and sol.extra["exact"].exact.oct == planned


def test_only_lone_one_order_levels_take_the_exact_search():
    level = load_level(UNPROVEN)
    assert exact_budget(level, 10) == int(10 * BUDGET_SHARE * EXACT_SHARE / EXACT_WORK_S)  # its work
    assert exact_budget(level, 40) == pytest.approx(4 * exact_budget(level, 10), abs=4)
    two_orders = kitchen(TINY[0][0], TINY[0][1], ("salad_basic", "salad_basic"))
    team = load_level(ROOT / "levels/suite/salad/seed_84/agent_num_2/orders_num_1.yaml")
    for other in (two_orders, team):
        assert exact_budget(other, 10) == 0
        assert solve(other, time_limit=0.1, routes=False).extra == {}  # no exact search, whatever the bound


def test_the_bound_s_cost_comes_off_the_limit_and_the_searches_share_the_rest():
    level = load_level(UNPROVEN)
    bound = lower_bound(level, routes=False)  # as the planner works it out where the exact search runs
    assert 0.5 < bound.cost < 1.5  # seconds, estimated from its solvers' counts of work
    left = 1.5 - bound.cost
    full = Planner(level, time_limit=1.5, exact=False, routes=False)
    shared = Planner(level, time_limit=1.5)
    assert full.search_limit == shared.search_limit == pytest.approx(left)
    assert Planner(level, time_limit=1.5, bound=bound).search_limit == 1.5  # paid for by its caller
    assert Planner(level, time_limit=bound.cost / 2).search_limit == 0  # the searches' least is left
    for run in (full, shared):
        for _ in run.steps():
            pass
    units = BUDGET_SHARE / (WORK_S * WORK_SPARE)  # the schedule search's units of work a second
    assert full.budget == int(left * units) and full.exact_budget == 0
    assert shared.budget == int(left * (1 - EXACT_SHARE) * units)
    assert shared.exact_budget == int(left * BUDGET_SHARE * EXACT_SHARE / EXACT_WORK_S)


def test_an_unfinished_exact_search_raises_the_bound_to_its_floor_and_keeps_the_plan():
    level = load_level(UNPROVEN)
    sol = solve(level, time_limit=2)
    outcome = sol.extra["exact"]
    assert outcome.status == "budget" and outcome.states > 0
    static = lower_bound(level, routes=False).value  # as the planner computes it, the exact search on
    assert sol.bound.value == max(static, int(outcome.lower)) >= static
    assert sol.bound.value <= sol.oct and sol.done


def test_progress_counts_the_states_and_stopping_keeps_the_best_plan_so_far():
    level = load_level(UNPROVEN)
    reports: list[Progress] = []

    def stop_in_the_exact_search(p: Progress) -> bool:
        reports.append(p)
        return p.states == 0

    sol = solve(level, time_limit=2, progress=stop_in_the_exact_search)
    assert reports[-1].states > 0 and not reports[-1].done
    assert 0 < reports[-1].fraction < 1
    # the schedule search alone, on its share of what the bound left (the bound handed in is free)
    alone = Planner(level, time_limit=(2 - sol.bound.cost) * (1 - EXACT_SHARE), bound=sol.bound, exact=False)
    for _ in alone.steps():
        pass
    schedules = alone.solution().oct
    outcome = sol.extra["exact"]  # the stopped search's (the weighted one's or the plain one's)
    assert outcome.status in ("budget", "found") and sol.bound.value <= sol.oct
    # the plan is the schedule search's, or a faster one the exact search found before the stop
    assert sol.done and sol.oct <= schedules
    assert sol.oct == schedules or (sol.note == "the exact search's plan" and sol.oct < schedules)
    assert "exact-search states" in reports[-1].describe()


def test_progress_fraction_weighs_schedules_and_states_together():
    p = Progress(10, 40, 52, 33, 1.5, False, 30, 60)
    assert p.fraction == 0.4 and Progress(40, 40, 52, 33, 1.5).fraction == 1.0


def test_more_time_never_gives_a_worse_plan_or_a_lower_exact_floor():
    level = load_level(UNPROVEN)
    short, long = solve(level, time_limit=0.25), solve(level, time_limit=1)
    assert long.oct <= short.oct
    assert long.extra["exact"].lower >= short.extra["exact"].lower
    again = solve(level, time_limit=0.25)
    assert again.plan == short.plan and again.bound == short.bound  # deterministic


def test_parallel_searches_are_followed_by_one_exact_search():
    one, two = solve(tiny(), time_limit=0.2), solve(tiny(), time_limit=0.2, jobs=2)
    assert two.oct == one.oct == 8 and two.bound == one.bound
    assert two.extra["exact"].status == "optimal"


def test_an_exact_plan_that_does_not_replay_leaves_the_schedule_searchs_plan(monkeypatch):
    from game.planners.solver import exact

    def broken(self, *args):
        raise AssertionError("exact search: the plan found runs to 9, not 8")

    monkeypatch.setattr(exact.Search, "verified", broken)
    sol = solve(tiny(), time_limit=0.2)
    assert sol.done and sol.oct == 10 and "exact search failed" in sol.note
    assert sol.bound.value <= 8
