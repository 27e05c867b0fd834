"""The routing relaxation (`lower_bound(..., routes=True)`) is sound: never above the OCT of a
plan we have (the human plans, the tutorials' and scenarios' reference plans, the planner's,
plans slowed down at random), and never above the optimum that exhaustive search finds on tiny
one-agent, one-order kitchens (equal to it where the kitchen has no shortcut the relaxation
cannot see)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import examples, human_cases, run_shared, shared_solve, sweep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import kitchen
from test_solver_cli import command

from game.engine import get_rules, simulate
from game.engine.plan import parse_plan
from game.engine.simulator import Simulation
from game.levels import load_level
from game.levels.generator import generate_kitchen, task_level
from game.levels.suite import CATEGORIES, SuiteTask
from game.planners.solver import lower_bound, solve
from game.planners.solver.bound.route_bound import route_bound

ROOT = Path(__file__).resolve().parents[1]
# One recorded plan per dish, the dishes taking turns over the four kitchens and order counts
# (seed 126, 42 with two orders, 42 with three, 84): every dish and every kind of task once. The
# planner asks for this relaxation on one-order levels only; these are its multi-order check.
CASES = [case for k, case in enumerate(human_cases()) if k % 4 == (k // 4) % 4]


@sweep("index", range(len(CASES)), ids=lambda i: str(CASES[i][0].relative_to(CASES[i][0].parents[3])))
def test_route_bound_is_at_most_the_human_oct(index):
    """Each recorded plan against the bound under one rule set, the two taking turns over the
    plans (a routes relaxation is a CP-SAT solve of one to four seconds per rule set)."""
    human, map_file, orders = CASES[index]
    level = load_level(map_file, orders)
    plan = json.loads(human.read_text())["plan"]
    turns = ("paracook", "documented")
    for rules in (turns[index % 2], turns[1 - index % 2]):
        result = simulate(level, plan, rules, record=False)
        if result.done:
            bound = lower_bound(level, rules, routes=True)
            assert 0 < bound.value <= result.time, (rules, bound.terms)
            return
    pytest.fail("the recorded plan serves under neither rule set")


@pytest.mark.parametrize(
    "folder,key",
    [("tutorial", None), ("scenarios", "balanced")],
)
def test_route_bound_is_at_most_the_reference_plans(folder, key):
    plans = ROOT / "tests" / "data" / ("tutorial_plans" if folder == "tutorial" else "scenario_plans")
    checked = 0
    for path in sorted((ROOT / "levels" / folder).glob("*.yaml")):
        ref = plans / f"{path.stem}.json"
        if not ref.exists():
            continue
        data = json.loads(ref.read_text())
        plan = data[key]["plan"] if key else data
        level = load_level(path)
        result = simulate(level, plan, record=False)
        assert result.done, path.name
        bound = lower_bound(level, routes=True)
        assert bound.value <= result.time, (path.name, bound.terms)
        checked += 1
    assert checked >= 5


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    category=st.sampled_from(CATEGORIES),
    seed=st.integers(0, 10_000),
    agents=st.integers(1, 3),
    orders=st.integers(1, 2),
    rules=st.sampled_from(["paracook", "documented"]),
    waits=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40), st.integers(1, 5)), max_size=4),
)
def test_route_bound_is_at_most_planner_and_slowed_plans(category, seed, agents, orders, rules, waits):
    task = SuiteTask(category, seed, agents, orders)
    level = task_level(task, generate_kitchen(category, seed))
    sol = solve(level, rules, time_limit=0.05)
    assert sol.done, sol.note
    bound = lower_bound(level, rules, routes=True).value
    assert bound <= sol.oct
    plan = {a: list(acts) for a, acts in sol.plan.items()}
    names = list(plan)
    for who, where, length in waits:  # a random slower plan: waits slipped in anywhere
        acts = plan[names[who % len(names)]]
        acts.insert(where % (len(acts) + 1), {"action": "Wait", "duration": length})
    slowed = simulate(level, plan, rules, record=False)
    if slowed.done:
        assert bound <= slowed.time


# -- exhaustive search on tiny kitchens ---------------------------------------------------
def optimum(level, depth: int) -> float | None:
    """The least OCT over every one-agent plan of at most `depth` station actions (each walking
    to the station's only free side and acting at once: with no cooking, waiting never helps).
    Several tests ask it of one kitchen: it is searched once per run."""
    return run_shared("optimum", [level.to_dict(), depth], lambda: search_optimum(level, depth))


def search_optimum(level, depth: int) -> float | None:
    """Depth-first over every plan. With no cooking and no plate coming back, what a plan leaves
    (where the agent stands, what it holds, what lies where, what is served) is all its future
    depends on: a kitchen some plan already left as soon, with as many steps still to take, is
    not searched again."""
    assert not any(s.kind in ("stove", "plate_return") for s in level.stations), "no clocks here"
    stations = [s for s in level.stations if s.kind not in (None, "wall")]
    sides = {s.name: [p for p in level.neighbours(s.pos) if level.is_floor(p)] for s in stations}
    steps = []
    for s in stations:
        for tile in sides[s.name]:
            move = {"action": "MoveTo", "target": list(tile)}
            steps.append([move, {"action": "Interact", "target": s.name}])
            if s.kind in ("chopping_board", "sink"):
                steps.append([move, {"action": "Process", "target": s.name}])
    best: list[float | None] = [None]
    seen: dict[str, list[tuple[float, int]]] = {}
    name = level.agent_names[0]
    rules = get_rules(level.rules)

    def dfs(plan: list, left: int) -> None:
        sim = Simulation(level, parse_plan({name: plan}, level.agent_names), rules, record=False)
        if sim.run() is not None:
            return
        kitchen, now = sim.kitchen, sim.now
        if not kitchen.remaining:
            if best[0] is None or now < best[0]:
                best[0] = now
            return
        if left == 0 or (best[0] is not None and now >= best[0]):
            return
        key = json.dumps(
            [
                kitchen.agents[0].pos,
                _item(kitchen.agents[0].held),
                len(kitchen.served),
                sorted((n, _item(v)) for n, v in kitchen.surface.items()),
            ]
        )
        if any(then <= now and more >= left for then, more in seen.get(key, ())):
            return
        seen.setdefault(key, []).append((now, left))
        for step in steps:
            dfs(plan + step, left - 1)

    dfs([], depth)
    return best[0]


def _item(item) -> object:
    return None if item is None else item.to_dict()


TINY = [
    (
        ["#L.C#", "#1..#", "#P.W#"],
        {
            "L": {"name": "dispenser1", "provides": "lettuce"},
            "C": {"name": "chopping_board1"},
            "P": {"name": "table1", "item": "plate"},
            "W": {"name": "serving_window"},
        },
        "salad_basic",
        7,
        7,  # the plate must meet the chopped lettuce, but the program's hands split: 1 short
        8,  # the optimum: the exact search finds it (the schedule search alone gives 10)
    ),
    (
        ["#LCPW#", "#1...#"],
        {
            "L": {"name": "dispenser1", "provides": "lettuce"},
            "C": {"name": "chopping_board1"},
            "P": {"name": "table1", "item": "plate"},
            "W": {"name": "serving_window"},
        },
        "salad_basic",
        7,
        7,
        7,
    ),
    (
        ["#L#C#", "#1..W", "#P###"],
        {
            "L": {"name": "dispenser1", "provides": "lettuce"},
            "C": {"name": "chopping_board1"},
            "P": {"name": "table1", "item": "plate"},
            "W": {"name": "serving_window"},
        },
        "salad_basic",
        7,
        10,  # the hands bound: carry the lettuce over, walk back for the plate, carry it over
        10,
    ),
]


@pytest.mark.parametrize("rows,stations,order,depth,bound,planned", TINY)
def test_bound_and_plan_beside_the_exhaustive_optimum_on_tiny_kitchens(
    rows, stations, order, depth, bound, planned
):
    """Where each stands against the true optimum (the figures are what they measure today:
    a change that tightens the bound or improves the plan updates them)."""
    level = kitchen(rows, stations, (order,))
    best = optimum(level, depth)
    assert best is not None
    for rules in ("paracook", "documented"):
        assert route_bound(level, rules) <= lower_bound(level, rules, routes=True).value == bound <= best
        assert best <= shared_solve(level, rules, 0.2).oct == planned  # as test_solver_exact plans it


def test_bound_equals_the_optimum_where_exhaustive_search_finds_it():
    rows, stations, order, depth, bound, _ = TINY[1]
    level = kitchen(rows, stations, (order,))
    assert optimum(level, depth) == bound == lower_bound(level, routes=True).value


def test_cli_route_bound_is_at_least_the_plain_bound():
    """One-order levels have the route bound unasked; `--route-bound` adds it on others (the
    command in this process: `test_solver_cli` runs `main.py` itself)."""

    def bound(level: Path, *extra: str) -> dict:
        out = command("solve", str(level), "--bound", "--json", *extra)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    one, two = ROOT / "levels/tutorial/02_chopping.yaml", ROOT / "levels/tutorial/05_dirty_plates.yaml"
    assert "routes" in bound(one)["terms"]
    plain, routed = bound(two), bound(two, "--route-bound")
    assert "routes" in routed["terms"] and "routes" not in plain["terms"]
    assert routed["lower_bound"] >= plain["lower_bound"]
    assert routed["lower_bound"] <= solve(load_level(two), time_limit=0.2).oct


def test_the_planner_adds_the_route_bound_on_one_order_levels_where_no_exact_search_runs():
    rows, stations, order, *_ = TINY[0]
    level = kitchen(rows, stations, (order,))  # one agent, one order
    one = solve(level, time_limit=0.1, exact=False)
    two = load_level(ROOT / "levels/tutorial/05_dirty_plates.yaml")
    assert "routes" in one.bound.terms and "routes" not in solve(two, time_limit=0.1).bound.terms
    # with the exact search on (the default there), its floor takes the place of the routes
    searched = solve(level, time_limit=0.1)
    assert searched.extra.get("exact") is not None and "routes" not in searched.bound.terms
    assert "routes" in solve(level, time_limit=0.1, routes=True).bound.terms
    forced = solve(two, time_limit=0.1, routes=True)
    assert "routes" in forced.bound.terms and forced.bound.value <= forced.oct


def test_a_board_chops_one_thing_at_a_time_in_the_route_bound():
    """Two chops on the board beside everything, the other board out of the way: the relaxation
    chops them one after the other (it let them overlap on that board: 5), and the planner's
    plan meets the bound."""
    stations = {
        "L": {"name": "dispenser1", "provides": "lettuce"},
        "T": {"name": "dispenser2", "provides": "tomato"},
        "C": {"name": "chopping_board1"},
        "D": {"name": "chopping_board2"},
        "P": {"name": "table1", "item": "plate"},
        "W": {"name": "serving_window"},
    }
    level = kitchen(["#LCT.......D#", "#1.2........#", "#PW.........#"], stations, ("salad_advanced",))
    for rules in ("paracook", "documented"):
        assert route_bound(level, rules) == 9 == solve(level, rules, time_limit=0.5).oct


MODEL_VISITS = """
import sys
sys.path.insert(0, sys.argv[1])
from kitchens import kitchen
from game.planners.solver.bound.route_bound import Orders, RouteBound
stations = {
    "M": {"name": "dispenser1", "provides": "meat"},
    "A": {"name": "dispenser2", "provides": "pasta"},
    "C": {"name": "chopping_board1"},
    "S": {"name": "stove1", "item": "pan"},
    "O": {"name": "stove2", "item": "pot"},
    "P": {"name": "table1", "item": "plate"},
    "W": {"name": "serving_window"},
}
rows = ["##########", "#PW.AO.CM#", "#1.......#", "#......S.#", "##########"]
model = RouteBound(kitchen(rows, stations, ("pasta_meat", "pasta_meat")), "paracook")
model._dishes(Orders())
print([v.name for v in model.visits])
"""


def test_the_route_model_is_built_in_the_same_order_whatever_the_string_hashing():
    # a dish cooked in a pot and a pan: the loads of its cookware used to follow a set's order,
    # which Python's string hashing changes from one process to the next
    import os
    import subprocess
    import sys

    tests = str(Path(__file__).resolve().parent)
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", MODEL_VISITS, tests], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(out.stdout)
    assert len(outputs) == 1 and "load0pan" in next(iter(outputs)) and "load0pot" in next(iter(outputs))
