"""The reference engine's exact outcomes on small plans on the benchmark's maps, for the three
kinds of plans where agreement is subtle: unreadable actions, walls as targets, and cookware
lifted off a stove around another agent's use. Expected numbers are the reference engine's."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import PARACOOK, examples, need_paracook
from hypothesis import given, settings
from hypothesis import strategies as st
from kitchens import it, mv, wait
from test_properties import LEVEL, plans

from game.engine import errors as E
from game.engine import simulate
from game.engine.items import Container, Ingredient
from game.levels import load_level

COUNTERS = (
    "agent_progress",
    "agent_all_execution_time",
    "agent_waiting_time",
    "agent_moving_time",
    "agent_processing_time",
)


def task(category: str, seed: int, agents: int, orders_num: int):
    need_paracook()
    orders = json.loads((PARACOOK / "orders.json").read_text())[
        f"{category}/seed_{seed}/orders_num_{orders_num}"
    ]
    return load_level(PARACOOK / "maps" / category / f"seed_{seed}" / f"agent_num_{agents}.json", orders)


def human_plan(category: str, seed: int, orders_num: int) -> dict:
    need_paracook()
    path = PARACOOK / "human" / category / f"seed_{seed}" / "agent_num_2" / f"orders_num_{orders_num}.json"
    return json.loads(path.read_text())["plan"]


def counters(*rows: tuple[str, int, int, int, int, int]) -> dict:
    """Per agent: (name, started, total, all_execution, waiting, moving, processing)."""
    return {
        "agent_progress": {r[0]: f"{r[1]}/{r[2]}" for r in rows},
        "agent_all_execution_time": {r[0]: r[3] for r in rows},
        "agent_waiting_time": {r[0]: r[4] for r in rows},
        "agent_moving_time": {r[0]: r[5] for r in rows},
        "agent_processing_time": {r[0]: r[6] for r in rows},
    }


def assert_outcome(result, kind, time, served, remaining, expected_counters):
    assert result.error_detail is not None and result.error_detail.kind == kind
    assert not result.done and result.time == time
    assert result.finished_orders == served and result.remaining_orders == remaining
    got = result.to_dict()
    assert {k: got[k] for k in COUNTERS} == expected_counters


# -- 1. unreadable actions run until reached -------------------------------------------------
BURGERS = ["burger_cheese", "burger_basic"]
UNREADABLE_CASES = [
    # (agent, index, garbage, time, counters) on burger/seed_42, the human plan for 2 orders
    ("agent1", 10, {"action": "Chop", "target": "chopping_board1"}, 30,
     counters(("agent1", 10, 18, 30, 0, 26, 4), ("agent2", 18, 23, 35, 0, 31, 4))),
    ("agent2", 10, {"action": "Chop", "target": "chopping_board1"}, 19,
     counters(("agent1", 5, 18, 21, 0, 17, 4), ("agent2", 10, 23, 19, 0, 15, 4))),
    ("agent1", 5, "Serve", 21,
     counters(("agent1", 5, 18, 21, 0, 17, 4), ("agent2", 11, 23, 23, 0, 19, 4))),
    ("agent2", 5, "Serve", 10,
     counters(("agent1", 3, 18, 17, 0, 17, 0), ("agent2", 5, 23, 10, 0, 6, 4))),
    ("agent1", 12, {"action": "PickUp"}, 33,
     counters(("agent1", 12, 18, 33, 0, 29, 4), ("agent2", 18, 23, 35, 0, 31, 4))),
    ("agent2", 12, {"action": "PickUp"}, 23,
     counters(("agent1", 9, 18, 30, 0, 26, 4), ("agent2", 12, 23, 23, 0, 19, 4))),
    ("agent1", 3, {"action": "MoveTo", "target": "table1"}, 17,
     counters(("agent1", 3, 18, 17, 0, 17, 0), ("agent2", 7, 23, 17, 0, 13, 4))),
    ("agent2", 3, {"action": "MoveTo", "target": "table1"}, 6,
     counters(("agent1", 1, 18, 7, 0, 7, 0), ("agent2", 3, 23, 6, 0, 6, 0))),
]  # fmt: skip


@pytest.mark.parametrize("rules", ["paracook", "documented"])
@pytest.mark.parametrize("agent, index, garbage, time, expected", UNREADABLE_CASES)
def test_an_unreadable_action_fails_when_reached_like_the_reference(
    agent, index, garbage, time, expected, rules
):
    plan = human_plan("burger", 42, 2)
    plan[agent][index] = garbage
    r = simulate(task("burger", 42, 2, 2), plan, rules)
    assert_outcome(r, E.INVALID_ACTION, time, [], BURGERS, expected)
    d = r.error_detail
    assert (d.agent, d.action_index, d.time) == (agent, index, time)
    assert r.error.startswith(f"{agent} action {index}")


def test_the_replay_of_an_unreadable_plan_shows_everything_before_it():
    plan = human_plan("burger", 42, 2)
    plan["agent2"][10] = {"action": "Chop", "target": "chopping_board1"}
    r = simulate(task("burger", 42, 2, 2), plan)
    ran = [s for s in r.timeline.spans if s.agent == "agent2" and s.status != "rejected"]
    assert [s.index for s in ran] == list(range(10))
    rejected = [s for s in r.timeline.spans if s.status == "rejected"]
    assert [(s.agent, s.index, s.action["action"]) for s in rejected] == [("agent2", 10, "Chop")]
    assert r.timeline.end == 19 and r.progress > 0


# -- 2. walls are named targets ----------------------------------------------------------------
WALL_CASES = [
    # burger/seed_42: wall (7, 6), wall_1 (7, 3); agent2 starts at (9, 6), agent1 at (2, 1)
    ({"agent2": [mv(8, 6), it("wall")]}, E.BAD_INTERACT, 1, counters(("agent1", 0, 0, 0, 0, 0, 0), ("agent2", 2, 2, 1, 0, 1, 0))),
    ({"agent2": [mv(8, 6), it("wall_1")]}, E.NOT_ADJACENT, 1, counters(("agent1", 0, 0, 0, 0, 0, 0), ("agent2", 1, 2, 1, 0, 1, 0))),
    ({"agent1": [wait(3)], "agent2": [mv(7, 2), wait(2), it("wall_1")]}, E.BAD_INTERACT, 8,
     counters(("agent1", 1, 1, 3, 3, 0, 0), ("agent2", 3, 3, 8, 2, 6, 0))),
    ({"agent2": [mv(8, 6), {"action": "Process", "target": "wall"}]}, E.NO_PROCESS, 1,
     counters(("agent1", 0, 0, 0, 0, 0, 0), ("agent2", 1, 2, 1, 0, 1, 0))),
]  # fmt: skip


@pytest.mark.parametrize("plan, kind, time, expected", WALL_CASES)
def test_walls_are_targets_that_fail_like_the_reference(plan, kind, time, expected):
    r = simulate(task("burger", 42, 2, 2), plan)
    assert_outcome(r, kind, time, [], BURGERS, expected)


def test_names_of_walls_follow_map_order():
    level = task("burger", 42, 2, 2)
    assert {n: w.pos for n, w in level.wall_by_name.items()} == {"wall": (7, 6), "wall_1": (7, 3)}


# -- 3. cookware lifted off a stove around another agent's use ----------------------------------
def test_lifting_a_pot_around_the_other_cooks_leaves_the_second_batch_uncooked():
    """pasta/seed_84, 2 orders: the human plan, with a third agent lifting each stove's pot and
    putting it back around the others' use. The reference rejects the second dish: its pasta was
    still raw when plated, because a finished batch's counter stops at what it required."""
    plan = human_plan("pasta", 84, 2)
    plan["agent3"] = [
        mv(0, 3), wait(32), it("stove2"), wait(10), it("stove2"),
        mv(9, 1), wait(6), it("stove1"), wait(2), it("stove1"),
    ]  # fmt: skip
    r = simulate(task("pasta", 84, 3, 2), plan)
    expected = counters(
        ("agent1", 35, 35, 79, 0, 71, 8), ("agent2", 21, 21, 59, 20, 35, 4), ("agent3", 10, 10, 70, 50, 20, 0)
    )
    assert_outcome(r, E.WRONG_DISH, 79, ["pasta_mushroom"], ["pasta_seafood"], expected)


