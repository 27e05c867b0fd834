"""Hostile numbers and shapes in plans: the documented limits, clear messages, and a run that
never raises, never leaves a non-finite number and is the same every time."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import mv, wait
from test_properties import LEVEL, NAMES

from game.engine import (
    ERROR_KINDS,
    MAX_ACTIONS_PER_AGENT,
    MAX_TIME,
    MAX_WAIT,
    PlanError,
    parse_plan,
    simulate,
)
from game.engine import errors as E
from game.engine.plan import plan_to_dict
from game.engine.safe import json_safe, preview
from game.replay import replay_bytes


def strict_json(result) -> str:
    return json.dumps(result.to_dict(), allow_nan=False)


@pytest.mark.parametrize(
    "duration, needle",
    [
        (10**400, "a 401-digit number is longer than the longest Wait allowed (100000)"),
        (1e308, "1e+308 is longer than the longest Wait allowed"),
        (MAX_WAIT + 1, "100001 is longer"),
        (float("nan"), "Wait duration NaN is not a number"),
        (float("inf"), "Wait duration Infinity is not a number"),
        (-(10**400), "a 401-digit number is negative"),
    ],
)
def test_huge_or_non_finite_waits_fail_at_their_start(duration, needle):
    r = simulate(LEVEL, {"agent1": [wait(2), wait(duration), wait(1)]})
    assert r.error_detail.kind == E.BAD_DURATION and needle in r.error
    assert r.time == 2 and r.agent_progress["agent1"] == "1/3" and r.agent_waiting_time["agent1"] == 2
    strict_json(r)


def test_two_longest_waits_never_make_time_infinite():
    r = simulate(LEVEL, {"agent1": [wait(1e308), wait(1e308)]})
    assert r.error_detail.kind == E.BAD_DURATION and r.time == 0
    strict_json(r)


def test_waits_past_the_longest_run_fail_with_time_limit():
    queue = [wait(MAX_WAIT)] * (MAX_TIME // MAX_WAIT) + [wait(1)]
    r = simulate(LEVEL, {"agent1": queue}, record=False)
    assert r.error_detail.kind == E.TIME_LIMIT and r.time == MAX_TIME
    assert r.error == (
        f"agent1 action {len(queue) - 1} (Wait): it would end at t={MAX_TIME + 1}, "
        f"after the longest run allowed (t={MAX_TIME})"
    )
    assert r.agent_progress["agent1"] == f"{len(queue) - 1}/{len(queue)}"


def test_too_many_actions_refuse_the_plan_before_it_runs():
    plan = {"agent1": [{"action": "Finish"}] * (MAX_ACTIONS_PER_AGENT * 100)}
    with pytest.raises(PlanError) as e:
        parse_plan(plan, LEVEL.agent_names)
    assert str(e.value) == "agent1: 1000000 actions, more than the 10000 a plan may give one agent"
    parse_plan({"agent1": [{"action": "Finish"}] * MAX_ACTIONS_PER_AGENT}, LEVEL.agent_names)


def test_deeply_nested_and_huge_garbage_is_shown_briefly():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    r = simulate(LEVEL, {"agent1": [mv(2, 2), {"action": deep}, {"action": "Wait", "duration": "x" * 10**6}]})
    assert r.error_detail.kind == E.INVALID_ACTION and len(r.error) < 300
    assert r.error.startswith("agent1 action 1: field 'action' must be one of")
    strict_json(r)
    assert len(json.dumps(r.error_detail.to_dict())) < 1000


def test_preview_and_json_safe_are_bounded():
    assert preview(10**5000) == "a 5001-digit number"
    assert preview("a" * 1000, 20) == '"aaaaaaaaaaaaaaaaaa…'
    assert json_safe({"a": [float("nan"), float("inf"), 10**20, 2.5]}) == {"a": [None, None, None, 2.5]}
    assert json_safe(list(range(100)))[-1] == "…"


def test_an_unreadable_action_stays_unreadable_when_stored_and_read_again():
    raw = {
        "agent1": [
            "Finish",
            {"action": "Interact", "target": float("nan")},
            {"action": "MoveTo", "target": [float("inf"), 1]},
            {"action": "Finish", **{f"k{i}": i for i in range(40)}},
        ]
    }
    plan = parse_plan(raw, LEVEL.agent_names)
    again = parse_plan(json.loads(json.dumps(plan_to_dict(plan), allow_nan=False)), LEVEL.agent_names)
    assert [a.name for a in again["agent1"]] == [a.name for a in plan["agent1"]]
    assert [a.name for a in plan["agent1"]] == ["Unreadable", "Unreadable", "Unreadable", "Finish"]


# -- fuzz: numbers of every size, garbage actions, deep nesting ---------------------------------
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=10**300, max_value=10**450),
    st.integers(max_value=-(10**300), min_value=-(10**450)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e308, -1e308, 5e-324, MAX_WAIT, MAX_WAIT + 0.5]),
)
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=8), st.sampled_from(NAMES)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["action", "target", "duration", "x"]), inner),
    ),
    max_leaves=12,
)
ACTIONS = st.one_of(
    st.builds(lambda x, y: {"action": "MoveTo", "target": [x, y]}, NUMBERS, NUMBERS),
    st.builds(lambda d: {"action": "Wait", "duration": d}, NUMBERS),
    st.builds(lambda n: {"action": "Interact", "target": n}, st.sampled_from(NAMES)),
    st.builds(lambda n: {"action": "Process", "target": n}, st.sampled_from(NAMES)),
    st.builds(
        lambda n, t: {"action": n, "target": t}, st.sampled_from(["MoveTo", "Interact", "Chop", 3]), JSONISH
    ),
    JSONISH,
)
HOSTILE = st.fixed_dictionaries(
    {"agent1": st.lists(ACTIONS, max_size=12), "agent2": st.lists(ACTIONS, max_size=12)}
)


# 100 plans a run (always the same ones); benchmarks/plan_limits_bench.py --fuzz N tries many more
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE, st.sampled_from(["paracook", "documented"]))
def test_hostile_plans_never_raise_and_always_repeat(plan, rules):
    parsed = parse_plan(plan, LEVEL.agent_names)  # the shape is sound, so it is accepted
    result = simulate(LEVEL, parsed, rules)
    text = strict_json(result)  # no NaN or Infinity anywhere
    assert result.error is None or result.error_detail.kind in ERROR_KINDS
    assert 0 <= result.time <= MAX_TIME
    again = simulate(LEVEL, parse_plan(plan, LEVEL.agent_names), rules)
    assert strict_json(again) == text
    assert replay_bytes(LEVEL, parsed, result) == replay_bytes(LEVEL, parsed, again)
    json.loads(replay_bytes(LEVEL, parsed, result), parse_constant=lambda c: pytest.fail(f"{c} in replay"))


# test_properties' LEVEL, built as it builds it, without importing hypothesis and the conftest
SCRIPT = """
import hashlib, json, sys
sys.path.insert(0, "tests")
from kitchens import kitchen
from test_rules import ROWS, STATIONS
from game.engine import parse_plan, simulate
from game.replay import replay_bytes
LEVEL = kitchen(ROWS, STATIONS, ("salad_basic", "salad_basic", "salad_basic"))
plan = {"agent1": [{"action": "MoveTo", "target": [2.0, 2]}, {"action": "Interact", "target": "wall_3"}],
        "agent2": [{"action": "Wait", "duration": 0.5}, {"Chop": [1, {"x": None}]}, {"action": "Finish"}]}
parsed = parse_plan(plan, LEVEL.agent_names)
print(hashlib.sha256(replay_bytes(LEVEL, parsed, simulate(LEVEL, parsed))).hexdigest())
"""


def test_runs_of_hostile_plans_are_the_same_across_hash_seeds():
    outs = {
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(outs) == 1
