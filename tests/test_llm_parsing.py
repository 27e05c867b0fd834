"""Reading plans out of model replies: forgiving of form, strict about content."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.planners.llm.parsing import ReplyParseError, extract_json, extract_plan, fenced_blocks, normalise

PLAN = {"agent1": [{"action": "MoveTo", "target": [1, 2]}, {"action": "Finish"}], "agent2": []}


@pytest.mark.parametrize(
    "reply",
    [
        '{"agent1": [{"action": "MoveTo", "target": [1, 2]}, {"action": "Finish"}], "agent2": []}',
        '```json\n{"plan": {"agent1": [{"action": "MoveTo", "target": [1, 2]}, {"action": "Finish"}],'
        ' "agent2": []}}\n```',
        'Sure! Here it is:\n```\n{"agent1": [{"action": "MoveTo", "target": [1, 2]},\n'
        ' {"action": "Finish"},], "agent2": [],}\n```\nGood luck.',
        '<think>maybe {"agent1": []} first? no.</think>\n{"agent1": [  // walk\n'
        '{"action": "MoveTo", "target": [1, 2]}, /* done */ {"action": "Finish"}], "agent2": []}',
        "{'agent1': [{'action': 'MoveTo', 'target': [1, 2]}, {'action': 'Finish'}], 'agent2': []}",
        'I think step by step {not json here}. Final:\n{"agent1": [{"action": "MoveTo", "target": [1, 2]},'
        ' {"action": "Finish"}], "agent2": []}',
        'reasoning without an end tag</think>```json\n{"agent1": [{"action": "MoveTo", "target": [1, 2]},'
        ' {"action": "Finish"}], "agent2": []}```',
    ],
)
def test_plans_are_found_whatever_their_wrapping(reply):
    assert extract_plan(reply) == PLAN


NOTED = {"agent1": [{"action": "Wait", "note": "<think>"}, {"action": "Finish", "note": "a </think> b"}]}


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps(NOTED),
        "```json\n" + json.dumps(NOTED, indent=2) + "\n```",
        "<think>a note may hold a tag</think>\n```json\n" + json.dumps(NOTED) + "\n```",
        'I think.</think> {"agent1": [{"action": "Wait"}]} then, better: ' + json.dumps(NOTED),
    ],
)
def test_think_tags_inside_the_plan_s_strings_are_its_text_not_reasoning(reply):
    assert extract_plan(reply) == NOTED


def test_reasoning_that_holds_a_tagged_draft_is_still_left_out():
    draft = json.dumps({"agent1": [{"action": "Wait", "note": "<think>"}]})
    final = '{"agent1": [{"action": "Finish"}]}'
    assert extract_plan(f"<think>no: {draft}?</think> {final}") == {"agent1": [{"action": "Finish"}]}


def test_the_last_plan_in_a_reply_wins():
    reply = (
        'Draft:\n```json\n{"agent1": [{"action": "Wait"}]}\n```\nBetter:\n```json\n'
        '{"agent1": [{"action": "Finish"}]}\n```'
    )
    assert extract_plan(reply) == {"agent1": [{"action": "Finish"}]}


def test_apostrophes_inside_strings_survive():
    reply = "{'agent1': [{'action': 'Finish'}], 'note': 'don't forget the chef's plate'}"
    assert extract_plan(reply)["note"] == "don't forget the chef's plate"
    reply = '{"agent1": [{"action": "Finish"}], "note": "it\'s fine, isn\'t it"}'
    assert extract_plan(reply)["note"] == "it's fine, isn't it"
    assert extract_json('{"a": "x // not a comment, /* nor this */"}') == {
        "a": "x // not a comment, /* nor this */"
    }


@pytest.mark.parametrize(
    "reply, words",
    [
        ("", "empty"),
        ("I cannot do this task.", "contains no JSON"),
        ('```json\n{"agent1": [{"action": "Finish"} {"action": "Wait"}]}\n```', "line 1, column 34"),
        ('{"agent1": [{"action": "Finish"}', "not valid"),
        ('{"answer": 42}', "not a plan"),
        ('<think>{"agent1": []} still thinking', "contains no JSON"),
    ],
)
def test_unusable_replies_say_why(reply, words):
    with pytest.raises(ReplyParseError, match=words):
        extract_plan(reply)


def test_python_literals_and_trailing_commas_normalise():
    assert normalise("{'a': True, 'b': None, 'c': [1, 2,],}") == '{"a": true, "b": null, "c": [1, 2]}'


# any text, and text made of what a reply's wrapping is made of (tags, fences, brackets, quotes)
texts = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
    st.lists(
        st.sampled_from(["<think>", "</think>", "```", "```json\n", "{", "}", "[", '"', "'", "\n", "a"])
    ).map("".join),
)


@given(
    st.dictionaries(
        st.sampled_from(["agent1", "agent2", "agent3"]),
        st.lists(
            st.fixed_dictionaries({"action": st.sampled_from(["Wait", "Finish"]), "note": texts}),
            min_size=1,
            max_size=3,
        ),
        min_size=1,
    )
)
def test_any_valid_json_plan_reads_back_unchanged(plan):
    assert extract_plan(json.dumps(plan)) == plan
    assert extract_plan("```json\n" + json.dumps(plan, indent=2) + "\n```") == plan
    assert extract_plan("<think>hm</think> Here:\n```json\n" + json.dumps(plan) + "\n```\nDone.") == plan


def test_thousands_of_open_fences_are_scanned_once_not_once_each(monkeypatch):
    from game.planners.llm import parsing

    scans = []
    real = parsing._match_end
    monkeypatch.setattr(parsing, "_match_end", lambda s, i: scans.append(i) or real(s, i))
    reply = "```json\n{" * 5_000 + "```"
    with pytest.raises(ReplyParseError):
        extract_plan(reply)
    fenced = [c for c in scans if reply[c] == "{"]
    assert 1 <= len(fenced) <= 3  # the first value never closes: the rest end at their fence


def test_a_fence_inside_a_plan_s_string_does_not_end_its_block():
    plan = {"agent1": [{"action": "Wait", "note": "see ``` and ```json\n{"}]}
    assert extract_plan("Plan:\n```json\n" + json.dumps(plan) + "\n```\nThat is all.") == plan
    assert fenced_blocks("```\n[1]\n``` and ```\n[2]\n```") == ["[1]\n", "[2]\n"]
