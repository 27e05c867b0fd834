"""The Strong plan's progress: the child process reports the search (best OCT, bound, gap, how far
along), the job exposes the latest, the play window shows it and the planner's card keeps it."""

from __future__ import annotations

import math
import multiprocessing
import time
from pathlib import Path

import pygame
import pytest
from conftest import HANG_S, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from job_planners import (
    GARBAGE,
    QUICK,
    Broken,
    bounded_planner,
    bounding_planner,
    garbage_planner,
    plain_planner,
    quick_solver_plan,
    reporting_planner,
    sleeping_planner,
    two_step_planner,
)
from test_editor import salad_level
from test_play import POLL_S, SIZE, Driver, wait_for_job

from game.levels import load_level
from game.ui import planner_job as strong
from game.ui.planner_job import JobState, PlannerJob, Reporter, SearchProgress, report_fields, takes_progress
from game.ui.play import PlayScreen
from game.ui.play.card import bound_text, gap_text
from game.ui.play.toolbar import BAR_W, PROGRESS, job_text
from game.ui.render import palette as P
from game.ui.render.text import font

# a kitchen whose search takes a few report intervals (its best plan is far above the bound)
SEARCHED = Path(__file__).resolve().parents[1] / "levels/suite/salad/seed_42/agent_num_2/orders_num_2.yaml"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    from game.ui import store

    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    monkeypatch.setattr(strong, "solver_available", lambda: True)


def run_job(job: PlannerJob, limit: float = HANG_S) -> list[JobState]:
    """The job's states until it ends; `limit` only catches a hung job (the planner's budget,
    not the clock, ends its search, so a busy machine makes it slower, never different)."""
    states, start = [], time.monotonic()
    while time.monotonic() - start < limit:
        states.append(job.poll())
        if states[-1].status != "running":
            return states
        time.sleep(0.05)
    job.cancel()
    raise AssertionError("the planner job did not end")


# -- the job ------------------------------------------------------------------------------------------------
def test_the_real_planner_reports_its_search_before_the_same_plan_as_before():
    solver = pytest.importorskip("game.planners.solver")
    if not SEARCHED.is_file():
        pytest.skip("the suite levels are not here")
    level = load_level(SEARCHED)
    states = run_job(PlannerJob(level, level.rules, quick_solver_plan))
    done = states[-1]
    assert done.status == "done", done.error
    running = [s for s in states if s.status == "running" and s.progress.reports]
    assert running, "no progress came before the plan"
    seen = running[-1]
    assert seen.best_oct is not None and seen.bound is not None and seen.gap is not None
    # (a busy machine may show the search's last report, the full bar, before the plan arrives)
    assert seen.progress.fraction is not None and 0 < seen.fraction == seen.progress.fraction <= 1
    fractions = [s.fraction for s in running]
    assert fractions == sorted(fractions)  # the bar only moves forward
    # the last report is the finished search: the whole bar, and the bound the solver gives
    direct = solver.solve(level, rules=level.rules, time_limit=QUICK)
    assert done.progress.fraction == 1.0 and done.bound == direct.bound.value
    assert done.best_oct == direct.oct and done.gap == pytest.approx(direct.gap)
    assert done.plan == direct.plan  # reporting changes nothing in the plan
    # throttled: a few reports a second, not one per search step
    assert done.progress.reports <= done.elapsed / strong.REPORT_EVERY_S + 3


def test_a_planner_without_progress_still_works_and_the_bar_follows_the_clock():
    states = run_job(PlannerJob(salad_level(), "paracook", plain_planner))
    done = states[-1]
    assert done.status == "done" and done.plan["plan"]["agent1"]
    assert done.progress == SearchProgress() and done.best_oct is None and done.gap is None
    assert done.fraction == pytest.approx(min(1.0, done.elapsed / strong.TIME_LIMIT))
    assert job_text(done) == "planning"


def test_until_the_bound_is_known_the_words_say_it_is_being_worked_out():
    job = PlannerJob(salad_level(), "paracook", bounding_planner)
    try:
        start = time.monotonic()
        while job.poll().progress.reports < 1 and time.monotonic() - start < HANG_S:
            time.sleep(0.02)
        state = job.poll()
        assert state.status == "running" and state.progress.reports == 1
        assert job_text(state) == "working out the bound" and state.fraction == 0
        # once the search reports, the words are its figures
        later = JobState("running", 1.0, progress=state.progress.merged({"best_oct": 20, "fraction": 0.1}))
        assert job_text(later) == "best OCT 20"
    finally:
        job.cancel()


