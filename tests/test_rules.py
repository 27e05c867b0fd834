"""One test per rule and error of RULES.md, on a small hand-drawn kitchen."""

from __future__ import annotations

import pytest
from kitchens import it, kitchen, mv, pr, wait

from game.engine import errors as E
from game.engine import simulate

ROWS = ["#LCDPQ#", "T.....R", "S..1..W", "U.2...X", "#AEGH##"]
STATIONS = {
    "L": {"name": "dispenser1", "provides": "lettuce"},
    "C": {"name": "chopping_board1"},
    "D": {"name": "dispenser2", "provides": "meat"},
    "P": {"name": "stove1", "item": "pan"},
    "Q": {"name": "stove2", "item": "pot"},
    "T": {"name": "table1", "item": "plate"},
    "R": {"name": "dispenser3", "provides": "rice"},
    "S": {"name": "sink"},
    "W": {"name": "serving_window"},
    "U": {"name": "plate_return"},
    "X": {"name": "trash"},
    "A": {"name": "table2"},
    "E": {"name": "table3", "item": "pan"},
    "G": {"name": "table4", "item": "plate"},
    "H": {"name": "dispenser4", "provides": "tomato"},
}
SALAD = [
    mv(1, 1),
    it("dispenser1"),
    mv(2, 1),
    it("chopping_board1"),
    pr("chopping_board1"),
    it("chopping_board1"),
    mv(1, 1),
    it("table1"),
    it("table1"),
    mv(5, 2),
    it("serving_window"),
]


def level(*orders: str):
    return kitchen(ROWS, STATIONS, orders)


def run(plan, *orders, rules="paracook"):
    return simulate(level(*orders), plan, rules)


def final(result, key=None):
    state = result.timeline.states[-1]
    return state if key is None else state[key]


def held(result, agent="agent1"):
    return final(result, "agents")[agent]["held"]


def error_kind(result):
    return result.error_detail.kind if result.error_detail else None


# -- a whole dish ----------------------------------------------------------------------------
def test_salad_served_with_exact_timing():
    r = run({"agent1": SALAD}, "salad_basic")
    assert r.done and r.error is None
    assert r.time == 14
    assert r.agent_moving_time["agent1"] == 10 and r.agent_processing_time["agent1"] == 4
    assert r.agent_progress == {"agent1": "11/11", "agent2": "0/0"}
    assert r.finished_orders == ["salad_basic"] and r.remaining_orders == []
    assert r.last_serve_time == 14


# -- MoveTo -----------------------------------------------------------------------------------
def test_move_duration_is_bfs_length_and_zero_when_there():
    r = run({"agent1": [mv(3, 2), mv(5, 3), mv(1, 1)]})
    assert r.agent_moving_time["agent1"] == 0 + 3 + 6 and r.time == 9
    assert final(r, "agents")["agent1"]["pos"] == [1, 1]


@pytest.mark.parametrize("target", [(9, 9), (-1, 2), (0, 1), (0, 0)])
def test_move_to_non_floor_fails_at_start_and_is_not_counted(target):
    r = run({"agent1": [wait(2), mv(*target)]})
    assert error_kind(r) == E.UNREACHABLE
    assert r.time == 2 and r.agent_progress["agent1"] == "1/2"
    assert r.agent_moving_time["agent1"] == 0


def test_agents_share_tiles_and_cross_freely():
    r = run({"agent1": [mv(2, 3)], "agent2": [mv(3, 2)]})
    assert r.error is None and r.time == 2
    assert final(r, "agents")["agent1"]["pos"] == [2, 3]


# -- Interact checks at start -----------------------------------------------------------------
def test_unknown_target():
    r = run({"agent1": [it("oven9")]})
    assert error_kind(r) == E.UNKNOWN_TARGET and r.agent_progress["agent1"] == "0/1"


def test_not_adjacent():
    r = run({"agent1": [it("dispenser1")]})
    assert error_kind(r) == E.NOT_ADJACENT and r.agent_progress["agent1"] == "0/1"


def test_station_of_unknown_kind_is_not_a_station():
    stations = dict(STATIONS, A={"name": "counter"})
    r = simulate(kitchen(ROWS, stations), {"agent2": [mv(1, 3), it("counter")]})
    assert error_kind(r) == E.NOT_A_STATION


