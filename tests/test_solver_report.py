"""`report` puts OCT / lower bound beside nOCT: recorded by the planner, or computed per level."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from statistics import fmean

import pytest
from conftest import HANG_S, ROOT, examples, human_cases, need_paracook
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.levels import load_level
from game.planners.solver import lower_bound
from game.report.files import ResultError, load_runs
from game.report.metrics import report_rows


def report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "report", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_human_results_are_measured_against_the_bound():
    need_paracook()
    cases = human_cases()
    expected = []
    for human, map_file, orders in cases:
        level = load_level(map_file, orders)
        expected.append(json.loads(human.read_text())["time"] / lower_bound(level, "paracook").value)
    runs, _ = load_runs([cases[0][0].parents[3]])
    (row,) = [r for r in report_rows(runs, "difficulty") if r.group == "all"]
    assert row.metrics["OCT/LB"].n == 24
    assert row.metrics["OCT/LB"].value == pytest.approx(fmean(expected))
    assert row.metrics["OCT/LB"].value >= 1  # no human beats the bound


def test_a_recorded_bound_is_used_and_shown_in_every_format(tmp_path):
    level = ROOT / "levels" / "tutorial" / "01_first_salad.yaml"
    base = planner_record(method="solver")
    runs = {"a": (30, True, 20), "b": (24, True, 12), "c": (40, False, 10)}  # three tasks
    for name, (oct_, done, bound) in runs.items():
        task = {**base["task"], "id": f"t-{name}"}
        record = {**base, "task": task, "time": oct_, "done": done, "lower_bound": bound}
        (tmp_path / f"{name}.json").write_text(json.dumps(record))
    md = report(str(tmp_path))
    assert md.returncode == 0, md.stderr
    assert "OCT/LB (x bound)" in md.stdout
    assert "1.75" in md.stdout  # mean of 30/20 and 24/12; the failure is left out
    csv = report(str(tmp_path), "--format", "csv").stdout.splitlines()
    header = csv[0].split(",")
    assert "OCT/LB" in header and "OCT/LB_n" in header
    rows = json.loads(report(str(tmp_path), "--format", "json").stdout)
    assert rows[-1]["metrics"]["OCT/LB"]["value"] == 1.75 and rows[-1]["metrics"]["OCT/LB"]["n"] == 2
    # without a recorded bound and no level to compute one, the column stays empty
    (tmp_path / "d.json").write_text(json.dumps({**base, "time": 50, "level": str(level), "method": "x"}))
    (tmp_path / "e.json").write_text(json.dumps({**base, "time": 50, "method": "y"}))
    rows = {r["run"]: r for r in json.loads(report(str(tmp_path), "--format", "json").stdout)}
    named = lower_bound(load_level(level)).value
    assert rows["x"]["metrics"]["OCT/LB"]["value"] == pytest.approx(50 / named, abs=1e-4)
    assert rows["y"]["metrics"]["OCT/LB"]["value"] is None


def test_the_result_card_and_the_replay_viewer_show_the_bound(tmp_path, monkeypatch):
    import pygame
    from test_play import Driver, serve_first_salad, tutorial

    from game.engine import parse_plan
    from game.planners.solver import solve
    from game.replay import load_replay, save_replay
    from game.ui import store
    from game.ui.screens.play import PlayScreen
    from game.ui.screens.replay import ReplayScreen

    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    level = tutorial(1)
    bound = lower_bound(level).value
    d = Driver(lambda: PlayScreen(level, size=(1440, 900)))
    serve_first_salad(d)
    rows = dict(d.screen.card.rows)
    oct_ = d.screen.editor.result.time
    assert rows["Lower bound"].startswith(f"{bound}   ") and f"{oct_ / bound:.2f}" in rows["Lower bound"]
    # the viewer: a human replay gets the bound computed, a planner replay shows its own
    human = ReplayScreen(load_replay(d.screen.card.replay))
    assert human.bound_job is not None  # worked out in the background, not on the window's thread
    rects = dict(human.rects)
    human.bound_job.join(timeout=30)
    human.update(0.016)
    assert human.bound_job is None and human.metrics.result["lower_bound"] == bound
    # its line was kept free: nothing moves under the pointer when it comes
    assert human.rects == rects
    sol = solve(level, time_limit=0.1, record=True)
    path = save_replay(
        tmp_path / "solver.json",
        level,
        parse_plan(sol.plan, level.agent_names),
        sol.result,
        {"kind": "solver", "lower_bound": 3},
    )
    planner = ReplayScreen(load_replay(path))
    assert planner.metrics.result["lower_bound"] == 3 and planner.bound_job is None
    surface = pygame.Surface((420, 400))
    before = pygame.image.tobytes(surface, "RGB")
    planner.metrics.draw(surface, surface.get_rect())
    assert pygame.image.tobytes(surface, "RGB") != before


def planner_record(**fields) -> dict:
    """A served one-agent result of a salad task, with the fields given."""
    return {
        "done": True,
        "agent_moving_time": {"agent1": 6},
        "agent_all_execution_time": {"agent1": 20},
        "agent_waiting_time": {"agent1": 0},
        "task": {"id": "t1", "category": "salad", "difficulty": "easy", "agents": 1, "orders": 1},
        "t_max": 80,
        "d_max": 60,
        **fields,
    }


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@example(value=float("inf"))
@example(value=float("nan"))
@example(value=True)
@example(value=30)
@example(value=31)
@given(
    value=st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 100),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
        st.lists(st.integers(), max_size=2),
    )
)
def test_any_recorded_bound_is_used_only_when_it_is_a_positive_number_at_most_the_oct(tmp_path, value):
    record = planner_record(time=30, lower_bound=value)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    if isinstance(value, float) and not math.isfinite(value):  # NaN/Infinity are not JSON: refused
        with pytest.raises(
            ResultError, match=r"r\.json: not usable JSON \((NaN|-?Infinity) is not a JSON number\)"
        ):
            load_runs([path])
        return
    usable = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < float("inf")
    if usable and value > 30:  # above the served OCT: no bound, and no figure of either field
        with pytest.raises(ResultError, match=r"r\.json: field 'lower_bound' is .+, above the served OCT 30"):
            load_runs([path])
        return
    (run,), _ = load_runs([path])
    assert run.bound == (float(value) if usable else None)
    (row,) = [r for r in report_rows([run]) if r.group == "all"]
    assert row.metrics["OCT/LB"].n == (1 if usable else 0)


def test_a_table_that_shows_no_bound_never_works_one_out(tmp_path, monkeypatch, capsys):
    """The paper's layout and the failure tables show no OCT/LB: a folder of runs without a
    recorded bound is reported at once, not after a linear program per kitchen."""
    from game.cli import main
    from game.planners.solver import bound

    asked = []
    monkeypatch.setattr(bound, "known_bound", lambda level, rules=None: asked.append(rules) or 10)
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", f"{tmp_path}-data")  # no bound kept by another test
    level = ROOT / "levels" / "tutorial" / "01_first_salad.yaml"
    for k, difficulty in enumerate(("easy", "medium", "hard")):
        task = {"id": f"t{k}", "category": "salad", "difficulty": difficulty, "agents": 1, "orders": 1}
        record = {"done": True, "time": 20 + k, "task": task, "t_max": 80, "d_max": 60, "level": str(level)}
        record |= {f"agent_{m}_time": {"agent1": 5} for m in ("moving", "all_execution", "waiting")}
        record["attempts"] = [{"attempt": 1, "tokens": {"prompt": 900, "completion": 90}, "latency_s": 2}]
        (tmp_path / f"r{k}.json").write_text(json.dumps({**record, "rules": "paracook"}))
    assert main(["report", str(tmp_path), "--layout", "paper", "--metrics", "SR,pOCT,AU"]) == 0
    assert main(["report", str(tmp_path), "--failures"]) == 0
    out = capsys.readouterr().out
    assert "| 3 | 100.00 [43.85, 100.00] |" in out  # three tasks, all served at the first try
    assert "OCT/LB" not in out and asked == []
    assert main(["report", str(tmp_path), "--layout", "paper", "--metrics", "OCT/LB"]) == 0
    # 2.0, 2.1 and 2.2: mean 2.1, Student t with 2 degrees of freedom, 4.303 x 0.1 / sqrt(3)
    # the three runs share one kitchen: its bound is worked out once and kept for the others
    assert "| 2.10 [1.85, 2.35] |" in capsys.readouterr().out and asked == ["paracook"]
    asked.clear()
    assert main(["report", str(tmp_path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[-1]["metrics"]["OCT/LB"] == {"value": 2.1, "low": 1.8516, "high": 2.3484, "n": 3}
    assert asked == []  # kept in the data folder by the report before, whichever rows it lies in


def test_failure_tables_of_results_without_llm_calls_say_so_instead_of_empty_tables(tmp_path, capsys):
    from game.cli import main

    task = {"id": "t0", "category": "salad", "difficulty": "easy", "agents": 1, "orders": 1}
    record = {"done": True, "time": 20, "task": task, "t_max": 80, "d_max": 60, "rules": "paracook"}
    for k in range(2):  # a human's and a planner's result: no calls recorded
        (tmp_path / f"r{k}.json").write_text(json.dumps({**record, "label": f"who{k}"}))
    for fmt in ("md", "json", "csv"):
        assert main(["report", str(tmp_path), "--failures", "--format", fmt]) == 2
        out, err = capsys.readouterr()
        assert out == "" and "none of the 2 result(s) records its LLM calls" in err


def test_a_recorded_bound_above_the_served_oct_is_named_and_never_shown(tmp_path):
    record = planner_record(time=20, lower_bound=25)
    (tmp_path / "r.json").write_text(json.dumps(record))
    out = report(str(tmp_path))
    assert out.returncode == 2 and out.stdout == ""
    assert "r.json: field 'lower_bound' is 25, above the served OCT 20 in field 'time'" in out.stderr
    assert "Traceback" not in out.stderr
    # a failed run's time is not an OCT: its bound stands
    (tmp_path / "r.json").write_text(json.dumps({**record, "done": False}))
    (run,), _ = load_runs([tmp_path / "r.json"])
    assert run.bound == 25


def test_the_replay_viewer_works_out_a_bound_recorded_above_the_runs_oct(tmp_path):
    from test_play import tutorial

    from game.engine import parse_plan
    from game.planners.solver import solve
    from game.replay import load_replay, save_replay
    from game.ui.screens.replay import ReplayScreen

    level = tutorial(1)
    sol = solve(level, time_limit=0.1, record=True)
    damaged = sol.result.time + 1
    path = save_replay(
        tmp_path / "solver.json",
        level,
        parse_plan(sol.plan, level.agent_names),
        sol.result,
        {"kind": "solver", "lower_bound": damaged},
    )
    viewer = ReplayScreen(load_replay(path))
    assert viewer.metrics.result["lower_bound"] is None and viewer.bound_job is not None
    viewer.bound_job.join(timeout=HANG_S)
    viewer.update(0.016)
    assert viewer.metrics.result["lower_bound"] == lower_bound(level).value <= sol.result.time
