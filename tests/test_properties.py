"""Random and mutated plans never crash the engine, and every run is deterministic."""

from __future__ import annotations

import functools
import json

from conftest import examples, human_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import kitchen
from test_rules import ROWS, STATIONS

from game.engine import ERROR_KINDS, Level, parse_plan, simulate
from game.engine.diagnosis import CAUSE_KINDS
from game.replay import replay_bytes

LEVEL = kitchen(ROWS, STATIONS, ("salad_basic", "salad_basic", "salad_basic"))
NAMES = [s["name"] for s in STATIONS.values()] + ["wall", "nowhere"]

actions = st.one_of(
    st.builds(lambda x, y: {"action": "MoveTo", "target": [x, y]}, st.integers(-1, 8), st.integers(-1, 6)),
    st.builds(lambda n: {"action": "Interact", "target": n}, st.sampled_from(NAMES)),
    st.builds(lambda n: {"action": "Process", "target": n}, st.sampled_from(NAMES)),
    st.builds(
        lambda d: {"action": "Wait", "duration": d},
        st.one_of(st.integers(-2, 30), st.floats(-1, 5, allow_nan=False), st.just("x")),
    ),
    st.just({"action": "Finish"}),
)
plans = st.fixed_dictionaries(
    {"agent1": st.lists(actions, max_size=25), "agent2": st.lists(actions, max_size=25)}
)


def check(result) -> None:
    d = result.to_dict()
    json.dumps(d)  # always serialisable
    assert d["done"] == (d["error"] is None and not d["remaining_orders"])
    if d["error"] is not None:
        assert d["error_detail"]["kind"] in ERROR_KINDS
    for agent, progress in d["agent_progress"].items():
        started, total = map(int, progress.split("/"))
        assert 0 <= started <= total
        assert d["agent_all_execution_time"][agent] >= d["agent_moving_time"][agent]
    check_diagnosis(d)


def check_diagnosis(d: dict) -> None:
    """A run that is not served is explained: causes of known kinds, naming real agents and actions,
    never after the failure, in JSON without NaN."""
    why = d["diagnosis"]
    if d["done"]:
        assert why is None
        return
    json.dumps(why, allow_nan=False)
    assert why["error"] == (d["error_detail"]["kind"] if d["error"] else "unfinished"), why["summary"]
    assert why["summary"] and why["causes"]
    for c in why["causes"]:
        assert c["kind"] in CAUSE_KINDS and c["text"]
        assert c["t"] <= d["time"] + 1e-9
        if c["agent"] is not None:
            started, total = map(int, d["agent_progress"][c["agent"]].split("/"))
            assert c["action"] is None or 0 <= c["action"] <= max(started, total)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans, st.sampled_from(["paracook", "documented"]))
def test_random_plans_always_give_a_result(plan, rules):
    result = simulate(LEVEL, plan, rules)
    check(result)
    again = simulate(LEVEL, plan, rules)
    assert again.to_dict() == result.to_dict()
    assert again.timeline.states == result.timeline.states


GOLDEN = human_cases()[:6]


@functools.cache
def golden_level_and_plan(k: int) -> tuple[Level, str]:
    """The k-th golden case's level and its human plan's text, read once, not once an example."""
    from game.levels import load_level

    human, map_file, orders = GOLDEN[k]
    return load_level(map_file, orders), json.dumps(json.loads(human.read_text())["plan"])


@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_mutated_human_plans_never_crash(data):
    if not GOLDEN:
        return
    level, text = golden_level_and_plan(data.draw(st.sampled_from(range(len(GOLDEN)))))
    plan = json.loads(text)  # a fresh copy to mutate
    for agent in plan:
        queue = plan[agent]
        for _ in range(data.draw(st.integers(0, 3))):
            if not queue:
                break
            i = data.draw(st.integers(0, len(queue) - 1))
            op = data.draw(st.sampled_from(["drop", "dup", "swap", "shift"]))
            if op == "drop":
                queue.pop(i)
            elif op == "dup":
                queue.insert(i, queue[i])
            elif op == "swap" and len(queue) > 1:
                j = data.draw(st.integers(0, len(queue) - 1))
                queue[i], queue[j] = queue[j], queue[i]
            elif op == "shift" and queue[i]["action"] == "MoveTo":
                x, y = queue[i]["target"]
                queue[i] = {"action": "MoveTo", "target": [x + 1, y]}
    rules = data.draw(st.sampled_from(["paracook", "documented"]))
    result = simulate(level, plan, rules)
    check(result)
    parsed = parse_plan(plan, level.agent_names)
    assert replay_bytes(level, parsed, result) == replay_bytes(level, parsed, simulate(level, parsed, rules))


def brute_span_at(timeline, agent, t):
    best = None
    for s in timeline.spans:
        if (
            s.agent == agent
            and s.status != "rejected"
            and s.start <= t
            and (t < s.end or s.start == s.end == t or (s.status == "cut" and t == s.end == timeline.end))
        ):
            best = s
    return best


@settings(max_examples=examples(100), deadline=None)
@given(plans)
def test_span_lookup_matches_a_full_scan(plan):
    tl = simulate(LEVEL, plan).timeline
    probes = sorted({0, *tl.times, *(t + 0.5 for t in tl.times), tl.end + 1})
    for agent in ("agent1", "agent2"):
        for t in probes:
            assert tl.span_at(agent, t) is brute_span_at(tl, agent, t)