def test_a_finished_batch_counts_only_what_it_required():
    pan = Container("pan")
    pan.add(Ingredient("meat", "chopped"), 10)
    pan.advance(50)  # 40 counted, 24 required: done, and the counter stops at 24
    assert pan.contents[0].state == "cooked" and pan.processed == 24 and not pan.cooking
    pan.add(Ingredient("meat", "chopped"), 55)  # 48 required now; the stamp stays at 50
    pan.advance(60)  # 10 more: 34 < 48
    assert pan.contents[1].state == "chopped" and pan.processed == 34
    pan.advance(74)
    assert all(i.state == "cooked" for i in pan.contents) and pan.processed == 48


# -- a plan with one action replaced by garbage runs exactly like the original up to it ---------
GARBAGE = st.one_of(
    st.just({"action": "Chop", "target": "chopping_board1"}),
    st.just("Serve"),
    st.just({"action": "MoveTo"}),
    st.just({"action": "Interact", "target": ["table1"]}),
    st.just({}),
    st.integers(),
    st.none(),
)


def garbage_at(plan: dict, agent: str, k: int, garbage) -> dict:
    mutated = copy.deepcopy(plan)
    mutated[agent][k] = garbage
    return mutated


def check_prefix(level, plan, agent, k, garbage, rules="paracook"):
    before = simulate(level, plan, rules)
    after = simulate(level, garbage_at(plan, agent, k, garbage), rules)
    starts = [s.start for s in before.timeline.spans if (s.agent, s.index) == (agent, k)]
    if not starts:  # the original stops before reaching k: nothing changes
        assert after.to_dict() == before.to_dict()
        return
    t = starts[0]
    d = after.error_detail
    assert (d.kind, d.agent, d.action_index, d.time) == (E.INVALID_ACTION, agent, k, t)
    assert after.time == t and after.agent_progress[agent] == f"{k}/{len(plan[agent])}"
    for i, when in enumerate(before.timeline.times):
        if when < t:
            assert after.timeline.states[i] == before.timeline.states[i]
    key = [(s.agent, s.index, s.start, s.end) for s in before.timeline.spans if s.start < t]
    assert [(s.agent, s.index, s.start, s.end) for s in after.timeline.spans if s.start < t] == key
    assert [n for n, when in zip(before.finished_orders, before.served_times, strict=True) if when < t] == [
        n for n, when in zip(after.finished_orders, after.served_times, strict=True) if when < t
    ]


@settings(max_examples=examples(150), deadline=None)
@given(
    plans,
    st.sampled_from(["agent1", "agent2"]),
    st.data(),
    GARBAGE,
    st.sampled_from(["paracook", "documented"]),
)
def test_garbage_at_k_runs_like_the_original_up_to_k(plan, agent, data, garbage, rules):
    if not plan[agent]:
        return
    k = data.draw(st.integers(0, len(plan[agent]) - 1))
    check_prefix(LEVEL, plan, agent, k, garbage, rules)


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(["burger", "pasta", "salad", "sushi"]), st.data(), GARBAGE)
def test_garbage_in_a_human_plan_runs_like_the_original_up_to_it(category, data, garbage):
    level = task(category, 42, 2, 2)
    plan = human_plan(category, 42, 2)
    agent = data.draw(st.sampled_from(sorted(plan)))
    k = data.draw(st.integers(0, len(plan[agent]) - 1))
    check_prefix(level, plan, agent, k, garbage)
