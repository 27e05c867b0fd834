"""Fixed queues: agents whose actions are given (a person's, or a file's) and must run exactly as
written while a partner (the built-in planner, an LLM) plans the other agents.

`read_fixed` reads `llm --fix AGENT=PLAN.json` (through the reader `solve --fix` uses) and
checks it against the level; `check_fixed` checks the same mapping handed over in Python (the
one check the built-in planner, the LLM partner and the command line share). Both keep each queue
as given (a copy, byte-identical under `json.dumps(..., sort_keys=True)`) and refuse what cannot
run with a message naming the file, the agent and the action index."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game import inputs
from game.engine.errors import ActionFailed
from game.engine.limits import MAX_ACTIONS_PER_AGENT
from game.engine.plan import UNREADABLE, read_action
from game.engine.simulator import wait_duration
from game.inputs import InputError, plain_data_problem, short_repr

Queue = list[dict[str, Any]]


def _at(where: str | None, text: str) -> InputError:
    return InputError(f"{where}: {text}" if where else text)


def check_queue(queue: Any, agent: str, where: str | None = None) -> Queue:
    """A copy of one fixed queue as given; InputError naming the agent and the action index of
    the first action that cannot run (an unreadable one, one that is not plain data, a Wait the
    engine would refuse). `where` (a file) goes first in the message."""
    if isinstance(queue, str | bytes) or not isinstance(queue, Sequence):
        raise _at(where, f"fixed queue for {agent}: must be a list of actions, got {short_repr(queue)}")
    if len(queue) > MAX_ACTIONS_PER_AGENT:
        raise _at(
            where,
            f"fixed queue for {agent}: {len(queue):,} actions, more than the "
            f"{MAX_ACTIONS_PER_AGENT:,} a plan may give one agent",
        )
    for i, raw in enumerate(queue):
        problem = _action_problem(raw)
        if problem:
            raise _at(where, f"fixed queue for {agent}, action {i}: {problem}")
    copied: Queue = json.loads(json.dumps(list(queue), allow_nan=False))
    return copied


def _action_problem(raw: Any) -> str | None:
    problem = plain_data_problem(raw, "")  # "": the action itself, ".duration": a field of it
    if problem:
        return problem[2:] if problem.startswith(": ") else f"field {problem[1:]}"
    action = read_action(raw)
    if action.name == UNREADABLE:
        return action.problem
    if action.name == "Wait":
        try:
            wait_duration(action.duration)
        except ActionFailed as e:
            return e.reason
    return None


def check_fixed(
    fixed: Mapping[str, Sequence[Mapping[str, Any]]] | None, agents: Iterable[str], where: str | None = None
) -> dict[str, Queue]:
    """The fixed queues checked against a level's agents (a copy of each, as given, in the
    level's agent order); InputError (a ValueError) naming the agent and the action index."""
    names = list(agents)
    if not fixed:
        return {}
    if not isinstance(fixed, Mapping):
        raise _at(where, f"fixed queues must map agent names to action lists, got {short_repr(fixed)}")
    out: dict[str, Queue] = {}
    for agent, queue in fixed.items():
        if agent not in names:
            plain = isinstance(agent, str) and len(agent) <= 40 and agent.isprintable()
            raise _at(
                where,
                f"fixed queue for {agent if plain else short_repr(agent, 40)}: no such agent in this level "
                f"(agents: {', '.join(names)})",
            )
        out[agent] = check_queue(queue, agent, where)
    return {name: out[name] for name in names if name in out}


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
