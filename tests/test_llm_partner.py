"""The LLM partner (`plan_around`): fixed queues run as given, the model plans the others, against
a local OpenAI-compatible server with scripted replies. Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from test_llm_runner import (
    LEVELS,
    SECRET,
    FakeLLM,
    fenced,
    good_plan,
    llm_args,
    llm_server,
    result_of,
    write_levels,
)

from game.cli import main
from game.engine import parse_plan, simulate
from game.planners.llm.partner import PartnerError, PartnerStopped, partner_plan, plan_around
from game.planners.llm.prompts import example_level
from game.replay import load_replay

KEY = "## Fixed queues"  # in every partner prompt: the script key
__all__ = ["llm_server"]  # the scripted endpoint fixture, shared with the runner's tests


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


@pytest.mark.parametrize(
    "junk",
    [
        [{"action": "Wait", "duration": 1}] * 10_001,  # over the limit a queue may have
        [{"action": "<script>alert(1)</script>", "target": [1e300, "x"]}],
        "agent1 does the rest",
        {"nested": [[[[[[]]]]]]},
    ],
)
def test_a_hostile_queue_for_the_fixed_agent_costs_nothing_but_a_word(server, junk):
    server.script(KEY, ("reply", fenced({"agent1": junk, "agent2": good_plan()["agent2"]})))
    out = partner_plan(example_level(), None, mine(), settings(server))
    assert out.status == "done" and out.calls == 1 and out.ignored == ["agent1"]
    assert out.plan["agent1"] == mine()["agent1"]


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
    assert step.endswith("Give queues for agent2 only; write none for agent1 (one would be ignored).")
    assert "agent1 and agent2" not in step.split("\n")[0]


def test_msreact_asks_again_when_a_step_writes_only_for_the_fixed_agent(server):
    only_mine = {"agent1": [{"action": "Finish"}]}
    server.script(KEY, ("reply", fenced(only_mine)), ("reply", fenced({"agent2": good_plan()["agent2"]})))
    out = partner_plan(example_level(), None, mine(), settings(server, method="msreact"))
    assert out.status == "done" and out.calls == 2
    told = user_messages(server.of(KEY)[1])[-1]
    assert told.startswith("Your reply also wrote a queue for agent1, whose queue is fixed")
    assert told.endswith(
        "Your reply gave no new action for agent2. Give the next actions of agent2 (new ones only)."
    )


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
        ({"agent9": []}, r"fixed queue for agent9: no such agent in this level \(agents: agent1, agent2\)"),
        (
            {"agent1": [{"action": "MoveTo"}, {"action": "Jump"}]},
            r"fixed queue for agent1, action 0: field 'target' is missing",
        ),
        (
            {"agent1": [{"action": "Wait", "duration": 1}, {"action": "Dance"}]},
            r"fixed queue for agent1, action 1: field 'action'",
        ),
        ({"agent1": {"action": "Finish"}}, r"fixed queue for agent1: must be a list"),
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
        ({"temperature": "hot"}, "field 'temperature' must be a number from 0 to 2"),
        ({"max_tokens": 0}, "field 'max_tokens' must be a whole number"),
        ({"endpoint": 5}, "field 'endpoint' must be text"),
        ({"api_key_env": None}, "field 'api_key_env' must name"),
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


def test_a_progress_that_answers_false_stops_the_partner_before_its_next_call(server):
    wrong = {"agent2": [{"action": "Finish"}]}
    server.script(KEY, ("reply", fenced(wrong)), ("reply", fenced(wrong)), ("reply", fenced(wrong)))
    calls = []

    def stop_at_second(p):
        calls.append(p.call)
        return False if p.call == 2 else None

    with pytest.raises(PartnerStopped, match=r"stopped after 1 call\(s\)"):
        plan_around(example_level(), None, mine(), settings(server), stop_at_second)
    assert calls == [1, 2] and len(server.of(KEY)) == 1


def test_an_unknown_rule_set_is_named(server):
    with pytest.raises(PartnerError, match="no rule set called 'house'"):
        plan_around(example_level(), "house", mine(), settings(server))


def test_plan_around_from_inside_a_running_event_loop(server):
    server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))

    async def caller() -> dict:
        return plan_around(example_level(), "documented", mine(), settings(server))

    plan = asyncio.run(caller())
    assert plan["agent1"] == mine()["agent1"] and plan["agent2"] == good_plan()["agent2"]


def test_plan_around_runs_in_a_spawned_process(server):
    server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        plan = pool.submit(plan_around, example_level(), "paracook", mine(), settings(server)).result(60)
    assert plan["agent1"] == mine()["agent1"] and plan["agent2"] == good_plan()["agent2"]


# -- llm --fix ------------------------------------------------------------------------------------


def fix_file(tmp_path, form: str) -> Path:
    """The person's agent1 queue in one of the file forms --fix reads."""
    queue = mine()["agent1"]
    data = {
        "plan": {"agent1": queue, "agent2": []},
        "result": {"done": False, "time": 3, "plan": {"agent1": queue}},
        "list": queue,
    }[form]
    path = tmp_path / f"{form}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("form", ["plan", "result", "list"])
