"""Level options (burn_after, serve_within, can_use) and the progress score."""

from __future__ import annotations

import json

import pytest
from conftest import human_cases
from kitchens import it, kitchen, mv, pr, wait
from test_rules import ROWS, SALAD, STATIONS

from game.engine import errors as E
from game.engine import simulate
from game.levels import load_level

MEAT_ON_STOVE = [
    mv(3, 1),
    it("dispenser2"),
    mv(2, 1),
    it("chopping_board1"),
    pr("chopping_board1"),
    it("chopping_board1"),
    mv(4, 1),
    it("stove1"),
]  # t=8


def level(*orders, **options):
    return kitchen(ROWS, STATIONS, orders).replace(options=options)


def pan(result):
    return result.timeline.states[-1]["stations"]["stove1"]


def test_food_burns_after_the_window_on_the_stove():
    ok = simulate(level(burn_after=5), {"agent1": MEAT_ON_STOVE + [wait(24), wait(5)]})
    assert pan(ok)["contents"][0]["state"] == "cooked" and pan(ok)["cooked_at"] == 32
    burnt = simulate(level(burn_after=5), {"agent1": MEAT_ON_STOVE + [wait(24), wait(6)]})
    assert pan(burnt)["contents"][0]["state"] == "burnt"
    plain = simulate(level(), {"agent1": MEAT_ON_STOVE + [wait(24), wait(60)]})
    assert pan(plain)["contents"][0]["state"] == "cooked" and "cooked_at" not in pan(plain)


def test_burnt_food_must_go_to_the_trash_before_the_pan_is_reused():
    plan = MEAT_ON_STOVE + [
        wait(30),
        mv(3, 1),
        it("dispenser2"),
        mv(2, 1),
        it("chopping_board1"),
        pr("chopping_board1"),
        it("chopping_board1"),
        mv(4, 1),
        it("stove1"),
    ]
    r = simulate(level(burn_after=5), {"agent1": plan})
    assert r.error_detail.kind == E.COOKWARE_REJECTS and "burnt" in r.error
    # with the pan emptied at the trash first it works
    trash = [it("stove1"), mv(5, 3), it("trash"), mv(4, 1), it("stove1")]
    plan = MEAT_ON_STOVE + [wait(30)] + trash + plan[len(MEAT_ON_STOVE) + 1 :]
    r = simulate(level(burn_after=5), {"agent1": plan})
    assert r.error is None and pan(r)["contents"][0]["state"] == "chopped"


def test_a_burnt_dish_matches_no_recipe():
    plate = [mv(1, 1), it("table1"), mv(4, 1), it("stove1"), mv(5, 2), it("serving_window")]
    r = simulate(level("burger_basic", burn_after=5), {"agent1": MEAT_ON_STOVE + [wait(40)] + plate})
    assert r.error_detail.kind == E.WRONG_DISH and "meat:burnt" in r.error


def test_serve_within_names_the_dish_and_the_overrun():
    # the lettuce is chopped at t=8 and served at t=14
    assert simulate(level("salad_basic", serve_within=6), {"agent1": SALAD}).done
    r = simulate(level("salad_basic", serve_within=5), {"agent1": SALAD})
    assert r.error_detail.kind == E.STALE_DISH and r.time == 14
    assert "salad_basic is 1 too late" in r.error


def test_can_use_restricts_station_kinds_at_the_start():
    lv = level("salad_basic", can_use={"agent1": ["table", "serving_window"]})
    r = simulate(lv, {"agent1": [it("dispenser1")]})  # not even adjacent: the role comes first
    assert r.error_detail.kind == E.NOT_ALLOWED and r.time == 0
    assert (
        r.error == "agent1 action 0 (Interact): agent1 may not use dispensers "
        "(allowed: table, serving_window)"
    )
    assert r.agent_progress["agent1"] == "0/1"
    r = simulate(lv, {"agent2": [mv(1, 2), pr("sink")]})  # agent2 has no restriction
    assert r.error_detail.kind == E.PROCESS_FAILED


@pytest.mark.parametrize("cut, expected", [(0, 0), (2, 0), (5, 1 / 3), (6, 1 / 3), (8, 2 / 3), (11, 1)])
def test_progress_of_partial_plans(cut, expected):
    r = simulate(level("salad_basic"), {"agent1": SALAD[:cut]})
    assert r.progress == pytest.approx(expected)
    assert r.done == (expected == 1)


def test_progress_counts_every_order():
    # two salads ordered, one served: 3 of 6 units
    r = simulate(level("salad_basic", "salad_basic"), {"agent1": SALAD})
    assert r.progress == pytest.approx(3 / 6)


@pytest.mark.parametrize("case", human_cases(), ids=lambda c: c[0].stem)
def test_progress_is_monotone_and_one_for_every_golden_plan(case):
    human, map_file, orders = case
    r = simulate(load_level(map_file, orders), json.loads(human.read_text()))
    series = [s["progress"] for s in r.timeline.states]
    assert series == sorted(series) and r.progress == 1.0 and series[-1] == 1.0
