"""The built-in planner: every plan it returns serves all orders in the engine, deterministically,
and it beats the recorded humans where the study measured them."""

from __future__ import annotations

import json

import pytest
from conftest import PARACOOK, ROOT, examples, human_cases, need_paracook, shared_solve, sweep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import kitchen
from test_solver_bound_plating import STATIONS as SUSHI_STATIONS

from game.engine import parse_plan, simulate
from game.levels import load_level
from game.levels.generator import generate_kitchen, task_level
from game.levels.suite import CATEGORIES, SuiteTask
from game.planners.solver import Bound, Planner, Solution, lower_bound, solve
from game.planners.solver.planner import MIN_BUDGET

SAMPLE = [  # (category, seed, agents, orders): every category, 1-3 agents, up to 4 orders
    ("salad", 42, 1, 4),
    ("sashimi", 84, 3, 3),
    ("pasta", 126, 2, 4),
    ("burrito", 128, 3, 2),
    ("sushi", 256, 1, 3),
    ("burger", 42, 2, 4),
]


def paracook_level(cat: str, seed: int, agents: int, orders: int):
    root = need_paracook()
    table = json.loads((root / "orders.json").read_text())
    return load_level(
        root / "maps" / cat / f"seed_{seed}" / f"agent_num_{agents}.json",
        table[f"{cat}/seed_{seed}/orders_num_{orders}"],
    )


def least_search(level, rules: str, exact: bool = True) -> Solution:
    """The planner's plan on its least budget of schedules (`MIN_BUDGET`), with no lower bound
    worked out (seconds on a kitchen of its own): for tests of the search's plan where the
    bound's estimated cost takes all or nearly all of the limit `solve` would have, which leaves
    its search this budget or about it (the same plan). A bound of 0 handed in costs nothing off
    the limit and never ends the search early (no plan here reaches the real one)."""
    run = Planner(level, rules, time_limit=0.01, bound=Bound(0, {}), exact=exact)
    for _ in run.steps():
        pass
    assert run.budget == MIN_BUDGET
    return run.solution()


_PLANNED: dict[tuple, Solution] = {}


def planned(task: tuple, rules: str) -> Solution:
    """The planner's plan of a sample level at 0.1 s, kept for the test below that plans it again."""
    if (task, rules) not in _PLANNED:
        _PLANNED[task, rules] = solve(paracook_level(*task), rules, time_limit=0.1)
    return _PLANNED[task, rules]


@pytest.mark.parametrize("rules", ["paracook", "documented"])
@sweep("task", SAMPLE, ids=lambda t: f"{t[0]}-{t[1]}-a{t[2]}-o{t[3]}")
def test_plan_serves_every_order_in_the_engine(task, rules):
    level = paracook_level(*task)
    sol = planned(task, rules)
    assert sol.done, sol.note
    again = simulate(level, sol.plan, rules, record=False)  # an independent run of the plan JSON
    assert again.done and again.error is None
    assert again.finished_orders == list(level.orders)
    assert again.time == sol.oct == sol.predicted  # the planner's own timing is the engine's
    assert sol.bound.value <= sol.oct


def test_same_level_and_limit_give_the_same_plan():
    level = paracook_level(*SAMPLE[-1])  # its bound is worked out for the test above already
    # the first plan is the test above's (its rules are the level's), where this process made it
    a, b = planned(SAMPLE[-1], level.rules), solve(level, time_limit=0.1)
    assert a.plan == b.plan and a.oct == b.oct and a.evaluations == b.evaluations


def test_the_search_past_its_start_schedules_gives_the_same_plan_every_run():
    """At 0.1 s the test above never gets past the start schedules; here the search's random
    moves run too (a bound of 0 handed in: nothing worked out, nothing stops the search early)."""
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import build_tasks

    level = load_level(ROOT / "levels" / "suite" / "burger" / "seed_42" / "agent_num_2" / "orders_num_2.yaml")
    model = KitchenModel(level, "paracook")
    starts = len(Search(model, build_tasks(model), budget=10, seed=1).start_genomes())
    runs = []
    for _ in range(2):
        run = Planner(level, "paracook", time_limit=1, bound=Bound(0, {}), exact=False)
        for _ in run.steps():
            pass
        runs.append(run.solution())
    a, b = runs
    assert a.evaluations > starts  # 374 schedules, 240 of them the starts
    assert a.plan == b.plan and a.oct == b.oct and a.evaluations == b.evaluations


