"""The planner benchmark's account of where the agents' time goes: the engine's walking,
processing and waiting, and the least walking the bound proves."""

from __future__ import annotations

import pytest
from kitchens import TWO_PLATES, TWO_PLATES_STATIONS, kitchen
from scripts import load_script

from game.engine.kitchen import CHOP_TIME
from game.levels.format_write import level_to_yaml


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks", "solver_bench")


def test_a_salad_walks_four_steps_and_chops_once(bench, tmp_path):
    # lettuce taken from the start; 2 steps to the board, chopped; 2 steps to the tile that
    # touches both the plate and the window: no plan walks less, and the bound proves no more
    path = tmp_path / "salad.yaml"
    path.write_text(level_to_yaml(kitchen(TWO_PLATES, TWO_PLATES_STATIONS, ("salad_basic",))))
    job = ("suite", "salad", str(path), None, "paracook", 0.5, None, 0, False, 0)
    row = bench.run_job(job)
    assert row["done"] and row["agents"] == 1
    assert row["moving"] == 4 and 0 < bench.least_walking_job(job) <= 4
    assert row["processing"] == CHOP_TIME
    assert row["moving"] + row["processing"] + row["waiting"] <= row["agents"] * row["oct"]


def _row(orders, agents, oct_, moving, processing, waiting, least, done=True, part="suite"):
    return {
        "part": part,
        "rules": "paracook",
        "orders": orders,
        "agents": agents,
        "done": done,
        "oct": oct_ if done else None,
        "moving": moving,
        "processing": processing,
        "waiting": waiting,
        "least_walking": least,
    }


def test_the_shares_are_means_over_plans_of_agent_steps_over_agents_times_oct(bench):
    rows = [
        _row(3, 2, 50, 60, 20, 10, 30),  # 60 %, 20 %, 10 %; walked 2x the least
        _row(3, 1, 40, 20, 10, 4, 20),  # 50 %, 25 %, 10 %; walked 1x
        _row(3, 2, 50, 99, 99, 99, 1, done=False),  # a failed plan counts in nothing
        _row(1, 1, 10, 5, 5, 0, None),  # the program could not tell: no walking ratio
    ]
    columns, table = bench.time_use_table(rows)
    assert columns[2:] == [
        "plans",
        "walking",
        "processing",
        "waiting",
        "walking / the least proven",
    ]
    assert table == [
        ["suite (paracook)", 1, 1, "50.0 %", "50.0 %", "0.0 %", None],
        ["suite (paracook)", 3, 2, "55.0 %", "22.5 %", "10.0 %", 1.5],
    ]
