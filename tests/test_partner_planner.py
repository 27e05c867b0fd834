"""The planner plans around fixed queues: those come back byte-identical, the plan never beats
the constrained bound, impossible queues are said in words, and `fixed=None` changes nothing."""

from __future__ import annotations

import json

import pytest
from conftest import PARACOOK, examples, need_paracook
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitchens import it, kitchen, mv, pr, wait
from test_solver import PASS_ROWS, STATIONS

from game.engine import simulate
from game.levels import load_level
from game.planners.solver import Planner, Unsolvable, lower_bound, solve
from game.planners.solver.bound import Bound
from game.planners.solver.partner import Partner

BUDGET = 0.5  # seconds of limit: the budget of a few hundred engine runs (never the clock)


def same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.fixture(scope="module")
def handover():
    """A wall between two agents, a table across it: agent1 chops, agent2 serves."""
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    return level, solve(level, time_limit=0.3)


def test_fixed_none_or_empty_leaves_the_plan_unchanged(handover):
    level, free = handover
    for fixed in (None, {}):
        sol = solve(level, time_limit=0.3, fixed=fixed)
        assert sol.plan == free.plan and sol.bound == free.bound and sol.oct == free.oct


@pytest.mark.parametrize("who", ["agent1", "agent2"])
def test_the_partner_is_planned_around_a_fixed_queue(handover, who):
    # agent2's queue alone relies on agent1 handing the salad over: the search finds that
    level, free = handover
    queue = free.plan[who]
    sol = solve(level, time_limit=BUDGET, fixed={who: queue})
    assert sol.done, sol.note
    assert same(sol.plan[who], queue)
    other = "agent2" if who == "agent1" else "agent1"
    assert sol.plan[other]  # planned
    assert simulate(level, sol.plan).time == sol.oct
    assert sol.oct >= sol.bound.value >= free.bound.value


@settings(
    max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    waits=st.lists(st.integers(min_value=0, max_value=12), max_size=3),
    finish=st.booleans(),
    as_float=st.booleans(),
)
def test_a_fixed_queue_comes_back_byte_identical_and_the_bound_holds(handover, waits, finish, as_float):
    level, free = handover
    queue = [dict(a) for a in free.plan["agent1"]]
    queue += [{"action": "Wait", "duration": float(w) if as_float else w} for w in waits]
    if finish:
        queue.append({"action": "Finish"})
    sol = solve(level, time_limit=BUDGET, fixed={"agent1": queue})
    assert same(sol.plan["agent1"], queue)
    assert sol.done, sol.note
    trailing = 6 + sum(waits)  # agent1's own queue ends here: OCT is the last event
    assert sol.bound.value >= max(trailing, free.bound.value)
    assert sol.oct >= sol.bound.value