HUMAN = [
    c
    for c in human_cases()
    if c[0].parts[-4] in ("burger", "pasta", "sushi")
    and c[0].stem == "orders_num_2"
    and c[0].parts[-3] == "seed_42"
]


@sweep("case", HUMAN, ids=lambda c: c[0].parts[-4])
def test_faster_than_the_recorded_human(case):
    human, map_file, orders = case
    level = load_level(map_file, orders)
    sol = solve(level, "paracook", time_limit=0.2)
    human_oct = json.loads(human.read_text())["time"]
    assert sol.done and sol.oct < human_oct


def test_human_cases_are_present_for_the_comparison():
    need_paracook()
    assert len(HUMAN) == 3 and PARACOOK.is_dir()


# -- small kitchens -------------------------------------------------------------------------
STATIONS = {
    "L": {"name": "dispenser1", "provides": "lettuce"},
    "M": {"name": "dispenser2", "provides": "meat"},
    "B": {"name": "dispenser3", "provides": "bread"},
    "C": {"name": "chopping_board1"},
    "S": {"name": "stove1", "item": "pan"},
    "P": {"name": "table1", "item": "plate"},
    "T": {"name": "table2"},
    "Q": {"name": "table3", "item": "plate"},
    "W": {"name": "serving_window"},
    "K": {"name": "sink"},
    "R": {"name": "plate_return"},
}


def test_one_plate_is_washed_between_orders():
    level = kitchen(
        ["#LCPW#", "#....#", "#1..2#", "#KR..#"], STATIONS, ("salad_basic", "salad_basic", "salad_basic")
    )
    sol = solve(level, time_limit=0.3)
    assert sol.done
    served = sol.result.served_times
    assert served[1] >= served[0] + 10 + 6  # the only plate came back dirty and was washed


def test_a_used_pan_cooks_the_next_patty_at_once_under_paracook_rules():
    # one pan: under `paracook` its counters never reset, so the second patty is done almost at
    # once; under `documented` it needs its own 24
    level = kitchen(
        ["#MCSPQW#", "#......#", "#..1...#", "#B.....#"], STATIONS, ("burger_basic", "burger_basic")
    )
    fast, slow = solve(level, "paracook", 0.2), solve(level, "documented", 0.2)  # 60 and 74, as at 0.5
    assert fast.done and slow.done
    assert fast.oct + 10 <= slow.oct


def test_a_pan_used_again_after_it_finished_counts_from_when_the_engine_saw_it_finish():
    # one agent, four pasta dishes, one pan: fish and prawn go in at different times, and the
    # engine stops a finished pan's count at its next event; the planner's timing must agree
    level = load_level(ROOT / "levels" / "suite" / "pasta" / "seed_128" / "agent_num_1" / "orders_num_4.yaml")
    sol = least_search(level, "paracook")  # the plan of `solve` at 0.3 s: its bound is estimated at 1.3 s
    assert sol.done, sol.note
    assert sol.predicted == sol.oct  # the schedule ran in the engine exactly as it was timed


def test_a_level_that_cannot_be_served_says_why():
    level = kitchen(["#MCPW#", "#1...#"], STATIONS, ("burger_basic",))  # no stove, no bread
    sol = solve(level, time_limit=0.1)
    assert not sol.done
    assert "bread" in sol.note or "pan" in sol.note
    assert sol.result.remaining_orders == ["burger_basic"]


def test_the_bound_is_met_where_the_plan_is_obviously_optimal():
    # one agent next to the lettuce: fetch (1 step), board, chop 4, plate, window
    level = kitchen(["#LCPW#", "#1...#"], STATIONS, ("salad_basic",))
    sol = solve(level, time_limit=0.2)
    assert sol.done
    assert lower_bound(level).value == sol.oct


# agent1 makes a salad beside its plate; the window is behind a wall and a table, 7 steps round
# for agent1 but 2 from the table's far side, where agent2 stands
PASS_ROWS = ["#########", "#LCP#2..#", "#1..T...W", "#.......#", "#########"]


def test_a_dish_is_handed_over_a_table_when_that_serves_it_sooner():
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    sol = solve(level, time_limit=0.2)
    assert sol.done
    assert sol.oct == lower_bound(level).value  # as soon as the chopping allows: optimal
    assert sol.plan["agent1"][-1] == {"action": "Interact", "target": "table2"}
    assert [a["target"] for a in sol.plan["agent2"] if a["action"] == "Interact"] == [
        "table2",
        "serving_window",
    ]