def test_wall_interact_fails_on_completion_and_process_at_start():
    # walls in map order: wall (0, 0), wall_1 (6, 0), wall_2 (0, 4), wall_3 (5, 4), wall_4 (6, 4)
    r = run({"agent1": [mv(5, 3), it("wall_3")]})
    assert error_kind(r) == E.BAD_INTERACT and r.agent_progress["agent1"] == "2/2"
    assert r.error.endswith("walls cannot be interacted with (wall_3 at (5, 4))")
    r = run({"agent1": [mv(5, 3), pr("wall_3")]})
    assert error_kind(r) == E.NO_PROCESS and r.agent_progress["agent1"] == "1/2"


def test_a_wall_name_means_that_one_wall():
    # "wall" is the first wall, (0, 0): far from (5, 3) although wall_3 is next to it
    r = run({"agent1": [mv(5, 3), it("wall")]})
    assert error_kind(r) == E.NOT_ADJACENT and r.agent_progress["agent1"] == "1/2"
    r = run({"agent1": [mv(5, 3), it("wall_5")]})
    assert error_kind(r) == E.UNKNOWN_TARGET


# -- dispensers and the surface rule ----------------------------------------------------------
def test_dispenser_gives_raw_ingredient():
    r = run({"agent1": [mv(1, 1), it("dispenser1")]})
    assert held(r) == {"kind": "ingredient", "name": "lettuce", "state": "raw"}


def test_dispenser_top_works_as_a_surface():
    # put the lettuce back on the dispenser's top, then the next Interact picks it up again
    r = run({"agent1": [mv(1, 1), it("dispenser1"), it("dispenser1")]})
    assert held(r) is None
    assert final(r, "stations")["dispenser1"]["name"] == "lettuce"
    r = run({"agent1": [mv(1, 1), it("dispenser1"), it("dispenser1"), it("dispenser1")]})
    assert held(r)["name"] == "lettuce" and final(r, "stations")["dispenser1"] is None


def test_empty_hand_on_empty_surface_is_an_error():
    r = run({"agent2": [mv(1, 3), it("table2")]})
    assert error_kind(r) == E.BAD_INTERACT and r.agent_progress["agent2"] == "2/2"


def test_ingredient_goes_onto_plate_on_surface_and_plate_picks_up_ingredient():
    r = run({"agent1": [mv(1, 1), it("dispenser1"), it("table1")]})
    assert final(r, "stations")["table1"]["contents"] == [
        {"kind": "ingredient", "name": "lettuce", "state": "raw"}
    ]
    # holding a plate, an ingredient on the surface goes into it
    r = run(
        {
            "agent1": [
                mv(1, 1),
                it("dispenser1"),
                mv(1, 3),
                it("table2"),
                mv(3, 3),
                it("table4"),
                mv(1, 3),
                it("table2"),
            ]
        }
    )
    assert held(r)["kind"] == "plate" and held(r)["contents"][0]["name"] == "lettuce"
    assert final(r, "stations")["table2"] is None


def test_container_on_container_moves_contents_onto_the_plate():
    # plate held, pan on surface: the pan's contents come onto the plate (here: none), no error
    r = run({"agent2": [mv(3, 3), it("table4"), mv(2, 3), it("table3")]})
    assert r.error is None and held(r, "agent2")["kind"] == "plate"
    # pan held, pan on surface: error
    r = run({"agent1": [mv(4, 1), it("stove1"), mv(2, 3), it("table3")]})
    assert error_kind(r) == E.BAD_INTERACT


def test_two_ingredients_do_not_combine():
    r = run(
        {
            "agent1": [
                mv(1, 1),
                it("dispenser1"),
                mv(2, 1),
                it("chopping_board1"),
                mv(1, 1),
                it("dispenser1"),
                mv(2, 1),
                it("chopping_board1"),
            ]
        }
    )
    assert error_kind(r) == E.BAD_INTERACT


# -- chopping -----------------------------------------------------------------------------------
def test_chopping_takes_four_and_errors_on_completion_when_empty():
    r = run({"agent1": [mv(2, 1), pr("chopping_board1")]})
    assert error_kind(r) == E.PROCESS_FAILED
    assert r.time == 4 + 2 and r.agent_processing_time["agent1"] == 4
    assert r.agent_progress["agent1"] == "2/2"


