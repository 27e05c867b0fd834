"""`solve LEVEL --fix AGENT=PLAN.json`: every file form, and bad input named in one line."""

from __future__ import annotations

import json

import pytest
from kitchens import kitchen
from test_solver import PASS_ROWS, STATIONS

from game.cli import main
from game.planners.solver import solve

LIMIT = "0.5"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fix")
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    path = folder / "map.json"
    path.write_text(json.dumps(level.to_paracook_map()))
    plan = solve(level, time_limit=0.3).plan
    return folder, str(path), plan


def run(capsys, *args: str) -> tuple[int, str, str]:
    if args and args[0].endswith("map.json"):
        args = (args[0], "--orders", "salad_basic", *args[1:])
    code = main(["solve", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("form", ["plan", "result", "queue"])
def test_each_file_form_fixes_the_agents_queue(setup, capsys, form):
    folder, level, plan = setup
    data = {"plan": plan} if form == "plan" else plan
    if form == "result":
        data = {"done": True, "time": 8, "plan": plan}
    if form == "queue":
        data = plan["agent2"]
    f = folder / f"{form}.json"
    f.write_text(json.dumps(data))
    code, out, err = run(capsys, level, "--fix", f"agent2={f}", "--time-limit", LIMIT, "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["done"] and got["plan"]["agent2"] == plan["agent2"]
    assert got["time"] >= got["lower_bound"]


def test_the_bound_alone_is_the_constrained_one(setup, capsys):
    folder, level, plan = setup
    f = folder / "late.json"
    f.write_text(json.dumps(plan["agent1"] + [{"action": "Wait", "duration": 30}]))
    code, out, _ = run(capsys, level, "--fix", f"agent1={f}", "--bound", "--json")
    assert code == 0 and json.loads(out)["lower_bound"] == 36  # agent1's queue ends at 6 + 30


@pytest.mark.parametrize(
    ("spec", "content", "words"),
    [
        ("agent7={f}", "[]", "no such agent in this level (agents: agent1, agent2)"),
        ("agent1={f}", '{"plan": [', "line 1, column 11: not valid JSON"),
        ("agent1={f}", '{"agent2": []}', "no queue for agent1 in this plan (agents in it: 'agent2')"),
        ("agent1={f}", '"MoveTo"', "the queue for agent1 must be a list of actions"),
        ("agent1={f}", '[{"action": "Fly"}]', "fixed queue for agent1, action 0: field 'action'"),
        ("agent1={f}", "[" * 5000 + "]" * 5000, "nested"),
        ("agent1={f}", "[" + "1" * 5000 + "]", "not usable JSON"),
        ("agent1", "[]", "expected AGENT=PLAN.json"),
        ("agent1={f}", b"\xff\xfe[]", "not UTF-8"),
    ],
)
def test_bad_fix_input_is_named_in_one_line(setup, capsys, spec, content, words):
    folder, level, _ = setup
    f = folder / "bad.json"
    f.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run(capsys, level, "--fix", spec.format(f=f), "--time-limit", LIMIT)
    assert code == 2
    last = err.strip().splitlines()[-1]
    assert words in last and last.startswith("error:") and "Traceback" not in err


def test_a_huge_plan_file_is_refused_before_it_is_read(setup, capsys):
    folder, level, _ = setup
    f = folder / "huge.json"
    with f.open("wb") as out:
        out.truncate(9 * 1024 * 1024)  # sparse: cheap to make
    code, _, err = run(capsys, level, "--fix", f"agent1={f}")
    assert code == 2 and "larger than the limit" in err


def test_an_impossible_fixed_queue_is_said_in_words(setup, capsys):
    folder, level, _ = setup
    f = folder / "early.json"
    f.write_text(
        json.dumps(
            [{"action": "MoveTo", "target": [7, 2]}, {"action": "Interact", "target": "serving_window"}]
        )
    )
    code, _, err = run(capsys, level, "--fix", f"agent2={f}", "--time-limit", LIMIT)
    assert code == 1
    assert "order 1 (salad_basic) cannot be served in time" in err and "Traceback" not in err


def test_fix_twice_for_one_agent_or_with_a_suite_or_exact_is_refused(setup, capsys):
    folder, level, plan = setup
    f = folder / "ok.json"
    f.write_text(json.dumps(plan))
    code, _, err = run(capsys, level, "--fix", f"agent1={f}", "--fix", f"agent1={f}")
    assert code == 2 and "agent1 is fixed twice" in err
    code, _, err = run(capsys, "--suite", "x", "--out", str(folder / "o"), "--fix", f"agent1={f}")
    assert code == 2 and "--fix cannot be used with --suite" in err
    code, _, err = run(capsys, level, "--exact", "--fix", f"agent1={f}")
    assert code == 2 and "--fix cannot be used with --exact" in err


def test_a_plan_made_around_fixed_queues_says_so_in_its_json_replay_and_report_label(setup, capsys):
    from game.report.files import label_of

    folder, level, plan = setup
    f = folder / "queue2.json"
    f.write_text(json.dumps(plan["agent2"]))
    replay = folder / "around.json"
    args = (level, "--fix", f"agent2={f}", "--time-limit", LIMIT)
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["fixed_agents"] == ["agent2"] and got["fixed"] == {"agent2": plan["agent2"]}
    code, _, err = run(capsys, *args, "--replay", str(replay))
    assert code == 0, err
    data = json.loads(replay.read_text())
    assert data["source"]["fixed_agents"] == ["agent2"]
    assert data["source"]["fixed"] == {"agent2": plan["agent2"]}
    assert label_of(data, replay).endswith("(agent2 fixed)")
    code, out, _ = run(capsys, level, "--time-limit", LIMIT, "--json")  # none fixed: none said
    assert code == 0 and "fixed_agents" not in json.loads(out)
