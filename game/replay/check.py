"""A replay's contents checked as strictly as a level file, then re-run.

The checksum only catches accidents: anyone can recompute it. So a replay is trusted for nothing
but its level, plan and rules. The level is checked like a level file (size, stations, orders,
meta), the plan like a plan file, and the engine runs the plan again; the stored result and
timeline must be exactly what it computes. A viewer or an export then only ever draws a
timeline the engine made."""

from __future__ import annotations

import json
from typing import Any

from game.engine import RULESETS, Level, Plan, PlanError, Result, parse_plan, simulate
from game.inputs import plain_data_problem
from game.levels.paracook import map_problems
from game.levels.validate import check_level

MAX_ACTIONS = 100_000  # a replay's whole plan; beyond this, re-running it takes too long


class ReplayContentError(ValueError):
    """What is wrong inside a replay, naming the field."""


def _recipe(d: Any, where: str) -> None:
    ok = (
        isinstance(d, dict)
        and isinstance(d.get("name"), str)
        and isinstance(d.get("recipe", ""), str)
        and isinstance(d.get("category", ""), str)
        and isinstance(d.get("ingredients"), list)
        and all(
            isinstance(i, dict)
            and isinstance(i.get("item"), str)
            and isinstance(i.get("state"), str)
            and isinstance(i.get("cookware"), (str, type(None)))
            for i in d["ingredients"]
        )
    )
    if not ok:
        raise ReplayContentError(f"{where}: needs text 'name' and 'ingredients' of text item and state")


def checked_level(d: Any) -> Level:
    if not isinstance(d, dict):
        raise ReplayContentError("level: must be an object")
    problems = [f"level.map: {p}" for p in map_problems(d.get("map"))]
    if problems:
        raise ReplayContentError("; ".join(problems[:5]))
    orders, recipes = d.get("orders", []), d.get("recipes", [])
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        raise ReplayContentError("level.orders: must be a list of dish names")
    if not isinstance(recipes, list):
        raise ReplayContentError("level.recipes: must be a list")
    for key in ("title", "description", "rules"):
        if not isinstance(d.get(key, ""), str):
            raise ReplayContentError(f"level.{key}: must be text")
    for key in ("meta", "options"):
        problem = plain_data_problem(d.get(key, {}), f"level.{key}")
        if problem or not isinstance(d.get(key, {}), dict):
            raise ReplayContentError(problem or f"level.{key}: must be a mapping")
    for i, r in enumerate(recipes):
        _recipe(r, f"level.recipes[{i}]")
    level = Level.from_dict(d)
    problems = check_level(level)
    if problems:
        raise ReplayContentError("level: " + "; ".join(problems[:5]))
    return level


def _plain(value: Any) -> Any:
    """JSON-normal form (tuples become lists), to compare with what a file holds."""
    return json.loads(json.dumps(value))


def _facts(result: dict[str, Any]) -> dict[str, Any]:
    """The run's facts: the diagnosis is an explanation the current code gives afresh (files from
    before it existed, or from older wording, still open)."""
    return {k: v for k, v in result.items() if k != "diagnosis"}


def rerun(data: dict[str, Any]) -> tuple[Level, Plan, Result]:
    """The replay's level and plan, and the result the engine computes for them; raises
    ReplayContentError when a field is malformed or the stored run is not what the engine gives."""
    for key, kind in (("level", dict), ("plan", dict), ("result", dict), ("timeline", dict)):
        if not isinstance(data.get(key), kind):
            raise ReplayContentError(f"{key}: missing or not an object")
    rules = data.get("rules")
    if not isinstance(rules, str) or rules not in RULESETS:
        raise ReplayContentError(f"rules: must be one of {', '.join(RULESETS)}")
    problem = plain_data_problem(data.get("source", {}), "source")
    if problem or not isinstance(data.get("source", {}), dict):
        raise ReplayContentError(problem or "source: must be a mapping")
    level = checked_level(data["level"])
    try:
        plan = parse_plan(data["plan"], level.agent_names)
    except PlanError as e:
        raise ReplayContentError(f"plan: {'; '.join(e.problems[:5])}") from None
    if sum(len(q) for q in plan.values()) > MAX_ACTIONS:
        raise ReplayContentError(f"plan: more than {MAX_ACTIONS:,} actions")
    try:
        result = simulate(level, plan, rules, record=True)
    except Exception as e:  # the engine refusing an odd plan is a bad file, not a crash
        raise ReplayContentError(f"plan: the engine cannot run it ({type(e).__name__}: {e})") from None
    assert result.timeline is not None
    timeline = {
        "spans": [s.to_dict() for s in result.timeline.spans],
        "frames": result.timeline.frames_to_json(),
    }
    if _facts(_plain(result.to_dict())) != _facts(data["result"]):
        raise ReplayContentError("result: not what the engine computes for this level and plan")
    if _plain(timeline) != data["timeline"]:
        raise ReplayContentError("timeline: not what the engine computes for this level and plan")
    return level, plan, result