def test_chopping_twice_fails_because_not_raw():
    r = run(
        {
            "agent1": [
                mv(1, 1),
                it("dispenser1"),
                mv(2, 1),
                it("chopping_board1"),
                pr("chopping_board1"),
                pr("chopping_board1"),
            ]
        }
    )
    assert error_kind(r) == E.PROCESS_FAILED and r.time == 3 + 1 + 8


def test_board_in_use_while_another_agent_chops():
    rows = ["#LC####", "T.....R", "S.1...W", "U2....X", "#AEGH##"]
    lv = kitchen(rows, STATIONS)
    # agent1 puts lettuce on the board at t=3 and chops 3..7; agent2 reaches it at t=4
    r = simulate(
        lv,
        {
            "agent1": [mv(1, 1), it("dispenser1"), mv(2, 1), it("chopping_board1"), pr("chopping_board1")],
            "agent2": [wait(1), mv(2, 1), it("chopping_board1")],
        },
    )
    assert error_kind(r) == E.STATION_IN_USE and r.time == 4
    assert r.error_detail.agent == "agent2" and r.error_detail.action_index == 2
    # at t=7 the chop has ended (agent1 handled first): agent2 may take the chopped lettuce
    r = simulate(
        lv,
        {
            "agent1": [mv(1, 1), it("dispenser1"), mv(2, 1), it("chopping_board1"), pr("chopping_board1")],
            "agent2": [wait(4), mv(2, 1), it("chopping_board1")],
        },
    )
    assert r.error is None and held(r, "agent2")["state"] == "chopped"


def test_same_instant_board_conflict_goes_to_the_earlier_registered_agent():
    rows = ["#LC#M##", "T...2.R", "S1.....", "U.....X", "#AEGH##"]
    stations = dict(STATIONS, M={"name": "dispenser9", "provides": "lettuce"})
    lv = kitchen(rows, stations)
    chop = [it("chopping_board1"), pr("chopping_board1")]
    # agent1: ->(1,1) 0..1, lettuce, ->(2,1) 1..2: registered for t=2 at t=1.
    # agent2: lettuce at t=0, ->(2,1) 0..2: registered for t=2 at t=0, so it goes first
    # although agent1 comes first in map order.
    plan = {
        "agent1": [mv(1, 1), it("dispenser1"), mv(2, 1)] + chop,
        "agent2": [it("dispenser9"), mv(2, 1)] + chop,
    }
    r = simulate(lv, plan)
    assert r.time == 2 and error_kind(r) == E.STATION_IN_USE
    assert r.error_detail.agent == "agent1" and r.error_detail.action_index == 3
    # one step later for agent2: agent1 takes the board and agent2 is the one refused
    plan["agent2"] = [it("dispenser9"), wait(1), mv(2, 1)] + chop
    r = simulate(lv, plan)
    assert r.time == 3 and r.error_detail.agent == "agent2"


def test_first_registered_agent_wins_a_same_instant_conflict():
    # both reach table1's side at t=3. agent2's MoveTo was registered at t=0, agent1's at t=1,
    # so agent2 is handled first (despite map order) and takes the plate; agent1 then finds
    # the table empty.
    plan = {"agent1": [mv(3, 1), mv(1, 1), it("table1")], "agent2": [mv(1, 1), it("table1")]}
    r = run(plan)
    assert r.time == 3 and error_kind(r) == E.BAD_INTERACT
    assert r.error_detail.agent == "agent1"
    assert held(r, "agent2")["kind"] == "plate"


# -- stoves and cookware ------------------------------------------------------------------------
def rice_in_pot(extra=()):
    return [mv(5, 1), it("dispenser3"), it("stove2"), *extra]


def test_pot_cooks_rice_by_itself_in_sixteen():
    r = run({"agent1": rice_in_pot([wait(15)])})
    assert final(r, "stations")["stove2"]["contents"][0]["state"] == "raw"
    r = run({"agent1": rice_in_pot([wait(16)])})
    assert final(r, "stations")["stove2"]["contents"][0]["state"] == "cooked"


def test_cooking_only_advances_at_event_times():
    # the rice is done at t=19 but nothing happens until the next event
    r = run({"agent1": rice_in_pot([wait(16), wait(5)])})
    states = dict(zip(r.timeline.times, r.timeline.states, strict=True))
    assert states[19]["stations"]["stove2"]["contents"][0]["state"] == "cooked"
    assert states[19]["stations"]["stove2"]["processed"] == 16


