"""`python main.py solve`: one level, the bound alone, and a whole suite that `report` reads.

One command runs `main.py` as a user does; the others call the same `game.cli.main` in this process
(a new interpreter costs a second of imports, and here the level's bound is worked out once for
every test that asks it)."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from types import SimpleNamespace

from conftest import ROOT, need_paracook

from game.cli import main
from game.replay import load_replay


def solve_cli(*args: str) -> SimpleNamespace:
    return command("solve", *args)


def command(*argv: str) -> SimpleNamespace:
    """`main.py ARGV` in this process: its exit code and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as e:  # argparse's own errors
            code = e.code
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def without_seconds(path) -> dict:
    """A saved result but its one wall-clock field."""
    rec = json.loads(path.read_text())
    assert rec.pop("seconds") >= 0
    return rec


def burger_map() -> str:
    return str(need_paracook() / "maps" / "burger" / "seed_42" / "agent_num_2.json")


def test_solve_writes_a_plan_the_run_command_accepts(tmp_path):
    plan, replay = tmp_path / "plan.json", tmp_path / "replay.json"
    out = solve_cli(
        burger_map(),
        "--orders",
        "burger_cheese",
        "burger_basic",
        "--time-limit",
        "0.3",
        "--out",
        str(plan),
        "--replay",
        str(replay),
        "--json",
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["done"] and got["time"] == got["oct"] and got["lower_bound"] <= got["oct"]
    assert got["gap"] == round(got["oct"] / got["lower_bound"] - 1, 4)
    run = command("run", burger_map(), str(plan), "--orders", "burger_cheese", "burger_basic", "--json")
    assert run.returncode == 0 and json.loads(run.stdout)["time"] == got["oct"]
    rp = load_replay(replay)
    assert rp.result["done"] and rp.source["kind"] == "solver"


def test_solve_prints_oct_bound_and_gap():
    out = solve_cli(burger_map(), "--orders", "burger_cheese", "--time-limit", "0.2", "--rules", "documented")
    assert out.returncode == 0, out.stderr
    assert "(documented), 1/1 orders served" in out.stdout
    assert "lower bound" in out.stdout and "gap" in out.stdout


def test_bound_only():
    # the rule set of the test above: the routes relaxation (kept per rule set) is worked out once
    out = solve_cli(burger_map(), "--orders", "burger_cheese", "--rules", "documented", "--bound", "--json")
    assert out.returncode == 0
    bound = json.loads(out.stdout)
    assert bound["lower_bound"] == max(bound["terms"].values()) > 0


def test_bad_input_is_a_message_not_a_traceback(tmp_path):
    missing = subprocess.run(  # `main.py` itself, as a user runs it: the message and its exit code
        [
            sys.executable,
            str(ROOT / "main.py"),
            "solve",
            str(tmp_path / "nope.json"),
            "--orders",
            "salad_basic",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "nope.json" in missing.stderr
    assert "Traceback" not in missing.stderr
    no_out = solve_cli("--suite", "tutorial")
    assert no_out.returncode == 2 and "--out" in no_out.stderr
    unknown = solve_cli(burger_map(), "--orders", "no_such_dish")
    assert unknown.returncode == 2 and "no_such_dish" in unknown.stderr


def test_unsolvable_level_exits_1_and_says_why():
    # a sashimi map has no stove, so a burger cannot be made there
    sashimi = str(need_paracook() / "maps" / "sashimi" / "seed_42" / "agent_num_1.json")
    out = solve_cli(sashimi, "--orders", "burger_basic", "--time-limit", "0.1")
    assert out.returncode == 1
    assert "no plan found" in out.stdout and "unsolvable" in out.stdout


def test_suite_run_is_saved_resumable_and_reported(tmp_path):
    runs = tmp_path / "runs" / "tut"
    first = solve_cli("--suite", "tutorial", "--out", str(runs), "--time-limit", "0.1", "--no-progress")
    assert first.returncode == 0, first.stdout + first.stderr
    results = sorted((runs / "results").glob("*.json"))
    assert len(results) == 5 and len(list((runs / "replays").glob("*.json"))) == 5
    for f in results:
        rec = json.loads(f.read_text())
        assert rec["done"] and rec["task"]["id"] and rec["plan"] and rec["method"] == "solver"
        assert rec["lower_bound"] <= rec["time"]
        assert load_replay(runs / rec["replay"]).result["time"] == rec["time"]
    assert "5/5 levels solved" in first.stdout
    before = {f: f.stat().st_mtime_ns for f in results}
    again = solve_cli("--suite", "tutorial", "--out", str(runs), "--time-limit", "0.1", "--no-progress")
    assert again.returncode == 0
    assert {f: f.stat().st_mtime_ns for f in results} == before  # nothing solved twice
    # a result damaged since (cut short, another encoding, fields gone) is solved again on resume
    whole = without_seconds(results[0])
    for damaged in (
        b"\xff\xfe{",
        b'{"done": true}',
        b'{"done": true, "time": "13"}',
        b"[1]",
        b'{"done": 1e999',
    ):
        results[0].write_bytes(damaged)
        resumed = solve_cli("--suite", "tutorial", "--out", str(runs), "--time-limit", "0.1", "--no-progress")
        assert resumed.returncode == 0 and "5/5 levels solved" in resumed.stdout, resumed.stderr
        assert without_seconds(results[0]) == whole  # the same plan and bound again
    clash = solve_cli("--suite", "tutorial", "--out", str(runs), "--time-limit", "0.2")
    assert clash.returncode == 2 and "time_limit" in clash.stderr
    report = command("report", str(runs))
    assert report.returncode == 0, report.stderr
    assert "solver" in report.stdout