# agent2 starts beside the table on agent1's side; the window is beside its far side, 6 steps round
FAR_SIDE_ROWS = ["#########", "#C12T.W.#", "#L..#...#", "#P......#", "#.......#", "#########"]


@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_an_agent_that_would_wait_at_a_table_waits_on_the_side_nearer_where_it_goes_next(rules):
    # agent1 chops the lettuce, plates it and puts it on the table; agent2, who would wait for it
    # anyway, walks round to the window's side meanwhile and serves at 11 (from its own side, 13)
    sol = solve(kitchen(FAR_SIDE_ROWS, STATIONS, ("salad_basic",)), rules, time_limit=0.3)
    assert sol.done and sol.oct == 11
    assert sol.plan["agent2"][0] == {"action": "MoveTo", "target": [5, 1]}
    assert sol.plan["agent2"][-2:] == [
        {"action": "Interact", "target": "table2"},
        {"action": "Interact", "target": "serving_window"},
    ]


def test_a_hand_over_is_tried_only_over_tables_that_shorten_the_way_to_the_window():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.decoder import Decoder
    from game.planners.solver.schedule.tasks import build_tasks

    model = KitchenModel(kitchen(PASS_ROWS, STATIONS, ("salad_basic",)), "paracook")
    dec = Decoder(model, build_tasks(model))
    tile = model.geo.index
    assert dec.pass_tables(tile[(3, 2)], "serving_window") == ["table2"]  # beside it: 7 vs 0 + 2
    assert dec.pass_tables(tile[(7, 2)], "serving_window") == []  # at the window already
    assert dec.partners(0) == [1] and dec.partners(1) == [0]


def test_the_search_starts_both_serving_and_handing_over_only_for_teams_with_tables():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import FLIP, Search
    from game.planners.solver.schedule.tasks import PASS, SERVE, build_tasks, serve_key

    def starts(rows):
        model = KitchenModel(kitchen(rows, STATIONS, ("salad_basic",)), "paracook")
        return Search(model, build_tasks(model), budget=10, seed=1).start_genomes()

    team = starts(PASS_ROWS)
    ways = [g.method[serve_key(0)] for g in team]
    assert ways.count(SERVE) == ways.count(PASS) == len(team) // 2
    assert FLIP[SERVE] == PASS and FLIP[PASS] == SERVE
    alone = starts(["#LCPW#", "#1...#", "#.T..#"])
    assert all(serve_key(0) not in g.method for g in alone)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    category=st.sampled_from(CATEGORIES),
    seed=st.integers(0, 10_000),
    agents=st.integers(2, 3),
    orders=st.integers(1, 4),
    rules=st.sampled_from(["paracook", "documented"]),
)
def test_hand_overs_and_pans_filled_at_the_board_run_in_the_engine_as_scheduled(
    category, seed, agents, orders, rules
):
    start_schedules_run_exactly(category, seed, agents, orders, rules)


@pytest.mark.parametrize(
    "category,seed,agents,orders,rules",
    [
        # a later-placed task put prawn into a pan before the last dish's plate had emptied it
        ("pasta", 2621, 3, 4, "paracook"),
        # `documented` resets a pan once emptied: prawn added after the fish had finished
        # cooking counts from when the engine saw that, not from the fish
        ("pasta", 7738, 2, 3, "documented"),
    ],
)
def test_start_schedules_that_once_mixed_up_pans_run_exactly(category, seed, agents, orders, rules):
    start_schedules_run_exactly(category, seed, agents, orders, rules)


def test_a_pan_filled_out_of_time_order_counts_as_the_engine_does():
    """A pan done at 53 (first food in at 29), prawn in at 97, fish at 103: the engine notices the
    prawn done at its first event after 97 (98), so the fish counts from 98 and is done at 122,
    whichever of the two the schedule placed first (it places tasks out of time order)."""
    from game.planners.solver.schedule.timing import Batch, Cookware

    events = [29, 53, 90, 97, 98, 103, 110]
    in_order, out_of_order = Cookware("pan"), Cookware("pan")
    for t in (29, 97, 103):
        in_order.add(t, events)
    for t in (29, 103, 97):
        out_of_order.add(t, events)
    for pan in (in_order, out_of_order):
        assert (pan.origin, pan.done, pan.count) == (98, 2, 3)
        assert pan.ready(Batch(dish=2, last_t=103, cum=3)) == 122


