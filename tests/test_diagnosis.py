"""'Why it failed': for a failed plan of every error kind, the explanation names the unmet need
and the earlier event that caused it (often in another agent's queue), with its time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kitchens import it, kitchen, mv, pr, wait
from test_render import small_level, small_plan

from game.engine import ERROR_KINDS, simulate
from game.engine.diagnosis import _HANDLERS, explain
from game.engine.narration import narrate
from game.levels import load_level
from game.levels.suite import suite_levels

PLANS = Path(__file__).parent / "data" / "scenario_plans"
FINISH = {"action": "Finish"}
SERVE_AT_ONCE = kitchen(["W.", "1."], {"W": {"name": "serving_window"}}, ("salad_basic",))


def why(level, plan):
    result = simulate(level, plan)
    assert result.error_detail is not None, "the plan was meant to fail"
    story = narrate(level, result.timeline, result.rules, result.error_detail)
    return result, explain(level, story, result.error_detail, result.timeline)


def scenario(stem: str):
    path = next(p for p in suite_levels("scenarios") if p.stem == stem)
    plan = json.loads((PLANS / f"{stem}.json").read_text())["greedy"]["plan"]
    return load_level(path), plan


def small(agent1=(), agent2=()):
    return small_level(), {"agent1": list(agent1), "agent2": list(agent2)}


# (error kind, case builder, what the first cause must say, the time it must point at)
CASES = {
    "bad_interact": (
        lambda: small([mv(2, 1), it("table1")], [mv(2, 1), wait(3), it("table1")]),
        "table1 has been empty since t = 1: agent1 picks up the plate (empty) from table1",
        1,
    ),
    "cookware_rejects": (
        lambda: small([], [mv(1, 2), it("dispenser2"), mv(5, 1), it("stove1")]),
        "the tomato was never chopped, and pans take only chopped food: chop it on a chopping board first "
        "(agent2 has held the raw tomato since t = 1: agent2 takes the raw tomato from dispenser2)",
        1,
    ),
    "process_failed": (
        lambda: (small_level(), small_plan(failed=True)),
        "chopping_board1 has held the chopped lettuce since t = 6: agent1 chops the raw lettuce on chopping_board1",
        6,
    ),
    "no_process": (
        lambda: small([mv(5, 1), it("stove1"), pr("stove1")]),
        "stove1 has been empty since t = 4: agent1 picks up the pan (empty) from stove1",
        4,
    ),
    "not_adjacent": (
        lambda: small([mv(3, 1), it("dispenser2")]),
        "agent1 has stood there since t = 2: agent1 arrives at (3, 1) (action 0)",
        2,
    ),
    "station_in_use": (
        lambda: small(
            [mv(0, 1), it("dispenser1"), mv(1, 1), it("chopping_board1"), pr("chopping_board1")],
            [mv(1, 1), wait(1), pr("chopping_board1")],
        ),
        "agent1 has been processing chopping_board1 since t = 2 (its action 4, until t = 6)",
        2,
    ),
    "unreachable": (
        lambda: scenario("01_divided_salad"),
        "the plan itself: agent1 action ",
        None,
    ),
    "not_allowed": (lambda: scenario("02_divided_burgers"), "the level lets agent2 use only:", None),
    "not_a_plate": (
        lambda: small([mv(0, 1), it("dispenser1"), mv(3, 1), it("serving_window")]),
        "agent1 has held the raw lettuce since t = 1: agent1 takes the raw lettuce from dispenser1",
        1,
    ),
    "no_order_left": (
        lambda: (
            small_level(),
            {
                "agent1": small_plan()["agent1"],
                "agent2": small_plan()["agent2"][:16] + [mv(3, 1), it("serving_window")],
            },
        ),
        "the last order was served at t = 8: agent1 serves salad_basic",
        8,
    ),
    "wrong_dish": (
        lambda: small([mv(2, 1), it("table1"), mv(3, 1), it("serving_window")]),
        "lettuce (chopped) is missing: no agent ever takes lettuce from a dispenser",
        2,
    ),
    "stale_dish": (
        lambda: scenario("06_fresh_salads"),
        "the oldest food on the plate was prepared at t = ",
        None,
    ),
    "serve_too_early": (
        lambda: (SERVE_AT_ONCE, {"agent1": [it("serving_window")]}),
        "the plan itself: agent1 action 0 is Interact serving_window",
        0,
    ),
    "unknown_target": (
        lambda: small([it("stove9")]),
        "the plan itself: agent1 action 0 is Interact stove9",
        0,
    ),
    "not_a_station": (
        lambda: (
            kitchen(["1X"], {"X": {"name": "cupboard1"}}),
            {"agent1": [it("cupboard1")]},
        ),
        "the plan itself: agent1 action 0 is Interact cupboard1",
        0,
    ),
    "bad_duration": (lambda: small([wait(-2)]), "the plan itself: agent1 action 0 is Wait -2", 0),
    "invalid_action": (
        lambda: small([wait(3), {"action": "Chop", "target": "chopping_board1"}]),
        "the plan itself: agent1 action 1 is",
        3,
    ),
    "time_limit": (
        lambda: small([wait(90_000)] * 12),
        "the plan itself: agent1 action 11 is Wait 90000",
        990_000,
    ),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_why_names_the_earlier_event(kind):
    build, text, time = CASES[kind]
    level, plan = build()
    result, diagnosis = why(level, plan)
    assert result.error_detail.kind == kind, result.error
    assert diagnosis.kind == kind and diagnosis.need
    first = diagnosis.causes[0]
    assert first.text.startswith(text), diagnosis.lines()
    if time is not None:
        assert diagnosis.jump == first.time == time
    assert first.time <= result.error_detail.time


@pytest.mark.parametrize(
    "kind",
    ["serve_too_early", "not_a_plate", "no_order_left", "wrong_dish", "stale_dish", "cookware_rejects"],
)
def test_a_refused_serve_or_ingredient_is_told_as_tried_never_as_done(kind):
    """The engine refuses these before it takes the plate or the ingredient: nothing was served or
    put in, so the summary (the viewer's, the LLM feedback's, the HTML page's) says 'tried to'."""
    level, plan = CASES[kind][0]()
    result, diagnosis = why(level, plan)
    err = result.error_detail
    verb = "put into" if kind == "cookware_rejects" else "serve"
    assert f"(action {err.action_index}) tried to {verb} " in diagnosis.summary, diagnosis.summary
    assert err.time not in result.served_times
    if kind != "cookware_rejects":
        assert " served " not in diagnosis.summary.split("Likeliest cause")[0]


def test_every_engine_error_kind_is_covered():
    assert set(ERROR_KINDS) <= set(CASES) and set(ERROR_KINDS) <= set(_HANDLERS)


def test_burnt_food_is_blamed_on_the_burning():
    level, plan = scenario("05_burn_burgers")
    result, diagnosis = why(level, plan)
    assert result.error_detail.kind == "wrong_dish"
    assert "burns" in diagnosis.causes[0].text and diagnosis.causes[0].time < result.error_detail.time


def test_roles_name_the_rule():
    level, plan = scenario("03_roles_pasta")
    result, diagnosis = why(level, plan)
    assert result.error_detail.kind == "not_allowed"
    assert "can_use" in diagnosis.causes[0].text


def test_a_success_has_no_diagnosis():
    level = small_level()
    result = simulate(level, small_plan())
    assert explain(level, narrate(level, result.timeline), result.error_detail) is None


def test_an_unknown_error_kind_falls_back_to_the_agent_s_last_event():
    level, plan = small([mv(0, 1), it("dispenser1"), mv(3, 1), it("serving_window")])
    result = simulate(level, plan)
    story = narrate(level, result.timeline)
    error = {**result.error_detail.to_dict(), "kind": "invalid_action"}
    diagnosis = explain(level, story, error)
    assert diagnosis.causes and "agent1" in diagnosis.causes[0].text
