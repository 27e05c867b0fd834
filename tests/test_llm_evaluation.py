"""LLM evaluations one can publish: a two-method run on the tutorials against the scripted local
server (real `openai` client), its failure and paper tables, and the same tables again offline
from the recorded replies. Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import json
import math
import threading
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_llm_runner import LEVELS, SECRET, FakeLLM, fenced, good_plan, llm_args, result_of, write_levels

from game.cli import main
from game.planners.llm.prompts import compact
from game.planners.llm.tasks import resolve_levels
from game.planners.solver import solve

TUTORIALS = ("01_first_salad", "02_chopping", "03_cook_while_you_chop", "04_two_cooks", "05_dirty_plates")


class RawServer:
    """Answers each request with the next of the given raw bodies (the last repeats)."""

    def __init__(self, bodies: list[bytes]) -> None:
        queue = list(bodies)

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = queue.pop(0) if len(queue) > 1 else queue[0]
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@cache
def tutorial_plans() -> dict[str, tuple[str, dict]]:
    """Each tutorial's map text as it appears in the prompt (the script key) and a good plan."""
    out = {}
    for task in resolve_levels(["tutorial"]):
        name = task.id.split("/")[-1]
        out[name] = (compact(task.level.to_paracook_map()), solve(task.level, time_limit=0.3).plan)
    return out


def key(name: str) -> str:
    return tutorial_plans()[name][0]


def good(name: str) -> str:
    return fenced(tutorial_plans()[name][1], "Here is the plan.\n")


def failing(name: str) -> str:
    """A plan the engine stops: the first agent serves before it holds anything."""
    plan = json.loads(json.dumps(tutorial_plans()[name][1]))
    first = next(iter(plan))
    plan[first] = [{"action": "Interact", "target": "serving_window"}, *plan[first]]
    return fenced(plan)


def unfinished(name: str) -> str:
    plan = tutorial_plans()[name][1]
    return fenced({a: [] for a in plan})


