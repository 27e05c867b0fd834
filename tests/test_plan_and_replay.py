"""Plan form checks, replay files (bytes, refusal of bad files) and the engine's purity."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT
from kitchens import kitchen, mv, pr, wait
from test_rules import ROWS, SALAD, STATIONS

from game.engine import PlanError, parse_plan, simulate, unreadable_actions
from game.engine import errors as E
from game.replay import ReplayError, load_replay, replay_bytes, save_replay
from game.replay.file import VERSION

AGENTS = ("agent1", "agent2")


def level():
    return kitchen(ROWS, STATIONS, ("salad_basic",))


@pytest.mark.parametrize(
    "plan, needle",
    [
        ({"agent3": []}, "agent3: no such agent"),
        ({"agent1": {"action": "Wait"}}, "agent1: the action queue must be a list"),
        ([1, 2], "the plan must be an object"),
        ({"agent1": [{"action": "Finish"}] * 10_001}, "agent1: 10001 actions, more than the 10000"),
    ],
)
def test_plans_of_the_wrong_shape_are_refused(plan, needle):
    with pytest.raises(PlanError) as e:
        parse_plan(plan, AGENTS)
    assert needle in str(e.value)


@pytest.mark.parametrize(
    "plan, needle",
    [
        ({"agent1": [mv(1, 1), {"action": "Jump"}]}, "agent1 action 1 (Jump): field 'action' must be one of"),
        ({"agent1": [{"action": "MoveTo"}]}, "agent1 action 0 (MoveTo): field 'target' is missing"),
        ({"agent1": [{"action": "MoveTo", "target": "table1"}]}, "agent1 action 0 (MoveTo): field 'target'"),
        ({"agent1": [{"action": "MoveTo", "target": [1, 2, 3]}]}, "[x, y] with two numbers"),
        ({"agent1": [{"action": "MoveTo", "target": [1, True]}]}, "[x, y] with two numbers"),
        (
            {"agent2": [wait(1), {"action": "Interact", "target": [1, 2]}]},
            "agent2 action 1 (Interact): field 'target' must be a station name",
        ),
        ({"agent1": [{"action": "Process"}]}, "agent1 action 0 (Process): field 'target' is missing"),
        ({"agent1": ["Wait"]}, 'agent1 action 0 ("Wait"): an action must be an object'),
        ({"agent1": [{"target": "x"}]}, "agent1 action 0: field 'action' is missing"),
    ],
)
def test_unreadable_actions_are_named_by_agent_index_and_field(plan, needle):
    parsed = parse_plan(plan, AGENTS)  # the shape is sound: no refusal
    problems = unreadable_actions(parsed)
    assert len(problems) == 1 and needle in problems[0]
    r = simulate(level(), parsed)
    assert r.error_detail.kind == E.INVALID_ACTION and needle in r.error


def test_every_unreadable_action_is_listed_at_once():
    plan = parse_plan({"agent1": [{"action": "Jump"}], "agent2": [{"action": "MoveTo"}]}, AGENTS)
    assert len(unreadable_actions(plan)) == 2


def test_a_long_list_of_problems_is_cut_with_a_count():
    plan = parse_plan({"agent1": [{"action": "Jump"}] * 50}, AGENTS)
    problems = unreadable_actions(plan)
    assert len(problems) == 21 and problems[-1] == "... and 30 more problems"


def test_whole_number_floats_are_tiles_and_other_numbers_unreachable():
    plan = parse_plan({"agent1": [{"action": "MoveTo", "target": [1.0, 1.0]}]}, AGENTS)
    assert plan["agent1"][0].target == (1, 1) and type(plan["agent1"][0].target[0]) is int
    r = simulate(level(), {"agent1": [wait(1), {"action": "MoveTo", "target": [1.5, 2]}]})
    assert r.error_detail.kind == E.UNREACHABLE and r.agent_progress["agent1"] == "1/2" and r.time == 1


def test_plan_forms_accepted():
    bare = {"agent1": SALAD}
    assert parse_plan({"plan": bare}, AGENTS) == parse_plan(bare, AGENTS)
    assert parse_plan({"done": True, "time": 3, "plan": bare}, AGENTS) == parse_plan(bare, AGENTS)
    assert parse_plan(bare, AGENTS)["agent2"] == ()


def test_simulate_raises_plan_error_for_bad_shape():
    with pytest.raises(PlanError):
        simulate(level(), {"agent3": [{"action": "Fly"}]})


# -- replays ------------------------------------------------------------------------------------
def make_replay():
    lv = level()
    plan = parse_plan({"agent1": SALAD, "agent2": [mv(2, 1), pr("chopping_board1")]}, lv.agent_names)
    return lv, plan, simulate(lv, plan)


def test_same_level_and_plan_give_same_bytes():
    a = replay_bytes(*make_replay())
    b = replay_bytes(*make_replay())
    assert a == b and len(a) > 1000


def test_replay_roundtrip_rebuilds_every_state(tmp_path):
    lv, plan, result = make_replay()
    path = save_replay(tmp_path / "r.json", lv, plan, result, {"kind": "test"})
    rp = load_replay(path)
    assert rp.result == result.to_dict() and rp.rules == "paracook"
    assert rp.timeline.times == result.timeline.times
    assert rp.timeline.states == result.timeline.states
    assert rp.level.to_dict() == lv.to_dict()
    again = simulate(rp.level, rp.plan, rp.rules)
    assert again.to_dict() == rp.result


def test_long_replay_uses_keyframes_and_deltas(tmp_path):
    lv = level()
    plan = {"agent1": [mv(1, 1), mv(5, 3)] * 60}
    result = simulate(lv, plan)
    path = save_replay(tmp_path / "long.json", lv, parse_plan(plan, lv.agent_names), result)
    frames = json.loads(path.read_text())["timeline"]["frames"]
    assert sum(1 for f in frames if f.get("key")) >= 3 and "delta" in frames[1]
    assert load_replay(path).timeline.states == result.timeline.states


def test_truncated_tampered_and_newer_replays_are_refused(tmp_path):
    lv, plan, result = make_replay()
    path = save_replay(tmp_path / "r.json", lv, plan, result)
    text = path.read_text()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    with pytest.raises(ReplayError, match="truncated"):
        load_replay(tmp_path / "cut.json")
    data = json.loads(text)
    data["result"]["time"] = 1
    (tmp_path / "edit.json").write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="checksum"):
        load_replay(tmp_path / "edit.json")
    data = json.loads(text)
    data["version"] = VERSION + 1
    (tmp_path / "new.json").write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="newer version"):
        load_replay(tmp_path / "new.json")
    (tmp_path / "other.json").write_text("{}")
    with pytest.raises(ReplayError, match="not a replay"):
        load_replay(tmp_path / "other.json")


def test_timeline_positions_walk_tile_by_tile():
    lv = level()
    r = simulate(lv, {"agent1": [mv(1, 1)]})  # (3,2) -> (1,1): 3 steps
    tl = r.timeline
    assert tl.position_at("agent1", 0) == (3.0, 2.0)
    x, y = tl.position_at("agent1", 1.5)
    assert abs(x - 3) + abs(y - 2) == pytest.approx(1.5)
    assert tl.position_at("agent1", 3) == (1.0, 1.0)
    assert tl.state_at(2.9)["agents"]["agent1"]["pos"] == [3, 2]  # arrival applies at t=3


def test_engine_imports_no_pygame_files_or_network():
    code = (
        "import sys, game.engine, game.engine.simulator; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('pygame', 'socket', 'http', 'openai', 'yaml', 'pygame_gui')]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
    src = "\n".join(p.read_text() for p in (ROOT / "game" / "engine").glob("*.py"))
    assert "open(" not in src and "import pygame" not in src
