"""Two agents hand an item over only where the other one can stand: slower than a helper behind
every counter, never slower than one agent walking it all the way."""

from __future__ import annotations

from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import kitchen

from game.levels.generator import generate_kitchen, task_level
from game.levels.suite import CATEGORIES, SuiteTask
from game.planners.solver import lower_bound
from game.planners.solver.bound.carry import Carry
from game.planners.solver.bound.team_carry import TeamCarry
from game.planners.solver.model import Geometry

STATIONS = {
    "X": {"name": "dispenser1", "provides": "lettuce"},
    "Y": {"name": "chopping_board1"},
    "A": {"name": "table1"},
    "B": {"name": "table2"},
    "C": {"name": "table3"},
    "P": {"name": "table4", "item": "plate"},
    "W": {"name": "serving_window"},
}


def test_two_agents_are_not_behind_every_counter():
    # two counters cut the top corridor; the way round below is long. With a helper behind each
    # counter the lettuce would cross in 2 steps, one agent walks 10, two agents need 8
    rows = ["###########", "#X.A..B..Y#", "#1###.##.2#", "#.........#", "###########"]
    level = kitchen(rows, STATIONS)
    a, b = "dispenser1", "chopping_board1"
    assert Carry(level).between(a, b) == 2
    assert TeamCarry(level).between(a, b) == 8
    assert Carry(level, handoffs=False).between(a, b) == 10


def test_three_rooms_need_three_agents():
    # rooms joined only by counters: the middle room has nobody to pass the lettuce on
    rows = ["#########", "#X1#..#2Y#", "#..A..B.W#", "#P.#..#..#", "#########"]
    rows = [r[:9] for r in rows]
    level = kitchen(rows, STATIONS, ("salad_basic",))
    assert TeamCarry(level).between("dispenser1", "chopping_board1") >= 10**9
    assert not lower_bound(level).finite


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(category=st.sampled_from(CATEGORIES), seed=st.integers(0, 10_000))
def test_between_a_helper_everywhere_and_walking_alone(category, seed):
    level = task_level(SuiteTask(category, seed, 2, 1), generate_kitchen(category, seed))
    team, free, geo = TeamCarry(level), Carry(level), Geometry(level)
    names = sorted(n for n in team.adjacent if geo.reachable(n))
    for a in names:
        for b in names:  # one agent can always walk it over from side to side
            assert free.between(a, b) <= team.between(a, b) <= geo.station_distance(a, b)


def test_from_where_they_stand():
    # the lettuce waits one step away from agent1; from there it is the same 8 steps over
    rows = ["###########", "#X.A..B..Y#", "#.###.##..#", "#1.......2#", "###########"]
    team = TeamCarry(kitchen(rows, STATIONS))
    assert team.from_start("dispenser1", "chopping_board1") == 9


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(category=st.sampled_from(CATEGORIES), seed=st.integers(0, 10_000))
def test_from_the_start_is_never_sooner_than_walking_there_first(category, seed):
    level = task_level(SuiteTask(category, seed, 2, 1), generate_kitchen(category, seed))
    team, geo = TeamCarry(level), Geometry(level)
    first = {n: min(geo.to_station[n][t] for t in geo.agent_tiles) for n in team.adjacent if geo.reachable(n)}
    for a in first:
        for b in first:
            assert first[a] + team.between(a, b) <= team.from_start(a, b)
