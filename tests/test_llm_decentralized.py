"""`llm --mode decentralized` end to end: one conversation per agent against a local scripted
server, through the real `openai` client. Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupts import as_from_a_terminal, interrupt
from test_llm_runner import SECRET, FakeLLM, assert_no_secret, result_of

from game.cli import main
from game.planners.llm.log import read_log
from game.replay import load_replay

ROOT = Path(__file__).resolve().parents[1]
PAN_LEVEL = str(ROOT / "levels" / "collab" / "01_pan_across.yaml")
ASK = "Please put the pan on table2."


class TalkLLM(FakeLLM):
    """Script keys are `part|part`: every part must be in the first user message (the level's
    orders, `You are agentN.`). A step ("if", needle, then, else) answers `then` when the
    request's last user message holds the needle: the scripted agent acts on what it reads."""

    def next_step(self, body: dict, auth: str) -> tuple[str, tuple]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        last = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
        with self.lock:
            key = next((k for k in self.scripts if all(p in user for p in k.split("|"))), "?")
            self.requests.append((key, body))
            assert auth == f"Bearer {SECRET}"
            queue = self.scripts.get(key, [])
            step = queue.pop(0) if queue else ("status", 500)
        if step[0] == "if":
            step = ("reply", step[2] if step[1] in last else step[3])
        return key, step


@pytest.fixture
def talk_server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    fake = TalkLLM()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def mv(x: int, y: int) -> dict:
    return {"action": "MoveTo", "target": [x, y]}


def act(target: str, verb: str = "Interact") -> dict:
    return {"action": verb, "target": target}


def wait(d: float) -> dict:
    return {"action": "Wait", "duration": d}


FINISH = {"action": "Finish"}


def say(actions: list, messages: object = None, before: str = "My turn.\n") -> str:
    body: dict = {"actions": actions}
    if messages is not None:
        body["messages"] = messages
    return f"{before}```json\n{json.dumps(body)}\n```"


# The chef (agent1) chops the meat, asks for the pan, cooks and brings the pan to the plate;
# the server (agent2) plates the bread, passes the pan only when asked, and serves.
CHEF_R1 = [mv(1, 1), act("dispenser1"), mv(2, 1), act("chopping_board1"), act("chopping_board1", "Process")]
CHEF_R3 = [
    mv(4, 1),
    act("table2"),
    mv(3, 1),
    act("stove1"),
    mv(2, 1),
    act("chopping_board1"),
    mv(3, 1),
    act("stove1"),
    wait(24),
    act("stove1"),
    mv(2, 1),
    act("table1"),
    FINISH,
]
SERVER_R1 = [mv(1, 3), act("dispenser2"), act("table3")]
SERVER_PAN = [mv(3, 3), act("table4"), mv(4, 3), act("table2")]
SERVER_PLATE = [mv(1, 3), act("table3"), mv(2, 3), act("table1")]
SERVER_R4 = [wait(29), act("table1"), mv(5, 3), act("serving_window"), FINISH]


def chef_script(first_messages: object) -> list[tuple]:
    return [
        ("reply", say(CHEF_R1, first_messages)),
        ("reply", say([], before="Waiting for the pan.\n")),
        ("reply", say(CHEF_R3, [{"to": "agent2", "text": "The patty lands on table1 at t = 36."}])),
    ]


def server_script() -> list[tuple]:
    return [
        ("reply", say(SERVER_R1)),
        (
            "if",
            ASK,
            say(SERVER_PAN + SERVER_PLATE, {"agent1": "The pan is on table2."}),
            say(SERVER_PLATE),
        ),
        ("reply", say([])),
        ("reply", say(SERVER_R4)),
    ]


def talk_args(server: FakeLLM, out: Path, levels: list[str], *extra: str) -> list[str]:
    return [
        "llm",
        "--model",
        "test-model",
        "--mode",
        "decentralized",
        "--levels",
        *levels,
        "--base-url",
        server.url,
        "--api-key-env",
        "FAKE_LLM_KEY",
        "--out",
        str(out),
        "--no-progress",
        "--backoff",
        "0.01",
        *extra,
    ]


