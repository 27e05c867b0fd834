"""Tutorial levels: each validates, has a description, and a hand-written plan serves every order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.engine import simulate
from game.levels import load_level
from game.levels.format import level_from_yaml, level_to_yaml
from game.levels.suite import suite_levels

PLANS = Path(__file__).parent / "data" / "tutorial_plans"
TUTORIALS = suite_levels("tutorial")


def test_there_are_at_least_five_tutorials_each_with_a_plan():
    assert len(TUTORIALS) >= 5
    assert sorted(p.stem for p in TUTORIALS) == sorted(p.stem for p in PLANS.glob("*.json"))


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_is_solvable_by_its_plan(path: Path):
    level = load_level(path)
    assert level.title and len(level.description) > 80
    assert level.meta["suite"] == "tutorial" and level.meta["id"] == f"tutorial/{path.stem}"
    assert level.width * level.height <= 40  # small kitchens
    plan = json.loads((PLANS / f"{path.stem}.json").read_text())
    result = simulate(level, plan, level.rules)
    assert result.error is None, result.error
    assert result.done and result.remaining_orders == []
    assert len(result.finished_orders) == len(level.orders)


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_survives_a_round_trip(path: Path):
    level = load_level(path)
    assert level_from_yaml(level_to_yaml(level), "x").to_dict() == level.to_dict()


def test_lessons_teach_what_they_say():
    levels = {p.stem: load_level(p) for p in TUTORIALS}
    assert len(levels["04_two_cooks"].agents) == 2
    dirty = levels["05_dirty_plates"]
    assert dirty.plate_count == 1 and len(dirty.orders) == 2
    assert {"sink", "plate_return"} <= {s.kind for s in dirty.stations}
    assert any(s.item == "pan" for s in levels["03_cook_while_you_chop"].stations)