def test_llm_fix_keeps_the_queue_and_its_results_say_what_was_fixed(llm_server, tmp_path, capsys, form):
    (level,) = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    fix = f"agent1={fix_file(tmp_path, form)}"
    assert main(llm_args(llm_server, out, [level], "--fix", fix)) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["time"] == 38 and r["fixed_agents"] == ["agent1"]
    assert dumped(r["fixed"]["agent1"]) == dumped(mine()["agent1"]) == dumped(r["plan"]["agent1"])
    (body,) = llm_server.of("kitchen_alpha")
    assert "agent1 is planned by a partner" in user_messages(body)[0]
    assert load_replay(out / r["replay"]).source["fixed_agents"] == ["agent1"]
    assert json.loads((out / "run.json").read_text())["fixed"] == {"agent1": mine()["agent1"]}
    capsys.readouterr()
    assert main(["report", str(out), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["run"] for r in rows} == {"io test-model (agent1 fixed)"}


def test_llm_fix_with_msreact_and_a_reply_naming_the_fixed_agent(llm_server, tmp_path):
    (level,) = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    args = llm_args(
        llm_server, out, [level], "--fix", f"agent1={fix_file(tmp_path, 'list')}", method="msreact"
    )
    assert main(args) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["attempts"][0]["ignored_fixed"] == ["agent1"]
    assert r["plan"]["agent1"] == mine()["agent1"]


def test_a_resume_with_other_fixed_queues_is_refused_and_a_replay_keeps_them(llm_server, tmp_path, capsys):
    (level,) = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced({"agent2": good_plan()["agent2"]})))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, [level], "--fix", f"agent1={fix_file(tmp_path, 'list')}")) == 0
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"action": "Finish"}]))
    capsys.readouterr()
    assert main(llm_args(llm_server, out, [level], "--fix", f"agent1={other}")) == 2
    assert "fixed: " in capsys.readouterr().err
    assert main(llm_args(llm_server, out, [level])) == 2
    again = tmp_path / "again"
    assert main(["llm", "--replay-from", str(out), "--out", str(again), "--no-progress"]) == 0
    r = result_of(again, "kitchen_alpha")
    assert r["done"] and r["fixed_agents"] == ["agent1"] and r["plan"]["agent1"] == mine()["agent1"]


def test_a_damaged_fixed_field_in_run_json_is_named(llm_server, tmp_path, capsys):
    (level,) = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced({"agent2": good_plan()["agent2"]})))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, [level], "--fix", f"agent1={fix_file(tmp_path, 'list')}")) == 0
    run = json.loads((out / "run.json").read_text())
    run["fixed"] = {"agent1": [{"action": "Teleport"}]}
    (out / "run.json").write_text(json.dumps(run))
    capsys.readouterr()
    assert main(["llm", "--replay-from", str(out), "--out", str(tmp_path / "again"), "--no-progress"]) == 2
    assert (
        "run.json field 'fixed': fixed queue for agent1, action 0: field 'action'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("fix", "words"),
    [
        (["agent1"], "--fix 'agent1': expected AGENT=PLAN.json"),
        (["agent3=LIST"], "--fix agent3: no such agent in this level (agents: agent1, agent2)"),
        (["agent1=LIST", "agent1=LIST"], "--fix agent1=...: agent1 is fixed twice"),
        (["agent1=LIST", "agent2=LIST"], "fixes every agent of kitchen_alpha:pasta_tomato"),
        (["agent1=MISSING"], "missing.json: cannot read the file"),
        (["agent1=BAD"], "bad.json: fixed queue for agent1, action 2: field 'target' must be [x, y]"),
        (["agent1=NAN"], "nan.json: not usable JSON (NaN is not a JSON number)"),
        (["agent1=OTHER"], "other.json: no queue for agent1 in this plan (agents in it: 'chef')"),
        (["agent1=HUGE"], "more than the 10,000 a plan may give one agent"),
    ],
)
def test_llm_fix_input_that_cannot_be_used_is_named(llm_server, tmp_path, capsys, fix, words):
    (level,) = write_levels(tmp_path, LEVELS[:1])
    files = {
        "LIST": fix_file(tmp_path, "list"),
        "MISSING": tmp_path / "missing.json",
        "BAD": tmp_path / "bad.json",
        "NAN": tmp_path / "nan.json",
        "OTHER": tmp_path / "other.json",
        "HUGE": tmp_path / "huge.json",
    }
    files["BAD"].write_text(json.dumps([{"action": "Finish"}] * 2 + [{"action": "MoveTo", "target": [1]}]))
    files["NAN"].write_text('[{"action": "Wait", "duration": NaN}]')
    files["OTHER"].write_text(json.dumps({"chef": []}))
    files["HUGE"].write_text(json.dumps([{"action": "Wait", "duration": 1}] * 10_001))
    specs = (
        [s.replace(k, str(v)) for s in fix for k, v in files.items() if k in s] if fix != ["agent1"] else fix
    )
    args = [x for spec in specs for x in ("--fix", spec)]
    assert main(llm_args(llm_server, tmp_path / "run", [level], *args)) == 2
    assert words in capsys.readouterr().err
    assert llm_server.requests == [] and not (tmp_path / "run" / "run.json").exists()


def test_llm_fix_needs_one_level_and_a_centralized_model(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS[:2])
    fix = ["--fix", f"agent1={fix_file(tmp_path, 'list')}"]
    assert main(llm_args(llm_server, tmp_path / "run", levels, *fix)) == 2
    assert "give exactly one level (these name 2)" in capsys.readouterr().err
    assert main(llm_args(llm_server, tmp_path / "run", levels[:1], *fix, "--mode", "decentralized")) == 2
    assert "with --mode centralized" in capsys.readouterr().err