def test_the_pan_crosses_the_counter_because_the_chef_asks(talk_server, tmp_path, capsys):
    talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    r = result_of(out, "01_pan_across")
    assert r["done"] and r["status"] == "done" and r["time"] == 40, r.get("last_feedback")
    assert (r["method"], r["mode"], r["knowledge"]) == ("decentralized-io", "decentralized", "shared")
    assert [m["round"] for m in r["rounds"]] == [1, 2, 3, 4]
    assert r["messages"] == [
        {"round": 1, "sender": "agent1", "receivers": ["agent2"], "text": ASK, "time": 0},
        {"round": 2, "sender": "agent2", "receivers": ["agent1"], "text": "The pan is on table2.", "time": 1},
        {
            "round": 3,
            "sender": "agent1",
            "receivers": ["agent2"],
            "text": "The patty lands on table1 at t = 36.",
            "time": 6,
        },
    ]
    # each agent has its own conversation; the server saw the request in its second round
    chef, server = talk_server.of("You are agent1."), talk_server.of("You are agent2.")
    assert len(chef) == 3 and len(server) == 4
    assert "You are agent2" in server[0]["messages"][0]["content"]
    assert "dispenser, table, serving_window" in server[0]["messages"][0]["content"]
    assert f'from agent1 (sent at t = 0): "{ASK}"' in server[1]["messages"][-1]["content"]
    assert "Your actions so far run until t = 6" in chef[1]["messages"][-1]["content"]
    assert "table2: an empty pan" in chef[2]["messages"][-1]["content"]
    per_agent = r["tokens_per_agent"]
    assert per_agent["agent1"]["calls"] == 3 and per_agent["agent2"]["calls"] == 4
    assert per_agent["agent1"]["tokens_in"] + per_agent["agent2"]["tokens_in"] == r["tokens_in"]
    calls = [e for e in read_log(out / "log.jsonl") if e["event"] == "call"]
    assert sorted({e["agent"] for e in calls}) == ["agent1", "agent2"]
    rp = load_replay(out / r["replay"])
    assert rp.source["messages"] == r["messages"] and rp.source["mode"] == "decentralized"
    assert_no_secret(out)
    # the collaboration metrics of the run: one request (the pan) and two responses, each
    # followed by progress of its receiver in the next round
    capsys.readouterr()
    assert main(["collab", str(out), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["help_requests"] == {"total": 1, "advanced": 1}
    assert row["help_responses"] == {"total": 2, "advanced": 2}
    assert row["reference"].endswith("01_pan_across.json") and row["done"] and row["wasted_actions"] == 0
    assert len(row["agents"]["agent2"]["increments"]) == 4 and row["agents"]["agent1"]["increments"][1] == 0


def test_without_the_request_the_pan_never_comes(talk_server, tmp_path):
    talk_server.script(
        "You are agent1.", *chef_script(None), ("reply", say(CHEF_R3)), ("reply", say(CHEF_R3))
    )
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    r = result_of(out, "01_pan_across")
    assert not r["done"] and r["status"] == "failed"
    assert [m["sender"] for m in r["messages"]] == ["agent1"]  # only its note in round 3, no request
    assert r["error_detail"]["agent"] == "agent1" and r["error_detail"]["action_index"] == 6
    # the error went back to the chef, who tried again (3 attempts in round 3)
    chef = talk_server.of("You are agent1.")
    assert (
        len(chef) == 5 and "agent1's action 6 (Interact table2) failed" in chef[3]["messages"][-1]["content"]
    )


def test_malformed_messages_and_replies_are_told_to_their_sender(talk_server, tmp_path):
    broken = '```json\n{"actions": [{"action": "MoveTo", "target": [1, 1]} {"action": "Finish"}]}\n```'
    messages = [
        {"to": "agent9", "text": "hello"},
        "pan please",
        {"to": "agent2", "text": ASK},
        {"to": "agent2"},
    ]
    chef = chef_script(messages)
    talk_server.script("You are agent1.", ("reply", broken), *chef)
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    r = result_of(out, "01_pan_across")
    assert r["done"] and [m["text"] for m in r["messages"]][0] == ASK
    assert r["tokens_per_agent"]["agent1"]["calls"] == 4
    reqs = talk_server.of("You are agent1.")
    assert "I could not read your answer" in reqs[1]["messages"][-1]["content"]
    assert "line 1, column" in reqs[1]["messages"][-1]["content"]
    second_round = reqs[2]["messages"][-1]["content"]
    assert "message 1 was not sent: no agent called 'agent9' (agents: agent1, agent2)" in second_round
    assert "message 2 was not sent: expected" in second_round
    assert "message 4 was not sent: it has no text" in second_round


def test_a_run_stops_after_its_rounds(talk_server, tmp_path):
    talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL], "--rounds", "2")) == 0
    r = result_of(out, "01_pan_across")
    assert not r["done"] and r["status"] == "failed" and len(r["rounds"]) == 2
    assert r["last_feedback"].startswith("stopped after 2 round(s)")
    assert len(r["messages"]) == 2 and r["error"] is None
    assert len(talk_server.of("You are agent1.")) == 2


