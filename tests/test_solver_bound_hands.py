"""The hands bound (one thing in a hand at a time) never exceeds a valid plan's OCT, and it counts
the walking back that the other bounds leave out."""

from __future__ import annotations

import json

import pytest
from conftest import human_cases
from kitchens import it, kitchen, mv, pr, wait

from game.engine import simulate
from game.levels import load_level
from game.planners.solver import lower_bound, solve
from game.planners.solver.bound.hand_bound import hand_bound, least_walking

SALAD = {
    "L": {"name": "dispenser1", "provides": "lettuce"},
    "C": {"name": "chopping_board1"},
    "P": {"name": "table1", "item": "plate"},
    "W": {"name": "serving_window"},
}


def test_the_walk_back_for_the_plate_is_counted():
    # lettuce over to the board (2), back for the plate (2), the plate over to the window (2):
    # with the chopping, 10, which an exhaustive search finds to be the optimum
    level = kitchen(["#L#C#", "#1..W", "#P###"], SALAD, ("salad_basic",))
    assert least_walking(level) == 6
    assert hand_bound(level) == 10
    assert lower_bound(level).terms["hands"] == 10


def test_more_dishes_mean_more_trips():
    rows = ["#L#C#", "#1..W", "#P###"]
    one = hand_bound(kitchen(rows, SALAD, ("salad_basic",)))
    stations = {**SALAD, "Q": {"name": "table2", "item": "plate"}}
    two = hand_bound(kitchen(["#L#C#", "#1..W", "#PQ##"], stations, ("salad_basic",) * 2))
    assert two > one


def test_a_hand_over_through_a_counter_is_allowed_for():
    # two rooms joined by a counter only: every ingredient and plate crosses it from hand to hand
    rows = ["#########", "#1.L#C..#", "#...T..W#", "#.P.#..2#", "#########"]
    stations = {**SALAD, "P": {"name": "table2", "item": "plate"}, "T": {"name": "table1"}}
    level = kitchen(rows, stations, ("salad_basic",))
    plan = {
        "agent1": [mv(3, 2), it("dispenser1"), it("table1"), mv(2, 2), it("table2"), mv(3, 2), wait(3)]
        + [it("table1")],
        "agent2": [mv(5, 2), it("table1"), it("chopping_board1"), pr("chopping_board1")]
        + [it("chopping_board1"), wait(2), it("table1"), it("table1"), mv(6, 2), it("serving_window")],
    }
    result = simulate(level, plan, record=False)
    assert result.done and result.time == 10
    assert 0 < hand_bound(level) <= result.time
    assert lower_bound(level).value <= result.time  # two agents: hand-overs where they can stand


@pytest.mark.parametrize("case", human_cases(), ids=lambda c: str(c[0].relative_to(c[0].parents[3])))
def test_never_above_the_human_oct(case):
    """The hands term of the level's bound (`hand_bound`, as the bound works it out: the same
    value), which the run works out once for every test of these levels."""
    human, map_file, orders = case
    level = load_level(map_file, orders)
    record = json.loads(human.read_text())
    hands = lower_bound(level).terms["hands"]
    assert 0 < hands <= record["time"]
    other = simulate(level, record["plan"], "documented", record=False)
    if other.done:
        assert hands <= other.time


@pytest.mark.parametrize(
    "rows,stations,orders",
    [
        (["#L#.#", "#1..W", "#P###"], SALAD, ("salad_basic",)),  # no chopping board
        (["#L#C#", "#1..#", "#P###"], SALAD, ("salad_basic",)),  # no serving window
        (["#L#C#", "#1#.W", "#P###"], SALAD, ("salad_basic",)),  # the window out of reach
        (["#.#C#", "#1..W", "#P###"], SALAD, ("salad_basic",)),  # no lettuce
        (["#L#C#", "#1..W", "#.###"], SALAD, ("salad_basic",)),  # no plate
        (["#L#C#", "#1..W", "#P###"], SALAD, ()),  # nothing ordered
    ],
)
def test_a_level_it_cannot_read_gives_nothing_and_never_fails(rows, stations, orders):
    assert hand_bound(kitchen(rows, stations, orders)) == 0


def test_the_same_level_gives_the_same_value():
    rows = ["#L#C#", "#1..W", "#P###"]
    first = kitchen(rows, SALAD, ("salad_basic",))
    again = kitchen(rows, SALAD, ("salad_basic",))  # a different object, the same content
    assert hand_bound(first) == hand_bound(again) == least_walking(again) + 4


def test_a_window_gets_the_bound_worked_out_in_the_background(monkeypatch):
    from game.planners.solver.bound import lower as bound

    level = kitchen(["#L#C#", "#1..W", "#P###"], SALAD, ("salad_basic",))
    bound.warm_known_bound(level, "paracook").join(timeout=30)
    monkeypatch.setattr(bound, "lower_bound", lambda *a: pytest.fail("worked out twice"))
    assert bound.known_bound(kitchen(["#L#C#", "#1..W", "#P###"], SALAD, ("salad_basic",)), "paracook") == 10


def test_a_level_that_breaks_the_bound_shows_none(monkeypatch):
    from game.planners.solver.bound import lower as bound

    def broken(*args):
        raise ZeroDivisionError("a level nobody thought of")

    monkeypatch.setattr(bound, "lower_bound", broken)
    level = kitchen(["#L#C#", "#1..W", "#P.##"], SALAD, ("salad_basic",))
    assert bound.known_bound(level, "documented") is None


def test_pasta_walks_to_the_pot_alone():
    stations = {
        "A": {"name": "dispenser1", "provides": "pasta"},
        "T": {"name": "dispenser2", "provides": "tomato"},
        "C": {"name": "chopping_board1"},
        "S": {"name": "stove1", "item": "pot"},
        "N": {"name": "stove2", "item": "pan"},
        "P": {"name": "table1", "item": "plate"},
        "W": {"name": "serving_window"},
    }
    far = kitchen(["###########", "#SNCTPW...A#", "#1.........#", "###########"], stations, ("pasta_tomato",))
    near = kitchen(
        ["###########", "#SANCTPW...#", "#1.........#", "###########"], stations, ("pasta_tomato",)
    )
    # the pasta crosses the kitchen to the pot in a hand, nine tiles, and the hand comes back
    assert least_walking(far) >= least_walking(near) + 9
    for level in (far, near):
        # the plans of a budget of 0.5 (OCT 46 and 38), without the routes relaxation they need not
        sol = solve(level, time_limit=0.1, routes=False)
        assert sol.done and hand_bound(level) <= sol.oct
