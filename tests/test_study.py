"""Study mode headless: real events through the app's loop, a session closed in the middle and
resumed, then exported and reported; the planner and other results are out of reach."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.engine.result import REFERENCE_FIELDS
from game.study.persist import SessionStore, new_session
from game.study.session import STATUSES, LevelRecord, Session, SessionError, ordered
from game.ui import planner_job, store
from game.ui.app import App
from game.ui.screens.study import (
    StudyEndScreen,
    StudyIntroScreen,
    StudyLevelScreen,
    StudySetupScreen,
    level_title,
    open_session,
)

SIZE = (1440, 900)
TUTORIALS = [Path("levels/tutorial/01_first_salad.yaml"), Path("levels/tutorial/02_chopping.yaml")]


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


@pytest.fixture
def no_planner(monkeypatch):
    """Any call of the built-in planner during a session fails the test."""
    calls = []

    def forbidden(*args, **kwargs):
        calls.append(args)
        raise AssertionError("the planner was reached during a study session")

    monkeypatch.setattr(planner_job, "PlannerJob", forbidden)
    monkeypatch.setattr(planner_job, "solver_plan", forbidden)
    return calls


class Driver:
    def __init__(self, screen):
        pygame.init()
        self.surface = pygame.display.set_mode(SIZE)
        pygame.event.clear()
        self.app = App(screen, self.surface)
        self.alive = True
        self.step()

    @property
    def screen(self):
        return self.app.screen

    def step(self, frames: int = 1, dt: float = 1 / 60) -> None:
        for _ in range(frames):
            self.alive = self.app.step(dt)

    def post(self, kind: int, **fields) -> None:
        pygame.event.post(pygame.event.Event(kind, **fields))

    def click_at(self, pixel, button: int = 1) -> None:
        self.post(pygame.MOUSEMOTION, pos=pixel, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pixel, button=button)
        self.post(pygame.MOUSEBUTTONUP, pos=pixel, button=button)
        self.step(2)

    def press(self, name: str) -> None:
        """Click one of a study page's own buttons."""
        rect = next(b.rect for b in self.screen.buttons if b.name == name)
        self.click_at(rect.center)

    def station(self, name: str, button: int = 1) -> None:
        play = self.screen.play
        pos = play.level.station_by_name[name].pos
        self.click_at(play.renderer.tile_center(play.layout.kitchen, pos), button)

    def key(self, key: int, mod: int = 0, unicode: str = "") -> None:
        self.post(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)
        self.post(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=0)
        self.step()

    def toolbar(self, name: str) -> None:
        self.click_at(self.screen.play.buttons[name].rect.center)


def serve_first_salad(d: Driver) -> None:
    d.station("dispenser1")
    d.station("chopping_board1")
    d.station("chopping_board1", button=3)
    d.station("table1")
    d.station("chopping_board1")
    d.station("serving_window")


