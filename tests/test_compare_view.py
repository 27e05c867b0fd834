"""Compare view: the first instant two runs differ (pairs built to differ at a known time), its
mark and jump, OCT and metric differences, each run's rules and a warning when they differ."""

from __future__ import annotations

import copy

import pygame
import pytest
from test_render import small_level, small_plan
from test_replay_viewer import key

from game.engine import parse_plan, simulate
from game.replay import load_replay, save_replay
from game.ui.app import App
from game.ui.screens.compare import DIVERGE, CompareScreen, first_divergence, metric_differences


@pytest.fixture(scope="module")
def surface():
    pygame.init()
    return pygame.display.set_mode((1440, 900))


def replay_of(tmp_path, plan, name, rules="paracook"):
    level = small_level()
    parsed = parse_plan(plan, level.agent_names)
    path = tmp_path / name
    save_replay(path, level, parsed, simulate(level, parsed, rules), {"kind": "test"})
    return load_replay(path)


def later_wait():
    """agent2 waits 8 instead of 7 from t = 13: the runs are the same until then."""
    plan = copy.deepcopy(small_plan())
    plan["agent2"][9] = {"action": "Wait", "duration": 8}
    return plan


def other_first_move():
    plan = copy.deepcopy(small_plan())
    plan["agent1"][0] = {"action": "MoveTo", "target": [2, 1]}
    return plan


@pytest.mark.parametrize(
    ("make", "expected"),
    [(small_plan, None), (later_wait, 13), (other_first_move, 0)],
    ids=["same", "t13", "t0"],
)
def test_first_divergence_at_a_known_time(tmp_path, make, expected):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, make(), "b.json")
    assert first_divergence(a.timeline, b.timeline, a.level.agent_names) == expected
    assert first_divergence(b.timeline, a.timeline, a.level.agent_names) == expected


def test_a_failed_run_differs_where_it_fails_to_match(tmp_path):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, small_plan(failed=True), "b.json")
    # agent1's action 5 is a Process in the failed plan, started at t = 6
    assert first_divergence(a.timeline, b.timeline, a.level.agent_names) == 6


def test_divergence_is_marked_and_d_jumps_there(surface, tmp_path):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, later_wait(), "b.json")
    pygame.event.clear()
    screen = CompareScreen(a, b, labels=("a.json", "b.json"))
    app = App(screen, surface)
    app.step(0.0)
    assert any(m.time == 13 and m.colour == DIVERGE for m in screen.markers)
    key(app, pygame.K_d)
    assert screen.transport.t == 13
    key(app, pygame.K_HOME)
    button = screen.buttons["diverge"]
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=button.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    )
    app.step(0.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1))
    app.step(0.0)
    app.step(0.0)
    assert screen.transport.t == 13
    assert not screen.rules_warning


def test_metric_differences_side_by_side(tmp_path):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, small_plan(failed=True), "b.json")
    lines = metric_differences(a.result, b.result, a.level.agent_names)
    # B stopped at its error at t = 10: never ranked as 25 faster than A, which served
    assert lines[0] == "A served all at OCT 35, B failed at t = 10: no OCT to compare"
    assert "B -25" not in " ".join(lines)
    both = metric_differences(a.result, a.result | {"time": 30}, a.level.agent_names)
    assert both[0] == "OCT 35 vs 30 (B -5)"
    assert lines[1] == "served 1 vs 0 (B -1)"
    assert any(line.startswith("agent1 MD ") for line in lines)


def test_runs_under_different_rules_are_labelled_and_warned(surface, tmp_path):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, small_plan(), "b.json", rules="documented")
    pygame.event.clear()
    screen = CompareScreen(a, b)
    app = App(screen, surface)
    app.step(0.0)
    assert "paracook" in screen.rules_warning and "documented" in screen.rules_warning
    warn = screen.rects["diff"]
    assert warn.h == 52  # two lines: the differences and the warning
    pixel = surface.get_at((warn.x + 4, warn.y + 26 + 13))[:3]
    assert pixel == (96, 64, 10)


def test_wheel_zooms_both_charts_together(surface, tmp_path):
    a = replay_of(tmp_path, small_plan(), "a.json")
    b = replay_of(tmp_path, later_wait(), "b.json")
    pygame.event.clear()
    screen = CompareScreen(a, b)
    app = App(screen, surface)
    app.step(0.0)
    rect = screen.sides[1].rects["gantt"]
    pos = rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    app.step(0.0)
    assert screen.sides[1].gantt.zoomed and screen.sides[0].gantt.view == screen.sides[1].gantt.view
