"""Abstract scheduling tasks: the checker, the CP-SAT optimum on tasks solved by hand, scores,
and the `abstract` command against a local chat-completions server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import need_paracook
from test_llm_runner import SECRET, FakeLLM

from game.cli import main
from game.planners.abstract import (
    AbstractError,
    Violation,
    check,
    find_task_files,
    load_task,
    optimum,
    parse_task,
    scores,
)


def task(spec: list[tuple], agents: int = 2):
    """(name, time, {dep: delay}) triples as a task."""
    return parse_task([{"name": n, "time": t, "dependencies": d} for n, t, d in spec], "hand", agents)


# Two independent jobs of 3 and one of 2: some agent does two jobs, and any two sum to >= 5.
THREE_JOBS = [("a", 3, {}), ("b", 3, {}), ("c", 2, {})]
# a (2) then b (3) at least 10 after a ends; c (10) fits into the delay: critical path 15.
DELAYED = [("a", 2, {}), ("b", 3, {"a": 10}), ("c", 10, {})]
# A diamond: a, then b and c (4 each, after a), then d after both: 1 + 4 + 1 with two agents.
DIAMOND = [("a", 1, {}), ("b", 4, {"a": 0}), ("c", 4, {"a": 0}), ("d", 1, {"b": 0, "c": 0})]


@pytest.mark.parametrize(
    "spec, agents, best",
    [
        (THREE_JOBS, 1, 8),
        (THREE_JOBS, 2, 5),
        (THREE_JOBS, 3, 3),
        (DELAYED, 1, 15),
        (DELAYED, 2, 15),
        (DIAMOND, 1, 10),
        (DIAMOND, 2, 6),
        (DIAMOND, 3, 6),
    ],
)
def test_cp_sat_finds_the_optimum_proved_by_hand(spec, agents, best):
    t = task(spec, agents)
    opt = optimum(t, time_limit_s=5)
    assert opt.makespan == best and opt.proven
    assert check(t, opt.answer).makespan == best  # the solver's own answer passes the checker
    assert t.upper_bound() >= best


def test_the_checker_schedules_each_subtask_as_early_as_allowed():
    t = task(DELAYED, 1)
    s = check(t, {"agent1": ["a", "c", "b"]})
    assert (s.start, s.end, s.makespan) == ({"a": 0, "c": 2, "b": 12}, {"a": 2, "c": 12, "b": 15}, 15)
    s = check(t, {"agent1": ["a", "b", "c"]})  # b waits out the delay idle, c comes after
    assert s.start["b"] == 12 and s.makespan == 25
    two = task(DIAMOND, 2)
    s = check(two, {"agent1": ["a", "b", "d"], "agent2": [{"name": "c"}]})
    assert s.start == {"a": 0, "b": 1, "c": 1, "d": 5} and s.agent_of["c"] == "agent2"


@pytest.mark.parametrize(
    "answer, words",
    [
        ({"agent1": ["a", "b", "c", "d"], "agent3": []}, "'agent3' is not an agent"),
        ({"agent1": ["a", "b", "x"], "agent2": ["c", "d"]}, "agent1 position 2: 'x' is not a subtask"),
        (
            {"agent1": ["a", "b", "d"], "agent2": ["c", "b"]},
            "agent2 position 1: b is already given to agent1",
        ),
        ({"agent1": ["a", "b"], "agent2": ["c"]}, "given to no agent: d"),
        (
            {"agent1": ["d", "a"], "agent2": ["b", "c"]},
            "deadlocks: agent1 position 0 \\(d\\) needs b, which agent2 only reaches at position 0; "
            "agent2 position 0 \\(b\\) needs a, which agent1 only reaches at position 1",
        ),
        (["a", "b"], "must be an object"),
        ({"agent1": [1, 2]}, "agent1 position 0: expected a subtask name"),
    ],
)
def test_violations_name_agent_position_and_reason(answer, words):
    with pytest.raises(Violation, match=words):
        check(task(DIAMOND, 2), answer)


def test_bad_task_files_are_refused_with_the_entry(tmp_path):
    with pytest.raises(AbstractError, match=r"subtask \[1\] \(b\): 'time'"):
        parse_task([{"name": "a", "time": 1}, {"name": "b", "time": -2}], "t")
    with pytest.raises(AbstractError, match="depends on 'zz'"):
        parse_task([{"name": "a", "time": 1, "dependencies": {"zz": 0}}], "t")
    with pytest.raises(AbstractError, match="cycle: a -> b -> a"):
        parse_task(
            [
                {"name": "a", "time": 1, "dependencies": {"b": 0}},
                {"name": "b", "time": 1, "dependencies": {"a": 0}},
            ],
            "t",
        )
    bad = tmp_path / "orders_num_1.json"
    bad.write_text("[{")
    with pytest.raises(AbstractError, match="orders_num_1.json: line 1"):
        load_task(bad)
    with pytest.raises(AbstractError, match="no such file"):
        find_task_files([str(tmp_path / "nope")])


def test_scores_count_failures_at_their_upper_bound():
    recs = [
        {"valid": True, "makespan": 12, "optimum": 10, "t_max": 40},
        {"valid": True, "makespan": 10, "optimum": 10, "t_max": 40},
        {"valid": False, "makespan": None, "optimum": 20, "t_max": 50},
    ]
    s = scores(recs)
    assert s["sr"] == pytest.approx(200 / 3)
    assert s["poct"] == pytest.approx((12 + 10 + 50) / 3)
    assert s["noct"] == pytest.approx(110)
    assert s["opt"] == pytest.approx(40 / 3)


def test_benchmark_tasks_load_and_their_optimum_beats_the_bound():
    root = need_paracook()
    t = load_task(root / "abstract" / "salad" / "seed_42" / "orders_num_2.json", 2)
    assert t.id == "salad/seed_42/orders_num_2" and t.info()["difficulty"] == "easy"
    opt = optimum(t, time_limit_s=5)
    assert opt.proven and check(t, opt.answer).makespan == opt.makespan < t.upper_bound()
    assert len(find_task_files([str(root / "abstract" / "salad" / "seed_42")])) == 4


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("FAKE_LLM_KEY", SECRET)
    fake = FakeLLM()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def write_task(folder: Path, name: str, spec: list[tuple]) -> Path:
    path = folder / "diamond" / "seed_1" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([{"name": n, "time": t, "dependencies": d} for n, t, d in spec]))
    return path


def test_the_abstract_command_scores_answers_against_the_optimum(server, tmp_path, capsys):
    diamond = write_task(tmp_path, "orders_num_1", DIAMOND)
    write_task(tmp_path, "orders_num_2", [("a", 3, {}), ("b", 3, {}), ("c", 2, {}), ("marker_jobs", 0, {})])
    best = {"agent1": ["a", "b", "d"], "agent2": ["c"]}
    server.script(
        '"d", "time": 1',
        ("reply", "```json\n" + json.dumps({"agent1": ["d"]}) + "\n```"),
        ("reply", f"Thinking...\n```json\n{json.dumps(best)}\n```"),
    )
    server.script("marker_jobs", ("reply", '{"agent1": ["a", "b", "c", "marker_jobs"], "agent2": []}'))
    out = tmp_path / "run"
    args = [
        "abstract",
        str(tmp_path / "diamond"),
        "--model",
        "m1",
        "--base-url",
        server.url,
        "--api-key-env",
        "FAKE_LLM_KEY",
        "--out",
        str(out),
        "--no-progress",
        "--time-limit",
        "5",
        "--backoff",
        "0.01",
    ]
    assert main(args) == 0
    r1 = json.loads((out / "abstract" / "diamond__seed_1__orders_num_1.json").read_text())
    assert (r1["valid"], r1["makespan"], r1["optimum"], r1["optimum_proven"], r1["attempts"]) == (
        True,
        6,
        6,
        True,
        2,
    )
    feedback = server.of('"d", "time": 1')[1]["messages"][-1]["content"]
    assert "given to no agent: a, b, c" in feedback
    r2 = json.loads((out / "abstract" / "diamond__seed_1__orders_num_2.json").read_text())
    assert (r2["valid"], r2["makespan"], r2["optimum"]) == (True, 8, 5)
    text = capsys.readouterr().out
    all_row = next(line for line in text.splitlines() if line.startswith("All"))
    assert all_row.split() == ["All", "2", "100.0", "7.00", "130.0", "5.50"]
    assert main(args) == 0  # resumes: nothing asked again
    assert len(server.requests) == 3
    assert SECRET not in (out / "log.jsonl").read_text()
    capsys.readouterr()
    assert main(["abstract", "--optimum", str(diamond), "--agents", "3"]) == 0
    head, first, *_, note = capsys.readouterr().out.splitlines()
    assert head.split() == ["task", "agents", "optimum", "upper", "bound"]  # never a bare "bound" above it
    assert first.split() == ["diamond/seed_1/orders_num_1", "3", "6", "10"]
    assert note.startswith("upper bound: one agent doing every subtask in file order")
