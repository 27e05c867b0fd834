"""The planner is anytime: a longer limit extends the same search (never a worse plan), progress
is reported while it runs and a caller may stop it, and parallel seeds are deterministic."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

from game.engine import simulate
from game.levels import load_level
from game.levels.generator import generate_kitchen, task_level
from game.levels.suite import SuiteTask
from game.planners.solver import Bound, Planner, Progress, solve

LEVEL = ROOT / "levels" / "tutorial" / "04_two_cooks.yaml"


def generated(category: str, seed: int, agents: int, orders: int):
    return task_level(SuiteTask(category, seed, agents, orders), generate_kitchen(category, seed))


def improvements(level, limit: float) -> list[float]:
    """The best OCTs the planner reports, in turn, on this limit with a bound of 0 handed in: a bound
    handed in costs nothing off the limit, so the whole limit buys the search (1,066 units of work
    at 0.05 s, 4,266 at 0.2 s), and 0 never ends it early. Through `solve` these kitchens' own
    bounds, estimated at 0.3 to 1.4 s, took either limit whole: the least budget (1,000) both times."""
    seen: list[float] = []
    run = Planner(level, time_limit=limit, bound=Bound(0, {}))
    for p in run.steps():
        if p.best_oct is not None and (not seen or p.best_oct != seen[-1]):
            seen.append(p.best_oct)
    return seen


# the tests below that need any team's kitchen take this one: its bound is worked out once
SHARED = ("burger", 7, 2, 2)


@pytest.mark.parametrize("case", [SHARED, ("sushi", 84, 2, 2), ("salad", 3, 1, 3)])
def test_four_times_the_limit_extends_the_same_search(case):
    level = generated(*case)
    short, long = improvements(level, 0.05), improvements(level, 0.2)
    assert short and long[: len(short)] == short  # the longer run passes through the same plans
    assert long[-1] <= short[-1]


def test_progress_reports_improve_and_end_done():
    level = generated(*SHARED)
    reports: list[Progress] = []
    sol = solve(level, time_limit=0.1, progress=reports.append)
    first = reports[0]  # sent before the bound is worked out
    assert (first.evaluations, first.best_oct, first.bound, first.fraction) == (0, None, None, 0)
    assert reports[-1].done and reports[-1].fraction == 1.0
    fractions = [p.fraction for p in reports]
    assert fractions == sorted(fractions)  # a progress bar never runs backwards
    bests = [p.best_oct for p in reports if p.best_oct is not None]
    assert bests == sorted(bests, reverse=True) and bests[-1] == sol.oct
    assert all(p.bound == sol.bound.value for p in reports[1:])
    last = reports[-1]
    assert last.gap == pytest.approx(sol.oct / sol.bound.value - 1)
    assert "best OCT" in last.describe() and "bound" in last.describe()
    counts = [p.evaluations for p in reports]
    assert counts == sorted(counts)


def test_stopping_early_returns_the_best_plan_so_far():
    level = generated(*SHARED)
    # the bound's estimated cost, 1.08 s, comes off the limit: a budget of 19,533 units of work,
    # its start schedules 9,216
    full = solve(level, time_limit=2)

    def stop_at_first_plan(p: Progress) -> bool:
        return p.best_oct is None

    early = solve(level, time_limit=2, progress=stop_at_first_plan)
    assert early.done and early.evaluations < full.evaluations
    assert early.oct >= full.oct
    assert simulate(level, early.plan, record=False).time == early.oct


def test_the_planner_runs_step_by_step():
    level = load_level(LEVEL)
    run = Planner(level, time_limit=0.2)
    steps = list(run.steps())
    assert steps and steps[-1].done
    sol = run.solution()
    assert sol.done and sol.oct == steps[-1].best_oct


def test_stopping_at_the_first_report_returns_no_plan_and_says_so():
    sol = solve(generated(*SHARED), time_limit=0.2, progress=lambda p: False)
    assert not sol.done and sol.evaluations == 0 and "stopped" in sol.note


def test_a_cancelled_run_before_any_plan_says_so():
    level = generated(*SHARED)
    run = Planner(level, time_limit=0.2)
    next(iter(run.steps()), None)  # the starts are decoded, but nothing verified yet
    run.best = None
    sol = run.solution()
    assert not sol.done and "stopped" in sol.note


def test_parallel_seeds_are_deterministic_and_never_worse_than_one(monkeypatch):
    from game.planners.solver import planner

    level = generated(*SHARED)
    one = solve(level, time_limit=0.1)
    a = solve(level, time_limit=0.1, jobs=2)
    monkeypatch.setattr(planner, "cores", lambda: 1)  # one core: the two searches run in turn
    b = solve(level, time_limit=0.1, jobs=2)
    assert a.plan == b.plan and a.oct == b.oct and a.evaluations == b.evaluations
    assert a.oct <= one.oct  # seed 0 of the two is the single run
    assert a.evaluations > one.evaluations
    assert a.summary()["searches"] == 2 and "searches" not in one.summary()


def test_cli_prints_progress_and_takes_jobs():
    out = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "solve", str(LEVEL), "--time-limit", "0.3", "--jobs", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert "best OCT" in out.stderr and "bound" in out.stderr
    # the bound comes first: said once, before the first plan's line
    lines = out.stderr.splitlines()
    assert lines[0].strip() == "working out the lower bound ..." and "best OCT" in lines[1]
    assert sum("lower bound ..." in line for line in lines) == 1
    assert out.stdout.startswith("OCT ") and " schedules (2 searches) in " in out.stdout


def test_the_budget_is_work_so_a_larger_kitchen_gets_fewer_decodes_of_the_same_search():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.planner import BUDGET_SHARE, WORK_S, WORK_SPARE, budget_for
    from game.planners.solver.schedule import Search, build_tasks

    budget = budget_for(1)  # past the start genomes of either level below
    assert budget == int(1 * BUDGET_SHARE / (WORK_S * WORK_SPARE))
    assert budget_for(40) == pytest.approx(4 * budget_for(10), abs=4)  # the limit sets the budget

    def searched(category: str, agents: int, orders: int, units: int) -> Search:
        model = KitchenModel(generated(category, 42, agents, orders), "paracook")
        search = Search(model, build_tasks(model), units, seed=1)
        search.run()
        return search

    small, large = searched("salad", 1, 1, budget), searched("burrito", 2, 3, budget)
    # a decode of two cooks and three orders weighs many more ways of doing each task ...
    assert large.work / large.used > 3 * small.work / small.used
    # ... so the same budget buys it fewer decodes, and either search stops once it is spent
    assert large.used < small.used
    for search in (small, large):
        assert budget <= search.work < budget + search.work / search.used * 20
    again = searched("burrito", 2, 3, budget)  # the same work, decode for decode
    assert (again.used, again.work, again.best_cost) == (large.used, large.work, large.best_cost)


@pytest.mark.parametrize("limit", [float("nan"), float("inf"), 1e308, 0, -1, True, "5"])
def test_a_time_limit_out_of_range_is_refused_by_the_python_api(limit):
    """The command line checks --time-limit; `solve` itself refuses what would overflow its
    budget (inf once raised OverflowError) or mean nothing (NaN, 0, a negative)."""
    with pytest.raises(ValueError, match=r"time_limit must be a number of seconds above 0 and at most 86400"):
        solve(load_level(ROOT / "levels/tutorial/01_first_salad.yaml"), time_limit=limit)


@pytest.mark.parametrize(
    "progress,words",
    [
        (Progress(1, 10, 13, 13, 0.2, states=1), "(1 schedule, 1 exact-search state, 0.2 s)"),
        (Progress(12_345, 10, 20, 13, 1.0, states=2), "(12,345 schedules, 2 exact-search states, 1.0 s)"),
        (Progress(0, 10, None, None, 0.0), "best OCT none yet, bound not known yet (0 schedules, 0.0 s)"),
    ],
)
def test_the_progress_line_counts_in_words(progress, words):
    """It said "1 schedules", and "bound None" before the bound was worked out."""
    assert progress.describe().endswith(words)


def test_more_searches_than_cores_are_said_to_take_longer(capsys, monkeypatch):
    """--jobs is no longer capped at the cores (it decides the plan), so the wait grows: said."""
    from game.cli import main
    from game.commands import solve as solve_command

    monkeypatch.setattr(solve_command, "cores", lambda: 1)
    assert main(["solve", str(LEVEL), "--jobs", "3", "--time-limit", "0.1", "--no-progress"]) == 0
    out = capsys.readouterr()
    assert "note: 3 searches on 1 core run in 3 rounds: about 3 x the time limit" in out.err
    assert " (3 searches) in " in out.out
