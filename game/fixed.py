"""Fixed queues: agents whose actions are given (a person's, or a file's) and must run exactly as
written while a partner (the built-in planner, an LLM) plans the other agents.

`read_fixed` reads `--fix AGENT=PLAN.json` (shared by `solve` and `llm`); `check_fixed` checks
the same mapping handed over in Python. Both keep each queue as given (a copy, byte-identical
under `json.dumps(..., sort_keys=True)`) and refuse what cannot run with a message naming the
file, the agent and the action index."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from game.engine.limits import MAX_ACTIONS_PER_AGENT
from game.engine.plan import UNREADABLE, read_action
from game.inputs import InputError, load_json, plain_data_problem, short_repr

Queue = list[dict[str, Any]]
FORMS = "a plan object, a result file with a 'plan' field, or a bare list of actions"


def split_spec(spec: str) -> tuple[str, Path]:
    """`AGENT=PLAN.json` as (agent, path); InputError for anything else."""
    agent, sep, path = str(spec).partition("=")
    if not sep or not agent.strip() or not path.strip():
        raise InputError(f"--fix {short_repr(spec)}: give AGENT=PLAN.json (e.g. agent1=mine.json)")
    return agent.strip(), Path(path.strip())


def queue_in(data: Any, agent: str, where: str) -> Any:
    """The agent's queue in a file's data: the list itself, or plan[agent] of a plan object or
    of a result with a `plan` field."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and isinstance(data.get("plan"), dict):
        data = data["plan"]
    if not isinstance(data, dict):
        raise InputError(f"{where}: not a plan ({FORMS})")
    if agent not in data:
        named = ", ".join(short_repr(k, 30) for k in list(data)[:8]) or "no agent"
        raise InputError(f"{where}: no queue for {agent} in this plan (it has {named})")
    return data[agent]


def check_queue(queue: Any, agent: str, where: str) -> Queue:
    """A copy of one fixed queue as given; InputError naming the agent and the action index of
    the first action that cannot run (an unreadable one, or one that is not plain data)."""
    if not isinstance(queue, list | tuple):
        raise InputError(f"{where}: {agent}'s queue must be a list of actions, not {short_repr(queue)}")
    if len(queue) > MAX_ACTIONS_PER_AGENT:
        raise InputError(
            f"{where}: {agent}'s queue has {len(queue):,} actions, more than the "
            f"{MAX_ACTIONS_PER_AGENT:,} a plan may give one agent"
        )
    for i, raw in enumerate(queue):
        problem = plain_data_problem(raw, f"{agent} action {i}")
        if problem:
            raise InputError(f"{where}: {problem}")
        action = read_action(raw)
        if action.name == UNREADABLE:
            raise InputError(f"{where}: {agent} action {i}: {action.problem}")
    copied: Queue = json.loads(json.dumps(list(queue)))
    return copied


def check_fixed(
    fixed: Mapping[str, Sequence[Mapping[str, Any]]] | None, agents: Iterable[str], where: str = "fixed"
) -> dict[str, Queue]:
    """The fixed queues checked against a level's agents (a copy of each, as given)."""
    names = list(agents)
    if fixed is None:
        return {}
    if not isinstance(fixed, Mapping):
        raise InputError(f"{where}: must map agent names to their queues, not {short_repr(fixed)}")
    out: dict[str, Queue] = {}
    for agent, queue in fixed.items():
        if agent not in names:
            raise InputError(
                f"{where}: no agent called {short_repr(agent, 40)} in this level (agents: {', '.join(names)})"
            )
        out[agent] = check_queue(queue, agent, where)
    return out


def read_fixed(specs: Iterable[str], agents: Iterable[str] | None = None) -> dict[str, Queue]:
    """`AGENT=PLAN.json` specs as {agent: queue}. PLAN.json is a plan object, a result file with
    a `plan` field (the agent's queue is taken from either), or a bare list (the queue itself).
    With `agents` (the level's), an agent the level does not have is refused too."""
    names = None if agents is None else list(agents)
    out: dict[str, Queue] = {}
    for spec in specs:
        agent, path = split_spec(spec)
        if agent in out:
            raise InputError(f"--fix {agent}: given twice; fix each agent once")
        if names is not None and agent not in names:
            raise InputError(f"--fix {agent}: no such agent in this level (agents: {', '.join(names)})")
        data = load_json(path)
        out[agent] = check_queue(queue_in(data, agent, str(path)), agent, str(path))
    return out