def test_pan_takes_only_chopped_pan_ingredients():
    r = run({"agent1": [mv(3, 1), it("dispenser2"), mv(4, 1), it("stove1")]})
    assert error_kind(r) == E.COOKWARE_REJECTS
    r = run({"agent1": [mv(5, 1), it("dispenser3"), mv(4, 1), it("stove1")]})
    assert error_kind(r) == E.COOKWARE_REJECTS


def test_pot_rejects_chopped_rice_and_lettuce():
    chop_rice = [
        mv(5, 1),
        it("dispenser3"),
        mv(2, 1),
        it("chopping_board1"),
        pr("chopping_board1"),
        it("chopping_board1"),
        mv(5, 1),
        it("stove2"),
    ]
    r = run({"agent1": chop_rice})
    assert error_kind(r) == E.COOKWARE_REJECTS


def test_meat_cooks_in_pan_and_moves_to_plate():
    plan = [
        mv(3, 1),
        it("dispenser2"),
        mv(2, 1),
        it("chopping_board1"),
        pr("chopping_board1"),
        it("chopping_board1"),
        mv(4, 1),
        it("stove1"),
        wait(24),
        mv(1, 1),
        it("table1"),
        mv(4, 1),
        it("stove1"),
    ]
    r = run({"agent1": plan})
    assert r.error is None
    assert held(r)["contents"] == [{"kind": "ingredient", "name": "meat", "state": "cooked"}]
    assert final(r, "stations")["stove1"]["contents"] == []


def test_stove_interactions():
    r = run({"agent1": [mv(4, 1), it("stove1"), it("stove1"), it("stove1")]})
    assert r.error is None and held(r)["kind"] == "pan"  # pick up, put back, pick up
    # a plate held over a stove with a pan takes the pan's contents (none here): no error
    r = run({"agent1": [mv(1, 1), it("table1"), mv(4, 1), it("stove1")]})
    assert r.error is None and held(r)["kind"] == "plate"
    # pan held over a plate on a table: the pan's contents move onto the plate
    r = run({"agent1": [mv(4, 1), it("stove1"), mv(1, 1), it("table1")]})
    assert r.error is None and held(r)["kind"] == "pan"


def test_empty_stove_takes_only_cookware():
    park_pan = [mv(4, 1), it("stove1"), mv(1, 3), it("table2")]
    r = run({"agent1": park_pan + [mv(4, 1), it("stove1")]})
    assert error_kind(r) == E.BAD_INTERACT  # empty hand, empty stove
    r = run({"agent1": park_pan + [mv(1, 1), it("table1"), mv(4, 1), it("stove1")]})
    assert error_kind(r) == E.BAD_INTERACT  # a plate cannot go on a stove
    r = run({"agent1": [mv(4, 1), it("stove1"), mv(2, 3), it("table3")]})
    assert error_kind(r) == E.BAD_INTERACT  # pan held, pan on the table


def test_process_on_stove_starts_and_fails_on_completion():
    r = run({"agent1": [mv(4, 1), pr("stove1")]})
    assert error_kind(r) == E.PROCESS_FAILED and r.time == 2 + 24
    assert r.agent_processing_time["agent1"] == 24
    r = run({"agent1": [mv(5, 1), pr("stove2")]})
    assert error_kind(r) == E.PROCESS_FAILED and r.time == 3 + 16
    r = run({"agent1": [mv(4, 1), it("stove1"), pr("stove1")]})
    assert error_kind(r) == E.NO_PROCESS and r.agent_progress["agent1"] == "2/3"


def test_process_on_table_is_rejected_at_start():
    r = run({"agent1": [mv(1, 1), pr("table1")]})
    assert error_kind(r) == E.NO_PROCESS and r.agent_processing_time["agent1"] == 0


def test_paracook_cooking_counts_time_off_the_stove():
    # rice added at t=3 on the stove. Pot lifted at t=4 (processed 1, stamp 4), put back at t=18.
    # Next event t=20: d = 20 - 4 = 16 -> processed 17 >= 16: cooked.
    plan = rice_in_pot([wait(1), it("stove2"), wait(14), it("stove2"), wait(2)])
    pc = run({"agent1": plan}, rules="paracook")
    assert final(pc, "stations")["stove2"]["contents"][0]["state"] == "cooked"
    # documented: only 1 + 2 = 3 units on a stove: still raw
    doc = run({"agent1": plan}, rules="documented")
    assert final(doc, "stations")["stove2"]["contents"][0]["state"] == "raw"
    assert final(doc, "stations")["stove2"]["processed"] == 3