def test_a_two_level_session_closed_resumed_exported_and_reported(tmp_path, no_planner, capsys):
    root = tmp_path / "data" / "studies"
    session_store = new_session(root, "p01", TUTORIALS, "fixed")
    d = Driver(StudyIntroScreen(session_store, None, SIZE))
    d.press("begin")
    level_screen = d.screen
    assert isinstance(level_screen, StudyLevelScreen)
    play = level_screen.play
    # the planner, plan files and other results are out of reach
    assert not play.buttons["strong"].visible and not play.buttons["open"].visible
    assert play.buttons["back"].text == "Pause"
    d.key(pygame.K_o, mod=pygame.KMOD_CTRL)
    assert not play.dialog_open
    serve_first_salad(d)
    assert play.editor.result.done and play.card is not None
    shown = [row[0] for row in play.card.rows]
    assert "Human baseline" not in shown and "Built-in planner" not in shown and "Your best here" not in shown
    assert "strong" not in play.card_buttons and "viewer" not in play.card_buttons
    assert not (tmp_path / "replays").exists() and not store.scores_path().exists()  # nothing leaks out
    d.key(pygame.K_ESCAPE)  # close the card
    d.station("chopping_board1", button=3)  # Process an empty board: a run that ends in an error
    assert play.editor.error is not None
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)  # undo it
    d.key(pygame.K_y, mod=pygame.KMOD_CTRL)  # redo it
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)  # and undo again
    d.key(pygame.K_SPACE)  # preview the animation
    d.step(10, dt=1.0)  # 10 s with input just before: active until the idle threshold
    record = session_store.session.levels[0]
    assert (record.edits, record.undos, record.redos, record.error_runs) == (7, 2, 1, 2)
    assert record.previews == 1
    d.step(40, dt=1.0)  # no input: idle after 30 s
    assert record.active_s == pytest.approx(30, abs=0.5) and record.idle_s == pytest.approx(20.2, abs=0.5)
    # the preview ran to its end and opened the result card; its Submit... pauses
    assert play.card is not None and play.card_buttons["back"].text == "Submit..."
    d.click_at(play.card_buttons["back"].rect.center)
    assert level_screen.paused
    d.step(5, dt=1.0)
    assert record.paused_s == pytest.approx(5) and record.planning_s == pytest.approx(50.2, abs=0.5)
    d.press("submit")
    second = d.screen
    assert isinstance(second, StudyLevelScreen) and second.record.task_id == "tutorial/02_chopping"
    d.station("dispenser1")
    d.station("chopping_board1")
    plan_before = second.play.editor.plan_dict()
    # the window closes in the middle of level 2
    d.post(pygame.QUIT)
    d.step()
    assert not d.alive
    on_disk = SessionStore.open(session_store.folder).session
    assert on_disk.current == 1 and on_disk.levels[1].plan == plan_before and on_disk.levels[1].edits == 2
    assert on_disk.levels[0].submitted and on_disk.levels[0].outcome["done"]
    # reopened: the session resumes at level 2 with its plan
    d = Driver(open_session(session_store.folder, None, SIZE))
    resumed = d.screen
    assert isinstance(resumed, StudyLevelScreen) and resumed.play.editor.plan_dict() == plan_before
    assert resumed.paused  # the clock waits for the participant
    d.press("resume")
    d.station("chopping_board1", button=3)
    assert resumed.record.edits == 3
    d.toolbar("back")
    d.press("submit")  # the plan does not serve: a second click confirms
    assert d.screen is resumed and resumed.confirm
    d.press("submit")
    end = d.screen
    assert isinstance(end, StudyEndScreen) and end.store.session.finished and end.problems == []
    assert no_planner == []
    # the export: ParaCook result fields + plan, our replay, the log
    out = session_store.folder / "export"
    first = json.loads((out / "results" / "tutorial" / "01_first_salad.json").read_text())
    assert list(first) == [*REFERENCE_FIELDS, "retry_count", "plan"] and first["done"] is True
    assert (out / "replays" / "tutorial" / "02_chopping.json").is_file()
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    kinds = [e["event"] for e in log]
    assert kinds.count("edit") == 10 and "resume" in kinds and "close" in kinds and kinds[-1] == "end"
    assert all("plan" in e and "planning_s" in e for e in log if e["event"] == "edit")
    summary = json.loads((out / "study.json").read_text())
    assert summary["participant"] == "p01" and summary["levels"][0]["undos"] == 2
    # report reads the export as one run labelled with the participant
    assert main(["report", str(out), "--by", "level"]) == 0
    text = capsys.readouterr().out
    assert "| p01 | tutorial/01_first_salad (tutorial) | 1 | 100.00 |" in text
    assert "| p01 | all | 2 |" in text
    assert main(["report", str(session_store.folder)]) == 0  # the session's own folder reads the same
    assert "| p01 | all | 2 |" in capsys.readouterr().out
    # `study export` writes the same files elsewhere; `study list` shows the session finished
    assert main(["study", "export", str(session_store.folder), "--out", str(tmp_path / "again")]) == 0
    again = json.loads((tmp_path / "again" / "results" / "tutorial" / "01_first_salad.json").read_text())
    assert again == first
    assert main(["study", "list"]) == 0
    assert "p01  finished" in capsys.readouterr().out


def test_the_setup_page_starts_a_named_session_and_offers_to_resume(tmp_path, no_planner):
    root = tmp_path / "studies"
    d = Driver(StudySetupScreen(TUTORIALS, None, SIZE, root))
    d.press("start")
    assert "name" in d.screen.error  # no name yet: refused with a reason
    seen = []
    for _ in range(3):  # the order button cycles fixed and shuffled (counterbalancing needs a protocol)
        d.press("order")
        seen.append(d.screen.order)
    assert seen == ["fixed", "shuffled", "fixed"]
    d.press("order")
    for ch in "ann":
        d.key(getattr(pygame, f"K_{ch}"), unicode=ch)
    d.press("start")
    assert isinstance(d.screen, StudyIntroScreen) and d.screen.store.session.participant == "ann"
    assert d.screen.store.session.order == "shuffled" and d.screen.store.session.seed is not None
    d2 = Driver(StudySetupScreen(TUTORIALS, None, SIZE, root))
    assert len(d2.screen.resumable) == 1
    d2.press(f"resume:{d2.screen.resumable[0]}")
    assert isinstance(d2.screen, StudyLevelScreen) and d2.screen.record.task_id.startswith("tutorial/")


