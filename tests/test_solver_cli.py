"""`python main.py solve`: one level, the bound alone, and a whole suite that `report` reads."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, need_paracook

from game.replay import load_replay


def solve_cli(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "solve", *args], cwd=cwd, capture_output=True, text=True
    )


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
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "run",
            burger_map(),
            str(plan),
            "--orders",
            "burger_cheese",
            "burger_basic",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and json.loads(run.stdout)["time"] == got["oct"]
    rp = load_replay(replay)
    assert rp.result["done"] and rp.source["kind"] == "solver"


def test_solve_prints_oct_bound_and_gap():
    out = solve_cli(burger_map(), "--orders", "burger_cheese", "--time-limit", "0.2", "--rules", "documented")
    assert out.returncode == 0, out.stderr
    assert "(documented), 1/1 orders served" in out.stdout
    assert "lower bound" in out.stdout and "gap" in out.stdout


def test_bound_only():
    out = solve_cli(burger_map(), "--orders", "burger_cheese", "--bound", "--json")
    assert out.returncode == 0
    bound = json.loads(out.stdout)
    assert bound["lower_bound"] == max(bound["terms"].values()) > 0


def test_bad_input_is_a_message_not_a_traceback(tmp_path):
    missing = solve_cli(str(tmp_path / "nope.json"), "--orders", "salad_basic")
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
    clash = solve_cli("--suite", "tutorial", "--out", str(runs), "--time-limit", "0.2")
    assert clash.returncode == 2 and "time_limit" in clash.stderr
    report = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "report", str(runs)], capture_output=True, text=True
    )
    assert report.returncode == 0, report.stderr
    assert "solver" in report.stdout
