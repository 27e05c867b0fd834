"""The replay viewer through the app's own loop: real key and mouse events, the shown time and
state, pixels; failed runs, compare view, and the golden human plans at every event time."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from conftest import human_cases, sweep
from test_render import make_replay

from game.engine import parse_plan, simulate
from game.levels import load_level
from game.replay import Replay, save_replay
from game.ui.app import App
from game.ui.play import keys as play_keys
from game.ui.render import palette as P
from game.ui.screens.compare import CompareScreen, level_difference
from game.ui.screens.replay import ReplayScreen

SIZE = (1440, 900)


@pytest.fixture(scope="module")
def surface():
    pygame.init()
    return pygame.display.set_mode(SIZE)


def key(app: App, k: int, dt: float = 0.0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.step(dt)


def click(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.step(0.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step(0.0)
    app.step(0.0)


def open_viewer(surface, replay, back=None) -> tuple[App, ReplayScreen]:
    pygame.event.clear()
    screen = ReplayScreen(replay, back=back)
    app = App(screen, surface)
    app.step(0.0)
    return app, screen


def agent_pixel_ok(screen: ReplayScreen, surface: pygame.Surface, t: float) -> None:
    """Each agent's colour is drawn on the tile the engine puts it on at t."""
    r, rect = screen.renderer, screen.rects["kitchen"]
    for i, name in enumerate(screen.replay.level.agent_names):
        x, y = screen.replay.timeline.position_at(name, t)
        point = r.agent_points[name]
        assert r.tile_at_pixel(rect, point) == (round(x), round(y)), (t, name)
        assert surface.get_at(point)[:3] == P.agent_colour(i), (t, name)


