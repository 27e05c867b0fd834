"""A talking run's replay shows its messages at their times, through the app's own loop."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from test_replay_viewer import key, open_viewer

from game.engine import parse_plan, simulate
from game.levels import load_level
from game.replay import load_replay, save_replay
from game.ui.render import palette as P

ROOT = Path(__file__).resolve().parents[1]
MESSAGES = [
    {
        "round": 1,
        "sender": "agent1",
        "receivers": ["agent2"],
        "text": "Please put the pan on table2.",
        "time": 0,
    },
    {"round": 2, "sender": "agent2", "receivers": ["agent1"], "text": "The pan is on table2.", "time": 2},
]


@pytest.fixture(scope="module")
def surface():
    pygame.init()
    return pygame.display.set_mode((1440, 900))


def talking_replay(tmp_path: Path, messages: list) -> Path:
    level = load_level(ROOT / "levels" / "collab" / "01_pan_across.yaml")
    ref = json.loads((ROOT / "levels" / "collab" / "references" / "01_pan_across.json").read_text())
    plan = parse_plan(ref, level.agent_names)
    path = tmp_path / "talk.json"
    source = {"kind": "llm", "model": "m", "method": "decentralized", "messages": messages}
    save_replay(path, level, plan, simulate(level, plan, record=True), source)
    return path


def colour_pixels(surface: pygame.Surface, rect: pygame.Rect, colour) -> int:
    return sum(
        surface.get_at((x, y))[:3] == colour
        for x in range(rect.x, rect.right, 2)
        for y in range(rect.y, rect.bottom)
    )


def test_messages_appear_at_their_times_in_the_sender_colour(surface, tmp_path):
    app, screen = open_viewer(surface, load_replay(talking_replay(tmp_path, MESSAGES)))
    key(app, pygame.K_HOME)
    rect = screen.rects["messages"]
    assert [m.sender for m in screen.messages.shown(screen.t)] == ["agent1"]
    assert colour_pixels(surface, rect, P.agent_colour(0)) > 20
    assert colour_pixels(surface, rect, P.agent_colour(1)) == 0
    key(app, pygame.K_END)
    assert len(screen.messages.shown(screen.t)) == 2
    assert colour_pixels(surface, rect, P.agent_colour(1)) > 20
    assert rect.bottom <= screen.rects["side"].bottom and screen.rects["queues"].bottom < rect.y


def test_a_run_without_messages_has_no_message_panel(surface, tmp_path):
    app, screen = open_viewer(surface, load_replay(talking_replay(tmp_path, [])))
    assert screen.messages is None and "messages" not in screen.rects
