"""Plans: per-agent action queues.

A plan's shape (an object mapping known agents to lists, within the size limits) is checked
before any run. Each action is read on its own: one that cannot be read becomes an
`unreadable` action that fails when its agent reaches it, so the actions before it still run
(ENGINE-FIDELITY: the reference engine does the same)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import label
from .limits import MAX_ACTIONS_PER_AGENT, MAX_PROBLEMS_LISTED
from .safe import BIG_INT, is_number, json_safe, preview

ACTION_NAMES = ("MoveTo", "Interact", "Process", "Wait", "Finish")
UNREADABLE = "Unreadable"  # the name of an action that could not be read


@dataclass(frozen=True, slots=True)
class Action:
    """One queued action. `duration` is kept as written: the Wait check happens at run time.
    An unreadable action has name UNREADABLE, `problem` saying which field is wrong and why,
    and in `target` a bounded JSON-safe copy of what was written."""

    name: str
    target: Any = None  # (x, y) for MoveTo, a station name for Interact/Process
    duration: Any = 1
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.name == UNREADABLE:
            return dict(self.target)
        if self.name == "MoveTo":
            return {"action": "MoveTo", "target": [self.target[0], self.target[1]]}
        if self.name in ("Interact", "Process"):
            return {"action": self.name, "target": self.target}
        if self.name == "Wait":
            return {"action": "Wait", "duration": json_safe(self.duration)}
        return {"action": self.name}

    def __str__(self) -> str:
        if self.name == UNREADABLE:
            return f"unreadable {preview(self.target.get('action'), 24)}"
        if self.name == "MoveTo":
            return f"MoveTo({self.target[0]}, {self.target[1]})"
        if self.name in ("Interact", "Process"):
            return f"{self.name}({self.target})"
        if self.name == "Wait":
            return f"Wait({preview(self.duration, 24)})"
        return self.name


Plan = dict[str, tuple[Action, ...]]


class PlanError(ValueError):
    """A plan of the wrong shape; `problems` name the agent, action index and field."""

    def __init__(self, problems: list[str]):
        problems = capped(problems)
        super().__init__("; ".join(problems))
        self.problems = problems


def capped(problems: list[str]) -> list[str]:
    """At most MAX_PROBLEMS_LISTED problems, then one line saying how many more there are."""
    if len(problems) <= MAX_PROBLEMS_LISTED:
        return problems
    more = len(problems) - MAX_PROBLEMS_LISTED
    return problems[:MAX_PROBLEMS_LISTED] + [f"... and {more} more problem{'s' * (more > 1)}"]


def _unreadable(raw: Any, problem: str) -> Action:
    """Keep what was written (bounded, JSON-safe, and still unreadable) with its problem."""
    if isinstance(raw, Mapping):
        written = json_safe(raw)
    else:  # a bare value: shown as its text, which is never an action name
        written = {"action": preview(raw, 120)}
    return Action(UNREADABLE, written, problem=problem)


def _coordinate(v: Any) -> int | float | None:
    """A MoveTo coordinate: whole numbers become ints; other finite numbers are kept (such a
    tile never exists, so the move is unreachable, as in the reference); None if unusable."""
    if not is_number(v) or (isinstance(v, float) and not math.isfinite(v)) or abs(v) >= BIG_INT:
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def read_action(raw: Any) -> Action:
    """Read one action. Never raises: what cannot be read comes back unreadable."""
    if not isinstance(raw, Mapping):
        return _unreadable(raw, f'an action must be an object like {{"action": "Wait"}}, got {preview(raw)}')
    name = raw.get("action")
    if name not in ACTION_NAMES:
        if "action" not in raw:
            return _unreadable(raw, f"field 'action' is missing (one of {', '.join(ACTION_NAMES)})")
        return _unreadable(
            raw, f"field 'action' must be one of {', '.join(ACTION_NAMES)}, got {preview(name)}"
        )
    if name == "MoveTo":
        if "target" not in raw:
            return _unreadable(raw, "field 'target' is missing (expected [x, y])")
        t = raw["target"]
        xy = [_coordinate(v) for v in t] if isinstance(t, (list, tuple)) and len(t) == 2 else [None]
        if None in xy:
            return _unreadable(raw, f"field 'target' must be [x, y] with two numbers, got {preview(t)}")
        return Action("MoveTo", (xy[0], xy[1]))
    if name in ("Interact", "Process"):
        if "target" not in raw:
            return _unreadable(raw, "field 'target' is missing (expected a station name)")
        t = raw["target"]
        if not isinstance(t, str):
            return _unreadable(raw, f"field 'target' must be a station name, got {preview(t)}")
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
    """Turn plan JSON into a Plan for the given agents. Raise PlanError listing every problem
    of shape: not an object, an unknown agent, a queue that is not a list or is too long.
    Unreadable actions do not raise (see `unreadable_actions`)."""
    names = list(agent_names)
    data = unwrap_plan(data)
    if not isinstance(data, Mapping):
        raise PlanError(["the plan must be an object mapping agent names to action lists"])
    problems: list[str] = []
    plan: Plan = {}
    for agent, queue in data.items():
        if agent not in names:
            who = agent if isinstance(agent, str) and len(agent) <= 60 else preview(agent)
            problems.append(f"{who}: no such agent in this level (agents: {', '.join(names)})")
        elif not isinstance(queue, list):
            problems.append(f"{agent}: the action queue must be a list, got {preview(queue)}")
        elif len(queue) > MAX_ACTIONS_PER_AGENT:
            problems.append(
                f"{agent}: {len(queue)} actions, more than the {MAX_ACTIONS_PER_AGENT} "
                "a plan may give one agent"
            )
        else:
            plan[agent] = tuple(read_action(raw) for raw in queue)
    if problems:
        raise PlanError(problems)
    return {name: plan.get(name, ()) for name in names}


def unreadable_actions(plan: Plan) -> list[str]:
    """Every unreadable action of a plan, as 'agent action i: problem' (capped)."""
    return capped(
        [
            f"{agent} action {i}{label(a.to_dict())}: {a.problem}"
            for agent, queue in plan.items()
            for i, a in enumerate(queue)
            if a.name == UNREADABLE
        ]
    )


def plan_to_dict(plan: Plan) -> dict[str, list[dict[str, Any]]]:
    return {agent: [a.to_dict() for a in actions] for agent, actions in plan.items()}