def start_schedules_run_exactly(category, seed, agents, orders, rules) -> None:
    """Every start schedule of the search on a generated kitchen (served or handed over, pans
    carried or filled, food to chop handed over raw or not) runs in the engine to exactly the time
    it was planned for."""
    level = task_level(SuiteTask(category, seed, agents, orders), generate_kitchen(category, seed))
    starts_run_exactly(level, rules)


def starts_run_exactly(level, rules: str) -> None:
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.grounding import ground
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import HAND, SELF, build_tasks

    model = KitchenModel(level, rules)
    search = Search(model, build_tasks(model), budget=10, seed=1)
    seen = set()  # a decode depends on the genome's signature alone: each distinct one once
    ran = set()  # and the engine's run on the plan alone: each distinct plan timed alike once
    for g in search.start_genomes():
        handed = g.copy()  # the same start with every ingredient to chop handed over raw
        handed.method |= {k: HAND for k, way in g.method.items() if way == SELF}
        for genome in (g, handed):
            if genome.signature() in seen:
                continue
            seen.add(genome.signature())
            if (s := search.decoder.decode(genome)) is None:
                continue
            plan = ground(model.geo, s.ops, model.agent_names)
            if (key := (json.dumps(plan, sort_keys=True), s.makespan)) in ran:
                continue
            ran.add(key)
            result = simulate(level, parse_plan(plan, level.agent_names), rules, record=False)
            assert result.done and result.time == s.makespan, (result.error, s.makespan)


# agent1 is walled in beside the lettuce by a table; agents 2 and 3 reach the board and window
SHUT_IN = ["##########", "#L1.T...C#", "######P.##", "#23.....W#", "##########"]
# the same with the meat, chopped and cooked in a pan that stands, with the bread, below agent2
SHUT_IN_MEAT = ["##########", "#M1.T...C#", "######P.##", "#2......W#", "####BS####"]


@pytest.mark.parametrize(
    "rows,order,fetched,best",
    [(SHUT_IN, "salad_basic", "dispenser1", 17), (SHUT_IN_MEAT, "burger_basic", "dispenser2", 46)],
)
@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_raw_food_is_handed_over_a_table_to_be_chopped_where_its_fetcher_reaches_no_board(
    rows, order, fetched, best, rules
):
    level = kitchen(rows, STATIONS, (order,))
    sol = solve(level, rules, time_limit=0.2)
    assert sol.done  # no schedule was found before
    assert lower_bound(level, rules).value <= sol.oct <= best  # salad: the bound, so optimal
    assert [a["target"] for a in sol.plan["agent1"] if a["action"] == "Interact"] == [fetched, "table2"]
    choppers = [n for n, q in sol.plan.items() if {"action": "Process", "target": "chopping_board1"} in q]
    assert choppers and "agent1" not in choppers


def test_handing_raw_food_over_is_a_choice_of_teams_with_tables_started_where_it_is_needed():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import FLIP, Search
    from game.planners.solver.schedule.tasks import HAND, SELF, build_tasks, hand_key

    def starts(rows):
        model = KitchenModel(kitchen(rows, STATIONS, ("salad_basic",)), "paracook")
        search = Search(model, build_tasks(model), budget=10, seed=1)
        lettuce = next(n.id for n in model.needs if n.kind == "chop")
        return search, lettuce, search.start_genomes()

    _, lettuce, shut = starts(SHUT_IN)
    assert {g.method[hand_key(lettuce)] for g in shut} == {HAND}
    search, lettuce, free = starts(PASS_ROWS)  # agent1 fetches and chops beside the board
    assert {g.method[hand_key(lettuce)] for g in free} == {SELF}
    assert FLIP[SELF] == HAND and FLIP[HAND] == SELF
    g = free[0].copy()
    g.method[hand_key(lettuce)] = HAND  # flipped, the lettuce goes over table2 to agent2
    s = search.decoder.decode(g)
    assert s is not None and "table2" in [op.station for op in s.ops[0]]
    assert "chopping_board1" in [op.station for op in s.ops[1]]
    _, lettuce, alone = starts(["#LCPW#", "#1...#", "#.T..#"])
    assert all(hand_key(lettuce) not in g.method for g in alone)


# agent2 (below) fetches the meat and cooks it; only agent1 (above) reaches the board
CHOP_ABOVE = ["#CRPBQK#", "#1.....#", "#TUV#X##", "#....2.#", "##LM#SW#"]


