"""A study's records and its paper table: level statuses from real sessions (a participant who
stops early), the report's counts, means and intervals checked by hand, the process columns,
the plot, and a session read while it is still open."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.report.metrics import Estimate, Run, bounded
from game.report.study import run_rows, study_summary
from game.study.persist import SessionStore, new_session
from game.ui import store
from game.ui.screens.study import StudyIntroScreen, StudyLevelScreen, open_session
from tests.test_study import Driver, serve_first_salad

FIVE = sorted(Path("levels/tutorial").glob("*.yaml"))[:5]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


def stop_after_first_level(root: Path, who: str, serve: bool) -> SessionStore:
    """A participant opens the first of five levels, edits it, and closes the window."""
    session_store = new_session(root, who, FIVE, "fixed")
    d = Driver(StudyIntroScreen(session_store, None, (1440, 900)))
    d.press("begin")
    assert isinstance(d.screen, StudyLevelScreen)
    if serve:
        serve_first_salad(d)
    else:
        d.station("dispenser1")
    d.step(5, dt=1.0)
    d.post(pygame.QUIT)
    d.step()
    return session_store


def test_a_session_stopped_after_its_first_level_exports_one_abandoned_and_four_not_attempted(
    tmp_path, capsys
):
    session_store = stop_after_first_level(tmp_path / "studies", "p1", serve=True)
    out = tmp_path / "export"
    assert main(["study", "export", str(session_store.folder), "--out", str(out)]) == 0
    levels = json.loads((out / "study.json").read_text())["levels"]
    assert [e["status"] for e in levels] == ["abandoned"] + ["not_attempted"] * 4
    assert levels[0]["done"] is False  # its plan serves, but was never submitted
    assert len(list((out / "replays").rglob("*.json"))) == 1  # nothing to score for the other four
    capsys.readouterr()
    # the report counts one run, a failure, and names the four left out
    assert main(["report", str(out), "--study"]) == 0
    text = capsys.readouterr().out
    assert "| difficulty | all | 1 | 0.00 | 1 | 0/0/1 |" in text
    assert "4 level(s) (p1: 4)" in text
    assert "| p1 | tutorial/01_first_salad (tutorial) | abandoned |" in text


def test_report_reads_an_unfinished_session_folder(tmp_path, capsys):
    session_store = stop_after_first_level(tmp_path / "studies", "p2", serve=False)
    assert not SessionStore.open(session_store.folder).session.finished
    assert main(["report", str(session_store.folder), "--study", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in data["runs"]] == ["abandoned"]
    assert data["runs"][0]["planning_s"] == pytest.approx(5 + 1 / 60 * 3, abs=0.2)
    assert len(data["not_attempted"]) == 4
    assert not (session_store.folder / "export").exists()  # reading it wrote nothing there


def test_resuming_keeps_the_undo_history_and_a_submit_is_no_close(tmp_path):
    session_store = new_session(tmp_path / "studies", "p3", FIVE[:2], "fixed")
    d = Driver(StudyIntroScreen(session_store, None, (1440, 900)))
    d.press("begin")
    d.station("dispenser1")
    after_first = d.screen.play.editor.action_count
    d.station("chopping_board1")
    d.post(pygame.QUIT)
    d.step()
    d = Driver(open_session(session_store.folder, None, (1440, 900)))
    d.press("resume")
    play = d.screen.play
    assert play.editor.action_count > after_first and play.editor.can_undo
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert play.editor.action_count == after_first  # the last edit before the close, undone
    d.toolbar("back")
    d.press("submit")
    d.press("submit")  # confirm a plan that does not serve
    assert isinstance(d.screen, StudyLevelScreen) and d.screen.record.task_id != "tutorial/01_first_salad"
    events = [json.loads(x)["event"] for x in (session_store.folder / "log.jsonl").read_text().splitlines()]
    assert events.count("close") == 1  # only the real one, not at the level change
    assert events[-2:] == ["submit", "open"]


def _run(who: str, task: str, time: float, status: str, bound: float = 20, **study) -> Run:
    done = status == "served"
    return Run(
        who,
        {"id": task, "difficulty": "hard" if task == "b" else "easy", "agents": 1},
        done,
        time,
        t_max=100,
        d_max=80,
        moving={"a1": 10},
        execution={"a1": time},
        waiting={"a1": 0},
        recorded_bound=bound,
        digest=task,
        study={"status": status, **study},
    )


RUNS = [
    _run("p1", "a", 40, "served", planning_s=60, edits=10),
    _run("p1", "b", 90, "failed", planning_s=200, edits=30),
    _run("p2", "a", 50, "served", planning_s=120, edits=20),
    _run("p2", "b", 70, "abandoned", planning_s=100, edits=4),
]


def test_the_summary_matches_hand_computed_figures():
    rows = {(r.by, r.group): r for r in study_summary(RUNS, {"a": 47.0})}
    a = rows[("level", "a")]
    assert a.metrics["SR"].value == 100 and a.statuses == {"served": 2, "failed": 0, "abandoned": 0}
    assert (a.oct.value, a.oct_best) == (45, 40) and a.oct_spread == pytest.approx(math.sqrt(50))
    # t(0.975, 1) = 12.706: 45 -/+ 12.706 * 7.071 / sqrt(2) = 45 -/+ 63.53, clipped at 0
    assert a.oct.low == 0 and a.oct.high == pytest.approx(45 + 63.53, abs=0.01)
    # OCT/LB: 2.0 and 2.5, mean 2.25; the interval stops at 1 (no plan beats its bound)
    assert a.metrics["OCT/LB"].value == 2.25 and a.metrics["OCT/LB"].low == 1.0
    assert a.human == 47.0 and a.process["planning_s"].value == 90 and a.process["edits"].value == 15
    b = rows[("level", "b")]
    assert b.metrics["SR"].value == 0 and b.statuses == {"served": 0, "failed": 1, "abandoned": 1}
    assert math.isnan(b.oct.value) and b.metrics["pOCT"].value == 100  # both failures count T_max
    p1 = rows[("participant", "p1")]  # one sample per level
    assert p1.metrics["SR"].value == 50 and p1.metrics["pOCT"].value == 70 and p1.oct.value == 40
    assert p1.process["planning_s"].value == 130 and p1.metrics["SR"].low == 0
    everyone = rows[("difficulty", "all")]  # one sample per participant: (40+100)/2 and (50+100)/2
    assert everyone.metrics["pOCT"].value == pytest.approx(72.5) and everyone.tasks == 2
    assert everyone.runs == 4 and everyone.human == 47 and everyone.human_tasks == 1
    assert everyone.process["edits"].value == pytest.approx((20 + 12) / 2)
    for row in rows.values():  # no interval leaves its metric's range
        for name, e in row.metrics.items():
            if not math.isnan(e.low):
                assert e.low >= (1.0 if name == "OCT/LB" else 0.0)
                assert e.high <= 100 or name not in ("SR", "AU")


def test_an_interval_never_leaves_its_range():
    assert bounded(Estimate(1.39, -3.62, 6.41, 3), "OCT/LB", 3).low == 1.0
    assert bounded(Estimate(95, 80, 110, 3), "SR", 3).high == 100


def test_per_run_rows_keep_status_and_process():
    rows = run_rows(RUNS, {"a": 47.0})
    first = rows[0]
    assert (first["participant"], first["status"], first["OCT"], first["OCT/LB"]) == ("p1", "served", 40, 2.0)
    assert first["human_time"] == 47.0 and first["edits"] == 10
    assert rows[3]["status"] == "abandoned" and rows[3]["OCT"] is None and rows[3]["pOCT"] == 100


def test_report_study_writes_csv_json_and_a_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    for who in ("p1", "p2"):
        session_store = stop_after_first_level(tmp_path / "studies", who, serve=who == "p1")
        session_store.session.submit()
        session_store.save()
    folders = sorted(str(p) for p in (tmp_path / "studies").iterdir())
    capsys.readouterr()
    plot = tmp_path / "plot.png"
    assert main(["report", *folders, "--study", "--format", "csv", "--plot", str(plot)]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[0].split(",")
    for column in ("process_active_s_value", "process_undos_value", "OCT_value", "human_time", "status"):
        assert column in head
    assert sum(line.startswith("run,") for line in lines) == 2
    image = pygame.image.load(str(plot))
    assert image.get_width() > 1000 and len({image.get_at((x, 300))[:3] for x in range(0, 1300, 5)}) > 3


def test_a_poct_interval_never_passes_the_largest_value_a_sample_can_take():
    rows = {(r.by, r.group): r for r in study_summary(RUNS)}
    # level b: both failures at T_max = 100; overall: p1 (40+100)/2 = 70, p2 (50+100)/2 = 75
    everyone = rows[("difficulty", "all")].metrics["pOCT"]
    assert everyone.value == pytest.approx(72.5) and everyone.high <= 100
    spread = study_summary([_run("p1", "a", 10, "served"), _run("p2", "a", 90, "failed")])
    assert spread[0].metrics["pOCT"].high == 100  # t: 55 + 12.706 * 63.6 would pass T_max


def test_report_reads_a_folder_of_sessions_finished_or_not(tmp_path, capsys):
    root = tmp_path / "studies"
    stop_after_first_level(root, "p4", serve=False)
    stop_after_first_level(root, "p5", serve=True)
    capsys.readouterr()
    assert main(["report", str(root), "--study", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(r["participant"] for r in data["runs"]) == ["p4", "p5"]
    assert len(data["not_attempted"]) == 8