def test_paracook_reused_pot_finishes_second_batch_at_once_documented_resets():
    # batch 1 cooked by t=19; moved to a plate; batch 2 added at t=30 (stamp stays 19)
    plan = rice_in_pot(
        [
            wait(16),
            mv(1, 1),
            it("table1"),
            mv(5, 1),
            it("stove2"),
            mv(1, 1),
            it("table1"),
            mv(5, 1),
            it("dispenser3"),
            it("stove2"),
            wait(1),
        ]
    )
    pc = run({"agent1": plan}, rules="paracook")
    assert pc.error is None
    t_add = [s.start for s in pc.timeline.spans if s.action == it("stove2")][-1]
    pot = final(pc, "stations")["stove2"]
    assert pot["contents"][0]["state"] == "cooked" and t_add + 1 == pc.time
    doc = run({"agent1": plan}, rules="documented")
    pot = final(doc, "stations")["stove2"]
    assert pot["contents"][0]["state"] == "raw" and pot["processed"] == 1 and pot["required"] == 16


def test_trash_empties_containers_and_deletes_other_items():
    r = run({"agent1": [mv(1, 1), it("dispenser1"), mv(5, 3), it("trash")]})
    assert r.error is None and held(r) is None
    r = run({"agent1": [mv(1, 1), it("dispenser1"), it("table1"), it("table1"), mv(5, 3), it("trash")]})
    assert held(r) == {"kind": "plate", "contents": []}
    r = run({"agent1": [mv(5, 3), it("trash")]})
    assert error_kind(r) == E.BAD_INTERACT


def test_documented_trash_resets_cookware_paracook_keeps_counters():
    plan = rice_in_pot([wait(4), it("stove2"), mv(5, 3), it("trash")])
    pc = run({"agent1": plan}, rules="paracook")
    assert held(pc)["required"] == 16 and held(pc)["contents"] == []
    doc = run({"agent1": plan}, rules="documented")
    assert held(doc)["required"] == 0 and held(doc)["processed"] == 0 and not held(doc)["cooking"]


# -- serving and the plate cycle -----------------------------------------------------------------
def test_serving_at_time_zero_is_an_error():
    rows = ["#LCDPQ#", "T.....R", "S....1W", "U.2...X", "#AEGH##"]
    r = simulate(kitchen(rows, STATIONS, ("salad_basic",)), {"agent1": [it("serving_window")]})
    assert error_kind(r) == E.SERVE_TOO_EARLY and r.time == 0


def test_serving_needs_a_plate_and_an_order():
    r = run({"agent1": [mv(5, 2), it("serving_window")]}, "salad_basic")
    assert error_kind(r) == E.NOT_A_PLATE
    r = run({"agent1": SALAD})  # no orders at all
    assert error_kind(r) == E.NO_ORDER_LEFT


def test_wrong_dish_and_out_of_order():
    r = run({"agent1": SALAD}, "sashimi_fish")
    assert error_kind(r) == E.WRONG_DISH and r.remaining_orders == ["sashimi_fish"]
    r = run({"agent1": SALAD}, "salad_advanced", "salad_basic")  # right dish, wrong turn
    assert error_kind(r) == E.WRONG_DISH
    r = run({"agent1": SALAD[:5] + SALAD[6:]}, "salad_basic")  # lettuce left on the board
    assert error_kind(r) == E.NOT_A_PLATE  # the plate was picked up and put back down


def test_served_plate_returns_dirty_ten_later_and_washes_clean():
    wash = [mv(1, 3), wait(10), it("plate_return"), mv(1, 2), it("sink"), pr("sink"), it("sink")]
    r = run({"agent1": SALAD + wash}, "salad_basic")
    assert r.error is None, r.error
    assert held(r) == {"kind": "plate", "contents": []}
    assert r.agent_processing_time["agent1"] == 4 + 6
    # before the return is due the plate return is empty
    early = run({"agent1": SALAD + [mv(1, 3), wait(1), it("plate_return")]}, "salad_basic")
    assert error_kind(early) == E.BAD_INTERACT


