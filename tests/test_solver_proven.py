"""The planner's solution beside the exact search: a better plan when it finds one, the bound
raised to what it proves, and `solve --exact` saying which."""

from __future__ import annotations

from kitchens import kitchen
from test_solver_bound_routes import TINY
from test_solver_cli import solve_cli

from game.planners.solver import solve
from game.planners.solver.proven import describe_outcome, with_exact


def test_the_exact_plan_replaces_a_slower_one_and_closes_the_gap():
    rows, stations, order, *_ = TINY[0]  # the planner takes 10 here, the optimum is 8
    sol = solve(kitchen(rows, stations, (order,)), time_limit=0.2)
    assert sol.oct == 10
    better, outcome = with_exact(sol)
    assert better.done and better.oct == better.result.time == 8
    assert better.bound.value == 8 and better.gap == 0
    assert "optimum 8, proven" in describe_outcome(outcome)


def test_two_agents_are_left_as_they_are():
    rows = ["#L#C#", "#1.2W", "#P###"]
    stations = {
        "L": {"name": "dispenser1", "provides": "lettuce"},
        "C": {"name": "chopping_board1"},
        "P": {"name": "table1", "item": "plate"},
        "W": {"name": "serving_window"},
    }
    sol = solve(kitchen(rows, stations, ("salad_basic",)), time_limit=0.2)
    same, why = with_exact(sol)
    assert same is sol and isinstance(why, str) and "agent" in why
    assert "not for this level" in describe_outcome(why)


def test_solve_exact_on_the_command_line():
    out = solve_cli(
        "levels/suite/salad/seed_126/agent_num_1/orders_num_1.yaml", "--exact", "--time-limit", "1"
    )
    assert out.returncode == 0, out.stderr
    assert "OCT 17" in out.stdout and "optimum 17, proven by the exact search" in out.stdout
