"""The hands bound's walks: to every place the orders need from where the agents start (a Steiner
tree and cuts), and the chopped meat's trip from the board to the pan."""

from __future__ import annotations

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from kitchens import kitchen

from game.planners.solver import lower_bound, solve
from game.planners.solver.bound.hand_bound import least_walking
from game.planners.solver.bound.visit_tree import visit_tree
from game.planners.solver.model import INF

SALAD = {
    "L": {"name": "dispenser1", "provides": "lettuce"},
    "C": {"name": "chopping_board1"},
    "P": {"name": "table1", "item": "plate"},
    "W": {"name": "serving_window"},
}
BURGER = {
    "B": {"name": "dispenser1", "provides": "bread"},
    "M": {"name": "dispenser2", "provides": "meat"},
    "C": {"name": "chopping_board1"},
    "S": {"name": "stove1", "item": "pan"},
    "P": {"name": "table1", "item": "plate"},
    "W": {"name": "serving_window"},
}


def corridor(n: int) -> set:
    return {(x, 0) for x in range(n)}


def test_the_tree_reaches_both_ends_of_a_corridor_from_the_middle():
    tiles = corridor(11)
    assert visit_tree(tiles, {(5, 0)}, [{(0, 0)}, {(10, 0)}]) == 10
    assert visit_tree(tiles, {(0, 0)}, [{(3, 0)}, {(10, 0)}]) == 10  # one way covers both


def test_each_agent_walks_to_the_places_near_it():
    tiles = corridor(11)
    assert visit_tree(tiles, {(0, 0), (10, 0)}, [{(1, 0)}, {(9, 0)}]) == 2


def test_a_place_of_a_kind_is_enough_and_a_start_next_to_one_needs_no_walk():
    tiles = corridor(11)
    assert visit_tree(tiles, {(5, 0)}, [{(0, 0), (7, 0)}]) == 2
    assert visit_tree(tiles, {(5, 0)}, [{(5, 0)}, {(8, 0)}]) == 3


def test_the_tree_branches_where_the_ways_to_two_places_part():
    tiles = {(x, y) for x in range(9) for y in range(9)}
    # out along the middle row and then up and down (8 + 4 + 4), not corner to corner (20)
    assert visit_tree(tiles, {(0, 4)}, [{(8, 0)}, {(8, 8)}]) == 16
    # the same with the branch far from the start, and a third place on the way
    assert visit_tree(tiles, {(0, 4)}, [{(8, 0)}, {(8, 8)}, {(4, 4)}]) == 16
    many = [{(x, 0)} for x in range(0, 9, 2)] + [{(x, 8)} for x in range(0, 9, 2)]
    assert visit_tree(tiles, {(0, 4)}, many) == 4 + 8 + 8 + 4  # the two far rows and the side


def test_a_kind_out_of_reach_gives_no_finite_tree():
    assert visit_tree(corridor(5), {(0, 0)}, [{(9, 9)}]) == INF


@settings(max_examples=examples(40), deadline=None)
@given(
    st.integers(3, 9),
    st.integers(3, 7),
    st.data(),
)
def test_the_tree_is_never_longer_than_a_walk_through_its_places(width, height, data):
    tiles = {(x, y) for x in range(width) for y in range(height)}
    start = data.draw(st.sampled_from(sorted(tiles)))
    places = data.draw(st.lists(st.sampled_from(sorted(tiles)), min_size=1, max_size=4))
    tree = visit_tree(tiles, {start}, [{p} for p in places])
    # visiting them in the drawn order on an open floor is one walk through all of them
    walk, at = 0, start
    for p in places:
        walk += abs(p[0] - at[0]) + abs(p[1] - at[1])
        at = p
    far = max(abs(p[0] - start[0]) + abs(p[1] - start[1]) for p in places)
    assert far <= tree <= walk


def test_an_agent_far_from_the_kitchen_walks_to_it():
    near = kitchen(["#L#C########", "#1..W#######", "#P..........", "############"], SALAD, ("salad_basic",))
    far = kitchen(["#L#C########", "#...W#######", "#P.........1", "############"], SALAD, ("salad_basic",))
    # from the far end the agent walks nine tiles before it reaches anything it needs
    assert least_walking(far) >= least_walking(near) + 7
    sol = solve(far, time_limit=0.5)
    assert sol.done and lower_bound(far).value <= sol.oct


def test_chopped_meat_is_carried_from_the_board_to_the_pan():
    near = kitchen(
        ["#########", "#MCSW...#", "#1......#", "#B.P....#", "#########"], BURGER, ("burger_basic",)
    )
    far = kitchen(
        ["#########", "#MC.W..S#", "#1......#", "#B.P....#", "#########"], BURGER, ("burger_basic",)
    )
    # the stove off in a corner: the meat walks there in a hand and the hand comes back
    assert least_walking(far) >= least_walking(near) + 5
    for level in (near, far):
        sol = solve(level, time_limit=0.5)
        assert sol.done and lower_bound(level).value <= sol.oct