def script_io(server) -> None:  # noqa: ANN001
    cut = good("03_cook_while_you_chop")[: len(good("03_cook_while_you_chop")) // 2]
    server.script(key("01_first_salad"), ("reply", good("01_first_salad")))
    server.script(
        key("02_chopping"),
        ("reply", '```json\n{"agent1": [{"action": "MoveTo" "x"}]}\n```'),
        ("reply", good("02_chopping")),
    )
    server.script(key("03_cook_while_you_chop"), ("length", cut), ("reply", good("03_cook_while_you_chop")))
    server.script(key("04_two_cooks"), ("reply", failing("04_two_cooks")), ("reply", good("04_two_cooks")))
    server.script(key("05_dirty_plates"), *[("reply", unfinished("05_dirty_plates"))] * 3)


def script_plag(server) -> None:  # noqa: ANN001
    for name in TUTORIALS:
        server.script(key(name), ("reply", good(name)))
    server.script(
        key("04_two_cooks"),
        ("reply", failing("04_two_cooks")),
        ("reply", failing("04_two_cooks")),
        ("reply", good("04_two_cooks")),
    )


def report(capsys, *args: str) -> str:  # noqa: ANN001
    capsys.readouterr()
    assert main(["report", *args]) == 0
    return capsys.readouterr().out


@pytest.fixture
def llm_server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    fake = FakeLLM()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


class TwoRuns(NamedTuple):
    io: Path
    plag: Path
    server: FakeLLM  # the endpoint that answered both (shut down since): what it was sent is kept


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> TwoRuns:
    """io and plag on the tutorials, as a researcher would run them: run once for the tests that
    read them (none writes into their folders), their server shut down after, so that nothing
    read from them afterwards can have come from an endpoint."""
    folder = tmp_path_factory.mktemp("two_runs")
    server = FakeLLM()
    server.thread.start()
    try:
        with pytest.MonkeyPatch.context() as env:
            env.setenv("FAKE_LLM_KEY", SECRET)
            script_io(server)
            assert main(llm_args(server, folder / "io", ["tutorial"], "--max-tokens", "300")) == 0
            script_plag(server)
            plag = llm_args(server, folder / "plag", ["tutorial"], "--max-tokens", "300", method="plag")
            assert main(plag) == 0
    finally:
        server.server.shutdown()
        server.server.server_close()
    return TwoRuns(folder / "io", folder / "plag", server)


def test_every_call_is_on_record_with_its_error(two_runs):
    io = two_runs.io
    r = result_of(io, "04_two_cooks")
    assert (
        r["level"] == "levels/tutorial/04_two_cooks.yaml"
    )  # not the absolute path (pytest runs from the root)
    assert r["done"] and r["calls"] == 2 and [a["attempt"] for a in r["attempts"]] == [1, 2]
    first, second = r["attempts"]
    assert first["parsed"] and first["error"]["stage"] == "engine"
    assert "serving_window" in first["error"]["detail"] and "diagnosis" in first["error"]
    assert second["error"] is None and second["finish_reason"] == "stop"
    assert first["reply"] == failing("04_two_cooks") and first["model"] == "test-model"
    assert first["tokens"]["prompt"] > 100 and first["tokens"]["completion"] > 10 and first["latency_s"] >= 0
    parse = result_of(io, "02_chopping")["attempts"][0]
    assert not parse["parsed"] and parse["error"]["stage"] == "parse"
    failed = result_of(io, "05_dirty_plates")
    assert failed["status"] == "failed" and len(failed["attempts"]) == 3
    assert {a["error"]["stage"] for a in failed["attempts"]} == {"unfinished"}


def test_a_truncated_reply_is_told_as_such_and_recorded(two_runs):
    io = two_runs.io
    r = result_of(io, "03_cook_while_you_chop")
    assert r["done"] and r["truncated"] == 1
    cut = r["attempts"][0]
    assert cut["finish_reason"] == "length" and cut["error"] == {
        "stage": "reply",
        "kind": "truncated",
        "detail": cut["error"]["detail"],
    }
    told = two_runs.server.of(key("03_cook_while_you_chop"))[1]["messages"][-1]["content"]
    assert "cut off" in told and "length limit (300 tokens)" in told and "Expecting" not in told


def test_the_failure_table_counts_by_hand(two_runs, capsys):
    io, plag, _ = two_runs
    data = json.loads(report(capsys, str(io), str(plag), "--failures", "--format", "json", "--prices", "2,8"))
    by_run = {o["run"]: o for o in data["outcomes"]}
    o = by_run["io test-model"]
    assert o["tasks"] == 5 and o["first_try_SR"]["value"] == 20.0 and o["final_SR"]["value"] == 80.0
    assert (o["fixed_by_feedback"], o["first_try_failed"], o["truncated_calls"]) == (3, 4, 1)
    assert o["calls_per_task"]["value"] == pytest.approx((1 + 2 + 2 + 2 + 3) / 5)
    assert o["prompt_tokens_per_task"]["low"] >= 0 and o["latency_s_per_task"]["low"] >= 0
    results = [json.loads(f.read_text()) for f in (io / "results").glob("*.json")]
    spent = sum(2 * r["tokens_in"] + 8 * r["tokens_out"] for r in results) / 1e6
    assert o["total_cost"] == pytest.approx(spent, abs=1e-6)
    p = by_run["plag test-model"]
    assert (
        p["first_try_SR"]["value"] == 80.0 and p["final_SR"]["value"] == 100.0 and p["fixed_by_feedback"] == 1
    )
    errors = {(e["run"], e["attempt"]): e["kinds"] for e in data["errors"]}
    first = errors[("io test-model", 1)]
    assert first["ok"] == 1 and first["parse"] == 1 and first["reply: truncated"] == 1
    assert first["unfinished"] == 1 and sum(v for k, v in first.items() if k.startswith("engine")) == 1
    assert errors[("io test-model", 3)] == {"unfinished": 1}
    md = report(capsys, str(io), str(plag), "--failures")
    assert "| io test-model | 5 | 20.00 [" in md and "3 of 4" in md
    csv = report(capsys, str(io), str(plag), "--failures", "--format", "csv")
    assert "io test-model,outcomes,,fixed_by_feedback,3" in csv


def test_the_paper_table_and_its_latex(two_runs, capsys):
    io, plag, _ = two_runs
    md = report(capsys, str(io), str(plag), "--layout", "paper")
    lines = md.splitlines()
    assert lines[0].startswith("| method | easy: SR | easy: PR | easy: nOCT |")
    assert lines[2].startswith("| io test-model |") and lines[3].startswith("| plag test-model |")
    assert "| all: SR |" in lines[0] or "all: SR" in lines[0]
    tex = report(capsys, str(io), str(plag), "--layout", "paper", "--format", "latex")
    assert "\\begin{tabular}" in tex and "\\multicolumn{3}{c}{all ($n=5$)}" in tex
    assert "io test-model & " in tex and "\\%" in tex and tex.count("\\\\") == 4


def test_replay_from_reproduces_the_tables_offline(two_runs, tmp_path, capsys, monkeypatch):
    io, plag, server = two_runs  # (its server is shut down)
    monkeypatch.delenv("FAKE_LLM_KEY", raising=False)  # (and no key to reach one)
    sent = len(server.requests)
    for run in (io, plag):
        args = [
            "llm",
            "--replay-from",
            str(run),
            "--out",
            str(tmp_path / f"again-{run.name}"),
            "--no-progress",
        ]
        assert main(args) == 0
    again = [str(tmp_path / "again-io"), str(tmp_path / "again-plag")]
    for extra in (["--failures"], ["--layout", "paper"], ["--failures", "--format", "json"]):
        assert report(capsys, *again, *extra) == report(capsys, str(io), str(plag), *extra)
    r = result_of(tmp_path / "again-io", "04_two_cooks")
    assert r["attempts"][0]["reply"] == failing("04_two_cooks")
    assert len(server.requests) == sent
    settings = json.loads((tmp_path / "again-io" / "run.json").read_text())
    assert settings["replayed_from"] == str(io) and settings["endpoint"] is None


def test_runs_of_one_label_stay_apart_unless_pooled(two_runs, llm_server, capsys):
    io = two_runs.io
    script_plag(llm_server)  # a second io run: every task served at once
    second = io.parent / "io2"  # beside the first (the pooled runs are named in path order)
    assert main(llm_args(llm_server, second, ["tutorial"], "--max-tokens", "300")) == 0
    rows = json.loads(report(capsys, str(io), str(second), "--format", "json"))
    alls = {r["run"]: r["metrics"]["SR"]["value"] for r in rows if r["group"] == "all"}
    assert alls == {"io test-model [io]": 80.0, "io test-model [io2]": 100.0}
    pooled = json.loads(report(capsys, str(io), str(second), "--format", "json", "--pool", "--dedupe", "all"))
    row = next(r for r in pooled if r["group"] == "all")
    assert row["tasks"] == 10 and row["extras"]["runs"] == f"{io} + {second}"


# -- one folder, one experiment ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--temperature", "0.9"], "temperature: null in the folder, 0.9 now"),
        (["--attempts", "1"], "attempts: 3 in the folder, 1 now"),
        (["--max-tokens", "50"], "max_tokens: null in the folder, 50 now"),
        (["--method", "cot"], 'method: "io" in the folder, "cot" now'),
        (["--mode", "decentralized"], "mode:"),
        (["--base-url", "http://127.0.0.1:9/v1"], "endpoint:"),
        (["--label", "other"], 'label: null in the folder, "other" now'),
    ],
)
def test_a_resume_with_another_setting_is_refused_naming_it(llm_server, tmp_path, capsys, extra, named):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    before = (out / "run.json").read_text()
    capsys.readouterr()
    args = llm_args(llm_server, out, levels) + extra
    if "--method" in extra:  # the later --method wins in argparse
        args = llm_args(llm_server, out, levels, method="cot")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "not resumed" in err and named in err and "--force-new NAME" in err
    assert (out / "run.json").read_text() == before


