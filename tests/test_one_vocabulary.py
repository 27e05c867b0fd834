"""The play window and the replay viewer speak one UI vocabulary: one clock, one scrub bar, one
tooltip style and one help overlay (with the same-instant rule in both). Real events through
each window's own loop, on one failed run opened in both."""

from __future__ import annotations

import pygame
import pytest
from test_render import small_level, small_plan

import game.ui.render.panels as panels
import game.ui.screens.replay as replay_screen
from game.engine import parse_plan, simulate
from game.engine.diagnosis import SAME_INSTANT_RULE
from game.replay import load_replay, save_replay
from game.ui import store
from game.ui.app import App
from game.ui.clock import Clock
from game.ui.play import PlayScreen
from game.ui.render import palette as P
from game.ui.screens.replay import ReplayScreen

SIZE = (1440, 900)


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))


def both(tmp_path):
    """The failed small run in the play window and, as a replay, in the viewer."""
    level = small_level()
    plan = parse_plan(small_plan(failed=True), level.agent_names)
    path = tmp_path / "failed.json"
    save_replay(path, level, plan, simulate(level, plan), {"kind": "test"})
    pygame.init()
    surface = pygame.display.set_mode(SIZE)
    pygame.event.clear()
    play = App(PlayScreen(level, plan, size=SIZE, restore=False), surface)
    play.step(0.0)
    view = App(ReplayScreen(load_replay(path)), surface)
    view.step(0.0)
    return play, view


def run(app: App, *events: pygame.event.Event) -> pygame.Surface:
    for e in events:
        pygame.event.post(e)
    app.step(0.0)
    app.step(0.0)
    return app.surface


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def motion(pos) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def test_one_clock_steps_through_the_same_events(tmp_path):
    play, view = both(tmp_path)
    assert isinstance(play.screen.clock, Clock) and isinstance(view.screen.transport, Clock)
    seen = []
    for app, clock in ((play, play.screen.clock), (view, view.screen.transport)):
        times = []
        for _ in range(4):
            pygame.event.clear()
            run(app, key(pygame.K_RIGHT))
            times.append(clock.t)
        seen.append(times)
    assert seen[0] == seen[1] and seen[0] == sorted(seen[0]) and seen[0][0] > 0


def test_one_scrub_bar_marks_the_error_the_same_way(tmp_path):
    play, view = both(tmp_path)
    for app, rect, end in (
        (play, play.screen.layout.scrub, play.screen.clock.end),
        (view, view.screen.rects["scrub"], view.screen.transport.end),
    ):
        pygame.event.clear()
        surface = run(app, key(pygame.K_HOME))
        track = panels.scrub_track(rect)
        x = track.x + round(track.w * 10 / end)  # the error at t = 10: a red triangle over the track
        assert tuple(surface.get_at((x, track.y - 4)))[:3] == P.ERROR


def test_one_tooltip_style(tmp_path):
    play, view = both(tmp_path)
    for app, kitchen in ((play, play.screen.layout.kitchen), (view, view.screen.rects["kitchen"])):
        pos = app.screen.renderer.tile_center(kitchen, (0, 0))
        pygame.event.clear()
        surface = run(app, motion(pos))
        assert tuple(surface.get_at((pos[0] + 18 + 3, pos[1] + 18 + 10)))[:3] == panels.PAPER


def test_one_help_overlay_tells_the_same_instant_rule(tmp_path, monkeypatch):
    shown = []

    def spy(surface, title, sections):
        shown.append([what for _, rows in sections for _, what in rows])
        return real(surface, title, sections)

    real = panels.draw_help
    monkeypatch.setattr(panels, "draw_help", spy)
    monkeypatch.setattr(replay_screen, "draw_help", spy)
    play, view = both(tmp_path)
    for app in (play, view):
        pygame.event.clear()
        run(app, key(pygame.K_F1))
        assert app.screen.show_help
    assert len(shown) >= 2 and all(SAME_INSTANT_RULE in rows for rows in shown)
