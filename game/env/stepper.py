"""The engine run one decision at a time: the simulator's own event loop, paused whenever an
agent has finished its queue and must be told what to do next.

    s = Stepper(level, rules)
    agent = s.decider()            # the agent that must choose now (None: the run is over)
    s.give(Action(...))            # its next action; decider() then runs on to the next choice

Agents are asked in the engine's order at an instant (the one whose running action began first,
ties in map order), each until it starts an action that takes time, so the queues given here,
run as a plan by `simulate`, reproduce the same run exactly.
"""

from __future__ import annotations

from heapq import heappop, heappush

from game.engine import Level
from game.engine.errors import ErrorDetail
from game.engine.kitchen import AgentState
from game.engine.plan import Action
from game.engine.rules import get_rules
from game.engine.simulator import RunStopped, Simulation


class Stepper:
    def __init__(self, level: Level, rules: str = "paracook"):
        self.level = level
        self.sim = Simulation(level, {name: () for name in level.agent_names}, get_rules(rules), record=False)
        for agent in self.sim.kitchen.agents:
            agent.queue = []  # type: ignore[assignment] - queues grow as actions are given
        self.registry: dict[float, list[AgentState]] = {}
        self.heap: list[float] = []
        self.order: list[AgentState] = list(self.sim.kitchen.agents)  # t = 0: map order
        self.i = 0  # the agent of `order` being handled
        self.ticked = False
        self.error: ErrorDetail | None = None
        self.over = False

    @property
    def now(self) -> float:
        return self.sim.now

    @property
    def served_all(self) -> bool:
        return not self.sim.kitchen.remaining

    def queues(self) -> dict[str, list[Action]]:
        return {a.name: list(a.queue) for a in self.sim.kitchen.agents}

    def give(self, action: Action) -> None:
        """The deciding agent's next action (its start checks run in decider())."""
        agent = self.order[self.i]
        agent.queue.append(action)  # type: ignore[attr-defined]

    def decider(self) -> AgentState | None:
        """Run until an agent must choose; None when the run is over (an error, every order
        served, or nobody left with anything to do)."""
        while not self.over:
            if not self.ticked:
                self.sim.kitchen.tick(self.sim.now)
                self.ticked = True
            waiting = self._handle_instant()
            if waiting is not None:
                return waiting
            if not self.over:
                self._next_instant()
        return None

    def _handle_instant(self) -> AgentState | None:
        while self.i < len(self.order):
            agent = self.order[self.i]
            try:
                self.sim.advance(agent)
            except RunStopped as stop:
                self.error, self.over = stop.detail, True
                return None
            if self.served_all:
                self.over = True
                return None
            if agent.current is None:
                return agent  # its queue is done and it acts at this instant: it must choose
            self.i += 1
        return None

    def _next_instant(self) -> None:
        for agent in self.sim.kitchen.agents:
            if agent.current is not None and not agent.registered:
                if agent.end not in self.registry:
                    self.registry[agent.end] = []
                    heappush(self.heap, agent.end)
                self.registry[agent.end].append(agent)
                agent.registered = True
        if not self.heap:
            self.over = True
            return
        self.sim.now = heappop(self.heap)
        self.order = self.registry.pop(self.sim.now)
        for agent in self.order:
            agent.registered = False
        self.i, self.ticked = 0, False
