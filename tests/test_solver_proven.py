"""The planner's solution beside the exact search: a better plan when it finds one, the bound
raised to what it proves, and `solve --exact` saying which."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kitchens import kitchen
from test_solver_bound_routes import TINY
from test_solver_cli import solve_cli

from game.planners.solver import solve
from game.planners.solver.exact import Outcome, exact_search
from game.planners.solver.proven import Solo, alone, describe_outcome, with_exact

ROOT = Path(__file__).resolve().parents[1]


def test_the_exact_plan_replaces_a_slower_one_and_closes_the_gap():
    rows, stations, order, *_ = TINY[0]  # the schedule search takes 10 here, the optimum is 8
    sol = solve(kitchen(rows, stations, (order,)), time_limit=0.2, exact=False)
    assert sol.oct == 10
    better, outcome = with_exact(sol)
    assert better.done and better.oct == better.result.time == 8
    assert better.bound.value == 8 and better.gap == 0
    assert "optimum 8, proven" in describe_outcome(outcome)


def test_a_plan_nothing_beats_is_proven_optimal():
    rows, stations, order, *_ = TINY[0]
    level = kitchen(rows, stations, (order,))
    best, _ = with_exact(solve(level, time_limit=0.2, exact=False))
    again, outcome = with_exact(best)  # the exact search's plan, searched again below itself
    assert again.plan == best.plan and again.oct == 8 and again.bound.value == 8
    assert outcome.status == "optimal" and outcome.exact.oct == 8
    nothing = exact_search(level, below=8)
    assert nothing.status == "unsolvable" and "before 8" in nothing.reason
    assert exact_search(level, below=9).exact.oct == 8


# agent2 is walled in; agent1's kitchen is the one where the planner takes the lettuce from the
# tile it stands on and walks 2 more than it must (`TINY`)
SHUT_IN = ["#L.C###", "#1..#2#", "#P.W###"]


def shut_in_level():
    return kitchen(SHUT_IN, TINY[0][1], ("salad_basic",))


def test_one_agent_alone_beats_the_team_plan():
    level = shut_in_level()
    sol = solve(level, time_limit=0.5)
    alone_best = exact_search(alone(level, "agent1"), max_states=5_000).exact
    assert sol.done and alone_best is not None and sol.oct > alone_best.oct
    better, solo = with_exact(sol, 5_000)
    assert isinstance(solo, Solo) and solo.used == "agent1"
    assert better.done and better.oct == better.result.time == alone_best.oct
    assert better.plan["agent2"] == [] and better.plan["agent1"]
    assert better.bound == sol.bound  # a team may be faster than any one of its agents
    assert "agent1 alone" in better.note
    text = describe_outcome(solo)
    assert f"agent1 alone: best {alone_best.oct:g}" in text and "used" in text
    assert "agent2 alone: not searched: it cannot serve the orders alone" in text
    assert "e+09" not in text


def test_a_team_plan_no_agent_alone_can_match_is_kept():
    rows = ["#L#C#", "#1.2W", "#P###"]
    stations = {
        "L": {"name": "dispenser1", "provides": "lettuce"},
        "C": {"name": "chopping_board1"},
        "P": {"name": "table1", "item": "plate"},
        "W": {"name": "serving_window"},
    }
    level = kitchen(rows, stations, ("salad_basic", "salad_basic"))
    sol = solve(level, time_limit=0.5)
    same, solo = with_exact(sol, 2_000)
    assert isinstance(solo, Solo) and solo.used is None and same is sol
    for agent in ("agent1", "agent2"):
        alone_best = exact_search(alone(level, agent), max_states=2_000, below=sol.oct)
        assert alone_best.exact is None


def test_scenario_options_keep_the_team_plan_with_a_reason():
    # agent1 alone would beat the team here (see above), were it not for the option
    level = replace(shut_in_level(), options={"burn_after": 30})
    sol = solve(level, time_limit=0.5)
    same, solo = with_exact(sol, 1_000)
    assert same is sol and all(isinstance(o, str) for o in solo.outcomes.values())
    assert "burn_after" in solo.outcomes["agent1"]
    assert "not searched" in describe_outcome(solo)


def test_solve_exact_on_the_command_line():
    out = solve_cli(
        "levels/suite/salad/seed_126/agent_num_1/orders_num_1.yaml", "--exact", "--time-limit", "1"
    )
    assert out.returncode == 0, out.stderr
    assert "OCT 17" in out.stdout and "optimum 17, proven by the exact search" in out.stdout


def test_solve_exact_plans_each_agent_of_a_team_alone(tmp_path):
    from game.levels.format_write import level_to_yaml

    path = tmp_path / "shut_in.yaml"
    path.write_text(level_to_yaml(shut_in_level()))
    best = exact_search(alone(shut_in_level(), "agent1"), max_states=5_000).exact
    out = solve_cli(str(path), "--exact", "--time-limit", "0.5")
    assert out.returncode == 0, out.stderr
    assert f"OCT {best.oct:g}" in out.stdout and f"agent1 alone: best {best.oct:g}" in out.stdout


def test_a_plan_the_planner_proved_optimal_is_not_searched_again(monkeypatch):
    from game.planners.solver import proven

    rows, stations, order, *_ = TINY[0]
    sol = solve(kitchen(rows, stations, (order,)), time_limit=0.2)  # its own exact search proves 8
    monkeypatch.setattr(
        proven, "exact_search", lambda *a, **k: (_ for _ in ()).throw(AssertionError("searched"))
    )
    same, outcome = with_exact(sol)
    assert same is sol and outcome is sol.extra["exact"] and outcome.exact.oct == 8
    assert "optimum 8, proven" in describe_outcome(outcome)


def test_a_stopped_search_claims_a_floor_only_when_it_has_one():
    plain = describe_outcome(Outcome("budget", states=300, lower=41.5))
    assert plain == "  optimum unknown: at least 42 (exact search stopped after 300 states)"
    weighted = describe_outcome(Outcome("found", states=300, lower=0))  # its order proves none
    assert weighted == "  optimum unknown (exact search stopped after 300 states)"