@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_raw_meat_goes_over_a_table_to_be_chopped_and_back_over_one_to_be_cooked(rules):
    level = kitchen(CHOP_ABOVE, DIVIDED, ("burger_basic",))
    sol = solve(level, rules, time_limit=0.65)  # its bound is estimated at 0.14 s of that
    assert sol.done  # no schedule was found before
    assert lower_bound(level, rules).value <= sol.oct <= 37
    agent1 = [a["target"] for a in sol.plan["agent1"] if a["action"] == "Interact"]
    assert agent1[:4] == ["table2", "chopping_board1", "chopping_board1", "table2"]  # takes, chops, gives
    assert "stove1" in [a.get("target") for a in sol.plan["agent2"]]
    starts_run_exactly(level, rules)


# agent1 cooks the meat above, agent2 plates below: the pan is brought to the plate over the
# table and put back, after the last serve, which must not count
BRING_ROWS = ["#SLMCB#", "#1....#", "#####T#", "#2....#", "#PWKRQ#"]


def test_what_would_end_after_the_last_serve_is_left_out_of_the_plan():
    level = kitchen(BRING_ROWS, STATIONS, ("burger_basic",))
    starts_run_exactly(level, "paracook")  # the pan went back at 42 after the serve at 41
    sol = solve(level, "paracook", time_limit=0.2)
    assert sol.done and sol.oct == sol.result.last_serve_time


# two salads, one plate: the dirty plate comes back beside agent1, walled in, and the sink is
# on the far side of the table; or the other way round
DIRTY_SHUT_IN = ["##########", "#R1.T...K#", "######P.##", "#2......W#", "####LC####"]
SINK_SHUT_IN = ["##########", "#K1.T...R#", "######P.##", "#2......W#", "####LC####"]


@pytest.mark.parametrize("rows", [DIRTY_SHUT_IN, SINK_SHUT_IN])
@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_a_dirty_plate_is_handed_over_a_table_to_be_washed_where_one_agent_cannot_do_both(rows, rules):
    level = kitchen(rows, STATIONS, ("salad_basic", "salad_basic"))
    sol = solve(level, rules, time_limit=0.2)
    assert sol.done  # no schedule was found before
    assert lower_bound(level, rules).value <= sol.oct <= 42
    touched = [a["target"] for a in sol.plan["agent1"] if a["action"] == "Interact"]
    assert "table2" in touched and ("plate_return" in touched) == (rows is DIRTY_SHUT_IN)
    assert ("sink" in touched) == (rows is SINK_SHUT_IN)
    starts_run_exactly(level, rules)


# agent1 chops the meat beside the board; the pan is 6 steps away, beside agent2 and the window
PAN_ROWS = ["#MC.....S#", "#1......2#", "#B.P....W#"]


def test_a_pan_brought_to_the_board_cooks_on_the_way_back_under_paracook():
    level = kitchen(PAN_ROWS, STATIONS, ("burger_basic",))
    sol = solve(level, "paracook", time_limit=0.2)
    assert sol.done and sol.oct == lower_bound(level, "paracook").value  # optimal
    assert [a["target"] for a in sol.plan["agent2"] if a["action"] == "Interact"] == [
        "stove1",  # takes the empty pan
        "chopping_board1",  # the chopped meat goes into it: it cooks from now on
        "stove1",
    ]


def test_filling_the_pan_at_the_board_is_a_choice_of_teams_under_paracook_only():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import CARRY, FILL, build_tasks, fill_key

    def search(rules, rows=PAN_ROWS):
        model = KitchenModel(kitchen(rows, STATIONS, ("burger_basic",)), rules)
        return Search(model, build_tasks(model), budget=10, seed=1)

    team = search("paracook")
    meat = next(n.id for n in team.model.needs if n.kind == "pan")
    ways = [g.method[fill_key(meat)] for g in team.start_genomes()]
    assert ways.count(CARRY) == ways.count(FILL) > 0
    g = team.start_genomes()[0]
    carried, filled = g.copy(), g.copy()
    carried.method[fill_key(meat)], filled.method[fill_key(meat)] = CARRY, FILL
    # the pan cooks while agent2 carries it back: the dish is served sooner
    assert team.decoder.decode(filled).makespan < team.decoder.decode(carried).makespan
    assert all(fill_key(meat) not in g.method for g in search("documented").start_genomes())
    alone = search("paracook", ["#MC.....S#", "#1.......#", "#B.P....W#"])
    assert all(fill_key(meat) not in g.method for g in alone.start_genomes())