def test_takes_progress_only_by_its_name():
    def with_kw(level, rules, *, progress): ...
    def with_kwargs(level, rules, **kw): ...

    assert takes_progress(strong.solver_plan) and takes_progress(reporting_planner)
    assert takes_progress(with_kw) and takes_progress(bounded_planner)
    assert not takes_progress(plain_planner) and not takes_progress(with_kwargs)
    assert not takes_progress(print)


class Pipe:
    def __init__(self, broken: bool = False):
        self.sent: list = []
        self.broken = broken

    def send(self, message) -> None:
        if self.broken:
            raise BrokenPipeError("the window has gone")
        self.sent.append(message)


def test_the_reporter_throttles_and_always_sends_the_last_report():
    pipe = Pipe()
    report = Reporter(pipe, every=60)
    for k in range(1000):
        assert report({"best_oct": 100 - k % 50, "bound": 33, "evaluations": k, "budget": 1000}) is None
    assert len(pipe.sent) == 1  # the first goes at once, the rest wait for the interval
    report.flush()
    assert pipe.sent[-1][1] == {
        "best_oct": 51,
        "bound": 33,
        "fraction": None,
        "evaluations": 999,
        "budget": 1000,
    }
    report.flush()
    assert len(pipe.sent) == 2  # nothing held: nothing more
    gone = Reporter(Pipe(broken=True))
    assert gone({"best_oct": 1}) is False and gone({"best_oct": 1}) is False  # the planner may stop


def test_report_fields_keep_plain_numbers_of_any_report():
    solver = pytest.importorskip("game.planners.solver")
    p = solver.Progress(10, 40, 52, 33, 1.5)
    assert report_fields(p) == {
        "best_oct": 52,
        "bound": 33,
        "fraction": 0.25,
        "evaluations": 10,
        "budget": 40,
    }
    got = report_fields({"best_oct": "x", "bound": [1], "fraction": 0.5})
    assert got == {"fraction": 0.5, "evaluations": None, "budget": None}
    assert report_fields(Broken())["bound"] is None and "best_oct" not in report_fields(Broken())
    assert report_fields(None) == dict.fromkeys(strong.FIELDS)


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)
payloads = st.one_of(anything, st.dictionaries(st.sampled_from(strong.FIELDS + ("gap", "x")), anything))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(payloads, max_size=6))
def test_any_progress_payload_gives_sane_numbers_or_none(messages):
    pygame.font.init()
    p = SearchProgress()
    for m in messages:
        p = p.merged(m)
        for value in (p.best_oct, p.bound):
            assert value is None or strong.SMALLEST <= value <= strong.LARGEST
        assert p.fraction is None or 0 <= p.fraction <= 1
        assert p.gap is None or (math.isfinite(p.gap) and p.gap >= 0)
        state = JobState("running", 3.0, progress=p)
        assert 0 <= state.fraction <= 1
        # the widest it can get still leaves the title room at the smallest window
        assert font(18).size(job_text(state))[0] <= 330


def test_garbage_keeps_the_last_good_values_and_budget_gives_the_fraction():
    p = SearchProgress().merged({"best_oct": 52, "bound": 33, "evaluations": 25, "budget": 100})
    assert (p.best_oct, p.bound, p.fraction) == (52, 33, 0.25) and p.gap == pytest.approx(19 / 33)
    for bad in GARBAGE[:4] + [{"best_oct": 0, "bound": 2e6}, "text", None]:
        p = p.merged(bad)
    assert (p.best_oct, p.bound) == (52, 33) and p.fraction == 1.0  # 1e308 is clamped to the whole bar
    assert SearchProgress(best_oct=30, bound=33).gap is None  # a bound above the OCT is no gap


def test_the_job_survives_messages_it_cannot_read():
    job = PlannerJob(salad_level(), "paracook", sleeping_planner)
    assert job.wait_started(HANG_S)
    mine, theirs = multiprocessing.Pipe(duplex=False)
    job._conn = mine
    for message in (
        "nonsense",
        ("progress",),
        ("progress", "text"),
        ("hello", 1),
        ("progress", {"best_oct": 9}),
    ):
        theirs.send(message)
    state = job.poll()
    assert state.status == "running" and state.best_oct == 9 and state.progress.reports == 2
    theirs.send(("done", {"agent1": []}))
    assert job.poll().status == "done"
    job.process.terminate()
    job.process.join(30)


# -- the window ---------------------------------------------------------------------------------------------------
def wait_for_reports(d: Driver, n: int, limit: float = HANG_S) -> None:
    start = time.monotonic()
    while d.screen.job.state.progress.reports < n and time.monotonic() - start < limit:
        d.step()
        time.sleep(POLL_S)
    assert d.screen.job.state.progress.reports >= n, "no progress came"


