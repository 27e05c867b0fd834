"""Fixed queues: checked as plan input, kept byte-identical, and timed.

A fixed agent's timing never depends on anyone else (agents never block each other, and every
duration follows from its own position and the station kind), so each action's start and end
are known before any search."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game import fixed as fixed_queues
from game.engine import Action, Level
from game.engine.errors import ActionFailed, ErrorDetail
from game.engine.plan import read_action
from game.engine.rules import RuleSet
from game.engine.simulator import Simulation

Queue = list[dict[str, Any]]


@dataclass(frozen=True)
class Timed:
    """One fixed action with its place in the queue and its start and end times."""

    agent: str
    index: int
    action: Action
    start: float
    end: float


@dataclass
class FixedQueues:
    """The fixed agents' queues as given (`raw`, to return byte-identical), read (`actions`) and
    timed (`timed`); `independent` is the first error they make whatever the other agents do."""

    raw: dict[str, Queue]
    actions: dict[str, tuple[Action, ...]]
    timed: dict[str, list[Timed]]
    independent: ErrorDetail | None

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(self.raw)

    def end(self, agent: str) -> float:
        """When the agent's last action ends (0 for an empty queue)."""
        spans = self.timed[agent]
        return spans[-1].end if spans else 0

    def events_at(self, station: str) -> list[float]:
        """Times at which a fixed agent's Interact or Process at this station ends, sorted."""
        return sorted(
            t.end
            for spans in self.timed.values()
            for t in spans
            if t.action.name in ("Interact", "Process") and t.action.target == station
        )

    def serves(self, level: Level) -> list[Timed]:
        """Every fixed Interact at a serving window, in time order."""
        windows = {s.name for s in level.stations if s.kind == "serving_window"}
        out = [t for spans in self.timed.values() for t in spans if t.action.name == "Interact"]
        return sorted((t for t in out if t.action.target in windows), key=lambda t: (t.end, t.agent))


def check_fixed(level: Level, fixed: Mapping[str, Sequence[Mapping[str, Any]]] | None) -> dict[str, Queue]:
    """The fixed queues, checked and copied in the level's agent order: ValueError naming the
    agent (and the action index) for an unknown agent, a queue that is not a list of actions or an
    action that cannot be read (the check `llm --fix` and `solve --fix` share)."""
    return fixed_queues.check_fixed(fixed, level.agent_names)


def time_fixed(level: Level, rules: RuleSet, raw: dict[str, Queue]) -> FixedQueues:
    """Read and time the queues; find the first error they make whatever the others do: a
    start-time check that depends only on the map and the agent's own moves (the engine's own
    checks, run on an empty kitchen), or a Process at a stove, which always fails."""
    actions = {agent: tuple(read_action(a) for a in queue) for agent, queue in raw.items()}
    sim = Simulation(level, dict(actions), rules, record=False)
    timed: dict[str, list[Timed]] = {}
    first: ErrorDetail | None = None
    for agent in sim.kitchen.agents:
        if agent.name not in actions:
            continue
        spans, now = [], 0.0
        for i, action in enumerate(actions[agent.name]):
            sim.now = now
            try:
                duration = _duration(sim, agent, action)
            except ActionFailed as e:
                detail = ErrorDetail(agent.name, i, action.to_dict(), now, e.kind, e.reason)
                first = detail if first is None or detail.time < first.time else first
                break
            spans.append(Timed(agent.name, i, action, now, now + duration))
            now += duration
            if action.name == "MoveTo":
                agent.pos = action.target
        timed[agent.name] = spans
    return FixedQueues(raw, actions, timed, first)


def _duration(sim: Simulation, agent: Any, action: Action) -> float:
    """The engine's start-time check and duration, on a kitchen where nobody else acts. Checks
    that another agent could change (a board in use, what a stove holds) are left to the run."""
    station = sim.level.target_named(action.target) if action.name == "Process" else None
    if station is not None and station.kind == "stove":
        sim.kitchen.check_allowed(agent, station)
        sim.kitchen.check_adjacent(agent, action.target, station)
        sim.kitchen.process(agent, station, sim.now)  # raises: a stove cooks by itself
    try:
        duration = sim.start(agent, action)
    finally:
        sim.kitchen.in_use.clear()  # a board this agent chops on is not in use for its own next action
    if not math.isfinite(duration):
        raise ActionFailed("bad_duration", "its duration is not finite")
    return duration