POT_ROWS = ["#OW......R#", "#1........#", "#NFCP....T#"]  # the rice far from its pot


def test_a_pot_taken_to_the_rice_cooks_on_the_way_back_under_paracook():
    level = kitchen(POT_ROWS, SUSHI_STATIONS, ("sushi_fish",))
    sol = solve(level, "paracook", time_limit=0.3, exact=False)
    carried = solve(level, "documented", time_limit=0.3, exact=False)  # cooking pauses off the stove
    assert sol.done and carried.done and sol.oct < carried.oct
    assert [a["target"] for a in sol.plan["agent1"] if a["action"] == "Interact"][:6] == [
        "stove2",  # takes the empty pot
        "table2",  # sets it down beside the rice
        "dispenser3",
        "table2",  # the rice goes into it: it cooks from now on
        "table2",  # takes it up again
        "stove2",
    ]


# the pan far from the window; beside the window a stove with a pot that no order needs
FAR_PAN_ROWS = ["#############", "#.WO.....CMS#", "#.1.......2.#", "#PB.T.......#", "#############"]


def beats_the_same_search_without_moves(level, oct_: float, monkeypatch) -> None:
    """The plan (`least_search`'s) is faster than the same search's with every pot and pan put
    back on its own stove, and every start schedule runs in the engine to exactly its planned time."""
    from game.planners.solver.schedule.ware_moves import WareMoves

    with monkeypatch.context() as m:
        m.setattr(WareMoves, "destinations", lambda self, stove: [None])
        kept = least_search(level, "paracook", exact=False)
    assert kept.done and oct_ < kept.oct
    starts_run_exactly(level, "paracook")


def test_a_pan_filled_at_the_board_is_moved_to_the_stove_beside_the_window(monkeypatch):
    level = kitchen(FAR_PAN_ROWS, SUSHI_STATIONS, ("burger_basic",))
    # the plan of `solve` at 0.3 s (its bound is estimated at 0.25 s: a budget of 1,079, the same plan)
    sol = least_search(level, "paracook", exact=False)
    assert sol.done
    acts = [a["target"] for a in sol.plan["agent1"] if a["action"] == "Interact"]
    moved = acts.index("stove2")  # lifts the pot no order needs off the stove by the window ...
    assert acts[moved : moved + 5] == [
        "stove2",
        "table2",  # ... sets it aside on the nearest table
        "stove1",  # takes the empty pan
        "chopping_board1",  # the chopped meat goes into it: it cooks from now on
        "stove2",  # puts it down beside the window
    ]
    beats_the_same_search_without_moves(level, sol.oct, monkeypatch)


@pytest.mark.parametrize("order", ["burger_basic", "pasta_meat"])
def test_a_pan_is_moved_onto_the_stove_of_the_only_pot_an_order_needs_only_if_the_pot_is_filled_at_the_food(
    order,
):
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import CARRY, FILL, build_tasks, fill_key

    rows = [*FAR_PAN_ROWS[:3], "#PB.TA......#", FAR_PAN_ROWS[4]]  # A: pasta
    model = KitchenModel(kitchen(rows, SUSHI_STATIONS, (order,)), "paracook")
    search = Search(model, build_tasks(model), budget=10, seed=1)
    starts = search.start_genomes()
    assert any(g.to_window for g in starts)
    pasta = [n.id for n in model.needs if n.kind == "pot"]
    seen = set()
    for genome in starts:
        for way in (CARRY, FILL):
            genome.method |= {fill_key(n): way for n in pasta}
            search.decoder.reset(genome)
            # the pot no order needs may always be set aside; the pasta's only pot only when it
            # is taken to the pasta, and from there to the stove the pan leaves (a swap)
            spare = not pasta or way == FILL
            expected = [None, "stove2"] if genome.to_window and spare else [None]
            assert search.decoder.destinations("stove1") == expected
            assert search.decoder.destinations("stove2") == [None]  # the pot is already by the window
            seen.add(tuple(expected))
    assert seen == {(None,), (None, "stove2")}


# the pot is by the window, the pan and the pasta at the far end, the board in between
SWAP_ROWS = ["#############", "#W.O.C....S.#", "#.1.......2.#", "#P...T.M..A.#", "#############"]


