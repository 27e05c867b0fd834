"""Fixed queues: agents whose actions are given (a person's, or a file's) and must run exactly as
written while a partner (the built-in planner, an LLM) plans the other agents.

`read_fixed` reads `llm --fix AGENT=PLAN.json` (through the reader `solve --fix` uses) and
checks it against the level; `check_fixed` checks the same mapping handed over in Python. Both keep each queue as given (a copy, byte-identical
under `json.dumps(..., sort_keys=True)`) and refuse what cannot run with a message naming the
file, the agent and the action index."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game import inputs
from game.engine.limits import MAX_ACTIONS_PER_AGENT
from game.engine.plan import UNREADABLE, read_action
from game.inputs import InputError, plain_data_problem, short_repr

Queue = list[dict[str, Any]]


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


def read_fixed(specs: Iterable[str], agents: Iterable[str]) -> dict[str, Queue]:
    """`--fix AGENT=PLAN.json` specs as {agent: queue}, read by the one reader `solve` shares
    (game.inputs.read_fixed: a plan object, a result file with a `plan` field, or a bare list),
    then checked against the level's agents and each action (InputError naming the file, the
    agent and the action index)."""
    names = list(agents)
    out: dict[str, Queue] = {}
    for spec in specs:  # one at a time, so that the message names the file at fault
        for agent, queue in inputs.read_fixed([spec]).items():
            if agent in out:
                raise InputError(f"--fix {agent}=...: {agent} is fixed twice; give each agent once")
            if agent not in names:
                raise InputError(f"--fix {agent}: no such agent in this level (agents: {', '.join(names)})")
            out[agent] = check_queue(queue, agent, spec.partition("=")[2].strip())
    return out
