"""The LLM partner (`plan_around`): fixed queues run as given, the model plans the others, against
a local OpenAI-compatible server with scripted replies. Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest
from test_llm_runner import SECRET, FakeLLM, fenced, good_plan

from game.engine import parse_plan, simulate
from game.planners.llm.partner import PartnerError, partner_plan, plan_around
from game.planners.llm.prompts import example_level

KEY = "## Fixed queues"  # in every partner prompt: the script key


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    fake = FakeLLM()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def settings(server: FakeLLM, **more) -> dict:
    return {
        "model": "test-model",
        "endpoint": server.url,
        "api_key_env": "FAKE_LLM_KEY",
        "retries": 0,
        "backoff_s": 0.01,
        "timeout_s": 20,
        **more,
    }


def mine() -> dict[str, list]:
    """The person's queue: the example's agent1, with an odd Wait spelt as given."""
    return {"agent1": good_plan()["agent1"]}


def dumped(queue: list) -> str:
    return json.dumps(queue, sort_keys=True)


def user_messages(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def test_the_model_plans_around_a_fixed_queue_which_comes_back_byte_identical(server):
    server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))
    given = mine()
    before = dumped(given["agent1"])
    plan = plan_around(example_level(), None, given, settings(server))
    assert dumped(plan["agent1"]) == before and dumped(given["agent1"]) == before
    assert plan["agent2"] == good_plan()["agent2"]
    level = example_level()
    assert simulate(level, parse_plan(plan, level.agent_names), level.rules).time == 38
    (body,) = server.of(KEY)
    prompt = user_messages(body)[0]
    assert "agent1 is planned by a partner" in prompt and "Plan only agent2" in prompt
    # the fixed queue is shown, one action a line, as the engine reads it
    assert '{"action": "Wait", "duration": 14}' in prompt
    assert "Give queues for agent2 only; write none for agent1" in prompt


def test_a_reply_that_rewrites_the_fixed_queue_is_overridden_and_told_so(server):
    wrong = {"agent1": [{"action": "Finish"}], "agent2": [{"action": "Finish"}]}
    fixed_up = {"agent1": [{"action": "Wait", "duration": 3}], "agent2": good_plan()["agent2"]}
    server.script(KEY, ("reply", fenced(wrong)), ("reply", fenced(fixed_up)))
    out = partner_plan(example_level(), None, mine(), settings(server))
    assert out.status == "done" and out.time == 38 and out.calls == 2
    assert out.plan["agent1"] == mine()["agent1"]
    assert out.ignored == ["agent1"]
    second = user_messages(server.of(KEY)[1])[-1]
    assert second.startswith("Your reply also wrote a queue for agent1, whose queue is fixed: it was ignored")
    assert "Write queues for agent2 only" in second
    # the engine's feedback follows: the fixed agent1 served a plate without agent2's tomato
    assert "The plan failed at t = 38: agent1's action 13 (Interact serving_window)" in second


def test_a_copy_of_the_fixed_queue_in_the_reply_is_no_conflict(server):
    server.script(KEY, ("reply", fenced(good_plan())))
    out = partner_plan(example_level(), None, mine(), settings(server))
    assert out.status == "done" and out.ignored == []


def test_msreact_never_asks_for_a_fixed_agents_actions(server):
    first = {"agent2": good_plan()["agent2"][:3]}
    rest = {"agent1": [{"action": "Finish"}], "agent2": good_plan()["agent2"][3:]}
    server.script(KEY, ("reply", fenced(first)), ("reply", fenced(rest)))
    out = partner_plan(example_level(), None, mine(), settings(server, method="msreact"))
    assert out.status == "done" and out.time == 38
    assert out.plan["agent1"] == mine()["agent1"] and out.ignored == ["agent1"]
    step = user_messages(server.of(KEY)[1])[-1]
    assert "when agent2 ran out of actions" in step and "agent1 ran out" not in step
    assert "agent1 and agent2" not in step.split("\n")[0]


def test_an_endpoint_that_fails_is_a_message_not_a_traceback(server):
    server.script(KEY, ("status", 500))
    given = mine()
    with pytest.raises(PartnerError, match=r"could not be reached: HTTP 500"):
        plan_around(example_level(), None, given, settings(server))
    assert given == mine()


def test_replies_that_never_become_a_plan_say_why(server):
    server.script(KEY, ("reply", "I would rather not."), ("reply", "<b>no</b>"))
    with pytest.raises(PartnerError, match=r"no usable plan in 2 call\(s\): I could not read a plan"):
        plan_around(example_level(), None, mine(), settings(server, attempts=2))


def test_with_every_agent_fixed_the_plan_is_run_without_a_call(server):
    out = partner_plan(example_level(), None, good_plan(), settings(server))
    assert out.plan == good_plan() and out.done and out.time == 38 and out.calls == 0
    assert server.requests == []


@pytest.mark.parametrize(
    ("fixed", "said"),
    [
        ({"agent9": []}, r"no agent called 'agent9' in this level \(agents: agent1, agent2\)"),
        (
            {"agent1": [{"action": "MoveTo"}, {"action": "Jump"}]},
            r"agent1 action 0: field 'target' is missing",
        ),
        (
            {"agent1": [{"action": "Wait", "duration": 1}, {"action": "Dance"}]},
            r"agent1 action 1: field 'action'",
        ),
        ({"agent1": {"action": "Finish"}}, r"agent1's queue must be a list"),
        ({"agent1": [{"action": "Finish"}] * 10_001}, r"10,001 actions, more than the 10,000"),
    ],
)
def test_fixed_queues_that_cannot_run_are_named(server, fixed, said):
    with pytest.raises(ValueError, match=said):
        plan_around(example_level(), None, fixed, settings(server))
    assert server.requests == []


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ({"method": "guess"}, "field 'method' must be one of io, cot, plag, msreact"),
        ({"attempts": 0}, "field 'attempts' must be a whole number 1..100"),
        ({"model": ""}, "field 'model' must name the model"),
        ({"apikey": "sk-x"}, r"unknown field\(s\) apikey"),
    ],
)
def test_settings_that_cannot_be_used_are_named(server, bad, said):
    with pytest.raises(PartnerError, match=said):
        plan_around(example_level(), None, mine(), settings(server, **bad))


def test_progress_is_told_of_each_call_and_the_end(server):
    server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))
    seen = []
    plan_around(example_level(), None, mine(), settings(server), seen.append)
    assert [p.describe() for p in seen] == ["asking test-model (call 1)", "test-model: OCT 38"]
    assert seen[-1].done and seen[-1].best_oct == 38 and seen[-1].fraction == 1.0


def test_plan_around_runs_in_a_spawned_process(server):
    server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        plan = pool.submit(plan_around, example_level(), "paracook", mine(), settings(server)).result(60)
    assert plan["agent1"] == mine()["agent1"] and plan["agent2"] == good_plan()["agent2"]
