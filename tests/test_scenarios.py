"""Scenario levels: each teaches one rule, a greedy plan fails for the reason its description
gives, a balanced plan succeeds, and the built-in planner solves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import shared_solve, sweep
from test_solver import scenario_limit

from game.cli import main
from game.engine import Level, simulate
from game.levels import load_level
from game.levels.format import level_from_yaml, level_to_yaml
from game.levels.suite import suite_levels

PLANS = Path(__file__).parent / "data" / "scenario_plans"
SCENARIOS = suite_levels("scenarios")
# What each kind of scenario must set, beyond its description.
KIND_OPTIONS = {"divided": "can_use", "roles": "can_use", "burn": "burn_after", "fresh": "serve_within"}
# Share of the order's work the greedy plan gets done before it fails (Kitchen.progress units:
# each ingredient reaching its state, each ingredient plated, each dish served).
GREEDY_PROGRESS = {
    "01_divided_salad": 1 / 8,  # one lettuce chopped of 3 ingredients x 2 + 2 dishes
    "02_divided_burgers": 2 / 12,  # one bread taken and plated, of 5 ingredients x 2 + 2 dishes
    "03_roles_pasta": 0,  # raw pasta is no required state: nothing done
    "04_roles_dishwasher": 4 / 9,  # fish chopped and plated and served, shrimp chopped
    "05_burn_burgers": 8 / 10,  # the second patty burnt: everything but its plating and serving
    "06_fresh_salads": 9 / 10,  # all chopped and plated, the second salad not served
}


def plans(path: Path) -> dict:
    return json.loads((PLANS / f"{path.stem}.json").read_text())


def kind(level: Level) -> str:
    return level.meta["scenario"]


def test_the_scenarios_cover_every_rule_and_each_has_plans():
    kinds = [kind(load_level(p)) for p in SCENARIOS]
    assert kinds.count("divided") >= 2 and kinds.count("roles") >= 2
    assert kinds.count("burn") + kinds.count("fresh") >= 2 and {"burn", "fresh"} <= set(kinds)
    assert sorted(p.stem for p in SCENARIOS) == sorted(p.stem for p in PLANS.glob("*.json"))
    assert sorted(GREEDY_PROGRESS) == sorted(p.stem for p in SCENARIOS)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_describes_itself_and_sets_its_option(path: Path):
    level = load_level(path)
    assert level.title and len(level.description) > 200
    assert level.meta["suite"] == "scenarios" and level.meta["id"] == f"scenarios/{path.stem}"
    assert KIND_OPTIONS[kind(level)] in level.options
    again = level_from_yaml(level_to_yaml(level), "again.yaml")
    assert again.to_dict() == level.to_dict()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_greedy_plan_fails_for_the_documented_reason(path: Path):
    level = load_level(path)
    greedy = plans(path)["greedy"]
    result = simulate(level, greedy["plan"])
    assert not result.done and result.error_detail.kind == greedy["fails_with"]
    assert greedy["message_has"] in result.error and greedy["message_has"] in level.description
    assert result.progress == pytest.approx(GREEDY_PROGRESS[path.stem])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_balanced_plan_serves_every_order(path: Path):
    level = load_level(path)
    result = simulate(level, plans(path)["balanced"]["plan"])
    assert result.error is None and result.done and result.progress == 1.0
    assert result.finished_orders == list(level.orders)


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if kind(load_level(p)) in ("burn", "fresh")], ids=lambda p: p.stem
)
def test_without_its_window_the_greedy_plan_would_have_worked(path: Path):
    level = load_level(path)
    result = simulate(level.replace(options={}), plans(path)["greedy"]["plan"])
    assert result.done and result.error is None


def usable(level: Level, agent_index: int) -> set[str]:
    """Stations the agent can stand next to and may use."""
    agent = level.agents[agent_index]
    reach = level.distances(agent.pos)
    allowed = level.options.get("can_use", {}).get(agent.name)
    return {
        s.name
        for s in level.stations
        if any(n in reach for n in level.neighbours(s.pos)) and (allowed is None or s.kind in allowed)
    }


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if kind(load_level(p)) == "divided"], ids=lambda p: p.stem
)
def test_divided_kitchen_shares_only_tables(path: Path):
    level = load_level(path)
    sides = [usable(level, i) for i in range(len(level.agents))]
    shared = set.intersection(*sides)
    assert shared and all(level.station_by_name[s].kind == "table" for s in shared)
    own = [side - shared for side in sides]
    assert all(own) and not set.intersection(*own)
    # the two sides cannot walk to each other
    first, second = level.agents[0].pos, level.agents[1].pos
    assert second not in level.distances(first)


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if kind(load_level(p)) == "roles"], ids=lambda p: p.stem
)
def test_roles_split_the_station_kinds_in_an_open_kitchen(path: Path):
    level = load_level(path)
    roles = level.options["can_use"]
    assert sorted(roles) == sorted(level.agent_names)
    start = level.agents[0].pos
    assert all(a.pos in level.distances(start) for a in level.agents)  # everyone walks everywhere
    every_kind = {s.kind for s in level.stations}
    assert set().union(*map(set, roles.values())) >= every_kind  # each kind has someone
    assert all(every_kind - set(kinds) for kinds in roles.values())  # nobody may use everything


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if kind(load_level(p)) == "burn"], ids=lambda p: p.stem
)
def test_burn_scenario_shows_the_burnt_pan_in_the_timeline(path: Path):
    level = load_level(path)
    result = simulate(level, plans(path)["greedy"]["plan"])
    burnt = [
        t
        for t, state in zip(result.timeline.times, result.timeline.states, strict=True)
        if any(
            isinstance(item, dict) and any(i["state"] == "burnt" for i in item.get("contents", ()))
            for item in state["stations"].values()
        )
    ]
    assert burnt and burnt[0] < result.time


def test_levels_list_shows_the_scenarios(capsys):
    assert main(["levels", "list", "--suite", "scenarios"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(SCENARIOS) and lines[0].startswith("scenarios/01_divided_salad")
    assert "The pass" in lines[0]


def _solver():
    try:
        from game.planners.solver import solve
    except ImportError:
        return None
    return solve


@pytest.mark.skipif(_solver() is None, reason="built-in planner not available")
@sweep("path", SCENARIOS, ids=lambda p: p.stem)
def test_built_in_planner_solves_the_scenario(path: Path):
    level = load_level(path)
    # as test_solver plans it (the same limit): once a run
    solution = shared_solve(level, level.rules, time_limit=scenario_limit(path, level.rules))
    result = simulate(level, solution.plan)
    assert result.done and result.error is None, f"planner: {solution.note!r}; engine: {result.error}"
