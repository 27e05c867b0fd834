"""Every part of a dish reaches its plate: the plate is brought to the part or the part to the
plate, and the hands' program counts that walk; it still allows every way a plan can do it."""

from __future__ import annotations

import pytest
from kitchens import it, kitchen, mv, pr, wait

from game.engine import simulate
from game.planners.solver import lower_bound, solve
from game.planners.solver.bound import hand_bound
from game.planners.solver.bound import hands as hand_kinds
from game.planners.solver.bound.bounder import Bounder
from game.planners.solver.bound.hand_bound import least_walking
from game.planners.solver.exact import exact_optimum

STATIONS = {
    "M": {"name": "dispenser1", "provides": "meat"},
    "B": {"name": "dispenser2", "provides": "bread"},
    "R": {"name": "dispenser3", "provides": "rice"},
    "F": {"name": "dispenser4", "provides": "fish"},
    "N": {"name": "dispenser5", "provides": "nori"},
    "A": {"name": "dispenser6", "provides": "pasta"},
    "L": {"name": "dispenser7", "provides": "lettuce"},
    "C": {"name": "chopping_board1"},
    "S": {"name": "stove1", "item": "pan"},
    "O": {"name": "stove2", "item": "pot"},
    "E": {"name": "stove3"},
    "P": {"name": "table1", "item": "plate"},
    "T": {"name": "table2"},
    "Q": {"name": "table3", "item": "plate"},
    "W": {"name": "serving_window"},
}
# the plate and the window at one end, the cookware or the board at the other
BURGER = ["#########", "#PWBTCMS#", "#1......#", "#########"]
SUSHI = ["#########", "#PWN.CF.#", "#1......#", "#.....RO#", "#########"]
SALAD = ["#########", "#PW...CL#", "#1......#", "#########"]


def without_parts(monkeypatch, level) -> int | None:
    with monkeypatch.context() as m:
        m.setattr(hand_kinds, "parts", lambda b: [dict.fromkeys("CGN", 0) for _ in b.dishes])
        return least_walking(level)


@pytest.mark.parametrize(
    ("rows", "order"), [(BURGER, "burger_basic"), (SUSHI, "sushi_fish"), (SALAD, "salad_basic")]
)
def test_the_plate_and_the_parts_meet(monkeypatch, rows, order):
    level = kitchen(rows, STATIONS, (order,))
    # there and back across the kitchen: at least 4 more steps than a plate going straight to
    # the window next to it
    assert least_walking(level) >= without_parts(monkeypatch, level) + 4
    best = exact_optimum(level)
    assert best is not None and lower_bound(level).value <= best.oct


def test_a_plate_hand_for_every_part_met():
    def hands(order: str) -> tuple[str, ...]:
        return hand_kinds.plate_hands(Bounder(kitchen(BURGER, STATIONS, (order,))))

    assert hands("burger_basic") == ("P", "P1", "P2")  # the bread and the patty
    assert hands("pasta_meat") == ("P", "P1", "P2")  # what the pot and the pan cooked
    assert hands("salad_full") == ("P", "P1", "P2", "P3")  # three chopped
    assert hands("sushi_full") == ("P", "P1", "P2", "P3", "P4")


def test_a_dish_from_a_pot_and_a_pan():
    rows = ["##########", "#PW.AO.CM#", "#1.......#", "#......S.#", "##########"]
    level = kitchen(rows, STATIONS, ("pasta_meat",))
    sol = solve(level, time_limit=0.5)
    assert sol.done and lower_bound(level).value <= sol.oct


def test_food_is_taken_only_from_a_stove_it_was_brought_to(monkeypatch):
    # an empty stove stands beside the plate, the pan beside the board: a plate held at the
    # empty stove takes nothing from it unless the patty was brought there (which the program
    # still allows without a pan; it only has to carry the patty that far)
    rows = ["###########", "#PWEB..CMS#", "#1........#", "###########"]
    level = kitchen(rows, STATIONS, ("burger_basic",))
    with monkeypatch.context() as m:
        m.setattr(hand_bound, "settle", lambda flow: None)
        free = least_walking(level)
    assert least_walking(level) >= free + 1


def test_nothing_is_picked_up_or_put_down_where_nobody_walks(monkeypatch):
    # the tile between the bread and the board touches both: without `presence` a plate meets
    # the bread there and swaps places with another on the board, with nobody on that tile
    level = kitchen(["#########", "#PWB.CMS#", "#1......#", "#########"], STATIONS, ("burger_basic",))
    with monkeypatch.context() as m:
        m.setattr(hand_bound.HandProgram, "presence", lambda self: None)
        free = least_walking(level)
    assert least_walking(level) > free


def run(level, plan: list) -> tuple[float, float]:
    result = simulate(level, {"agent1": plan}, "paracook")
    assert result.done, result.error
    return result.time, result.agent_moving_time["agent1"]


def test_a_plan_that_tips_the_pan_onto_the_plate_stays_above_the_bound():
    level = kitchen(BURGER, STATIONS, ("burger_basic",))
    plan = [
        mv(3, 2), it("dispenser2"), mv(1, 2), it("table1"),  # bread onto the standing plate
        mv(6, 2), it("dispenser1"), mv(5, 2), it("chopping_board1"), pr("chopping_board1"),
        it("chopping_board1"), mv(7, 2), it("stove1"), wait(24),
        it("stove1"), mv(1, 2), it("table1"),  # the cooked pan carried over and tipped out
        mv(4, 2), it("table2"), mv(1, 2), it("table1"), mv(2, 2), it("serving_window"),
    ]  # fmt: skip
    oct_, walked = run(level, plan)
    assert lower_bound(level).value <= oct_
    assert least_walking(level) <= walked


def test_a_plan_that_pours_one_plate_onto_another_stays_above_the_bound():
    rows = ["##########", "#PWBT.CMS#", "#1.......#", "#.......Q#", "##########"]
    level = kitchen(rows, STATIONS, ("burger_basic",))
    plan = [
        mv(3, 2), it("dispenser2"), mv(1, 2), it("table1"),  # bread onto the plate by the window
        mv(7, 2), it("dispenser1"), mv(6, 2), it("chopping_board1"), pr("chopping_board1"),
        it("chopping_board1"), mv(8, 2), it("stove1"), wait(24),
        it("table3"), it("stove1"), it("table3"),  # the patty onto the plate by the stove
        mv(1, 2), it("table1"), mv(8, 2), it("table3"),  # the bread's plate takes the patty
        mv(2, 2), it("serving_window"),
    ]  # fmt: skip
    oct_, walked = run(level, plan)
    assert lower_bound(level).value <= oct_
    assert least_walking(level) <= walked