@settings(
    max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(waits=st.lists(st.integers(min_value=0, max_value=9), min_size=2, max_size=2))
def test_with_every_agent_fixed_the_plan_is_just_run(handover, waits):
    level, free = handover
    plan = {
        a: q + [{"action": "Wait", "duration": w}] for (a, q), w in zip(free.plan.items(), waits, strict=True)
    }
    sol = solve(level, time_limit=BUDGET, fixed=plan)
    assert same(sol.plan, plan)
    assert sol.result.to_dict() == simulate(level, plan, record=False).to_dict()
    assert sol.oct >= sol.bound.value >= max(6 + waits[0], 8 + waits[1])  # each queue's own end


def test_a_better_plan_is_made_leaner_macro_by_macro():
    from game.engine.plan import read_action
    from game.planners.solver.partner.search import _cuts

    queue = tuple(read_action(a) for a in [mv(1, 2), it("a"), wait(3), it("b"), pr("b")])
    cuts = [[str(a) for a in q] for q in _cuts(queue)]
    assert cuts == [
        ["MoveTo(1, 2)", "Interact(a)", "Wait(3)", "Interact(b)"],  # the last macro
        ["MoveTo(1, 2)", "Interact(a)", "Process(b)"],
        ["Wait(3)", "Interact(b)", "Process(b)"],
        ["MoveTo(1, 2)", "Interact(a)"],  # two in a row
        ["Process(b)"],
        ["MoveTo(1, 2)", "Interact(a)", "Interact(b)", "Process(b)"],  # the Wait
    ]


def test_every_agent_fixed_and_failing_is_said_in_the_engines_words(handover):
    level, free = handover
    short = {"agent1": free.plan["agent1"], "agent2": free.plan["agent2"][:-1]}
    with pytest.raises(Unsolvable, match=r"order 1 \(salad_basic\) is not served: .*never served"):
        solve(level, time_limit=BUDGET, fixed=short)


def test_a_fixed_action_that_fails_whatever_the_others_do_is_named():
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    queue = [it("dispenser1"), mv(40, 1)]
    with pytest.raises(Unsolvable) as e:
        solve(level, time_limit=BUDGET, fixed={"agent1": queue})
    text = str(e.value)
    assert "order 1 (salad_basic)" in text and "agent1's action 1 (MoveTo)" in text
    assert "(40, 1) is outside the 9x5 grid" in text and "whatever the other agents do" in text


def test_more_fixed_serves_than_orders_is_impossible():
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    queue = [mv(7, 2), it("serving_window"), it("serving_window")]
    with pytest.raises(
        Unsolvable, match=r"agent2's action 2 \(Interact\(serving_window\)\) serves .*only 1 orders"
    ):
        solve(level, time_limit=BUDGET, fixed={"agent2": queue})


def test_a_fixed_serve_before_the_dish_can_be_ready_is_said_in_words():
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    queue = [mv(7, 2), it("serving_window")]  # serves at t = 1: nothing can be ready by then
    with pytest.raises(
        Unsolvable, match=r"order 1 \(salad_basic\) cannot be served in time: agent2's action 1"
    ):
        solve(level, time_limit=BUDGET, fixed={"agent2": queue})


@pytest.mark.parametrize(
    ("fixed", "words"),
    [
        ({"agent9": []}, "fixed queue for agent9: no such agent in this level (agents: agent1, agent2)"),
        ({"agent1": [mv(1, 2), {"action": "Jump"}]}, "fixed queue for agent1, action 1: field 'action'"),
        ({"agent1": [{"action": "Wait", "duration": float("nan")}]}, "fixed queue for agent1, action 0"),
        ({"agent1": [{"action": "Wait", "duration": -3}]}, "action 0: Wait duration -3 is negative"),
        ({"agent1": "MoveTo"}, "fixed queue for agent1: must be a list of actions"),
        ({"agent1": [{"action": "Wait"}] * 100_001}, "more than the"),
    ],
)
def test_bad_fixed_input_names_the_agent_and_the_action(fixed, words):
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    with pytest.raises(ValueError) as e:
        Planner(level, time_limit=BUDGET, fixed=fixed)
    assert words in str(e.value)
    assert not isinstance(e.value, Unsolvable)


def test_the_planner_reports_progress_and_stops_when_asked(handover):
    level, free = handover
    seen = []
    sol = solve(level, time_limit=BUDGET, fixed={"agent2": free.plan["agent2"]}, progress=seen.append)
    assert sol.done and seen[-1].done and seen[-1].best_oct == sol.oct
    stopped = solve(level, time_limit=BUDGET, fixed={"agent2": free.plan["agent2"]}, progress=lambda p: False)
    assert same(stopped.plan["agent2"], free.plan["agent2"]) and stopped.plan["agent1"] == []


def test_the_human_agent1_of_the_salad_kitchen_gets_a_partner_as_fast_as_the_humans():
    need_paracook()
    orders = json.loads((PARACOOK / "orders.json").read_text())["salad/seed_42/orders_num_2"]
    level = load_level(PARACOOK / "maps" / "salad" / "seed_42" / "agent_num_2.json", orders)
    human = json.loads(
        (PARACOOK / "human" / "salad" / "seed_42" / "agent_num_2" / "orders_num_2.json").read_text()
    )
    sol = solve(level, time_limit=BUDGET, fixed={"agent1": human["plan"]["agent1"]})
    assert same(sol.plan["agent1"], human["plan"]["agent1"])
    assert sol.done and sol.oct <= human["time"]
    assert sol.oct >= sol.bound.value >= 46  # agent1's queue ends at 46


def test_fixed_queues_that_never_act_leave_the_free_agents_own_bound():
    # agent1 only walks: every plan is agent2's alone, whose bound holds
    level = kitchen(["#LCPW#", "#....#", "#1..2#"], STATIONS, ("salad_basic",))
    alone = solve(level.replace(agents=level.agents[1:]), time_limit=0.3)
    sol = solve(level, time_limit=BUDGET, fixed={"agent1": [mv(2, 2)]})
    assert sol.done and sol.bound.terms["free agents alone"] == alone.bound.value
    assert sol.oct >= sol.bound.value >= alone.bound.value


def test_free_agents_that_cannot_serve_alone_beside_idle_fixed_ones_is_said_in_words():
    # a wall between the two, a table across it: agent2 alone cannot reach the lettuce
    level = kitchen(["#########", "#LCP#..W#", "#1..T.2.#", "#########"], STATIONS, ("salad_basic",))
    assert solve(level, time_limit=0.3).done  # the pair can
    with pytest.raises(Unsolvable, match="agent1 never act at a station, and agent2 alone cannot serve"):
        solve(level, time_limit=BUDGET, fixed={"agent1": []})


def test_the_same_fixed_queue_gives_the_same_plan(handover):
    level, free = handover
    runs = [solve(level, time_limit=BUDGET, fixed={"agent2": free.plan["agent2"]}) for _ in range(2)]
    assert same(runs[0].plan, runs[1].plan) and runs[0].evaluations == runs[1].evaluations


def test_no_plan_found_within_the_budget_is_said_and_keeps_the_fixed_queue():
    # agent1 takes the only plate and keeps it: nothing can be served, though no check proves it
    level = kitchen(PASS_ROWS, STATIONS, ("salad_basic",))
    queue = [mv(3, 2), it("table1")]
    sol = solve(level, time_limit=BUDGET, fixed={"agent1": queue})
    assert not sol.done and sol.plan == {"agent1": queue, "agent2": []}
    assert sol.note.startswith("no plan for agent2 around the fixed queues found in ")


def test_a_hint_is_tried_first_and_a_bad_one_is_named(handover):
    level, free = handover
    queue = free.plan["agent2"] + [{"action": "Wait", "duration": 2}]
    sol = solve(level, time_limit=BUDGET, fixed={"agent2": queue}, hint=free.plan)
    assert sol.done and sol.oct == sol.bound.value == 10 and sol.evaluations <= 3  # at once
    assert same(sol.plan["agent1"], free.plan["agent1"])
    with pytest.raises(ValueError, match="hint: agent1: the action queue must be a list"):
        solve(level, time_limit=BUDGET, fixed={"agent2": queue}, hint={"agent1": "go"})


def test_the_last_improvement_of_the_search_is_the_solution():
    # on pasta 126 the plan at the bound is the search's last find, a seed's tried at the end of its
    # budget (of 400 runs; a budget of 1,600 finds it the same way, later): it must not be lost
    need_paracook()
    orders = json.loads((PARACOOK / "orders.json").read_text())["pasta/seed_126/orders_num_2"]
    level = load_level(PARACOOK / "maps" / "pasta" / "seed_126" / "agent_num_2.json", orders)
    human = json.loads(
        (PARACOOK / "human" / "pasta" / "seed_126" / "agent_num_2" / "orders_num_2.json").read_text()
    )
    run = Planner(level, time_limit=BUDGET, fixed={"agent1": human["plan"]["agent1"]})
    for _ in run.steps():
        pass
    sol = run.solution()
    assert sol.oct == run.partner.search.best.oct == sol.bound.value == 64 < human["time"]


SALAD_42 = "levels/suite/salad/seed_42/agent_num_2/orders_num_2.yaml"
HALF_DONE = [mv(5, 1), it("dispenser1"), mv(0, 2), it("chopping_board2")]  # a lettuce on a board, no more


@pytest.fixture(scope="module")
def salad42():
    level = load_level(SALAD_42)
    return level, lower_bound(level)


def first_plan(level, fixed, runs, hint=None):
    """The first served plan within `runs` engine runs (the search stopped there): the plan, and
    the runs it took, or (None, runs used)."""
    seen = {}

    def stop(p):
        if p.best_oct is not None:
            seen["runs"] = p.evaluations
            return False
        return p.evaluations < runs

    sol = solve(level, time_limit=BUDGET, fixed=fixed, progress=stop, hint=hint)
    return (sol if sol.done else None), seen.get("runs", sol.evaluations)


@pytest.mark.parametrize(
    "queue",
    [HALF_DONE, [wait(3)]],
    ids=["a dish left half done", "only a Wait"],
)
def test_a_queue_a_person_leaves_mid_edit_gets_a_partner_at_once(salad42, queue):
    # the search around either took over 8,000 runs without a plan: the free agent's own plan
    # (walled off from the board agent1 uses, for the first) is one, tried before it
    level, free = salad42
    sol, runs = first_plan(level, {"agent1": queue}, runs=20)
    assert sol is not None and runs <= 20
    assert same(sol.plan["agent1"], queue)
    assert simulate(level, sol.plan).time == sol.oct
    bound = Partner(level, "paracook", {"agent1": queue}, BUDGET).bound_for(free)
    assert sol.oct >= bound.value
    if queue != HALF_DONE:
        assert bound.terms["free agents alone"] == 68  # an inert queue: agent2's own bound


@pytest.fixture(scope="module")
def planned():
    """Two-agent suite kitchens with the planner's own plan for each."""
    out = []
    for name in ("salad/seed_84", "sushi/seed_84"):
        level = load_level(f"levels/suite/{name}/agent_num_2/orders_num_1.yaml")
        run = Planner(level, time_limit=0.1, bound=Bound(0, {}), exact=False)  # no bound needed
        for _ in run.steps():
            pass
        out.append((level, run.solution().plan))
    return out


@settings(
    max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(which=st.integers(min_value=0, max_value=1), cut=st.floats(min_value=0, max_value=1))
def test_a_planner_queue_cut_anywhere_gets_a_partner_within_a_small_budget(planned, which, cut):
    # a person keeps the first k actions of the planner's agent1 queue (the rest not typed yet):
    # the partner serves the order within 200 engine runs, whatever k
    level, plan = planned[which]
    queue = plan["agent1"][: round(cut * len(plan["agent1"]))]
    sol, runs = first_plan(level, {"agent1": queue}, runs=200)
    assert sol is not None, f"no plan within {runs} runs for the first {len(queue)} actions"
    assert same(sol.plan["agent1"], queue)
    assert sol.done and simulate(level, sol.plan).time == sol.oct


def test_food_that_would_spoil_a_plate_is_never_put_on_one(salad42):
    # raw cucumber on a plate fits no salad (they want it chopped): the plate would be lost for
    # good, so the search never tries it (that, more than anything, kept it from a plan)
    from game.engine import get_rules
    from game.planners.solver.partner.fixed import check_fixed, time_fixed
    from game.planners.solver.partner.search import PartnerSearch

    level, _ = salad42
    fixed = time_fixed(level, get_rules("paracook"), check_fixed(level, {"agent1": [wait(3)]}))
    search = PartnerSearch(level, get_rules("paracook"), fixed, 10)
    view = search.root().view
    empty = ("plate", ())
    assert not search.plated_fits(("cucumber", "raw"), empty, view)
    assert not search.plated_fits(empty, ("cucumber", "raw"), view)
    assert search.plated_fits(("cucumber", "chopped"), empty, view)
    lettuce = ("plate", (("lettuce", "chopped"),))
    assert search.plated_fits(("tomato", "chopped"), lettuce, view)
    assert not search.plated_fits(("lettuce", "chopped"), lettuce, view)  # no salad has two
    assert search.acts("table", "table1", ("cucumber", "raw"), empty, view, False) == []
    assert search.acts("table", "table1", ("cucumber", "chopped"), empty, view, False) == ["Interact"]


@settings(
    max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.integers(min_value=0, max_value=1),
    where=st.floats(min_value=0, max_value=1),
    wait_for=st.sampled_from([1, 3, 2.5]),
    taken_out=st.booleans(),
)
def test_after_a_wait_put_in_or_taken_out_the_previous_plan_shifted_the_same_way_serves(
    planned, which, where, wait_for, taken_out
):
    # the person puts a Wait into agent1's queue (or takes one out): the partner's previous plan,
    # its agent2 queue shifted by as long from the same instant, is tried right after it as it is
    level, plan = planned[which]
    queue = plan["agent1"]
    i = round(where * len(queue))
    edited = queue[:i] + [wait(wait_for)] + queue[i:]
    before, after = plan, edited
    if taken_out:  # from the partner's plan with the Wait in, back to the queue without it
        before, after = first_plan(level, {"agent1": edited}, runs=3, hint=plan)[0].plan, queue
    sol, runs = first_plan(level, {"agent1": after}, runs=3, hint=before)
    assert sol is not None and runs <= 3, f"{runs} runs"
    assert same(sol.plan["agent1"], after)


def test_a_queue_is_moved_by_waits():
    from game.engine import Action
    from game.planners.solver.partner import _moved

    w = lambda d: Action("Wait", duration=d)  # noqa: E731
    go, act = Action("MoveTo", (1, 1)), Action("Interact", "table1")
    assert _moved((go, act), 1, 2) == (go, w(2), act)
    assert _moved((go, w(3), act, w(1)), 1, -3.5) == (go, act, w(0.5))
    assert _moved((go, w(3), act), 2, -1) is None  # no Wait from there on to take it from
    assert _moved((go, w("x"), act), 0, -1) is None