def test_other_levels_and_several_differences_are_each_named(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS)
    for name in LEVELS:
        llm_server.script(name, ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels[:2])) == 0
    capsys.readouterr()
    assert main(llm_args(llm_server, out, levels, "--temperature", "0.5", "--attempts", "2")) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("  ")]
    assert [line.split(":")[0].strip() for line in lines] == [
        "temperature",
        "attempts",
        "tasks",
        "levels_hash",
    ]
    assert len(llm_server.of("kitchen_gamma")) == 0  # nothing ran


def test_force_new_starts_a_run_beside_the_folder_and_labels_name_runs(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS[:1])
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())), ("reply", fenced(good_plan())))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels)) == 0
    assert (
        main(
            llm_args(
                llm_server, out, levels, "--temperature", "0", "--force-new", "cold", "--label", "io t=0"
            )
        )
        == 0
    )
    cold = json.loads((tmp_path / "cold" / "run.json").read_text())
    assert cold["temperature"] == 0 and cold["label"] == "io t=0"
    assert result_of(tmp_path / "cold", "kitchen_alpha")["label"] == "io t=0"
    assert main(llm_args(llm_server, out, levels, "--force-new", "cold")) == 2
    assert "already holds a run" in capsys.readouterr().err
    rows = json.loads(report(capsys, str(out), str(tmp_path / "cold"), "--format", "json"))
    assert sorted({r["run"] for r in rows}) == ["io t=0", "io test-model"]


