"""The referee benchmark: the exact search splits the planner's gap to the bound into the plan's
share and the bound's, per number of orders, and says how many levels it settled."""

from __future__ import annotations

import pytest
from kitchens import TWO_PLATES, TWO_PLATES_STATIONS, kitchen
from scripts import load_script
from test_solver_exact import rice_bowl_kitchen


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks", "referee_bench")


def test_the_rice_bowl_is_settled_at_its_hand_computed_optimum(bench):
    # dispense at 0, rice in the pot at 1 (ready at 17), plate at 17, served at 19
    row = bench.referee(rice_bowl_kitchen(), "paracook", 0.2, 5_000)
    assert row["status"] == "optimal" and row["optimum"] == 19 and row["floor"] == 19
    assert row["bound"] <= 19 <= row["planner"] and row["orders"] == 1


def test_a_starved_search_settles_nothing_and_its_floor_lies_under_the_plan(bench):
    level = kitchen(TWO_PLATES, TWO_PLATES_STATIONS, ("salad_basic", "salad_basic"))
    row = bench.referee(level, "paracook", 0.2, 1)
    assert row["status"] == "budget" and row["optimum"] is None
    assert row["bound"] <= row["floor"] <= row["planner"] and row["orders"] == 2


def _row(orders, planner, bound, optimum=None, floor=None, walks=(None, None, None)):
    walking, optimum_walking, least = walks
    return {
        "walking": walking,
        "optimum_walking": optimum_walking,
        "least_walking": least,
        "task": "t",
        "rules": "paracook",
        "orders": orders,
        "planner": planner,
        "bound": bound,
        "optimum": optimum,
        "floor": floor if floor is not None else (optimum if optimum is not None else bound),
        "status": "optimal" if optimum is not None else "budget",
    }


def test_the_split_is_the_hand_computed_one(bench):
    rows = [
        _row(2, 60, 40, optimum=50),  # 20 steps of gap: 10 the plan's, 10 the bound's
        _row(2, 30, 30, optimum=30),  # no gap
        _row(2, 90, 45, floor=60),  # not settled: the plan's share at most 30/45
        _row(3, 80, 40, floor=40),  # not settled, floor no higher than the bound: at most all of it
    ]
    s = bench.split(rows[:3])
    assert s["levels"] == 3 and s["settled"] == 2
    assert s["plan_share"] == pytest.approx(10 / 20)
    assert s["plan_ratio"] == pytest.approx((60 / 50 + 1) / 2)
    assert s["bound_ratio"] == pytest.approx((50 / 40 + 1) / 2)
    assert s["settled_ratio"] == pytest.approx((60 / 40 + 1) / 2)
    assert s["all_ratio"] == pytest.approx((60 / 40 + 1 + 2) / 3)
    assert s["open_plan_share_at_most"] == pytest.approx(30 / 45)
    table = bench.table(rows)
    assert [r[:3] for r in table] == [["paracook", 2, "2/3 (67%)"], ["paracook", 3, "0/1 (0%)"]]
    assert table[1][4:8] == [None, None, None, None] and table[1][8] == pytest.approx(1.0)
    assert len(table[0]) == len(bench.COLUMNS)


def test_walking_is_set_beside_the_least_walking_the_bound_proves(bench):
    rows = [
        _row(2, 60, 40, optimum=50, walks=(40, 30, 20)),  # plan 2x, optimum 1.5x
        _row(2, 30, 30, optimum=30, walks=(12, 12, 12)),  # both 1x
        _row(2, 90, 45, floor=60, walks=(70, None, 20)),  # not settled: plan 3.5x, no optimum
        _row(2, 50, 40, floor=40, walks=(30, None, None)),  # the program could not tell
    ]
    s = bench.split(rows)
    assert s["plan_walk"] == pytest.approx((2 + 1 + 3.5) / 3)
    assert s["optimum_walk"] == pytest.approx((1.5 + 1) / 2)
    assert bench.walk_table(rows) == [["paracook", 2, 4, s["plan_walk"], 2, s["optimum_walk"]]]
    assert len(bench.WALK_COLUMNS) == 6


def test_the_levels_are_the_one_agent_suite_levels(bench):
    tasks = bench.suite_tasks()
    assert len(tasks) == 120 and all("/agent_num_1/" in t for t, _ in tasks)
    assert {t.rsplit("_", 1)[1] for t, _ in tasks} == {"1", "2", "3", "4"}
