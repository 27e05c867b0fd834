"""The `llm` command end to end, against a local OpenAI-compatible server with scripted replies,
through the real `openai` client. Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from interrupts import as_from_a_terminal, interrupt

from game.cli import main
from game.planners.llm.log import read_log
from game.planners.llm.prompts import example
from game.replay import load_replay

ROOT = Path(__file__).resolve().parents[1]
SECRET = "sk-test-secret-0123456789"
LEVELS = ("kitchen_alpha", "kitchen_beta", "kitchen_gamma")


class FakeLLM:
    """A chat-completions endpoint. Each script key (a text found in the request's first user
    message) has a queue of steps: ("reply", text), ("length", text) (a reply cut at max_tokens),
    ("status", code) or ("sleep", s, text)."""

    def __init__(self) -> None:
        self.scripts: dict[str, list[tuple]] = {}
        self.requests: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                key, step = fake.next_step(body, self.headers.get("Authorization", ""))
                try:
                    fake.answer(self, body, step)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def script(self, key: str, *steps: tuple) -> None:
        self.scripts[key] = list(steps)

    def next_step(self, body: dict, auth: str) -> tuple[str, tuple]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        with self.lock:
            key = next((k for k in self.scripts if k in user), "?")
            self.requests.append((key, body))
            assert auth == f"Bearer {SECRET}" or key == "?", "the key must reach the server"
            queue = self.scripts.get(key, [])
            return key, queue.pop(0) if queue else ("status", 500)

    def answer(self, handler: BaseHTTPRequestHandler, body: dict, step: tuple) -> None:
        if step[0] == "drop":  # close the connection without an answer
            handler.close_connection = True
            return
        if step[0] == "sleep":
            time.sleep(step[1])
            step = ("reply", step[2])
        if step[0] == "status":
            self.send(handler, step[1], {"error": {"message": f"scripted {step[1]}", "type": "test"}})
            return
        text = step[1]
        finish = "length" if step[0] == "length" else "stop"
        prompt = sum(len(m["content"]) for m in body["messages"]) // 4
        self.send(
            handler,
            200,
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
                ],
                "usage": {
                    "prompt_tokens": prompt,
                    "completion_tokens": len(text) // 4,
                    "total_tokens": prompt + len(text) // 4,
                },
            },
        )

    @staticmethod
    def send(handler: BaseHTTPRequestHandler, code: int, data: dict) -> None:
        raw = json.dumps(data).encode()
        handler.send_response(code)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        handler.end_headers()
        handler.wfile.write(raw)

    def of(self, key: str) -> list[dict]:
        return [b for k, b in self.requests if k == key]


@pytest.fixture
def llm_server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    fake = FakeLLM()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def write_levels(folder: Path, names=LEVELS) -> list[str]:
    """The prompt example's kitchen under other names, as ParaCook maps plus their order."""
    specs = []
    for name in names:
        m = copy.deepcopy(example()["map"])
        m["name"] = name
        path = folder / f"{name}.json"
        path.write_text(json.dumps(m))
        specs.append(f"{path}:pasta_tomato")
    return specs


def good_plan() -> dict:
    return copy.deepcopy(example()["plan"])


def fenced(plan: dict, before: str = "") -> str:
    return f"{before}```json\n{json.dumps(plan)}\n```"


def llm_args(server: FakeLLM, out: Path, levels: list[str], *extra: str, method: str = "io") -> list[str]:
    return [
        "llm",
        "--model",
        "test-model",
        "--method",
        method,
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
        "--concurrency",
        "2",
        *extra,
    ]


def result_of(out: Path, name: str) -> dict:
    files = [f for f in (out / "results").glob("*.json") if name in f.name]
    assert len(files) == 1, f"one result file for {name}, found {files}"
    return json.loads(files[0].read_text())


def assert_no_secret(out: Path) -> None:
    for f in out.rglob("*"):
        if f.is_file():
            assert SECRET not in f.read_text(errors="replace"), f"the API key leaked into {f}"


