"""Collaboration metrics on hand-computed cases, wasted work traced through the timeline, the
collaboration levels, and the message schema under fuzzing."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from game.analysis.collaboration import (
    AgentScore,
    NoReference,
    collaboration,
    efficiency,
    help_shares,
    lcs_length,
    named_reference,
    trajectory,
)
from game.analysis.item_flow import wasted_work
from game.cli import main
from game.engine import Level, parse_plan, simulate
from game.levels import load_level
from game.levels.suite import suite_levels
from game.planners.llm.messages import read_turn
from game.planners.llm.parsing import ReplyParseError

COLLAB = suite_levels("collab")
PAN = Path(__file__).resolve().parents[1] / "levels" / "collab" / "01_pan_across.yaml"


def reference(path: Path) -> dict:
    level = load_level(path)
    return json.loads((path.parent / level.meta["reference"]).read_text())


# -- the metrics on small hand-computed cases ------------------------------------------------


def test_lcs_keeps_order_and_allows_gaps():
    assert lcs_length(list("abxc"), list("abc")) == 3
    assert lcs_length(list("cba"), list("abc")) == 1
    assert lcs_length([], list("abc")) == 0


def test_a_redundant_action_lowers_the_score():
    ref = ["get meat", "chop", "cook"]
    assert efficiency(ref, ref) == 1.0
    assert efficiency(["get meat", "get meat", "chop", "cook"], ref) == pytest.approx(3 / 4)
    assert efficiency(["get meat", "chop"], ref) == pytest.approx(2 / 3)  # unfinished, not redundant
    assert efficiency(["get meat", "x", "chop"], ref) == pytest.approx(2 / 4)  # both
    assert efficiency(["get meat", "x", "chop"], ref, beta=0.5) == pytest.approx(2 / 3.5)
    assert efficiency([], []) == 1.0 and efficiency(["x"], []) == 0.0


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=8), st.lists(st.sampled_from("abcd"), max_size=8))
def test_efficiency_is_a_share_and_one_only_for_the_reference(ex, ref):
    score = efficiency(ex, ref)
    assert 0.0 <= score <= 1.0
    assert (score == 1.0) == (ex == ref)
    assert efficiency(ex + ["z"], ref) < score or score == 0.0  # one more redundant action


def test_the_reference_scores_one_and_redundant_actions_lower_it():
    level = load_level(PAN)
    ref = reference(PAN)
    plan = copy.deepcopy(ref)
    # the server picks the plate up and puts it down again: two redundant actions
    plan["agent2"][7:7] = [
        {"action": "Interact", "target": "table3"},
        {"action": "Interact", "target": "table3"},
    ]
    result = simulate(level, plan, record=True)
    assert result.done
    c = collaboration(level, result, parse_plan(ref, level.agent_names))
    # agent2's reference has 8 interactions; it made 10, all 8 matched: 8 / (8 + 2)
    assert c.agents["agent2"].to_dict() == {
        "executed": 10,
        "reference": 8,
        "matched": 8,
        "tes": 0.8,
        "increments": [0.8],
    }
    assert c.agents["agent1"].tes == 1.0 and c.completeness == 1.0
    assert c.tes == pytest.approx(17 / 19)
    exact = collaboration(level, simulate(level, ref, record=True), parse_plan(ref, level.agent_names))
    assert exact.tes == 1.0 and exact.wasted == []


def test_increments_follow_the_rounds_and_completeness_counts_what_was_matched():
    level = load_level(PAN)
    ref = reference(PAN)
    half = {"agent1": ref["agent1"], "agent2": ref["agent2"][:4]}  # the pan passed, nothing more
    result = simulate(level, half, record=True)
    rounds = [
        {"round": 1, "actions": {"agent1": 5, "agent2": 2}},
        {"round": 2, "actions": {"agent1": 18, "agent2": 4}},
    ]
    c = collaboration(level, result, parse_plan(ref, level.agent_names), rounds)
    # agent2: after round 1 one table (1 of 8), after round 2 two tables (2 of 8)
    assert c.agents["agent2"].increments == pytest.approx([1 / 8, 1 / 8])
    # agent1's first 5 actions hold 2 interactions (take the pan, put it on the stove) of 9
    assert c.agents["agent1"].increments == pytest.approx([2 / 9, 7 / 9])
    assert c.completeness == pytest.approx((9 + 2) / (9 + 8))
    assert trajectory(level, result, "agent2") == ["Interact table", "Interact table"]


def test_requests_and_responses_count_when_the_receiver_advanced_next():
    scores = {
        "agent1": AgentScore("agent1", 0, 0, 0, 0.0, [0.2, 0.0, 0.3]),
        "agent2": AgentScore("agent2", 0, 0, 0, 0.0, [0.1, 0.4, 0.0]),
    }
    messages = [
        {"round": 1, "sender": "agent1", "receivers": ["agent2"], "text": "pan please", "time": 0},
        {"round": 2, "sender": "agent2", "receivers": ["agent1"], "text": "on table2", "time": 1},
        {"round": 2, "sender": "agent1", "receivers": ["agent2"], "text": "and a plate", "time": 6},
        {"round": 3, "sender": "agent2", "receivers": ["agent1"], "text": "thanks", "time": 9},
    ]
    requests, responses = help_shares(messages, scores)
    # requests: round 1 (agent2 advanced in round 2) and round 2's "and a plate" (agent2 did
    # not advance in round 3); responses: round 2 (agent1 advanced in round 3) and round 3
    # (no round 4)
    assert (requests.total, requests.advanced) == (2, 1)
    assert (responses.total, responses.advanced) == (2, 1)


# -- wasted work -----------------------------------------------------------------------------


def test_an_extra_bread_left_on_a_table_is_wasted_work():
    level = load_level(PAN)
    plan = reference(PAN)
    extra = [
        {"action": "MoveTo", "target": [1, 3]},
        {"action": "Interact", "target": "dispenser2"},
        {"action": "MoveTo", "target": [3, 3]},
        {"action": "Interact", "target": "table4"},
        {"action": "MoveTo", "target": [2, 3]},
    ]
    plan["agent2"] = plan["agent2"][:10] + extra + [{"action": "Wait", "duration": 28}] + plan["agent2"][11:]
    result = simulate(level, plan, record=True)
    assert result.done
    waste = wasted_work(level, result)
    # the walk to the bread, taking it, the walk to table4 and leaving it there; the walk
    # back leads to taking the served plate, so it is not wasted
    assert [(w.agent, w.index) for w in waste] == [
        ("agent2", 10),
        ("agent2", 11),
        ("agent2", 12),
        ("agent2", 13),
    ]
    assert sum(w.duration for w in waste) == 3


def test_a_failed_run_wastes_what_never_reached_a_dish():
    level = load_level(PAN)
    plan = reference(PAN)
    plan["agent2"] = plan["agent2"][:4]  # the pan crosses; no bread, no plate, nothing served
    result = simulate(level, plan, record=True)
    waste = {(w.agent, w.index) for w in wasted_work(level, result)}
    assert ("agent2", 1) in waste and ("agent1", 9) in waste  # the pan and the chopping


@pytest.mark.parametrize("path", COLLAB, ids=lambda p: p.stem)
def test_reference_plans_waste_nothing(path: Path):
    level = load_level(path)
    result = simulate(level, reference(path), record=True)
    assert wasted_work(level, result) == []


# -- the collaboration levels ----------------------------------------------------------------


def usable_kinds(level: Level, agent: str) -> set[str]:
    """What one agent alone can use: stations next to a tile it can reach, of kinds it may use."""
    start = next(a for a in level.agents if a.name == agent)
    reach = set(level.distances(start.pos))
    allowed = (level.options.get("can_use") or {}).get(agent)
    out = set()
    for s in level.stations:
        if any(n in reach for n in level.neighbours(s.pos)) and (allowed is None or s.kind in allowed):
            out.add(f"{s.kind}:{s.provides}" if s.provides else str(s.kind))
    return out


def needed_kinds(level: Level) -> set[str]:
    need = {"serving_window"}
    for dish in level.orders:
        for ing in level.recipe_book[dish].ingredients:
            need.add(f"dispenser:{ing.item}")
            if ing.state == "chopped" or ing.cookware == "pan":
                need.add("chopping_board")
            if ing.cookware:
                need.add("stove")
    return need


def test_there_are_four_collaboration_levels():
    assert len(COLLAB) >= 4


@pytest.mark.parametrize("path", COLLAB, ids=lambda p: p.stem)
def test_collab_level_reference_serves_every_order_and_no_agent_can_finish_alone(path: Path):
    level = load_level(path)
    assert level.meta["suite"] == "collab" and level.meta["id"] == f"collab/{path.stem}"
    assert len(level.description) > 150
    plan, where = named_reference(level, path)
    result = simulate(level, plan)
    assert result.error is None and result.done and result.finished_orders == list(level.orders)
    for agent in level.agent_names:
        missing = needed_kinds(level) - usable_kinds(level, agent)
        assert missing, f"{agent} could finish {path.stem} alone"


def test_a_broken_reference_is_refused_with_its_file(tmp_path):
    level = load_level(PAN)
    (tmp_path / "references").mkdir()
    (tmp_path / "references" / "01_pan_across.json").write_text('{"agent1": {"action": "Fly"}}')
    with pytest.raises(NoReference, match="meta.reference references/01_pan_across.json: agent1"):
        named_reference(level, tmp_path / "01_pan_across.yaml")
    (tmp_path / "references" / "01_pan_across.json").write_text("{oops")
    with pytest.raises(NoReference, match="cannot read it"):
        named_reference(level, tmp_path / "01_pan_across.yaml")


def test_the_levels_command_lists_and_validates_the_collab_suite(capsys):
    assert main(["levels", "list", "--suite", "collab"]) == 0
    out = capsys.readouterr().out
    assert "collab/01_pan_across" in out and "Three stations" in out
    assert main(["levels", "validate", str(PAN.parent)]) == 0
    assert f"{len(COLLAB)} level file(s) checked, 0 with errors" in capsys.readouterr().out


# -- the message schema ----------------------------------------------------------------------

AGENTS = ("agent1", "agent2", "agent3")


def test_forgiving_forms_of_a_turn():
    t = read_turn(
        '{"plan": [{"action": "Finish"}], "message": {"to": "all", "text": "done"}}', "agent1", AGENTS
    )
    assert t.actions == [{"action": "Finish"}] and t.messages == [(("agent2", "agent3"), "done")]
    t = read_turn("```json\n{'agent2': [], 'messages': {'agent1': 'pan?',}}\n```", "agent2", AGENTS)
    assert t.actions == [] and t.messages == [(("agent1",), "pan?")]
    t = read_turn('```json\n[{"action": "Wait", "duration": 2}]\n```', "agent1", AGENTS)
    assert t.actions == [{"action": "Wait", "duration": 2}] and t.messages == []
    t = read_turn(
        '{"actions": [], "messages": [{"to": ["agent2", "agent2"], "content": "hi"}]}', "agent1", AGENTS
    )
    assert t.messages == [(("agent2",), "hi")]
    t = read_turn('{"actions": [], "messages": [{"to": "agent1", "text": "me"}, 7]}', "agent1", AGENTS)
    assert t.messages == [] and len(t.problems) == 2 and "to itself" in t.problems[0]
    with pytest.raises(ReplyParseError, match="must be a list of actions"):
        read_turn('{"actions": "MoveTo"}', "agent1", AGENTS)
    with pytest.raises(ReplyParseError):
        read_turn("I will wait.", "agent1", AGENTS)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_turn_or_a_parse_error(text):
    try:
        turn = read_turn(text, "agent1", AGENTS)
    except ReplyParseError as e:
        assert str(e)
    else:
        assert isinstance(turn.actions, list)
        assert all(set(r) <= set(AGENTS) - {"agent1"} for r, _ in turn.messages)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(st.sampled_from(["to", "text", "agent2", "x"]), kids, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=examples(300), deadline=None)
@given(json_values, json_values)
def test_any_json_messages_are_sent_or_told_back(actions, messages):
    text = json.dumps({"actions": actions, "messages": messages})
    try:
        turn = read_turn(text, "agent1", AGENTS)
    except ReplyParseError as e:
        assert "actions" in str(e)
        return
    assert all(isinstance(x, str) and x for _, x in turn.messages)
    assert all(p.startswith("message ") for p in turn.problems)


def test_collab_command_uses_the_planner_without_a_reference_and_names_bad_files(tmp_path, capsys):
    path = Path(__file__).resolve().parents[1] / "levels" / "tutorial" / "01_first_salad.yaml"
    level = load_level(path)
    from game.planners.solver import solve

    plan = solve(level, time_limit=1).plan
    plan["agent1"] = [plan["agent1"][0], plan["agent1"][0], *plan["agent1"][1:]]  # one move more: no effect
    result = simulate(level, plan, record=True)
    rec = {**result.to_dict(), "plan": plan, "level": str(path), "task": {"id": "t"}, "method": "io"}
    (tmp_path / "ok.json").write_text(json.dumps(rec))
    (tmp_path / "bad.json").write_text(json.dumps({**rec, "plan": {"agent1": {"action": "Fly"}}}))
    assert main(["collab", str(tmp_path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    (row,) = json.loads(captured.out)
    assert row["reference"] == "built-in planner" and row["tes"] == 1.0 and row["done"]
    assert "skipped" in captured.err and "bad.json" in captured.err and "agent1" in captured.err
    (tmp_path / "ok.json").unlink()
    assert main(["collab", str(tmp_path)]) == 2
    assert "no runs to score" in capsys.readouterr().err
    assert main(["collab", str(tmp_path / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err


LEVEL_01 = load_level(PAN)
REFERENCE_01 = parse_plan(reference(PAN), LEVEL_01.agent_names)  # read once, not once an example
STEPS = st.one_of(
    st.builds(
        lambda x, y: {"action": "MoveTo", "target": [x, y]}, st.integers(1, 5), st.sampled_from([1, 3])
    ),
    st.builds(
        lambda s: {"action": "Interact", "target": s},
        st.sampled_from([s.name for s in LEVEL_01.stations]),
    ),
    st.just({"action": "Process", "target": "chopping_board1"}),
    st.just({"action": "Wait", "duration": 3}),
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(STEPS, max_size=12), st.lists(STEPS, max_size=12))
def test_any_plan_has_its_wasted_work_and_scores_traced(a1, a2):
    result = simulate(LEVEL_01, {"agent1": a1, "agent2": a2}, record=True)
    waste = wasted_work(LEVEL_01, result)
    ran = {(s.agent, s.index) for s in result.timeline.spans if s.status in ("done", "failed")}
    assert {(w.agent, w.index) for w in waste} <= ran
    assert all(w.action["action"] != "Wait" for w in waste)
    if not result.finished_orders:  # nothing served: every interaction was wasted
        work = {k for k in ran if k[1] < len({"agent1": a1, "agent2": a2}[k[0]])}
        interactions = {
            (a, i) for a, i in work if {"agent1": a1, "agent2": a2}[a][i]["action"] in ("Interact", "Process")
        }
        assert interactions <= {(w.agent, w.index) for w in waste}
    c = collaboration(LEVEL_01, result, REFERENCE_01)
    assert 0.0 <= c.tes <= 1.0 and 0.0 <= c.completeness <= 1.0


def test_the_two_cooks_tutorial_is_scored_against_its_own_split_and_the_table_says_so(tmp_path, capsys):
    path = Path(__file__).resolve().parents[1] / "levels" / "tutorial" / "04_two_cooks.yaml"
    level = load_level(path)
    plan = reference(path)
    result = simulate(level, plan, record=True)
    assert result.done and not result.error
    rec = {**result.to_dict(), "plan": plan, "level": str(path), "task": {"id": "t"}, "method": "io"}
    (tmp_path / "official.json").write_text(json.dumps(rec))
    assert main(["collab", str(tmp_path), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["reference"].endswith("levels/tutorial/references/04_two_cooks.json")
    assert row["completeness"] == 1.0 and row["tes"] == 1.0
    assert main(["collab", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (
        "| 100% |" in out
        and "- tutorial/04_two_cooks: the level's own, levels/tutorial/references/04_two_cooks.json" in out
    )
