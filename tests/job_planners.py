"""The planners the window tests (test_play, test_planner_progress) run in a planner job's child
process. The spawned child imports the module a planner comes from: this one imports next to
nothing (a test module brings pygame, hypothesis and the play window's tests, a second of imports
in every child)."""

from __future__ import annotations

import math
import time

QUICK = 1.5  # the window's planner on 1.5 s of its 10 (its bound costs 0.5 s of them): the same search, cut shorter


def quick_solver_plan(level, rules, progress=None):
    """The window's planner (`planner_job.solver_plan`) with a smaller budget."""
    from game.planners.solver import solve

    return solve(level, rules=rules, time_limit=QUICK, progress=progress).plan


def salad_planner(level, rules):
    """The play tests' stand-in planner (run in the background process): the 14-unit salad plan."""
    from test_editor import cook_salad

    from game.ui.editor import PlanEditor

    ed = PlanEditor(level)
    cook_salad(ed)
    return {"plan": ed.plan_dict()}


def plain_planner(level, rules):
    """A planner that tells nothing while it works."""
    return salad_planner(level, rules)


def reporting_planner(level, rules, progress):
    progress({"best_oct": 52, "bound": 33, "fraction": 0.5})
    time.sleep(60)
    return {}


def bounding_planner(level, rules, progress):
    """Like the solver: an opening report with nothing known while it works its bound out."""
    progress({"best_oct": None, "bound": None, "fraction": 0.0})
    time.sleep(60)
    return {}


def two_step_planner(level, rules, progress):
    progress({"best_oct": 20, "bound": 10, "fraction": 0.25})
    time.sleep(1.5)
    progress({"best_oct": 18, "bound": 10, "fraction": 0.75})
    time.sleep(60)
    return {}


def bounded_planner(level, rules, progress=None):
    """The salad plan (OCT 14) with a bound of 10 reported on the way."""
    progress({"best_oct": 14, "bound": 10, "fraction": 1.0})
    return salad_planner(level, rules)


class Broken:
    @property
    def best_oct(self):
        raise ZeroDivisionError("a report that breaks when read")


GARBAGE = [
    {"best_oct": math.nan, "bound": math.inf, "fraction": math.nan},
    {"best_oct": 10**400, "bound": -5, "fraction": 1e308, "evaluations": -3, "budget": 0},
    {"best_oct": "fast", "bound": [1], "fraction": "half", "evaluations": {"a": 1}},
    {"best_oct": True, "bound": 1e-300, "fraction": -math.inf},
    None,
    42,
    Broken(),
]


def garbage_planner(level, rules, progress):
    def send(report):  # each one reaches the window at once, past the reporter's rate limit
        progress(report)
        progress.flush()

    for report in GARBAGE:
        send(report)
    send({"best_oct": 14, "bound": 10, "fraction": 0.6})
    send({"best_oct": -1, "bound": math.nan, "fraction": 7})
    return salad_planner(level, rules)


def sleeping_planner(level, rules):
    time.sleep(60)
    return {}
