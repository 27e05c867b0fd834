"""The washes' work after the dirty plates come back (`late_work`), and the wash a team can start
before the plate is in the sink: both stay at most the OCT of every valid plan."""

from __future__ import annotations

from kitchens import TWO_PLATES_STATIONS, it, kitchen, mv, pr, wait

from game.engine import simulate
from game.engine.kitchen import RETURN_DELAY, WASH_TIME
from game.planners.solver import lower_bound
from game.planners.solver.bound.bounder import Bounder
from game.planners.solver.bound.late_work import late_work, wash_work
from game.planners.solver.bound.route_bound import route_bound
from game.planners.solver.exact import exact_optimum

# the lettuce, board, plates and window of `kitchens`, with a sink and a plate return
STATIONS = TWO_PLATES_STATIONS | {"S": {"name": "sink1"}, "R": {"name": "plate_return1"}}
# the sink, the plate return and the window all beside the tile (2, 2)
SMALL = ["#L.##", "P..C#", "#S.R#", "##W##"]


def small(agents: str, orders: int):
    rows = [SMALL[0], "P1.C#", f"#S{agents}R#", SMALL[3]]
    return kitchen(rows, STATIONS, ("salad_basic",) * orders)


def test_a_team_may_start_the_wash_before_the_plate_is_in_the_sink():
    # under `paracook` a sink is not exclusive and a wash's effect is checked when it ends:
    # agent2 starts washing the empty sink, agent1 puts the dirty plate in just before that ends
    level = small("2", 2)
    a1 = [it("dispenser1"), mv(2, 1), it("chopping_board1"), pr("chopping_board1")]
    a1 += [it("chopping_board1"), mv(1, 1), it("table1"), it("table1"), mv(2, 2), it("serving_window")]
    a1 += [mv(1, 1), it("dispenser1"), mv(2, 1), it("chopping_board1"), pr("chopping_board1")]
    a1 += [mv(2, 2), wait(2), it("plate_return1"), it("sink1")]  # the dirty plate at 18, into the sink
    a2 = [
        wait(12.5),
        pr("sink1"),
        it("sink1"),
        mv(2, 1),
        it("chopping_board1"),
        mv(2, 2),
        it("serving_window"),
    ]
    result = simulate(level, {"agent1": a1, "agent2": a2}, "paracook", record=False)
    assert result.done and result.time == 20.5  # the wash took 0.5 of the plate's time, not 6
    assert not simulate(level, {"agent1": a1, "agent2": a2}, "documented", record=False).done
    assert lower_bound(level).value <= result.time
    # the routes relaxation (per rule set) lets the wash start early under `paracook` only
    assert lower_bound(level, "paracook", routes=True).value <= result.time < 22
    assert route_bound(level, "documented") == 22  # exclusive sinks: the plate is in before the wash


def test_the_late_work_of_a_lone_agent_on_a_small_kitchen():
    # one plate, two salads: the second waits for the first's plate, back RETURN_DELAY after
    # the serve; the lone agent carries it to the sink (no step: the same tile), washes it and
    # carries it to the window (no step either)
    level = small(".", 2)
    b = Bounder(level)
    b.bound()
    assert wash_work(b) == WASH_TIME
    late = late_work(level, b)
    assert late == b.serves[0] + RETURN_DELAY + WASH_TIME
    best = exact_optimum(level)
    assert best is not None and late <= best.oct == 26


def test_the_late_work_counts_every_wash_after_the_first_plate_comes_back():
    # two plates, four salads, one agent: both washes come after the first serve's plate is back
    level = kitchen(["#L.C##", "P1...Q", "S....#", "#R.W##"], STATIONS, ("salad_basic",) * 4)
    b = Bounder(level)
    b.bound()
    late = late_work(level, b)
    assert late == b.serves[0] + RETURN_DELAY + 2 * wash_work(b)
    assert late > b.serves[1] + RETURN_DELAY + wash_work(b)  # more than the second wash alone
    assert late <= 59  # the exact optimum (`exact_optimum`, 15 s)


def test_a_level_washing_no_plate_has_no_late_work():
    assert late_work(small(".", 1)) == 0
