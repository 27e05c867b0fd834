"""The replay viewer as a debugger, through the app's own loop: the event log (follows the clock,
filters, click to seek), the jump to the cause of an error, tracks, Gantt zoom by wheel, queue
rows clicked and scrolled, F1 help, hover on a walking agent, drawing only on change, small
windows, and the edit-from-here round trip into the play window."""

from __future__ import annotations

import pygame
import pytest
from test_render import make_replay
from test_replay_viewer import click, key, open_viewer

from game.engine import plan_to_dict
from game.replay import load_replay
from game.ui.app import App
from game.ui.screens.replay import ReplayScreen, edit_copy

SIZE = (1440, 900)


@pytest.fixture(scope="module")
def surface():
    pygame.init()
    return pygame.display.set_mode(SIZE)


def wheel(app: App, pos: tuple[int, int], dy: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False))
    app.step(0.0)


def row_point(screen: ReplayScreen, k: int) -> tuple[int, int]:
    """The middle of the k-th shown row of the event log."""
    panel = screen.rects["panel"]
    return (panel.centerx, panel.y + screen.log.HEAD_H + k * screen.log.ROW_H + screen.log.ROW_H // 2)


def test_event_log_follows_the_clock_and_click_seeks(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    assert screen.tab == "events"
    key(app, pygame.K_END)
    rows = screen.log.rows()
    assert screen.log.current(screen.t) == len(rows) - 1  # the last event is the current one
    first = screen.log.first_row(screen.rects["panel"], screen.t)
    target = rows[first + 2]
    click(app, row_point(screen, 2))
    assert screen.t == target.time
    assert rows[screen.log.current(screen.t)].time == target.time


def test_event_log_filters_by_agent_station_and_moves(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    everything = len(screen.log.rows())
    chips = screen.log._chip_rects(screen.rects["panel"])
    click(app, chips["agent"].center)
    assert screen.log.agent == "agent1"
    assert {e.agent for e in screen.log.rows()} == {"agent1"}
    click(app, chips["agent"].center)
    click(app, chips["agent"].center)
    assert screen.log.agent is None and len(screen.log.rows()) == everything
    click(app, chips["station"].center)
    station = screen.log.station
    assert station is not None and all(e.station == station for e in screen.log.rows())
    click(app, chips["station"].center)  # next station
    assert screen.log.station != station
    while screen.log.station is not None:
        click(app, chips["station"].center)
    click(app, chips["moves"].center)
    assert len(screen.log.rows()) > everything and any(e.kind == "move" for e in screen.log.rows())


def test_why_button_jumps_to_the_cause(surface, tmp_path):
    _, replay = make_replay(tmp_path, failed=True)
    app, screen = open_viewer(surface, replay)
    assert screen.diagnosis is not None and screen.diagnosis.jump == 6
    assert screen.tab == "why"  # a failed run opens on why it failed
    click(app, screen.why.button_rects()[0].center)
    assert screen.t == 6
    key(app, pygame.K_HOME)
    key(app, pygame.K_c)
    assert screen.t == 6
    # the scrub bar marks the cause too
    assert any(m.time == 6 and "cause" in m.label for m in screen.markers)


def test_wheel_zooms_the_gantt_and_0_fits(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    rect = screen.rects["gantt"]
    mouse = (screen.gantt.x_of(rect, 20), screen.gantt.row_rect(rect, 0).centery)
    wheel(app, mouse, 3)
    assert screen.gantt.zoomed
    assert screen.gantt.time_at(rect, mouse[0]) == pytest.approx(20, abs=0.1)
    key(app, pygame.K_0)
    assert not screen.gantt.zoomed


def test_tracks_toggle_with_h_and_s(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    key(app, pygame.K_h)
    assert screen.gantt.show_held
    held = [ln for ln in screen.gantt.lanes(screen.rects["gantt"]) if ln.kind == "held"]
    assert [ln.name for ln in held] == ["agent1", "agent2"]
    key(app, pygame.K_s)
    stations = [ln.name for ln in screen.gantt.lanes(screen.rects["gantt"]) if ln.kind == "station"]
    assert "chopping_board1" in stations and "stove1" in stations and "dispenser1" not in stations


def test_queue_rows_click_to_seek_and_scroll_with_the_wheel(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    key(app, pygame.K_l)
    assert screen.tab == "queues"
    panel = screen.rects["panel"]
    _, section = screen.queues.sections(panel)[1]  # agent2
    point = (section.centerx, section.y + 24 + 3 * screen.queues.ROW_H + 5)
    assert screen.queues.row_at(panel, point, screen.t) == ("agent2", 3)
    click(app, point)
    span = next(s for s in replay.timeline.spans if s.agent == "agent2" and s.index == 3)
    assert screen.t == span.start
    small = pygame.Rect(panel.x, panel.y, panel.w, 140)  # a section too short for 20 rows
    before = screen.queues.row_at(small, (small.centerx, small.y + 30), screen.t)
    screen.rects["panel"] = small
    assert screen.queues.scroll_by(small, (small.centerx, small.y + 30), 3, screen.t)
    after = screen.queues.row_at(small, (small.centerx, small.y + 30), screen.t)
    assert after[1] == before[1] + 3


def test_f1_shows_help_and_any_key_closes_it(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    plain = surface.copy()
    key(app, pygame.K_F1)
    assert screen.show_help
    centre = surface.get_rect().center
    assert surface.get_at(centre) != plain.get_at(centre)
    key(app, pygame.K_SPACE)  # closes the help, does not start playing
    assert not screen.show_help and not screen.transport.playing


def test_hover_on_a_walking_agent_names_it_and_what_it_holds(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    screen.transport.seek(9.5)  # agent2 walks (1,3) -> (5,1) from 6 to 12, holding the tomato
    app.step(0.0)
    rect = screen.renderer.agent_rects["agent2"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    app.step(0.0)
    lines = screen._tooltip(None, screen.shown_state(), screen.t)
    assert lines[0].startswith("agent2 at (") and "holding the chopped tomato" in lines[0]
    assert lines[1].startswith("action 6: MoveTo (5, 1)")


def test_draws_only_when_something_changed(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    drawn = screen.frames_drawn
    for _ in range(5):
        app.step(0.1)
    assert screen.frames_drawn == drawn
    key(app, pygame.K_RIGHT)
    assert screen.frames_drawn == drawn + 1
    key(app, pygame.K_SPACE, dt=0.1)
    app.step(0.1)
    assert screen.frames_drawn >= drawn + 3  # playing: every frame moves the clock


@pytest.mark.parametrize("size", [(1600, 1000), (1440, 900), (1024, 700), (960, 640)])
def test_layout_fits_every_size(tmp_path, size):
    pygame.init()
    surface = pygame.display.set_mode(size)
    _, replay = make_replay(tmp_path, failed=True)
    screen = ReplayScreen(replay)
    app = App(screen, surface)
    app.step(0.0)
    full = surface.get_rect()
    r = screen.rects
    for name in ("kitchen", "gantt", "transport", "side", "panel", "metrics", "scrub"):
        assert full.contains(r[name]), (name, r[name])
    assert not r["kitchen"].colliderect(r["gantt"]) and not r["gantt"].colliderect(r["transport"])
    assert not r["kitchen"].colliderect(r["side"]) and r["panel"].h > 60
    kitchen_w, kitchen_h = screen.renderer.size
    assert kitchen_w <= r["kitchen"].w and kitchen_h <= r["kitchen"].h
    buttons = [b.rect for b in screen.buttons.values()]
    assert all(r["transport"].contains(b) for b in buttons)
    pygame.display.set_mode(SIZE)


def test_edit_from_here_opens_a_copy_in_the_play_window(surface, tmp_path, monkeypatch):
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(tmp_path / "data"))
    path, replay = make_replay(tmp_path, failed=True)
    before = path.read_bytes()
    app, screen = open_viewer(surface, load_replay(path))
    key(app, pygame.K_e)
    click(app, screen.buttons["edit"].rect.center)
    play = app.screen
    from game.ui.screens.play import PlayScreen

    assert isinstance(play, PlayScreen)
    assert plan_to_dict(play.editor.plan) == replay.plan
    assert play.editor.error is not None and play.editor.error.kind == replay.result["error_detail"]["kind"]
    assert play.level.width == replay.level.width and play.level.orders == replay.level.orders
    assert play.t == 10
    # the copy has its own id (its autosave never overwrites the player's plan for the kitchen)
    level, _ = edit_copy(replay, path.name)
    assert level.meta["id"] != replay.level.meta.get("id") and "failed" in level.title
    # repair it in the editor: the failing Process becomes the Interact that picks the lettuce up
    play.editor.select_agent("agent1")
    play.editor.select_action(5)
    assert play.editor.delete()
    play.editor.select_action(5)
    play.editor.queue_station("chopping_board1")
    assert play.editor.result.done and play.editor.error is None
    assert path.read_bytes() == before  # the replay file is never changed
    assert load_replay(path).plan == replay.plan
    assert play.back is screen
