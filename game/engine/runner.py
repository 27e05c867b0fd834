"""`simulate`: one run of a plan, and for a recorded run that fails or leaves orders, its diagnosis."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .diagnosis import diagnose
from .level import Level
from .plan import Plan
from .result import Result
from .rules import RuleSet
from .simulator import as_plan, execute


def simulate(
    level: Level,
    plan: Plan | Mapping[str, Any],
    rules: str | RuleSet = "paracook",
    record: bool = True,
) -> Result:
    """Run `plan` in `level` under a rule set. Never raises for what happens during the run:
    the first error stops it and is reported in the result, an unreadable action included.
    A plan of the wrong shape (see parse_plan) raises PlanError before anything runs. A recording
    run that fails or leaves orders unserved carries `result.diagnosis` (why, as data)."""
    parsed = as_plan(level, plan)
    result = execute(level, parsed, rules, record)
    if record and not result.done:
        result.diagnosis = _diagnosis(level, result, parsed)
    return result


def _diagnosis(level: Level, result: Result, plan: Plan) -> dict[str, Any] | None:
    try:
        found = diagnose(level, result, plan)
    except Exception as e:  # noqa: BLE001 - an explanation that fails must never cost the run itself
        reason = result.error or "orders left unserved"
        return {
            "error": "unexplained",
            "summary": f"{reason} (no explanation: {type(e).__name__})",
            "need": "",
            "causes": [],
        }
    return found.to_dict() if found is not None else None