def test_split_knowledge_hides_the_recipes_from_all_but_the_first(talk_server, tmp_path):
    talk_server.script("You are agent1.", ("reply", say([FINISH])))
    talk_server.script("You are agent2.", ("reply", say([FINISH])))
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL], "--knowledge", "split")) == 0
    r = result_of(out, "01_pan_across")
    assert r["method"] == "decentralized-io-split" and not r["done"]
    chef = talk_server.of("You are agent1.")[0]["messages"][1]["content"]
    server = talk_server.of("You are agent2.")[0]["messages"][1]["content"]
    assert "burger_basic: Chop meat and fry it in a pan" in chef
    assert "burger_basic: Chop meat" not in server and "agent1 knows them" in server


def test_an_interrupted_decentralized_run_resumes(talk_server, tmp_path):
    other = str(ROOT / "levels" / "collab" / "03_sushi_counter.yaml")
    talk_server.script("burger_basic|You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("burger_basic|You are agent2.", *server_script())
    talk_server.script("sushi_fish|You are agent1.", ("sleep", 30, say([FINISH])))
    talk_server.script("sushi_fish|You are agent2.", ("sleep", 30, say([FINISH])))
    out = tmp_path / "run"
    args = talk_args(talk_server, out, [PAN_LEVEL, other], "--concurrency", "1")
    proc = subprocess.Popen(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while not talk_server.of("sushi_fish|You are agent1.") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert talk_server.of("sushi_fish|You are agent1."), "the second task never started"
        err = interrupt(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "run the same command to resume" in err
    assert [f.name for f in (out / "results").glob("*.json")] == ["collab__01_pan_across.json"]
    talk_server.script("sushi_fish|You are agent1.", ("reply", say([FINISH])))
    talk_server.script("sushi_fish|You are agent2.", ("reply", say([FINISH])))
    assert main(args) == 0
    assert len(talk_server.of("burger_basic|You are agent1.")) == 3  # not asked again
    assert result_of(out, "03_sushi_counter")["status"] == "failed"
    assert result_of(out, "01_pan_across")["done"]


def test_report_puts_centralized_and_decentralized_runs_side_by_side(talk_server, tmp_path, capsys):
    plan = json.loads((ROOT / "levels" / "collab" / "references" / "01_pan_across.json").read_text())
    talk_server.script("Agents: agent1, agent2.", ("reply", f"```json\n{json.dumps(plan)}\n```"))
    central = tmp_path / "central"
    args = talk_args(talk_server, central, [PAN_LEVEL])
    args[args.index("decentralized")] = "centralized"
    assert main(args) == 0
    talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("You are agent2.", *server_script())
    talking = tmp_path / "talking"
    assert main(talk_args(talk_server, talking, [PAN_LEVEL])) == 0
    c, t = result_of(central, "01_pan_across"), result_of(talking, "01_pan_across")
    assert c["done"] and t["done"] and "messages" not in c
    capsys.readouterr()
    assert main(["report", str(central), str(talking), "--format", "json"]) == 0
    rows = {r["run"]: r for r in json.loads(capsys.readouterr().out) if r["group"] == "all"}
    assert set(rows) == {"io test-model", "decentralized-io test-model"}
    assert rows["io test-model"]["talk"]["Msgs"]["value"] == 0
    assert rows["decentralized-io test-model"]["talk"]["Msgs"]["value"] == 3
    for run, r in (("io test-model", c), ("decentralized-io test-model", t)):
        expected = (r["tokens_in"] + r["tokens_out"]) / 2
        assert rows[run]["talk"]["Tok/agent"]["value"] == pytest.approx(expected, abs=0.01)
    assert main(["report", str(central), str(talking)]) == 0
    table = capsys.readouterr().out
    assert "Msgs (per task) | Tok/agent (tokens) |" in table.splitlines()[0]
    assert main(["report", str(central), str(talking), "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert header[-8:] == [f"{m}{s}" for m in ("Msgs", "Tok/agent") for s in ("", "_low", "_high", "_n")]


def test_decentralized_runs_end_to_end_on_suite24_and_the_collab_levels(talk_server, tmp_path):
    talk_server.script("", *[("reply", say([FINISH], {"to": "all", "text": "I am done."}))] * 60)
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, ["suite24", "collab"], "--concurrency", "4")) == 0
    results = sorted((out / "results").glob("*.json"))
    assert len(results) == 24 + 4 and len(list((out / "replays").glob("*.json"))) == 28
    for f in results:
        r = json.loads(f.read_text())
        agents = r["task"]["agents"]
        assert r["status"] == "failed" and r["remaining_orders"] and len(r["rounds"]) == 1
        assert len(r["messages"]) == agents and set(r["tokens_per_agent"]) == {
            f"agent{i + 1}" for i in range(agents)
        }
        assert all(len(m["receivers"]) == agents - 1 for m in r["messages"])
    assert len(talk_server.requests) == 24 * 2 + 2 + 2 + 2 + 3


def test_the_replay_lists_the_conversation_in_time(talk_server, tmp_path):
    from game.replay.conversation import messages_until, replay_messages

    talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    rp = load_replay(out / result_of(out, "01_pan_across")["replay"])
    lines = replay_messages(rp.source)
    assert [m.sentence() for m in lines] == [
        f't = 0 agent1 to agent2: "{ASK}"',
        't = 1 agent2 to agent1: "The pan is on table2."',
        't = 6 agent1 to agent2: "The patty lands on table1 at t = 36."',
    ]
    assert [m.round for m in messages_until(lines, 5)] == [1, 2]
    broken = {
        "messages": [{"time": "x"}, 3, {"time": 2, "round": 1, "sender": "a", "receivers": "b", "text": ""}]
    }
    assert replay_messages(broken) == [] and replay_messages(None) == []


def test_a_message_to_a_finished_agent_is_reported_back(talk_server, tmp_path):
    talk_server.script("You are agent1.", ("reply", say([FINISH])))
    talk_server.script(
        "You are agent2.",
        ("reply", say([wait(1)])),
        ("reply", say([], [{"to": "agent1", "text": "Where is the pan?"}])),
        ("reply", say([FINISH])),
    )
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    r = result_of(out, "01_pan_across")
    assert [m["text"] for m in r["messages"]] == ["Where is the pan?"] and len(r["rounds"]) == 3
    third = talk_server.of("You are agent2.")[2]["messages"][-1]["content"]
    assert "message to agent1 will not be read: agent1 finished" in third


def test_decentralized_honours_the_method_and_records_every_call(talk_server, tmp_path):
    firsts = {}
    for method in ("io", "plag"):
        talk_server.requests.clear()
        talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
        talk_server.script("You are agent2.", *server_script())
        out = tmp_path / method
        assert main(talk_args(talk_server, out, [PAN_LEVEL], "--method", method)) == 0
        r = result_of(out, "01_pan_across")
        assert r["done"] and r["method"] == f"decentralized-{method}"
        assert len(r["attempts"]) == r["calls"] == 7
        assert {a["agent"] for a in r["attempts"]} == {"agent1", "agent2"}
        assert all(a["round"] >= 1 and a["parsed"] for a in r["attempts"])
        firsts[method] = talk_server.of("You are agent1.")[0]["messages"][-1]["content"]
    assert firsts["io"] != firsts["plag"]
    assert "longest chain" in firsts["plag"] and "longest chain" not in firsts["io"]
    assert "No other text" in firsts["io"]


def test_decentralized_refuses_msreact_in_words(talk_server, tmp_path, capsys):
    assert main(talk_args(talk_server, tmp_path / "run", [PAN_LEVEL], "--method", "msreact")) == 2
    assert "plans with io, cot or plag" in capsys.readouterr().err
    assert not talk_server.requests


def test_a_decentralized_engine_error_is_told_with_its_cause_and_recorded(talk_server, tmp_path):
    talk_server.script(
        "You are agent1.", *chef_script(None), ("reply", say(CHEF_R3)), ("reply", say(CHEF_R3))
    )
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL])) == 0
    told = talk_server.of("You are agent1.")[3]["messages"][-1]["content"]
    assert "agent1's action 6 (Interact table2) failed" in told and "\n- Needed: " in told
    r = result_of(out, "01_pan_across")
    blamed = [a for a in r["attempts"] if a["error"] and a["error"]["stage"] == "engine"]
    assert blamed and {a["agent"] for a in blamed} == {"agent1"}


def test_a_decentralized_run_replays_offline_to_the_same_outcome(talk_server, tmp_path, monkeypatch):
    talk_server.script("You are agent1.", *chef_script([{"to": "agent2", "text": ASK}]))
    talk_server.script("You are agent2.", *server_script())
    out = tmp_path / "run"
    assert main(talk_args(talk_server, out, [PAN_LEVEL], "--method", "cot")) == 0
    talk_server.server.shutdown()
    monkeypatch.delenv("FAKE_LLM_KEY")
    again = tmp_path / "again"
    assert main(["llm", "--replay-from", str(out), "--out", str(again), "--no-progress"]) == 0
    a, b = result_of(out, "01_pan_across"), result_of(again, "01_pan_across")
    assert b["done"] and (b["time"], b["method"], b["plan"]) == (a["time"], "decentralized-cot", a["plan"])
    assert b["messages"] == a["messages"] and len(b["attempts"]) == len(a["attempts"])