def text_pixels(d: Driver, rect: pygame.Rect) -> int:
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if sum(abs(a - b) for a, b in zip(d.pixel((x, y)), P.TEXT, strict=True)) < 60
    )


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900), (1600, 1000)])
def test_the_window_shows_the_search_and_cancel_stops_it_at_once(monkeypatch, size):
    monkeypatch.setattr("test_play.SIZE", size)
    d = Driver(lambda: PlayScreen(salad_level(), size=size, restore=False))
    play = d.screen
    play.planner = reporting_planner
    top = play.layout.top
    right = play.toolbar.left - 16
    words = pygame.Rect(right - 200, top.y + 3, 200, 16)
    d.step()
    assert text_pixels(d, words) == 0  # nothing there before the planner runs
    d.click_button(play.buttons["strong"])
    wait_for_reports(d, 1)
    d.step()
    state = play.job.state
    assert job_text(state) == "best OCT 52  ·  bound 33  ·  gap 58%" and state.fraction == 0.5
    assert text_pixels(d, words) > 40
    # the bar: filled to half its length, empty beyond, left of the seconds, clear of the buttons
    bar_y = top.bottom - 10
    filled = [x for x in range(right - 260, right) if d.pixel((x, bar_y)) == PROGRESS]
    assert abs(len(filled) - BAR_W // 2) <= 3 and max(filled) < right
    assert d.pixel((max(filled) + 10, bar_y)) == P.PANEL_LIGHT
    assert d.pixel((play.toolbar.left - 2, top.centery)) == P.PANEL  # the gap before the buttons is kept
    job = play.job
    d.click_button(play.buttons["strong"])  # Cancel plan
    assert play.job is None and "cancelled" in play.message and job.state.status == "cancelled"
    assert job.state.best_oct == 52  # what it had found is still known
    job.process.join(30)
    assert not job.process.is_alive()
    d.step()
    assert text_pixels(d, words) == 0 and play.buttons["strong"].text == "Strong plan"


def test_the_window_redraws_only_when_the_progress_shown_changes():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    play = d.screen
    play.planner = two_step_planner
    d.click_button(play.buttons["strong"])
    wait_for_reports(d, 1)
    d.step()
    assert play.job.state.fraction == 0.25
    app, drawn, steps, start = d.app, d.app.frames, 0, time.monotonic()
    app.last_input = 0.0  # no input for long: the app's own loop may sleep
    while play.job.state.progress.reports < 2 and time.monotonic() - start < HANG_S:
        app.step()  # the real loop: it draws only when the screen says so
        steps += 1
    assert play.job.state.fraction == 0.75
    redraws = app.frames - drawn
    # the new report, and the seconds beside the bar ticking over: not one frame per step
    assert 1 <= redraws <= 3 + (time.monotonic() - start) and steps >= 20
    assert not play.needs_draw()
    d.click_button(play.buttons["strong"])


def test_the_planners_card_gains_its_bound_and_gap():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    play = d.screen
    play.planner = bounded_planner
    d.click_button(play.buttons["strong"])
    wait_for_job(d)
    rows = dict(play.card.rows)
    assert play.card.title == "Built-in planner: done in 14"
    assert rows["Lower bound"] == "10   (no plan can finish sooner; OCT / bound 1.40)"
    assert rows["Gap"] == "40% above the bound"
    play.planner = plain_planner  # no bound told: no rows made up
    d.key(pygame.K_ESCAPE)
    d.click_button(play.buttons["strong"])
    wait_for_job(d)
    assert "Lower bound" not in dict(play.card.rows) and "Gap" not in dict(play.card.rows)


def test_garbage_progress_does_not_break_the_window():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    play = d.screen
    play.planner = garbage_planner
    d.click_button(play.buttons["strong"])
    job = play.job
    wait_for_job(d)
    state = job.state
    assert state.status == "done" and state.progress.reports >= len(GARBAGE)
    assert (state.best_oct, state.bound, state.fraction) == (14, 10, 1.0)  # the good values, kept
    assert (
        play.card.title == "Built-in planner: done in 14"
        and dict(play.card.rows)["Gap"] == "40% above the bound"
    )


def test_bound_and_gap_rows_read_the_same_for_the_planner_and_the_person():
    level = salad_level()
    assert bound_text(level, 14, "paracook", 10) == "10   (no plan can finish sooner; OCT / bound 1.40)"
    assert bound_text(level, 14, "paracook", 12.5) == "12.5   (no plan can finish sooner; OCT / bound 1.12)"
    assert gap_text(14, 14) == "0% above the bound   (no plan can be faster)"
    assert gap_text(14, 20) == "-   (the bound reported is above the OCT)"
