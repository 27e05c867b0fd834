"""The plan-editing model: queues, auto-inserted walks, undo/redo, live re-simulation."""

from __future__ import annotations

import pytest

from game.engine import Action, level_from_map
from game.levels import load_catalog
from game.ui.editor import EditRefused, PlanEditor, plan_problems

# x: 0 1 2 3 4 5 6        D dispenser (lettuce), C chopping board, S serving window,
# y0 W D W C W S W        T table with a plate, R plate return, K sink
# y1 W . . . . . W
# y2 T . . . . . W
# y3 W . . . . . R
# y4 W W K W W W W
SALAD_MAP = {
    "name": "test kitchen",
    "width": 7,
    "height": 5,
    "agents": [{"name": "agent1", "x": 1, "y": 1}, {"name": "agent2", "x": 4, "y": 3}],
    "tiles": (
        [
            {"x": 1, "y": 0, "type": "station", "name": "dispenser1", "provides": "lettuce"},
            {"x": 3, "y": 0, "type": "station", "name": "chopping_board1"},
            {"x": 5, "y": 0, "type": "station", "name": "serving_window"},
            {"x": 0, "y": 2, "type": "station", "name": "table1", "item": "plate"},
            {"x": 6, "y": 3, "type": "station", "name": "plate_return"},
            {"x": 2, "y": 4, "type": "station", "name": "sink"},
        ]
        + [
            {"x": x, "y": y, "type": "obstacle", "name": "wall"}
            for x, y in [
                (0, 0),
                (2, 0),
                (4, 0),
                (6, 0),
                (0, 1),
                (6, 1),
                (6, 2),
                (0, 3),
                (0, 4),
                (1, 4),
                (3, 4),
                (4, 4),
                (5, 4),
                (6, 4),
            ]
        ]
    ),
}


def salad_level(orders=("salad_basic",)):
    book = load_catalog()
    return level_from_map(SALAD_MAP, orders, [book[o] for o in dict.fromkeys(orders)], title="Test salad")


def cook_salad(ed: PlanEditor) -> None:
    """Serve one salad_basic with agent1 through editor calls only (result time 14)."""
    ed.select_agent("agent1")
    ed.queue_station("dispenser1")
    ed.queue_station("chopping_board1")
    ed.queue_station("chopping_board1", process=True)
    ed.queue_station("table1")
    ed.queue_station("chopping_board1")
    ed.queue_station("serving_window")


def test_station_click_walks_next_to_it_first():
    ed = PlanEditor(salad_level())
    ed.queue_station("dispenser1")  # agent1 starts next to the dispenser: no walk
    assert ed.queues["agent1"] == [Action("Interact", "dispenser1")]
    ed.queue_station("chopping_board1")
    assert ed.queues["agent1"][1:] == [Action("MoveTo", (3, 1)), Action("Interact", "chopping_board1")]
    assert ed.error is None
    assert ed.result.timeline.state_at(ed.result.time)["stations"]["chopping_board1"] == {
        "kind": "ingredient",
        "name": "lettuce",
        "state": "raw",
    }


def test_whole_order_served_and_timed():
    ed = PlanEditor(salad_level())
    cook_salad(ed)
    assert ed.result.done and ed.result.time == 14
    assert ed.queues["agent1"][3] == Action("Process", "chopping_board1")
    span = ed.span("agent1", 3)
    assert (span.start, span.end, span.status) == (2, 6, "done")


def test_error_is_reported_with_agent_and_action():
    ed = PlanEditor(salad_level())
    ed.queue_station("chopping_board1", process=True)  # nothing on the board
    assert not ed.result.done
    assert ed.error.agent == "agent1" and ed.error.action_index == 1
    assert ed.error.kind == "process_failed"
    assert ed.span("agent1", 1).status == "failed"


def test_insert_before_selected_action_uses_position_at_that_point():
    ed = PlanEditor(salad_level())
    ed.queue_move((5, 3))
    ed.queue_station("serving_window")  # walks from (5,3) to (5,1)
    assert ed.queues["agent1"][1] == Action("MoveTo", (5, 1))
    ed.select_action(0)
    ed.queue_station("dispenser1")  # before the first MoveTo: agent stands at (1,1), adjacent
    assert ed.queues["agent1"][0] == Action("Interact", "dispenser1")
    assert ed.selected == 1 and ed.queues["agent1"][1] == Action("MoveTo", (5, 3))
    assert ed.position_before("agent1", 1) == (1, 1)
    assert ed.position_before("agent1", 4) == (5, 1)


