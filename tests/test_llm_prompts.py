"""Prompts: the one-shot example is a real, winning plan; the task prompt carries the protocol."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import need_paracook

from game.engine import parse_plan, simulate
from game.engine.kitchen import CHOP_TIME, WASH_TIME
from game.levels import LEVELS_DIR, load_level
from game.planners.llm import METHODS
from game.planners.llm.describe import item_text
from game.planners.llm.feedback import result_feedback
from game.planners.llm.methods import dry_point
from game.planners.llm.prompts import PROMPTS_DIR, example, example_level, first_messages
from game.planners.llm.tasks import TaskError, parse_shard, resolve_levels, shard


def test_the_example_plan_serves_its_order_at_the_stated_time():
    level = example_level()
    result = simulate(level, parse_plan(example()["plan"], level.agent_names))
    assert result.done and result.error is None
    assert result.time == example()["time"] == 38
    assert len(level.agents) == 2 and level.orders == ("pasta_tomato",)


def test_the_example_text_matches_the_run():
    text = (PROMPTS_DIR / "example.md").read_text()
    level = example_level()
    tl = simulate(level, example()["plan"]).timeline
    pot_in = next(s for s in tl.spans_of("agent1") if s.action == {"action": "Interact", "target": "stove1"})
    pan_in = next(s for s in tl.spans_of("agent2") if s.action == {"action": "Interact", "target": "stove2"})
    assert f"at t = {pot_in.end} (it is cooked at t = {pot_in.end + 16})" in text
    assert f"at t = {pan_in.end} (cooked at t = {pan_in.end + 24})" in text


@pytest.mark.parametrize("method", METHODS)
def test_every_method_prompt_has_rules_example_task_and_format(method):
    level = example_level().replace(name="my_test_kitchen")
    system, user = first_messages(level, method)
    assert system["role"] == "system" and user["role"] == "user"
    assert f"chopping board {CHOP_TIME}, sink {WASH_TIME}" in system["content"]
    assert "16 time units per ingredient" in system["content"]
    assert "$" not in system["content"] + user["content"]
    content = user["content"]
    assert content.index("# A solved example") < content.index("# Your task") < content.index("# Answer")
    assert '"name": "my_test_kitchen"' in content and "pasta_tomato: Boil pasta" in content
    assert "```json" in content.split("# Answer")[1]


def test_failures_are_explained_with_the_state():
    level = example_level()
    plan = example()["plan"]
    short = {"agent1": plan["agent1"][:4], "agent2": []}
    r = simulate(level, short)
    text = result_feedback(level, r)
    assert "never served: pasta_tomato" in text and "stove1: a pot with raw pasta" in text
    assert dry_point(parse_plan(short, level.agent_names), r.timeline) == (0, ["agent2"])
    assert item_text({"kind": "plate", "contents": []}) == "an empty plate"


def test_level_specs(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps(example()["map"]))
    tasks = resolve_levels([f"{path}:pasta_tomato", f"{path}:pasta/pasta_tomato,pasta_meat"])
    assert [t.id for t in tasks] == ["k:pasta_tomato", "k:pasta_tomato,pasta_meat"]
    assert tasks[1].level.orders == ("pasta_tomato", "pasta_meat")
    with pytest.raises(TaskError, match="no dish called 'soup'"):
        resolve_levels([f"{path}:soup"])
    with pytest.raises(TaskError, match="needs the orders"):
        resolve_levels([str(path)])
    again = resolve_levels([f"{path}:pasta_tomato", f"{path}:pasta_meat", f"{path}:pasta_tomato"])
    assert [t.id for t in shard(again, "1/2")] == ["k:pasta_tomato", "k:pasta_tomato#2"]
    assert [t.id for t in shard(again, "2/2")] == ["k:pasta_meat"]
    folder = resolve_levels([str(LEVELS_DIR / "tutorial")])
    assert folder and [t.id for t in folder] == [t.id for t in resolve_levels(["tutorial"])]
    for bad in ("0/2", "3/2", "x"):
        with pytest.raises(TaskError, match="K/N"):
            parse_shard(bad)


def test_benchmark_maps_get_their_category_and_seed():
    root: Path = need_paracook()
    (task,) = resolve_levels([f"{root}/maps/salad/seed_42/agent_num_2.json:salad_basic,salad_full"])
    assert task.id == "salad/seed_42/agent_num_2:salad_basic,salad_full"
    assert task.level.meta["category"] == "salad" and task.level.meta["seed"] == 42
    assert load_level(f"{root}/maps/salad/seed_42/agent_num_2.json", ["salad_basic"]).agent_names == (
        "agent1",
        "agent2",
    )


def test_scenario_options_are_stated_in_the_task():
    from kitchens import kitchen

    from game.planners.llm.prompts import task_text

    rows = ["1.T", "..W"]
    stations = {"T": {"name": "table1", "item": "plate"}, "W": {"name": "serving_window"}}
    plain = kitchen(rows, stations, ("salad_basic",))
    assert "Extra rules" not in task_text(plain)
    level = plain.replace(
        options={"burn_after": 7, "serve_within": 30, "can_use": {"agent1": ["table", "serving_window"]}}
    )
    text = task_text(level)
    assert "more than 7 time units after it finished cooking burns" in text
    assert "within 30 time units" in text
    assert "agent1 may Interact and Process only at these kinds of station: table, serving_window" in text