def test_the_pan_and_the_pot_swap_stoves_when_that_serves_sooner(monkeypatch):
    level = kitchen(SWAP_ROWS, SUSHI_STATIONS, ("pasta_meat",))
    sol = least_search(level, "paracook", exact=False)  # `solve`'s at 0.3 s: the bound, routes too, 2.8 s
    assert sol.done
    touched = {a: [x["target"] for x in acts if x["action"] == "Interact"] for a, acts in sol.plan.items()}
    mover = next(a for a, ts in touched.items() if ts[:2] == ["stove2", "table2"])  # the pot set aside
    assert touched[mover][2:5] == ["stove1", "chopping_board1", "stove2"]  # the pan filled, moved
    other = next(a for a in touched if a != mover)
    lift = touched[other].index("table2")  # the pot taken up again, filled with pasta, ...
    assert "dispenser6" in touched[other][lift:] and touched[other][-1] == "stove1"  # ... on stove1
    beats_the_same_search_without_moves(level, sol.oct, monkeypatch)


@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_filling_the_pot_at_the_food_is_a_choice_under_paracook_only(rules):
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import CARRY, FILL, build_tasks, fill_key

    level = kitchen(POT_ROWS, SUSHI_STATIONS, ("sushi_fish",))
    model = KitchenModel(level, rules)
    search = Search(model, build_tasks(model), budget=10, seed=1)
    rice = next(n.id for n in model.needs if n.kind == "pot")
    ways = [g.method.get(fill_key(rice)) for g in search.start_genomes()]
    if rules == "documented":
        assert set(ways) == {None}
    else:
        assert ways.count(CARRY) >= ways.count(FILL) > 0  # every other start
        best = {
            way: min(
                search.decoder.decode(g).makespan
                for g in search.start_genomes()
                if g.method[fill_key(rice)] == way
            )
            for way in (CARRY, FILL)
        }
        assert best[FILL] < best[CARRY]
    starts_run_exactly(level, rules)


# -- scenario and tutorial levels: hand-overs, roles, freshness, burning ------------------------
SCENARIOS = sorted((ROOT / "levels" / "scenarios").glob("*.yaml"))
TUTORIALS = sorted((ROOT / "levels" / "tutorial").glob("*.yaml"))


# Each scenario's planner limit. At 2 s, once the one limit of them all (the least that beat every
# reference plan), the planner's OCTs are these, reached from the least limit (of 0.1, 0.25, 0.5,
# 0.6, 1, 1.25, 1.5 and 2) given; each scenario has twice that least limit, or 2 where that is more:
#                          paracook       documented     reference plan
#   01_divided_salad       26 from 0.1    26 from 0.1    38
#   02_divided_burgers     43 from 0.1    43 from 0.1    44
#   03_roles_pasta         58 from 0.1    58 from 0.1    59
#   04_roles_dishwasher    63 from 0.6    65 from 1.5    68  (67 below either)
#   05_burn_burgers        60 from 0.1    63 from 0.1    64
#   06_fresh_salads        49 from 1.25   45 from 1.5    52  (57 at 1 either way: slower)
SCENARIO_LIMITS = {
    ("04_roles_dishwasher", "paracook"): 1.2,
    ("04_roles_dishwasher", "documented"): 2,
    ("06_fresh_salads", "paracook"): 2,
    ("06_fresh_salads", "documented"): 2,
}


def scenario_limit(path, rules: str) -> float:
    return SCENARIO_LIMITS.get((path.stem, rules), 0.25)


