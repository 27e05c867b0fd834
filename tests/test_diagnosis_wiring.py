"""The diagnosis as every consumer gets it: the result and its JSON, `run`, result files and
replays, the LLM feedback; cooking progress as an Interact would find it; a cut move."""

from __future__ import annotations

import json

import pytest
from diagnosis_corpus import build, load_cases
from kitchens import it, mv, wait
from test_render import small_level

from game.cli import main
from game.engine import simulate
from game.engine.diagnosis import Diagnosis
from game.engine.items import cooking_progress
from game.planners.llm.feedback import engine_feedback
from game.replay import parse_replay, replay_dict
from game.replay.file import _canonical

CASES = {c.id: c for c in load_cases()}


def case_run(case_id: str):
    level, plan = build(CASES[case_id])
    return level, plan, simulate(level, plan, CASES[case_id].rules)


def test_a_failed_result_carries_its_diagnosis_as_data_and_it_reads_back():
    _, _, result = case_run("two_cooks_pan_short_wait")
    d = result.to_dict()["diagnosis"]
    assert d["error"] == "wrong_dish" and d["summary"].startswith("At t = 33 agent1's")
    first = d["causes"][0]
    assert (first["kind"], first["t"], first["agent"], first["action"], first["short_by"]) == (
        "not_ready",
        29,
        "agent1",
        11,
        7,
    )
    assert Diagnosis.from_dict(json.loads(json.dumps(d))).to_dict() == d


def test_run_json_and_run_print_the_same_diagnosis(tmp_path, capsys):
    case = CASES["two_cooks_pan_short_wait"]
    _, plan = build(case)
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    args = ["run", case.level, str(tmp_path / "plan.json")]
    assert main([*args, "--json"]) == 1
    printed = json.loads(capsys.readouterr().out)["diagnosis"]
    assert printed == case_run(case.id)[2].diagnosis
    assert main(args) == 1
    text = capsys.readouterr().out
    assert f"  why: {printed['summary']}" in text
    assert f"  cause 1 (not_ready, t = 29): {printed['causes'][0]['text']}" in text