def test_nearest_access_tile_is_by_walking_distance():
    ed = PlanEditor(salad_level())
    ed.select_agent("agent2")  # at (4,3)
    ed.queue_station("table1")  # only floor neighbour of table1 is (1,2)
    assert ed.queues["agent2"][0] == Action("MoveTo", (1, 2))
    ed.queue_station("sink")  # from (1,2): (2,3) is the only floor neighbour of the sink
    assert ed.queues["agent2"][2] == Action("MoveTo", (2, 3))


def test_undo_redo_every_edit_and_resimulate():
    ed = PlanEditor(salad_level())
    cook_salad(ed)
    done_plan = ed.plan
    ed.select_action(2)
    ed.delete()
    assert not ed.result.done
    ed.queue_wait(3)
    assert ed.queues["agent1"][2] == Action("Wait", duration=3)
    assert ed.undo() and ed.undo()
    assert ed.plan == done_plan and ed.result.done and ed.result.time == 14
    assert ed.redo()
    assert not ed.result.done
    n = len(ed.queues["agent1"])
    for _ in range(20):
        ed.undo()
    assert ed.action_count == 0 and not ed.can_undo
    while ed.redo():
        pass
    assert len(ed.queues["agent1"]) == n + 1


def test_delete_without_selection_removes_last_and_selection_follows():
    ed = PlanEditor(salad_level())
    ed.queue_move((2, 2))
    ed.queue_move((3, 3))
    ed.queue_move((4, 2))
    assert ed.delete() and ed.queues["agent1"][-1] == Action("MoveTo", (3, 3))
    ed.select_action(0)
    ed.delete()
    assert ed.queues["agent1"] == [Action("MoveTo", (3, 3))] and ed.selected == 0
    ed.delete()
    assert ed.queues["agent1"] == [] and ed.selected is None
    assert not ed.delete()


def test_wait_duration_adjusts_and_never_goes_negative():
    ed = PlanEditor(salad_level())
    ed.queue_wait(2)
    ed.select_action(0)
    assert ed.adjust_wait(+1) and ed.queues["agent1"][0].duration == 3
    assert ed.adjust_wait(-5) and ed.queues["agent1"][0].duration == 0
    assert not ed.adjust_wait(-1)  # already 0: no change, no undo step
    assert ed.result.time == 0
    ed.undo()
    assert ed.queues["agent1"][0].duration == 3
    with pytest.raises(EditRefused):
        ed.queue_wait("soon")


def test_refused_edits_change_nothing():
    ed = PlanEditor(salad_level())
    for bad in [(0, 0), (3, 0), (9, 9)]:
        with pytest.raises(EditRefused):
            ed.queue_move(bad)
    with pytest.raises(EditRefused):
        ed.queue_station("stove7")
    assert ed.action_count == 0 and not ed.can_undo


def test_end_point_shows_position_and_held_item():
    ed = PlanEditor(salad_level())
    ed.queue_station("dispenser1")
    ed.queue_move((3, 2))
    end = ed.end_point("agent1")
    assert end.pos == (3, 2) and end.known
    assert end.held == {"kind": "ingredient", "name": "lettuce", "state": "raw"}
    ed.select_action(0)
    ed.queue_station("serving_window")  # fails: the rest never runs
    end = ed.end_point("agent1")
    assert end.pos == (3, 2) and not end.known
    assert ed.end_point("agent2") == type(end)((4, 3), None, True)


def test_plan_problems_name_agent_action_and_reason():
    level = salad_level()
    plan, problems = plan_problems(
        level,
        {
            "agent1": [{"action": "MoveTo", "target": [0, 0]}, {"action": "Interact", "target": "stove1"}],
            "agent2": [{"action": "Wait", "duration": -2}],
        },
    )
    assert plan is None
    assert problems == [
        "agent1 action 0 (MoveTo): (0, 0) is not a floor tile in this kitchen",
        "agent1 action 1 (Interact): this kitchen has no station called 'stove1'",
        "agent2 action 0 (Wait): duration -2 is not a number >= 0",
    ]
    _, problems = plan_problems(level, {"agent9": [], "agent1": [{"action": "MoveTo", "target": [0, 0]}]})
    assert problems == [
        "agent9: no such agent in this level (agents: agent1, agent2)",
        "agent1 action 0 (MoveTo): (0, 0) is not a floor tile in this kitchen",
    ]
    _, problems = plan_problems(level, [1, 2])
    assert problems == ["the plan must be an object mapping agent names to action lists"]
    plan, problems = plan_problems(level, {"plan": {"agent2": [{"action": "MoveTo", "target": [2, 2]}]}})
    assert problems == [] and plan["agent2"] == (Action("MoveTo", (2, 2)),) and plan["agent1"] == ()