def test_dirty_plate_appears_at_first_event_after_due():
    r = run({"agent1": SALAD, "agent2": [wait(30)]}, "salad_basic")
    states = dict(zip(r.timeline.times, r.timeline.states, strict=True))
    assert states[14]["pending_returns"] == [24]
    assert states[30]["dirty_plates"] == {"plate_return": 1}


def test_sink_rules():
    r = run({"agent1": [mv(1, 2), it("sink")]})
    assert error_kind(r) == E.BAD_INTERACT  # no clean plate
    r = run({"agent1": [mv(1, 2), pr("sink")]})
    assert error_kind(r) == E.PROCESS_FAILED and r.time == 2 + 6
    r = run({"agent1": [mv(1, 1), it("table1"), mv(1, 2), it("sink")]})
    assert error_kind(r) == E.BAD_INTERACT  # a clean plate cannot go into the sink


def test_sinks_exclusive_only_in_documented():
    rows = ["#LCDPQ#", "T.....R", "S..1..W", "U2....X", "#AEGH##"]
    lv = kitchen(rows, STATIONS)
    plan = {"agent1": [mv(1, 2), pr("sink")], "agent2": [mv(1, 2), wait(1), pr("sink")]}
    pc = simulate(lv, plan, "paracook")
    assert error_kind(pc) == E.PROCESS_FAILED and pc.error_detail.agent == "agent1"
    doc = simulate(lv, plan, "documented")
    assert error_kind(doc) == E.STATION_IN_USE and doc.error_detail.agent == "agent2"


def test_plate_return_takes_nothing():
    r = run({"agent1": [mv(1, 1), it("dispenser1"), mv(1, 3), it("plate_return")]})
    assert error_kind(r) == E.BAD_INTERACT


# -- Wait, Finish, time ------------------------------------------------------------------------
def test_wait_defaults_to_one_and_rejects_bad_durations_at_start():
    r = run({"agent1": [{"action": "Wait"}, wait(2.5)]})
    assert r.time == 3.5 and r.agent_waiting_time["agent1"] == 3.5
    for bad in (-1, "3", None, True):
        r = run({"agent1": [wait(1), wait(bad)]})
        assert error_kind(r) == E.BAD_DURATION and r.time == 1
        assert r.agent_progress["agent1"] == "1/2" and r.agent_waiting_time["agent1"] == 1


def test_finish_marks_agent_and_later_actions_still_run():
    r = run({"agent1": [{"action": "Finish"}, wait(3)]})
    assert r.time == 3 and final(r, "agents")["agent1"]["finished"]


def test_oct_is_last_event_in_paracook_last_serve_in_documented():
    plan = {"agent1": SALAD, "agent2": [wait(40)]}
    assert run(plan, "salad_basic").time == 40
    doc = run(plan, "salad_basic", rules="documented")
    assert doc.done and doc.time == 14


def test_run_with_no_actions_ends_at_zero():
    r = run({}, "salad_basic")
    assert r.time == 0 and not r.done and r.agent_progress == {"agent1": "0/0", "agent2": "0/0"}


def test_error_leaves_later_agents_unapplied_but_counted():
    # agent1 fails at t=2 (not adjacent); agent2's MoveTo also ends at t=2 but is handled later
    plan = {"agent1": [mv(1, 2), it("dispenser1")], "agent2": [mv(3, 3), wait(1)]}
    r = run(plan)
    assert error_kind(r) == E.NOT_ADJACENT and r.time == 2
    # agent2's Wait (registered at t=1) ends at 2 too but is handled after agent1: counted
    assert r.agent_moving_time["agent2"] == 1 and r.agent_progress["agent2"] == "2/2"
    assert r.agent_waiting_time["agent2"] == 1
    plan = {"agent1": [mv(1, 2), it("dispenser1")], "agent2": [mv(4, 3)]}
    r = run(plan)
    assert r.agent_progress["agent2"] == "1/1"
    assert final(r, "agents")["agent2"]["pos"] == [2, 3]  # arrival at t=2 not applied


def test_metrics_fields():
    r = run({"agent1": SALAD, "agent2": [wait(2)]}, "salad_basic")
    d = 7 + 5
    assert r.t_max == 3 * d + 4 + d and r.d_max == 3 * d + d
    assert r.md == {"agent1": 10, "agent2": 0}
    assert r.au == {"agent1": 1.0, "agent2": 0.0}