def test_batch_lines_carry_the_diagnosis(tmp_path, capsys):
    case = CASES["first_salad_no_chop"]
    _, plan = build(case)
    line = {"level": str(__import__("pathlib").Path(case.level).resolve()), "plan": plan}
    (tmp_path / "cases.jsonl").write_text(json.dumps(line) + "\n")
    assert main(["run", "--batch", str(tmp_path / "cases.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["diagnosis"]["causes"][0]["kind"] == "missing_step"


def test_the_llm_feedback_says_what_the_viewer_says_same_instant_included():
    level, _, result = case_run("chef_and_prep_arrive_together")
    cause = result.diagnosis["causes"][0]
    assert cause["kind"] == "same_instant" and "handled first" in cause["text"]
    for template in ("feedback_engine", "msreact_error", "dec_error"):
        text = engine_feedback(level, result, template)
        assert f"- {cause['text']}" in text and f"- Needed: {result.diagnosis['need']}" in text


def test_a_move_cut_by_the_stop_is_on_its_way_in_the_feedback():
    level = small_level()
    # agent2 (its Wait began at 0) is handled before agent1 (its move began at 1) at t = 2, fails,
    # and agent1's move, due to end at that very instant, never lands
    plan = {"agent1": [wait(1), mv(2, 1)], "agent2": [wait(2), it("table1")]}
    result = simulate(level, plan)
    assert result.error_detail.kind == "not_adjacent" and result.time == 2
    assert result.timeline.state_at(2)["agents"]["agent1"]["pos"] == [1, 1]  # the engine's state
    assert result.timeline.position_at("agent1", 2) == (2.0, 1.0)  # where it physically is
    text = engine_feedback(level, result)
    assert "agent1 on its way to [2, 1] (near [2, 1] when the run stopped; it never arrived)" in text
    assert "agent1 at [1, 1]" not in text


@pytest.mark.parametrize(
    "t, on_stove, expected",
    [
        (17, True, (0, 24)),
        (30, True, (13, 24)),
        (41, True, (24, 24)),
        (45, True, (24, 24)),
        (45, False, (0, 24)),
    ],
)
def test_cooking_progress_is_what_an_interact_at_t_would_find(t, on_stove, expected):
    pan = {"kind": "pan", "contents": [], "processed": 0, "required": 24, "stamp": 17, "cooking": True}
    assert cooking_progress(pan, t, on_stove) == expected


def test_a_replay_from_before_the_diagnosis_still_opens_and_gets_one():
    level, plan, result = case_run("first_salad_no_chop")
    data = replay_dict(level, plan_of(level, plan), result)
    del data["result"]["diagnosis"]
    body = {k: v for k, v in data.items() if k != "checksum"}
    data["checksum"] = __import__("hashlib").sha256(_canonical(body)).hexdigest()
    replay = parse_replay(json.loads(json.dumps(data)))
    assert replay.result["diagnosis"] == result.diagnosis


def test_a_diagnosis_that_breaks_never_costs_the_run(monkeypatch):
    import game.engine.runner as runner

    def broken(*_a, **_k):
        raise RuntimeError("boom")

    monkeypatch.setattr(runner, "diagnose", broken)
    level, plan = build(CASES["first_salad_no_chop"])
    result = simulate(level, plan)
    assert result.error == result.to_dict()["error"] and result.diagnosis["error"] == "unexplained"
    assert result.diagnosis["causes"] == [] and "RuntimeError" in result.diagnosis["summary"]


def test_an_empty_plan_is_explained_as_such():
    level = small_level()
    d = simulate(level, {"agent1": [], "agent2": []}).diagnosis
    assert d["error"] == "unfinished" and d["causes"][0]["kind"] == "plan_error"
    assert "no actions" in d["causes"][0]["text"] and d["summary"].startswith("The plan ended at t = 0")


def plan_of(level, plan):
    from game.engine import parse_plan

    return parse_plan(plan, level.agent_names)


def test_the_docs_list_every_cause_kind():
    from pathlib import Path

    from game.engine.diagnosis import CAUSE_KINDS

    page = (Path(__file__).resolve().parents[1] / "docs" / "diagnosis.md").read_text()
    assert all(f"`{kind}`" in page for kind in CAUSE_KINDS)


@pytest.mark.parametrize(
    "failure",
    [
        {"error": "no_plan", "summary": "ok", "causes": [{"kind": "no_plan", "t": "x", "text": "?"}]},
        {"error": "no_plan", "causes": "not a list of causes"},
        {"summary": "no error field"},
        {
            "error": "no_plan",
            "summary": "<script>alert(1)</script>",
            "causes": [{"kind": "no_plan", "t": 0, "text": "x"}],
        },
        "a string",
    ],
)
def test_a_replay_s_own_account_of_a_missing_plan_is_read_safely(failure):
    level = small_level()
    plan = {"agent1": [], "agent2": []}
    result = simulate(level, plan)
    data = replay_dict(level, plan_of(level, plan), result, {"kind": "llm", "failure": failure})
    replay = parse_replay(json.loads(json.dumps(data)))
    d = replay.result["diagnosis"]
    assert d is not None and d["causes"]
    if isinstance(failure, dict) and failure.get("summary", "").startswith("<script>"):
        assert d["summary"] == "<script>alert(1)</script>"  # kept as text; views escape it
    elif d["error"] != "no_plan":
        assert d == result.diagnosis  # a malformed account gives way to the engine's


def test_the_prompt_s_kitchen_says_cooking_as_an_interact_at_t_would_find_it():
    from game.planners.llm.describe import state_text

    level, _, result = case_run("two_cooks_pan_short_wait")
    state = result.timeline.state_at(20)  # the tomato went into the pan at 12; the last event was 19
    pan = state["stations"]["stove2"]
    assert pan["processed"] < 8  # the snapshot's counter lags between events
    assert "stove2: a pan with chopped tomato (cooking: 8 of 24 done)" in state_text(level, state, t=20)


def test_a_plate_at_an_empty_stove_is_said_as_what_the_agent_tried():
    from kitchens import kitchen

    stations = {"S": {"name": "stove1", "item": "pan"}, "T": {"name": "table1", "item": "plate"}}
    level = kitchen(["STU", "1.."], {**stations, "U": {"name": "table2"}}, ("salad_basic",))
    plan = {"agent1": [it("stove1"), mv(2, 1), it("table2"), mv(1, 1), it("table1"), mv(0, 1), it("stove1")]}
    result = simulate(level, plan)
    assert result.error_detail.reason == "stove1 has no pot or pan to take food from onto plate (empty)"
    d = result.diagnosis
    assert d["need"].startswith("a pot or pan on stove1")
    first = d["causes"][0]
    assert (first["kind"], first["t"], first["action"]) == ("moved_away", 0, 0)
    assert first["text"] == "stove1 has been empty since t = 0: agent1 picks up the pan (empty) from stove1"