def test_retry_failed_runs_failed_tasks_again_and_keeps_the_earlier_outcome(llm_server, tmp_path):
    levels = write_levels(tmp_path, LEVELS[:2])
    short = {"agent1": [], "agent2": []}
    llm_server.script("kitchen_alpha", ("reply", fenced(good_plan())))
    llm_server.script("kitchen_beta", ("reply", fenced(short)))
    out = tmp_path / "run"
    assert main(llm_args(llm_server, out, levels, "--attempts", "1")) == 0
    assert result_of(out, "kitchen_beta")["status"] == "failed"
    llm_server.script("kitchen_beta", ("reply", fenced(good_plan())))
    assert main(llm_args(llm_server, out, levels, "--attempts", "1")) == 0  # a plain resume: nothing to do
    assert len(llm_server.of("kitchen_beta")) == 1
    assert main(llm_args(llm_server, out, levels, "--attempts", "1", "--retry-failed")) == 0
    r = result_of(out, "kitchen_beta")
    assert r["status"] == "done" and r["earlier_runs"][0]["status"] == "failed"
    assert len(llm_server.of("kitchen_alpha")) == 1  # a served task is not run again


def test_the_endpoint_is_kept_without_credentials():
    from game.planners.llm.settings import endpoint

    assert (
        endpoint("https://user:sk-secret@api.example.com:8443/v1?key=sk-2#x")
        == "https://api.example.com:8443/v1"
    )
    assert endpoint(None) is None


# -- hostile replies in the record --------------------------------------------------------------


def hostile_completion(content: str, usage: str) -> bytes:
    body = (
        '{"id": "x", "object": "chat.completion", "created": 0, "model": "served-model", "choices": '
        f'[{{"index": 0, "message": {{"role": "assistant", "content": {content}}}, "finish_reason": "stop"}}], '
        f'"usage": {usage}}}'
    )
    return body.encode()


@pytest.mark.parametrize(
    ("content", "usage"),
    [
        (json.dumps("x" * 300_000), '{"prompt_tokens": 5, "completion_tokens": 5}'),
        ('"\\ud800 not a plan \\udfff"', '{"prompt_tokens": NaN, "completion_tokens": Infinity}'),
        ('"<b>plan</b> \\u0000"', '{"prompt_tokens": -7, "completion_tokens": 1e400}'),
        ('"ok"', '{"prompt_tokens": "12", "completion_tokens": [1]}'),
    ],
    ids=["huge", "surrogates-nan", "markup-overflow", "strings"],
)
def test_hostile_replies_are_recorded_and_replayed(tmp_path, capsys, monkeypatch, content, usage):
    """Huge replies, lone surrogates, NaN or absurd usage: the record stays valid JSON with counts
    >= 0, the report reads it, and a replay feeds back the very same reply."""
    good = fenced(good_plan())
    bodies = [hostile_completion(content, usage), hostile_completion(json.dumps(good), usage)]
    server = RawServer(bodies)
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    levels = write_levels(tmp_path, LEVELS[:1])
    out = tmp_path / "run"
    try:
        args = [
            "llm",
            "--model",
            "m",
            "--levels",
            *levels,
            "--base-url",
            server.url,
            "--api-key-env",
            "FAKE_LLM_KEY",
        ]
        assert main([*args, "--out", str(out), "--no-progress", "--backoff", "0.01"]) == 0
    finally:
        server.close()
    r = result_of(out, "kitchen_alpha")
    first = r["attempts"][0]
    assert r["done"] and r["calls"] == 2 and not first["parsed"] and first["model"] == "served-model"
    assert all(isinstance(v, int) and v >= 0 for a in r["attempts"] for v in a["tokens"].values())
    assert r["tokens_in"] >= 0 and r["tokens_out"] >= 0
    assert (first["reply"] is None) == (first["reply_chars"] > 100_000)
    if "ud800" in content:  # lone surrogates arrive as U+FFFD, so they can be sent back and logged
        assert first["reply"].startswith("\ufffd not a plan")
    data = json.loads(report(capsys, str(out), "--failures", "--format", "json"))
    assert data["outcomes"][0]["final_SR"]["value"] == 100.0
    again = tmp_path / "again"
    assert main(["llm", "--replay-from", str(out), "--out", str(again), "--no-progress"]) == 0
    replayed = result_of(again, "kitchen_alpha")
    assert [a["reply_sha256"] for a in replayed["attempts"]] == [a["reply_sha256"] for a in r["attempts"]]
    assert replayed["time"] == r["time"]


