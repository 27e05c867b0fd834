"""`main.py run`: both forms, human and JSON output, replays, and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT
from kitchens import kitchen
from test_rules import ROWS, SALAD, STATIONS

from game.replay import load_replay


def main(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args], cwd=cwd, capture_output=True, text=True
    )


def write_level(tmp_path):
    path = tmp_path / "map.json"
    path.write_text(json.dumps(kitchen(ROWS, STATIONS).to_paracook_map()))
    return path


def test_run_prints_summary_and_json_and_saves_replay(tmp_path):
    level = write_level(tmp_path)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"plan": {"agent1": SALAD}}))
    out = main("run", str(level), str(plan), "--orders", "salad/salad_basic")
    assert out.returncode == 0 and out.stdout.startswith("done in 14 (paracook)")
    assert "agent1: 11/11 actions" in out.stdout
    out = main(
        "run",
        str(level),
        str(plan),
        "--orders",
        "salad_basic",
        "--json",
        "--replay",
        str(tmp_path / "r.json"),
    )
    result = json.loads(out.stdout)
    assert result["done"] and result["time"] == 14
    assert load_replay(tmp_path / "r.json").result == result


def test_run_failed_plan_exits_1_with_the_error(tmp_path):
    level = write_level(tmp_path)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"agent1": SALAD[:3]}))
    out = main("run", str(level), str(plan), "--orders", "salad_basic", "--rules", "documented")
    assert out.returncode == 1 and "0/1 orders served" in out.stdout
    assert out.stdout.startswith("NOT DONE: the plan ends at t=4 (documented)")


def test_run_stops_at_an_unreadable_action_after_running_the_ones_before(tmp_path):
    level = write_level(tmp_path)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"agent1": [*SALAD[:3], {"action": "MoveTo", "target": "x"}]}))
    out = main("run", str(level), str(plan), "--orders", "salad_basic", "--json")
    result = json.loads(out.stdout)
    assert out.returncode == 1 and result["time"] == 4 and result["agent_progress"]["agent1"] == "3/4"
    assert result["error_detail"]["kind"] == "invalid_action"
    assert result["error"].startswith("agent1 action 3 (MoveTo): field 'target' must be [x, y]")


def test_run_refuses_bad_inputs_without_traceback(tmp_path):
    level = write_level(tmp_path)
    bad_plan = tmp_path / "bad.json"
    bad_plan.write_text('{"agent1": {"action": "MoveTo", "target": "x"}}')
    out = main("run", str(level), str(bad_plan), "--orders", "salad_basic")
    assert out.returncode == 2 and "agent1: the action queue must be a list" in out.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"agent1": [\n')
    out = main("run", str(level), str(broken), "--orders", "salad_basic")
    assert out.returncode == 2 and "line 2" in out.stderr
    out = main("run", str(level), str(bad_plan))
    assert out.returncode == 2 and "needs the orders" in out.stderr
    out = main("run", str(level), str(bad_plan), "--orders", "pizza")
    assert out.returncode == 2 and "no dish called 'pizza'" in out.stderr
    assert "Traceback" not in out.stderr


def test_batch_keeps_order_and_survives_bad_lines(tmp_path):
    level = write_level(tmp_path)
    cases = tmp_path / "cases.jsonl"
    good = {"level": "map.json", "orders": ["salad_basic"], "plan": {"agent1": SALAD}}
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "plan": {"agent9": []}}),
        json.dumps(
            {
                **good,
                "rules": "documented",
                "plan": {"agent1": SALAD, "agent2": [{"action": "Wait", "duration": 30}]},
            }
        ),
    ]
    cases.write_text("\n".join(lines) + "\n")
    out = main("run", "--batch", str(cases))
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0 and len(rows) == 4 and level.exists()
    assert rows[0]["done"] and rows[0]["time"] == 14
    assert not rows[1]["done"] and f"{cases}:2" in rows[1]["error"]
    assert "agent9" in rows[2]["error"]
    assert rows[3]["done"] and rows[3]["time"] == 14  # documented: OCT is the last serve