@pytest.mark.parametrize("rules", ["paracook", "documented"])
@sweep("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenarios_are_served_at_least_as_fast_as_their_reference_plan(path, rules):
    level = load_level(path)
    # under `paracook` test_scenarios plans the same (shared once a run); under `documented` it is
    # planned here alone
    sol = shared_solve(level, rules, time_limit=scenario_limit(path, rules))
    assert sol.done, sol.note
    assert simulate(level, sol.plan, rules, record=False).time == sol.oct
    reference = ROOT / "tests" / "data" / "scenario_plans" / f"{path.stem}.json"
    if reference.exists():
        plan = json.loads(reference.read_text())["balanced"]["plan"]
        ref = simulate(level, plan, rules, record=False)
        if ref.done:
            assert sol.oct <= ref.time


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorials_are_served(path):
    level = load_level(path)
    sol = solve(level, time_limit=0.2)
    assert sol.done and sol.bound.value <= sol.oct


def test_scenario_lists_are_present():
    assert len(SCENARIOS) >= 6 and len(TUTORIALS) >= 5


def test_cookware_is_chosen_by_when_its_food_can_reach_the_window():
    # the stove nearest the board is at the far end from the window; the planner that chose
    # cookware by when the meat is ready took 49 here, one that looks at the walk to the window
    # as well finds 39
    level = load_level(
        ROOT / "levels" / "suite" / "burger" / "seed_126" / "agent_num_2" / "orders_num_1.yaml"
    )
    # the search, not the bound, matters: `solve` at 0.2 s (routes=False) plans the same, its bound 2.4 s
    sol = least_search(level, "paracook")
    assert sol.done and sol.oct <= 39


def test_the_search_tries_both_ways_of_choosing_cookware_only_where_food_cooks():
    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule.search import Search
    from game.planners.solver.schedule.tasks import build_tasks

    def search(level) -> Search:
        model = KitchenModel(level, "paracook")
        return Search(model, build_tasks(model), budget=10, seed=1)

    burger = search(kitchen(["#MCSPW#", "#1....#", "#B....#"], STATIONS, ("burger_basic",)))
    starts = burger.start_genomes()
    by_window = [g for g in starts if g.to_window]
    assert len(by_window) * 2 == len(starts)
    assert {g.signature()[:4] for g in by_window} == {g.signature()[:4] for g in starts if not g.to_window}
    assert burger.flip_window in burger.moves()
    salad = search(kitchen(["#LCPW#", "#1...#"], STATIONS, ("salad_basic",)))
    assert all(g.to_window for g in salad.start_genomes())
    assert salad.flip_window not in salad.moves()
    g = starts[0].copy()
    burger.flip_window(g)
    assert g.to_window is False and g.signature() != starts[0].signature()


# -- divided kitchens: two rows of floor, split by a row of walls and tables ----------------------
DIVIDERS = "TUVXYZef"
DIVIDED = STATIONS | {ch: {"name": f"table{n}"} for n, ch in enumerate(DIVIDERS[1:], 4)}


@st.composite
def divided_kitchens(draw):
    """Two corridors (rows 1 and 3) between a top and a bottom row of stations, the middle row
    walls, tables and maybe a gap; agents in either corridor."""
    width = draw(st.integers(7, 10))
    letters = draw(st.permutations("LMBCSPWKRQ"))
    cells = [(x, y) for y in (0, 4) for x in range(1, width - 1)]
    spots = draw(st.lists(st.sampled_from(cells), min_size=len(letters), max_size=len(letters), unique=True))
    rows = [["#"] * width for _ in range(5)]
    tables = iter(DIVIDERS)  # each table its own name, as a level file requires
    for x in range(1, width - 1):
        rows[1][x] = rows[3][x] = "."
        rows[2][x] = draw(st.sampled_from("#T."))
        if rows[2][x] == "T":
            rows[2][x] = next(tables)
    for ch, (x, y) in zip(letters, spots, strict=True):
        rows[y][x] = ch
    floor = [(x, y) for y in (1, 3) for x in range(1, width - 1)]
    starts = draw(st.lists(st.sampled_from(floor), min_size=2, max_size=3, unique=True))
    for n, (x, y) in enumerate(starts, 1):
        rows[y][x] = str(n)
    orders = draw(st.sampled_from([("salad_basic",), ("burger_basic",), ("salad_basic", "salad_basic")]))
    return ["".join(r) for r in rows], orders


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=divided_kitchens(), rules=st.sampled_from(["paracook", "documented"]))
def test_divided_kitchens_are_served_or_said_not_to_be_never_below_the_bound(case, rules):
    """Food, plates and dirty plates handed over tables between the two corridors: a plan the
    engine runs, never faster than the bound, or a reason."""
    rows, orders = case
    level = kitchen(rows, DIVIDED, orders)
    sol = solve(level, rules, time_limit=0.1)
    bound = lower_bound(level, rules)
    if sol.done:  # the engine ran the plan; the bound holds for it
        assert bound.value <= sol.oct
        starts_run_exactly(level, rules)  # and every start schedule runs as it was timed
    else:
        assert sol.note


@pytest.mark.parametrize("rules", ["paracook", "documented"])
def test_a_plate_carried_to_another_table_takes_the_food_already_on_it(rules):
    # agent3 puts chopped lettuce on the plate at table1 in the instant agent2 comes to carry that
    # plate to the divider for agent1: the carry waits for the food, or the window gets an empty plate
    rows = ["#MBQWK#", "#1....#", "#####T#", "#2.3..#", "#LCPRS#"]
    starts_run_exactly(kitchen(rows, DIVIDED, ("salad_basic", "salad_basic")), rules)