# -- task identity -------------------------------------------------------------------------------


def test_human24_without_the_import_is_refused_with_the_command(llm_server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(tmp_path / "data"))
    assert main(llm_args(llm_server, tmp_path / "run", ["human24"])) == 2
    err = capsys.readouterr().err
    assert "paracook-kitchen levels import-paracook" in err and "suite24" in err
    assert not llm_server.requests and not (tmp_path / "run" / "run.json").exists()
    assert main(["levels", "list"]) == 0
    listed = capsys.readouterr().out
    assert "human24    not installed" in listed and "suite24      24 levels" in listed


def test_human24_is_the_papers_tasks_and_one_task_has_one_id(
    llm_server, tmp_path, capsys, monkeypatch, paracook_dir
):
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(tmp_path / "data"))
    assert main(["levels", "import-paracook", str(paracook_dir)]) == 0
    llm_server.script("", *[("reply", fenced({"agent1": [], "agent2": []}))] * 30)
    out = tmp_path / "human24"
    assert main(llm_args(llm_server, out, ["human24"], "--attempts", "1")) == 0
    ids = sorted(json.loads((out / "run.json").read_text())["tasks"])
    human = sorted(
        f.relative_to(paracook_dir / "human").with_suffix("").as_posix()
        for f in (paracook_dir / "human").rglob("*.json")
    )
    assert ids == human and len(ids) == 24
    # the same task named as a map and its orders: the id of its imported level and human result
    spec = f"{paracook_dir}/maps/burger/seed_42/agent_num_2.json:burger_cheese,burger_basic"
    other = tmp_path / "map"
    assert main(llm_args(llm_server, other, [spec], "--attempts", "1")) == 0
    r = result_of(other, "burger")
    assert r["task"]["id"] == "burger/seed_42/agent_num_2/orders_num_2" and r["task"]["suite"] == "paracook"
    human_file = paracook_dir / "human/burger/seed_42/agent_num_2/orders_num_2.json"
    rows = json.loads(report(capsys, str(other), str(human_file), "--by", "level", "--format", "json"))
    assert {r["group"] for r in rows if r["group"] != "all"} == {
        "burger/seed_42/agent_num_2/orders_num_2 (paracook)"
    }
    assert {r["run"] for r in rows} == {"io test-model", "human"}


def test_an_msreact_run_replays_offline_with_its_steps(llm_server, tmp_path, monkeypatch):
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
    assert [(a["step"], a["attempt"], a["error"] and a["error"]["stage"]) for a in r["attempts"]] == [
        (1, 1, None),
        (2, 1, "engine"),
        (2, 2, None),
    ]
    monkeypatch.delenv("FAKE_LLM_KEY")
    again = tmp_path / "again"
    assert main(["llm", "--replay-from", str(out), "--out", str(again), "--no-progress"]) == 0
    b = result_of(again, "kitchen_alpha")
    assert (b["done"], b["time"], b["steps"], b["plan"]) == (True, 38, 2, plan)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