def test_exporting_a_folder_that_is_no_session_says_which_it_is(tmp_path, capsys):
    """It said "session.json: cannot read the file (No such file or directory)"."""
    assert main(["study", "export", str(tmp_path / "nothing")]) == 2
    assert (
        f"error: {tmp_path / 'nothing'}: no such folder; `paracook-kitchen study list`"
        in capsys.readouterr().err
    )
    assert main(["study", "export", str(tmp_path)]) == 2
    assert f"{tmp_path}: not a study session (no session.json in it)" in capsys.readouterr().err
    assert not (tmp_path / "export").exists()


def test_a_damaged_session_or_a_changed_level_is_named_not_a_crash(tmp_path):
    s = new_session(tmp_path, "bob", TUTORIALS[:1], "fixed")
    (s.folder / "session.json").write_text("{broken")
    with pytest.raises(SessionError, match="session.json: line 1"):
        SessionStore.open(s.folder)
    page = open_session(s.folder, None, SIZE)
    assert isinstance(page, StudyIntroScreen) and "session.json" in page.problem
    assert main(["study", "export", str(s.folder)]) == 2
    assert main(["report", str(s.folder)]) == 2
    level = tmp_path / "l.yaml"
    level.write_text(TUTORIALS[0].read_text())
    s2 = new_session(tmp_path, "eve", [level], "fixed")
    level.write_text(TUTORIALS[0].read_text().replace("salad_basic", "salad_advanced", 1))
    screen = StudyLevelScreen(s2, None, SIZE)
    assert screen.play is None and "changed" in screen.problem


def test_study_command_refuses_bad_levels(capsys):
    assert main(["study", "--levels", "no-such-suite", "--participant", "x"]) == 2
    assert "no-such-suite" in capsys.readouterr().err
    assert main(["study", "--participant", "x"]) == 2  # the paper's tasks are not installed here
    assert "levels import-paracook" in capsys.readouterr().err


def test_order_is_fixed_or_a_seeded_shuffle():
    items = list(range(10))
    assert ordered(items, "fixed", None) == items
    a, b = ordered(items, "shuffled", 7), ordered(items, "shuffled", 7)
    assert a == b != items and sorted(a) == items
    with pytest.raises(SessionError):
        ordered(items, "random", 1)


def test_the_clock_splits_active_and_idle_time():
    r = LevelRecord("f", "t", "T", "d")
    r.tick(10, idle_after=30)
    r.tick(25, idle_after=30)  # crosses the threshold: 20 active, 5 idle
    assert (r.active_s, r.idle_s) == (30, 5)
    r.touch()
    r.tick(1, idle_after=30)
    assert (r.active_s, r.idle_s, r.planning_s) == (31, 5, 36)


SESSION_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    field=st.sampled_from(
        [
            "participant",
            "levels",
            "current",
            "order",
            "idle_after",
            "level0",
            "time_limit",
            "protocol",
            "instructions",
            "condition",
        ]
    ),
    value=SESSION_JSON,
)
def test_a_damaged_session_file_is_refused_with_a_reason(tmp_path_factory, field, value):
    folder = tmp_path_factory.mktemp("s")
    base = Session("p", [LevelRecord("f.yaml", "t", "T", "d")]).to_dict()
    if field == "level0":
        base["levels"][0] = value if not isinstance(value, dict) else {**base["levels"][0], **value}
    else:
        base[field] = value
    (folder / "session.json").write_text(json.dumps(base))
    try:
        session = SessionStore.open(folder).session
    except SessionError as e:
        assert "session.json" in str(e)
        return
    record = session.levels[0]  # what loads can be used: the clock, counters, status and listing work
    record.tick(1.0, session.idle_after)
    record.count("edit")
    assert record.status in STATUSES and isinstance(level_title(session, record), str)
    assert record.planning_s >= 1.0 and 0 <= session.current <= len(session.levels)


@settings(max_examples=examples(80), deadline=None)
@given(text=st.text(max_size=60) | SESSION_JSON.map(json.dumps))
def test_a_damaged_human_times_index_gives_no_times(tmp_path_factory, text):
    from game.levels.paper import INDEX_NAME, read_index

    folder = tmp_path_factory.mktemp("i")
    (folder / INDEX_NAME).write_text(text)
    assert isinstance(read_index(folder), list)
