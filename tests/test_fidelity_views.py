"""The views cope with a run stopped by an unreadable action: the replay viewer shows every
action before it, and the failing row and error box name the agent, index and problem."""

from __future__ import annotations

import pygame
from kitchens import it, mv, pr
from test_properties import LEVEL
from test_replay_viewer import SIZE, key, open_viewer

from game.engine import parse_plan, simulate
from game.engine.plan import plan_to_dict
from game.replay import Replay, load_replay, save_replay
from game.ui.render import palette as P
from game.ui.render.panels import error_highlight, error_lines

PLAN = {
    "agent1": [mv(1, 1), it("dispenser1"), mv(2, 1), it("chopping_board1"), pr("chopping_board1"), "Serve"],
    "agent2": [mv(3, 3), {"action": "Chop", "target": "chopping_board1"}, mv(1, 1)],
}


def test_error_highlight_ignores_targets_that_are_not_tiles():
    pygame.init()
    surface = pygame.display.set_mode(SIZE)
    for target in (["a", "b"], [1.5, 2], [True, 1]):
        plan = parse_plan({"agent1": [mv(1, 1), {"action": "MoveTo", "target": target}]}, LEVEL.agent_names)
        result = simulate(LEVEL, plan)
        state = result.timeline.state_at(result.time)
        assert error_highlight(LEVEL, result.to_dict(), state, result.time) == {(1, 1): P.ERROR}
    plan = parse_plan({"agent1": [mv(1, 1), {"action": "MoveTo", "target": ["a", "b"]}]}, LEVEL.agent_names)
    result = simulate(LEVEL, plan)
    app, screen = open_viewer(
        surface, Replay(LEVEL, plan_to_dict(plan), result.to_dict(), result.timeline, "paracook")
    )
    key(app, pygame.K_END)
    screen.draw(surface)


def test_replay_viewer_shows_the_run_up_to_an_unreadable_action(tmp_path):
    pygame.init()
    surface = pygame.display.set_mode(SIZE)
    plan = parse_plan(PLAN, LEVEL.agent_names)
    result = simulate(LEVEL, plan)
    assert result.error_detail.kind == "invalid_action" and result.error_detail.agent == "agent2"
    replay = load_replay(save_replay(tmp_path / "r.json", LEVEL, plan, result))
    assert replay.plan["agent1"][5] == {"action": '"Serve"'}  # stored as an object, still unreadable
    app, screen = open_viewer(surface, replay)
    key(app, pygame.K_END)
    assert screen.t == result.time
    lines = error_lines(replay.result)
    assert any("agent2 action 1" in line and "Chop" in line for line in lines)
    screen.draw(surface)  # the queues, Gantt chart and error box draw the unreadable rows
    assert result.agent_progress == {"agent1": "1/6", "agent2": "1/3"}
    assert screen.queues.ran == {"agent1": 1, "agent2": 1}  # as agent_progress counts them
    ran = [s.index for s in replay.timeline.spans if s.agent == "agent2" and s.status != "rejected"]
    assert ran == [0]