ATTEMPT_KEYS = (
    "attempt",
    "error",
    "finish_reason",
    "tokens",
    "latency_s",
    "reply",
    "reply_sha256",
    "agent",
    "model",
)


# Drawing a list costs 20-30 ms: 50 drawn ones (every kind of value, in lists and in attempts)
# and, written out, what none of 100 drawn ones reached: a 400-digit count (the overflow of
# 5699a85), counts in range, a reply that is served and one whose hash does not match.
@settings(max_examples=examples(50), deadline=None)  # the same lists every run
@example(
    [
        {
            "attempt": 2,
            "error": {"stage": "engine", "kind": "x"},
            "finish_reason": "length",
            "tokens": {"prompt": 10**400, "completion": -(10**400)},
            "latency_s": 10**400,
            "reply": "a plan",
        }
    ]
)
@example(
    [
        {"attempt": 3, "tokens": {"prompt": 12, "completion": 3.5}, "latency_s": 0.25, "reply": "ok"},
        {"tokens": {"prompt": math.nan, "completion": math.inf}, "latency_s": -1.0, "reply": "x"},
        {"reply": "ok", "reply_sha256": "not its hash"},
        "not an attempt",
        None,
    ]
)
@given(
    st.lists(
        st.one_of(
            JSON_VALUES,
            st.dictionaries(st.sampled_from(ATTEMPT_KEYS), JSON_VALUES, max_size=len(ATTEMPT_KEYS)),
        ),
        max_size=5,
    )
)
def test_any_recorded_attempts_give_counts_in_range_or_a_named_refusal(entries):
    """A hand-edited or hostile `attempts` list never breaks the failure table nor a replay."""
    from game.planners.llm.replayed import ReplayError, reply_of
    from game.report.failures import usage_of_record

    usage = usage_of_record({"attempts": entries})
    for call in usage["calls"]:
        assert isinstance(call["attempt"], int) and call["attempt"] >= 1
        for k in ("prompt", "completion", "latency"):
            assert math.isfinite(call[k]) and call[k] >= 0
    for i, entry in enumerate(e for e in entries if isinstance(e, dict)):
        try:
            reply = reply_of(entry, {}, f"attempts[{i}]")
        except ReplayError as e:
            assert f"attempts[{i}]" in str(e)
        else:
            assert isinstance(reply.text, str) and reply.tokens_in >= 0 and reply.latency_s >= 0


def test_token_and_message_intervals_never_go_below_zero():
    from game.report.metrics import Run, mean_ci, talk_metrics

    runs = [
        Run("m", {"id": f"t{i}", "agents": 1}, True, 10.0, 100.0, 10.0, messages=0.0, tokens=t)
        for i, t in enumerate([0.0, 0.0, 900.0])
    ]
    raw = mean_ci([0.0, 0.0, 900.0])
    assert raw.low < 0  # the plain Student t interval would say "300 [-990.9, 1590.9]"
    tok = talk_metrics(runs)["Tok/agent"]
    assert (tok.value, tok.low, tok.high) == (300.0, 0.0, raw.high)


def test_a_folder_from_an_older_version_is_not_resumed(llm_server, tmp_path, capsys):
    levels = write_levels(tmp_path, LEVELS[:1])
    out = tmp_path / "run"
    out.mkdir()
    old = {"kind": "llm", "model": "test-model", "method": "io", "attempts": 3, "levels": levels}
    (out / "run.json").write_text(json.dumps(old))
    assert main(llm_args(llm_server, out, levels)) == 2
    assert "started by an older version" in capsys.readouterr().err and not llm_server.requests


def test_every_locked_setting_is_compared_and_named():
    from game.planners.llm.settings import LOCKED, differences

    base = {key: f"value-{key}" for key in LOCKED} | {"label": "a", "started": "then", "retries": 6}
    assert differences(base, dict(base)) == []
    assert differences(base, base | {"started": "now", "retries": 2, "label": None}) == []
    for key in LOCKED:
        (line,) = differences(base, base | {key: "other"})
        assert line == f'{key}: "value-{key}" in the folder, "other" now'
    assert differences(base, base | {"label": "b"}) == ['label: "a" in the folder, "b" now']
