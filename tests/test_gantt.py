"""The shared Gantt renderer: hit-testing, zoom and pan (wheel and drag), labels from the event
sentences, tracks of held items, the selected bar and the error marks, asserted on pixels."""

from __future__ import annotations

import pygame
import pytest
from test_render import small_level, small_plan

from game.engine import simulate
from game.engine.narration import narrate
from game.ui.render import palette as P
from game.ui.render.gantt import SELECTED, Gantt, item_colour, span_lines

RECT = pygame.Rect(0, 0, 900, 200)


@pytest.fixture(scope="module")
def run():
    pygame.init()
    pygame.display.set_mode((64, 64))
    level = small_level()
    result = simulate(level, small_plan())
    return level, result, narrate(level, result.timeline, result.rules)


def gantt(run, **kw) -> Gantt:
    level, result, story = run
    return Gantt(result.timeline, level.agent_names, story=story, **kw)


def span(result, agent, index):
    return next(s for s in result.timeline.spans if s.agent == agent and s.index == index)


def test_hit_names_the_agent_and_action_index(run):
    g = gantt(run)
    _, result, _ = run
    wait = span(result, "agent2", 9)  # Wait 13-20
    r = g.span_rect(RECT, g.row_rect(RECT, 1), wait)
    assert g.hit(RECT, r.center) == ("agent2", 9)
    tick = span(result, "agent1", 1)  # Interact dispenser1 at t = 1
    x = g.x_of(RECT, 1)
    assert g.hit(RECT, (x + 2, g.row_rect(RECT, 0).centery)) == ("agent1", 1)
    assert g.hit(RECT, (5, 5)) is None
    assert span_lines(tick, run[2])[-1] == "agent1 takes the raw lettuce from dispenser1"


def test_zoom_keeps_the_time_under_the_mouse_and_pan_clamps(run):
    g = gantt(run)
    x = g.x_of(RECT, 10)
    g.zoom(4, at=10)
    assert g.view[1] - g.view[0] == pytest.approx(35 / 4)
    assert g.time_at(RECT, x) == pytest.approx(10, abs=0.1)
    g.pan(-100)
    assert g.view[0] == 0
    g.pan(1000)
    assert g.view[1] == 35
    for _ in range(20):
        g.zoom(3)
    assert g.view[1] - g.view[0] == 2  # never narrower than the minimum window
    g.reset_view()
    assert g.view == (0, 35) and not g.zoomed


def test_wheel_zooms_and_left_drag_pans(run):
    g = gantt(run)
    mouse = (g.x_of(RECT, 20), 40)
    assert g.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2), RECT, mouse)
    assert g.view[1] - g.view[0] == pytest.approx(35 / 1.25**2)
    assert g.time_at(RECT, mouse[0]) == pytest.approx(20, abs=0.1)
    assert not g.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1), RECT, (2000, 2000))
    v0 = g.view[0]
    g.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=mouse, button=1), RECT, mouse)
    moved = (mouse[0] - 100, mouse[1])
    assert g.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=moved, rel=(-100, 0), buttons=(1, 0, 0)), RECT, moved
    )
    assert g.view[0] > v0  # dragging left shows later times
    assert g.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=moved, button=1), RECT, moved)
    # a click without moving is not a drag: the caller seeks
    g.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=mouse, button=1), RECT, mouse)
    assert not g.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=mouse, button=1), RECT, mouse)


def test_interact_ticks_keep_what_happened_in_their_tooltip_not_on_the_next_bar(run):
    level, result, story = run
    plain = Gantt(result.timeline, level.agent_names)
    told = gantt(run)
    g_surface, p_surface = pygame.Surface(RECT.size), pygame.Surface(RECT.size)
    told.set_view(0, 9)
    plain.set_view(0, 9)
    told.draw(g_surface, RECT, 0)
    plain.draw(p_surface, RECT, 0)
    row = told.row_rect(RECT, 0)
    x = told.x_of(RECT, 1) + 6  # right of the Interact at t = 1 (agent1 takes the lettuce)
    area = pygame.Rect(x, row.y, 40, row.h)
    pixels = [(px, py) for px in range(area.x, area.right) for py in range(area.y, area.bottom)]
    assert all(g_surface.get_at(p) == p_surface.get_at(p) for p in pixels)  # no label over a neighbour
    tick = next(s for s in result.timeline.spans if s.agent == "agent1" and s.start == 1 and s.end == 1)
    assert told.span_at_pixel(RECT, (told.x_of(RECT, 1), row.centery)) == tick
    assert any("takes" in line or "picks up" in line for line in span_lines(tick, story))
    marker = g_surface.get_at((told.x_of(RECT, 1), row.y + 4))[:3]  # the diamond at the tick's top
    assert marker == P.ACTION_COLOURS["Interact"]


def test_held_track_shows_the_item_colour_under_the_lane(run):
    g = gantt(run)
    g.show_held = True
    surface = pygame.Surface(RECT.size)
    g.draw(surface, RECT, 0)
    lane = next(ln for ln in g.lanes(RECT) if ln.kind == "held" and ln.name == "agent1")
    assert lane.rect.top >= g.row_rect(RECT, 0).bottom - 2
    x = g.x_of(RECT, 1.5)  # agent1 holds the raw lettuce from 1 to 2
    lettuce = item_colour({"kind": "ingredient", "name": "lettuce", "state": "raw"})
    assert surface.get_at((x, lane.rect.centery))[:3] == lettuce
    kind, name, item = g.track_at_pixel(RECT, (x, lane.rect.centery))
    assert (kind, name, item["name"]) == ("held", "agent1", "lettuce")


def test_station_tracks_are_a_toggle(run):
    level, result, story = run
    g = Gantt(result.timeline, level.agent_names, story=story, stations=["chopping_board1", "stove1"])
    assert [ln.kind for ln in g.lanes(RECT)] == ["agent", "agent"]
    g.show_stations = True
    lanes = g.lanes(RECT)
    assert [ln.name for ln in lanes if ln.kind == "station"] == ["chopping_board1", "stove1"]
    assert all(ln.rect.bottom <= g.plot(RECT).bottom + 1 for ln in lanes)


def test_selected_bar_is_outlined_and_the_error_marked():
    pygame.init()
    level = small_level()
    result = simulate(level, small_plan(failed=True))
    g = Gantt(result.timeline, level.agent_names, stop=result.error_detail.time)
    surface = pygame.Surface(RECT.size)
    g.draw(surface, RECT, 0, selected=("agent2", 0))
    r = g.span_rect(RECT, g.row_rect(RECT, 1), span(result, "agent2", 0)).inflate(4, 4)
    assert surface.get_at((r.centerx, r.y))[:3] == SELECTED
    x = g.x_of(RECT, 10)
    assert surface.get_at((x, g.row_rect(RECT, 0).centery))[:3] == P.ERROR


def test_a_long_run_draws_only_the_window(run):
    level, result, story = run
    g = gantt(run)
    g.set_view(12, 20)
    assert list(g._visible("agent2", *g.view)) == [
        i for i, s in enumerate(g.rows["agent2"]) if s.end >= 12 and s.start <= 20
    ]