def test_space_plays_and_pauses_at_the_chosen_speed(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    assert screen.t == 0 and screen.transport.speed == 2
    key(app, pygame.K_SPACE, dt=0.5)  # 0.5 s at 2x = 1 time unit
    assert screen.transport.playing and screen.t == pytest.approx(1.0)
    app.step(1.0)
    assert screen.t == pytest.approx(3.0)
    key(app, pygame.K_SPACE, dt=1.0)
    assert not screen.transport.playing and screen.t == pytest.approx(3.0)
    app.step(1.0)
    assert screen.t == pytest.approx(3.0)


def test_arrows_home_end_and_speed_keys(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    times = replay.timeline.times  # 0, 1, 2, 6, 7, 8, 12, 13, 20, 27, ...
    key(app, pygame.K_RIGHT)
    assert screen.t == times[1]
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert screen.t == times[3] == 6
    key(app, pygame.K_LEFT)
    assert screen.t == times[2]
    key(app, pygame.K_END)
    assert screen.t == replay.timeline.end == 35
    key(app, pygame.K_RIGHT)
    assert screen.t == 35
    key(app, pygame.K_HOME)
    assert screen.t == 0
    key(app, pygame.K_RIGHTBRACKET)  # the play window's speed keys: one map for both windows
    key(app, pygame.K_RIGHTBRACKET)
    assert screen.transport.speed == 8
    for _ in range(10):
        key(app, pygame.K_LEFTBRACKET)
    assert screen.transport.speed == 0.25
    for _ in range(10):
        key(app, pygame.K_RIGHTBRACKET)
    assert screen.transport.speed == 16
    assert play_keys.KEYS[pygame.K_RIGHTBRACKET] and play_keys.KEYS[pygame.K_LEFTBRACKET]


def test_click_on_a_gantt_bar_seeks_to_that_action(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    gantt, rect = screen.gantt, screen.rects["gantt"]
    wait = next(s for s in replay.timeline.spans if s.agent == "agent2" and s.index == 9)  # Wait 13-20
    bar = gantt.span_rect(rect, gantt.row_rect(rect, 1), wait)
    click(app, bar.center)
    assert screen.t == 13
    assert screen.span_at(bar.center) is wait
    assert screen._tooltip(wait, screen.shown_state(), 13)[1] == "t = 13 to 20 (7 long)"
    moving = next(s for s in replay.timeline.spans if s.agent == "agent2" and s.index == 6)  # MoveTo 6-12
    bar = gantt.span_rect(rect, gantt.row_rect(rect, 1), moving)
    click(app, (bar.x + bar.w // 2, bar.centery))
    assert screen.t == 6
    agent_pixel_ok(screen, surface, 6)


def test_scrub_bar_click_and_drag_seek(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    scrub = screen.rects["scrub"]
    track_x, track_w = scrub.x + 8, scrub.w - 16
    y = scrub.centery
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(track_x + track_w // 2, y), button=1))
    app.step(0.0)
    assert screen.t == pytest.approx(17.5, abs=35 / track_w)
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(track_x + track_w // 4, y + 30), rel=(0, 0), buttons=(1, 0, 0)
        )
    )
    app.step(0.0)
    assert screen.t == pytest.approx(8.75, abs=35 / track_w)
    release = (track_x + track_w // 4, y + 30)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=release, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(track_x, y), rel=(0, 0), buttons=(0, 0, 0)))
    app.step(0.0)
    assert screen.t == pytest.approx(8.75, abs=35 / track_w)  # released: moving no longer seeks


def test_hover_gives_tile_details_and_marker_labels(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    screen.transport.seek(20)
    r, rect = screen.renderer, screen.rects["kitchen"]
    pos = r.tile_center(rect, (6, 1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.step(0.0)
    lines = screen._tooltip(screen.span_at(screen.mouse), screen.shown_state(), screen.t)
    assert lines[0] == "stove1 (stove) at (6, 1)" and "chopped tomato" in lines[1]
    scrub = screen.rects["scrub"]
    x = scrub.x + 8 + round((scrub.w - 16) * 8 / 35)  # the served-order mark at t = 8
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x, scrub.centery - 9), rel=(0, 0), buttons=(0, 0, 0))
    )
    app.step(0.0)
    assert screen._tooltip(None, screen.shown_state(), screen.t) == ["served salad_basic at t = 8"]


def test_transport_buttons_are_real_buttons(surface, tmp_path):
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay)
    click(app, screen.buttons["end"].rect.center)
    assert screen.t == 35
    click(app, screen.buttons["prev"].rect.center)
    assert screen.t == 34
    click(app, screen.buttons["faster"].rect.center)
    assert screen.transport.speed == 4
    click(app, screen.buttons["play"].rect.center)
    assert screen.transport.playing


def test_shown_state_and_pixels_match_the_engine_at_every_event_time(surface, tmp_path):
    level_replay_path, replay = make_replay(tmp_path)
    engine = simulate(replay.level, replay.plan).timeline
    app, screen = open_viewer(surface, replay)
    for t in engine.times:
        screen.transport.seek(t)
        app.step(0.0)
        assert screen.shown_state() == engine.state_at(t)
        agent_pixel_ok(screen, surface, t)
        mid = t + 0.5
        screen.transport.seek(mid)
        assert screen.shown_state() == engine.state_at(mid)


def test_failed_run_jumps_to_the_error_and_greys_what_never_ran(surface, tmp_path):
    _, replay = make_replay(tmp_path, failed=True)
    result = replay.result
    assert not result["done"] and result["error_detail"]["agent"] == "agent1"
    app, screen = open_viewer(surface, replay)
    assert "error" in screen.buttons
    key(app, pygame.K_e)
    assert screen.t == result["error_detail"]["time"] == 10  # the second chop fails as it ends
    key(app, pygame.K_HOME)
    click(app, screen.buttons["error"].rect.center)
    assert screen.t == 10
    q = screen.queues
    assert q.status("agent1", 5, 10) == "error"
    assert [q.status("agent1", k, 10) for k in range(6, 12)] == ["never"] * 6
    assert q.status("agent2", 6, 10) == "running"  # agent2's walk was cut by the stop
    assert q.spans[("agent2", 6)].status == "cut"
    # the failing agent's tile is outlined in red at the error
    r, rect = screen.renderer, screen.rects["kitchen"]
    x, y = r.pixel_of_tile(rect, (1, 1))
    assert surface.get_at((x + 2, y + r.tile // 2))[:3] == P.ERROR
    assert screen.gantt.stop == 10


def test_escape_returns_to_the_screen_it_came_from(surface, tmp_path):
    class Back:
        def handle(self, event):
            pass

        def update(self, dt):
            return self

        def draw(self, s):
            s.fill((1, 2, 3))

    back = Back()
    _, replay = make_replay(tmp_path)
    app, screen = open_viewer(surface, replay, back=back)
    key(app, pygame.K_ESCAPE)
    assert app.screen is back
    app2, _ = open_viewer(surface, replay)
    key(app2, pygame.K_ESCAPE)
    assert app2.screen is None


def test_compare_shows_both_runs_on_one_clock(surface, tmp_path):
    _, ok = make_replay(tmp_path)
    _, bad = make_replay(tmp_path, failed=True)
    pygame.event.clear()
    screen = CompareScreen(ok, bad, labels=("ok.json", "failed.json"))
    app = App(screen, surface)
    app.step(0.0)
    assert screen.transport.end == 35
    key(app, pygame.K_e)
    assert screen.transport.t == 10
    key(app, pygame.K_RIGHT)
    assert screen.transport.t == 12
    a, b = screen.shown_states()
    assert a == ok.timeline.state_at(12)
    assert b == bad.timeline.state_at(10)  # the failed run is over: it stays at its end
    for side in screen.sides:
        assert side.gantt.end == 35
    left, right = screen.sides
    assert (
        left.gantt.x_of(left.rects["gantt"], 7) - left.rects["gantt"].x
        == right.gantt.x_of(right.rects["gantt"], 7) - right.rects["gantt"].x
    )
    ok_point = left.renderer.agent_points["agent1"]
    assert surface.get_at(ok_point)[:3] == P.agent_colour(0)


def test_compare_refuses_different_levels(tmp_path):
    _, ok = make_replay(tmp_path)
    other = ok.level.with_orders(("salad_advanced",), ok.level.recipes)
    assert "different orders" in level_difference(ok.level, other)
    moved = ok.level.replace(walls=ok.level.walls[:-1])
    assert level_difference(ok.level, moved) == "different kitchens (stations or walls differ)"
    assert level_difference(ok.level, ok.level) is None
    with pytest.raises(ValueError, match="cannot compare these replays: different orders"):
        CompareScreen(ok, Replay(other, ok.plan, ok.result, ok.timeline, ok.rules))


CASES = human_cases()


@sweep("case", CASES, ids=lambda c: str(c[0].relative_to(c[0].parents[3])))
def test_golden_replays_show_the_engine_state_at_every_event_time(surface, tmp_path, case):
    human, map_file, orders = case
    level = load_level(map_file, orders)
    plan = parse_plan(json.loads(human.read_text())["plan"], level.agent_names)
    result = simulate(level, plan)
    path = save_replay(tmp_path / "golden.json", level, plan, result, {"kind": "human"})
    pygame.event.clear()
    screen = ReplayScreen.from_file(path)
    app = App(screen, surface)
    engine = result.timeline
    assert screen.transport.end == result.time
    for t in engine.times:
        screen.transport.seek(t)
        app.step(0.0)
        assert screen.shown_state() == engine.state_at(t)
        agent_pixel_ok(screen, surface, t)


def test_indexed_timeline_answers_exactly_like_the_timeline(tmp_path):
    from game.ui.render.timeline_index import indexed

    for failed in (False, True):
        _, replay = make_replay(tmp_path, failed=failed)
        slow = replay.timeline
        fast = indexed(slow)
        assert fast.times is slow.times and fast.spans is slow.spans
        probes = [-1.0, *slow.times, *(t + 0.5 for t in slow.times), slow.end + 3]
        for t in probes:
            for agent in replay.level.agent_names:
                assert fast.span_at(agent, t) is slow.span_at(agent, t), (failed, agent, t)
                assert fast.position_at(agent, t) == slow.position_at(agent, t)


def test_every_order_is_listed_in_a_1024x700_window(surface, tmp_path, monkeypatch):
    import game.ui.render.panels as panels
    from game.engine import parse_plan, simulate
    from game.levels import load_level
    from game.replay import load_replay, save_replay

    level = load_level(
        Path(__file__).resolve().parents[1] / "levels/suite/salad/seed_42/agent_num_2/orders_num_4.yaml"
    )
    plan = parse_plan({"agent1": [], "agent2": []}, level.agent_names)
    path = save_replay(tmp_path / "r.json", level, plan, simulate(level, plan))
    small = pygame.display.set_mode((1024, 700))
    try:
        _, screen = open_viewer(small, load_replay(path))
        rect = screen.rects["metrics"]
        shown: list[str] = []
        real = panels.blit_text

        def seen(surface, text, pos, *args, **kwargs):
            if pos[1] < rect.h:  # drawn inside the panel
                shown.append(text)
            return real(surface, text, pos, *args, **kwargs)

        monkeypatch.setattr(panels, "blit_text", seen)
        screen.metrics._render(rect.size)
        text = " ".join(shown)
        assert all(order in text for order in level.orders), text
    finally:
        pygame.display.set_mode(SIZE)