def test_a_correct_plan_gives_a_result_a_replay_and_a_log(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan(), "Here is the plan.\n")))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] is True and r["time"] == 38 and r["error"] is None
    assert (r["model"], r["method"], r["calls"], r["status"]) == ("test-model", "io", 1, "done")
    assert r["task"]["id"] == "kitchen_alpha:pasta_tomato" and r["task"]["agents"] == 2
    assert r["plan"] == good_plan()
    assert r["tokens_in"] > 1000 and r["tokens_out"] > 50 and r["latency_s"] >= 0
    rp = load_replay(out / r["replay"])
    assert rp.result["time"] == 38 and rp.source == {
        "kind": "llm",
        "model": "test-model",
        "method": "io",
        "task": "kitchen_alpha:pasta_tomato",
    }
    calls = [e for e in read_log(out / "log.jsonl") if e["event"] == "call"]
    assert len(calls) == 1
    assert calls[0]["response"]["usage"]["prompt_tokens"] == r["tokens_in"]
    assert calls[0]["request"]["messages"][0]["role"] == "system"
    assert json.loads((out / "run.json").read_text())["model"] == "test-model"
    assert_no_secret(out)
    assert "1 succeeded" in capsys.readouterr().out


def test_broken_json_then_a_fixed_plan(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    broken = '```json\n{"agent1": [{"action": "MoveTo", "target": [1, 1]} {"action": "Finish"}]}\n```'
    llm_server.script("kitchen_alpha", ("reply", broken), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["calls"] == 2
    second = llm_server.of("kitchen_alpha")[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": broken}
    assert "could not read a plan" in second[-1]["content"]
    assert "line 1, column 52" in second[-1]["content"]


def test_an_invalid_plan_then_a_fix_after_the_feedback(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    bad = good_plan()
    bad["agent2"][2] = {"action": "MoveTo", "target": [4, 1]}  # not next to chopping_board1
    llm_server.script("kitchen_alpha", ("reply", fenced(bad)), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["calls"] == 2 and r["time"] == 38
    feedback = llm_server.of("kitchen_alpha")[1]["messages"][-1]["content"]
    assert "agent2's action 3 (Interact chopping_board1) failed" in feedback
    assert "adjacent" in feedback or "next to" in feedback
    assert "agent2 at [4, 1] holding raw tomato" in feedback  # the state at the failure


def test_a_plan_that_never_works_is_recorded_as_failed(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    short = {"agent1": [{"action": "MoveTo", "target": [1, 1]}], "agent2": []}
    llm_server.script("kitchen_alpha", *[("reply", fenced(short))] * 2)
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, "--attempts", "2")) == 0
    r = result_of(out, "kitchen_alpha")
    assert not r["done"] and r["status"] == "failed" and r["calls"] == 2
    assert r["remaining_orders"] == ["pasta_tomato"]
    assert "never served: pasta_tomato" in llm_server.of("kitchen_alpha")[1]["messages"][-1]["content"]


def test_a_429_is_retried_with_backoff(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("status", 429), ("status", 503), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["calls"] == 1
    retries = [e for e in read_log(out / "log.jsonl") if e["event"] == "retry"]
    assert [e["error"][:8] for e in retries] == ["HTTP 429", "HTTP 503"]
    assert retries[1]["wait_s"] == 2 * retries[0]["wait_s"]
    assert len(llm_server.of("kitchen_alpha")) == 3


def test_a_dropped_connection_is_retried(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("drop",), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    assert result_of(out, "kitchen_alpha")["done"]
    retries = [e for e in read_log(out / "log.jsonl") if e["event"] == "retry"]
    assert len(retries) == 1 and "connection failed" in retries[0]["error"]


def test_a_timeout_is_retried(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("sleep", 1.5, fenced(good_plan())), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, "--timeout", "0.5")) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["calls"] == 1 and r["latency_s"] < 1.0
    retries = [e for e in read_log(out / "log.jsonl") if e["event"] == "retry"]
    assert len(retries) == 1 and "timed out" in retries[0]["error"]


def test_a_lasting_api_error_leaves_the_task_unfinished(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("status", 401))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 1
    assert not (out / "results").exists() or not list((out / "results").glob("*.json"))
    captured = capsys.readouterr()
    assert "HTTP 401" in captured.err and "not finished" in captured.out


def test_msreact_plans_in_steps_and_shows_the_state(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    plan = good_plan()
    first = {"agent1": plan["agent1"][:4], "agent2": plan["agent2"]}
    rest = {"agent1": plan["agent1"][4:], "agent2": []}
    wrong = {"agent1": [{"action": "Interact", "target": "serving_window"}]}
    llm_server.script(
        "kitchen_alpha", ("reply", fenced(first)), ("reply", fenced(wrong)), ("reply", fenced(rest))
    )
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, method="msreact")) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["done"] and r["time"] == 38 and r["method"] == "msreact"
    assert r["steps"] == 2 and r["calls"] == 3
    assert r["plan"] == plan
    reqs = llm_server.of("kitchen_alpha")
    state = reqs[1]["messages"][-1]["content"]
    assert "until t = 4, when agent1 ran out of actions" in state
    assert "stove1: a pot with raw pasta (cooking: 0 of 16 done)" in state
    assert "agent2: busy until t = 11" in state
    error = reqs[2]["messages"][-1]["content"]
    assert "agent1's action 4 (Interact serving_window) failed" in error


def test_three_levels_shards_resume_and_report(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path)
    short = {"agent1": [{"action": "MoveTo", "target": [1, 1]}], "agent2": []}
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    llm_server.script("kitchen_beta", ("reply", fenced(good_plan())))
    llm_server.script("kitchen_gamma", ("reply", fenced(short)))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, "--shard", "2/3", "--attempts", "1")) == 0
    assert [f.name for f in (out / "results").glob("*.json")] == ["kitchen_beta__pasta_tomato.json"]
    assert (out / "log-shard-2-of-3.jsonl").exists()
    assert main(llm_args(llm_server, out, levels, "--attempts", "1")) == 0
    assert sorted(f.name for f in (out / "results").glob("*.json")) == [
        f"{n}__pasta_tomato.json" for n in LEVELS
    ]
    assert len(llm_server.of("kitchen_beta")) == 1  # finished in the shard, skipped afterwards
    assert len(list((out / "replays").glob("*.json"))) == 3
    assert [result_of(out, n)["done"] for n in LEVELS] == [True, True, False]
    t_max = result_of(out, "kitchen_gamma")["t_max"]
    capsys.readouterr()
    assert main(["report", str(out), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    overall = next(r for r in rows if r["group"] == "all")
    assert overall["run"] == "io test-model" and overall["tasks"] == 3  # replays and log not counted
    assert overall["metrics"]["SR"]["value"] == pytest.approx(200 / 3, abs=0.01)
    assert overall["metrics"]["pOCT"]["value"] == pytest.approx((38 + 38 + t_max) / 3, abs=0.01)


def test_an_interrupted_run_resumes_without_losing_finished_tasks(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:2])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    llm_server.script("kitchen_beta", ("sleep", 30, fenced(good_plan())))
    out = tmp_path / "run"
    args = llm_args(llm_server, out, levels, "--concurrency", "1")
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
        while not llm_server.of("kitchen_beta") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert llm_server.of("kitchen_beta"), "the second task never started"
        err = interrupt(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "run the same command to resume" in err
    assert [f.name for f in (out / "results").glob("*.json")] == ["kitchen_alpha__pasta_tomato.json"]
    assert not list(out.rglob("*.part"))
    llm_server.script("kitchen_beta", ("reply", fenced(good_plan())))
    assert main(args) == 0
    assert len(llm_server.of("kitchen_alpha")) == 1  # not asked again
    assert result_of(out, "kitchen_beta")["done"]
    assert_no_secret(out)


def test_bad_levels_and_a_foreign_run_folder_are_refused(llm_server, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, ["no_such_suite_xyz"])) == 2
    assert "no_such_suite_xyz" in capsys.readouterr().err
    assert main(llm_args(llm_server, out, [str(tmp_path / "missing.json:salad_basic")])) == 2
    assert "no such level file" in capsys.readouterr().err
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    assert main(llm_args(llm_server, out, levels)) == 0
    other = llm_args(llm_server, out, levels)
    other[2] = "another-model"
    assert main(other) == 2
    assert "another --out folder" in capsys.readouterr().err


def test_a_reply_that_never_becomes_a_plan_leaves_a_replay_that_says_why(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", *[("reply", "I would rather not plan today.")] * 2)
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, "--attempts", "2")) == 0
    r = result_of(out, "kitchen_alpha")
    assert r["status"] == "no_plan" and r["diagnosis"]["error"] == "no_plan"
    why = load_replay(out / r["replay"]).result["diagnosis"]
    assert why == r["diagnosis"] and why["summary"].startswith("The model's reply never became a plan in 2")
    assert why["causes"][0]["kind"] == "no_plan" and "could not read a plan" in why["causes"][0]["text"]
