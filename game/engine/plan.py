"""Plans: per-agent action queues, parsed and checked for form before any run."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ACTION_NAMES = ("MoveTo", "Interact", "Process", "Wait", "Finish")


@dataclass(frozen=True, slots=True)
class Action:
    """One queued action. `duration` is kept as written: the Wait check happens at run time."""

    name: str
    target: Any = None  # (x, y) for MoveTo, a station name for Interact/Process
    duration: Any = 1

    def to_dict(self) -> dict[str, Any]:
        if self.name == "MoveTo":
            return {"action": "MoveTo", "target": [self.target[0], self.target[1]]}
        if self.name in ("Interact", "Process"):
            return {"action": self.name, "target": self.target}
        if self.name == "Wait":
            return {"action": "Wait", "duration": self.duration}
        return {"action": self.name}

    def __str__(self) -> str:
        if self.name == "MoveTo":
            return f"MoveTo({self.target[0]}, {self.target[1]})"
        if self.name in ("Interact", "Process"):
            return f"{self.name}({self.target})"
        if self.name == "Wait":
            return f"Wait({self.duration})"
        return self.name


Plan = dict[str, tuple[Action, ...]]


class PlanError(ValueError):
    """A plan that is malformed; `problems` name the agent, action index and field."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_action(raw: Any, where: str) -> Action:
    """Check one action's form; raise PlanError naming `where` and the field at fault."""
    if not isinstance(raw, Mapping):
        raise PlanError(
            [f'{where}: an action must be an object like {{"action": "Wait"}}, got {json.dumps(raw)[:60]}']
        )
    name = raw.get("action")
    if name not in ACTION_NAMES:
        raise PlanError(
            [f"{where}: field 'action' must be one of {', '.join(ACTION_NAMES)}, got {json.dumps(name)[:60]}"]
        )
    where = f"{where} ({name})"
    if name == "MoveTo":
        if "target" not in raw:
            raise PlanError([f"{where}: field 'target' is missing (expected [x, y])"])
        t = raw["target"]
        if not (isinstance(t, (list, tuple)) and len(t) == 2 and all(_is_int(v) for v in t)):
            raise PlanError(
                [f"{where}: field 'target' must be [x, y] with two whole numbers, got {json.dumps(t)[:60]}"]
            )
        return Action("MoveTo", (t[0], t[1]))
    if name in ("Interact", "Process"):
        if "target" not in raw:
            raise PlanError([f"{where}: field 'target' is missing (expected a station name)"])
        t = raw["target"]
        if not isinstance(t, str):
            raise PlanError([f"{where}: field 'target' must be a station name, got {json.dumps(t)[:60]}"])
        return Action(name, t)
    if name == "Wait":
        return Action("Wait", duration=raw.get("duration", 1))
    return Action("Finish")


def unwrap_plan(data: Any) -> Any:
    """Accept `{agent: [...]}`, `{"plan": {...}}` or a whole result object with a `plan`."""
    if isinstance(data, Mapping) and isinstance(data.get("plan"), Mapping):
        return data["plan"]
    return data


def parse_plan(data: Any, agent_names: Iterable[str]) -> Plan:
    """Turn plan JSON into a Plan for the given agents; raise PlanError listing every problem."""
    names = list(agent_names)
    data = unwrap_plan(data)
    if not isinstance(data, Mapping):
        raise PlanError(["the plan must be an object mapping agent names to action lists"])
    problems: list[str] = []
    plan: Plan = {}
    for agent, queue in data.items():
        if agent not in names:
            problems.append(f"{agent}: no such agent in this level (agents: {', '.join(names)})")
            continue
        if not isinstance(queue, list):
            problems.append(f"{agent}: the action queue must be a list")
            continue
        actions = []
        for i, raw in enumerate(queue):
            try:
                actions.append(parse_action(raw, f"{agent} action {i}"))
            except PlanError as e:
                problems.extend(e.problems)
        plan[agent] = tuple(actions)
    if problems:
        raise PlanError(problems)
    return {name: plan.get(name, ()) for name in names}


def plan_to_dict(plan: Plan) -> dict[str, list[dict[str, Any]]]:
    return {agent: [a.to_dict() for a in actions] for agent, actions in plan.items()}
