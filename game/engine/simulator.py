"""The event-driven run of a plan in a level (docs/rules.md, "Time")."""

from __future__ import annotations

import math
from collections.abc import Mapping
from heapq import heappop, heappush
from typing import Any

from . import errors as E
from .errors import ActionFailed, ErrorDetail
from .kitchen import AgentState, Kitchen
from .level import Level
from .limits import MAX_TIME, MAX_WAIT
from .metrics import d_max, t_max, utilisation
from .plan import Action, Plan, parse_plan
from .result import Result
from .rules import RuleSet, get_rules
from .safe import is_number, number_text, preview
from .timeline import ActionSpan, Timeline


class RunStopped(Exception):
    """Carries the run's first error out of the event loop."""

    def __init__(self, detail: ErrorDetail):
        self.detail = detail


class Simulation:
    def __init__(self, level: Level, plan: Plan, rules: RuleSet, record: bool):
        self.level = level
        self.rules = rules
        self.kitchen = Kitchen(level, rules, plan)
        self.timeline = Timeline() if record else None
        self.spans: dict[str, ActionSpan] = {}  # running action of each agent (recording)
        self.now: float = 0

    # -- one agent's actions ------------------------------------------------------------
    def fail(self, agent: AgentState, index: int, action: Action, exc: ActionFailed) -> RunStopped:
        return RunStopped(ErrorDetail(agent.name, index, action.to_dict(), self.now, exc.kind, exc.reason))

    def start(self, agent: AgentState, action: Action) -> float:
        """Run the start-time checks; return the action's duration."""
        duration = self._checked_duration(agent, action)
        if self.now + duration > MAX_TIME:
            raise ActionFailed(
                E.TIME_LIMIT,
                f"it would end at t={number_text(self.now + duration)}, "
                f"after the longest run allowed (t={MAX_TIME})",
            )
        if action.name == "Process":
            station = self.level.target_named(action.target)
            if station is not None and self.kitchen.is_exclusive(station):
                self.kitchen.in_use[station.name] = agent.name
        return duration

    def _checked_duration(self, agent: AgentState, action: Action) -> float:
        k = self.kitchen
        name = action.name
        if name == "MoveTo":
            target = action.target
            dist = self.level.distances(agent.pos).get(target)
            if dist is None:
                raise ActionFailed(E.UNREACHABLE, self._unreachable_reason(agent, target))
            return dist
        if name == "Interact":
            station = k.resolve(agent, action.target)
            k.check_allowed(agent, station)
            k.check_adjacent(agent, action.target, station)
            k.check_free(agent, station)
            return 0
        if name == "Process":
            station = k.resolve(agent, action.target)
            k.check_allowed(agent, station)
            duration = k.process_time(station, action.target)
            k.check_adjacent(agent, action.target, station)
            k.check_free(agent, station)
            return duration
        if name == "Wait":
            return wait_duration(action.duration)
        if name == "Finish":
            return 0
        raise ActionFailed(E.INVALID_ACTION, action.problem or f"unknown action {action.name!r}")

    def _unreachable_reason(self, agent: AgentState, target: tuple[float, float]) -> str:
        where = f"({number_text(target[0])}, {number_text(target[1])})"
        if not all(isinstance(v, int) for v in target):
            return f"{where} is not a tile: coordinates are whole numbers"
        if not self.level.in_bounds(target):
            return f"{where} is outside the {self.level.width}x{self.level.height} grid"
        if not self.level.is_floor(target):
            return f"{where} is not a floor tile"
        return f"{where} cannot be reached from {agent.pos}"

    def complete(self, agent: AgentState) -> None:
        """Apply the effect of the agent's current action (its end time is now)."""
        action = agent.current
        assert action is not None
        k = self.kitchen
        agent.current = None
        try:
            if action.name == "MoveTo":
                agent.pos = action.target
            elif action.name == "Interact":
                k.interact(agent, self.level.target_named(action.target), self.now)
            elif action.name == "Process":
                station = self.level.target_named(action.target)
                if k.in_use.get(station.name) == agent.name:
                    del k.in_use[station.name]
                k.process(agent, station, self.now)
            elif action.name == "Finish":
                agent.finished = True
        except ActionFailed as exc:
            self._close_span(agent, "failed")
            raise self.fail(agent, agent.current_index, action, exc) from None
        self._close_span(agent, "done")

    def advance(self, agent: AgentState) -> None:
        """Complete what ends now, then start actions until one takes time or the queue ends."""
        if agent.current is not None:
            self.complete(agent)
        queue = agent.queue
        while agent.next < len(queue):
            index = agent.next
            action = queue[index]
            try:
                duration = self.start(agent, action)
            except ActionFailed as exc:
                self._open_span(agent, index, action, 0, "rejected")
                raise self.fail(agent, index, action, exc) from None
            agent.next = index + 1
            agent.total += duration
            if action.name == "MoveTo":
                agent.moving += duration
            elif action.name == "Process":
                agent.processing += duration
            elif action.name == "Wait":
                agent.waiting += duration
            agent.current, agent.current_index = action, index
            agent.start, agent.end = self.now, self.now + duration
            self._open_span(agent, index, action, duration, "running")
            if duration:
                return
            self.complete(agent)

    # -- recording ----------------------------------------------------------------------
    def _open_span(self, agent: AgentState, index: int, action: Action, duration: float, status: str) -> None:
        if self.timeline is None:
            return
        path = None
        if action.name == "MoveTo" and status == "running":
            path = [list(p) for p in self.level.path(agent.pos, action.target) or ()]
        span = ActionSpan(agent.name, index, action.to_dict(), self.now, self.now + duration, status, path)
        self.timeline.spans.append(span)
        if status == "running":
            self.spans[agent.name] = span

    def _close_span(self, agent: AgentState, status: str) -> None:
        if self.timeline is not None and agent.name in self.spans:
            self.spans.pop(agent.name).status = status

    def _snapshot(self) -> None:
        if self.timeline is not None:
            self.timeline.add_frame(self.now, self.kitchen.snapshot())

    # -- the event loop -----------------------------------------------------------------
    def run(self, resume: bool = False) -> ErrorDetail | None:
        """Run every agent's queue from `now` to the end or the first error.

        `resume`: the kitchen already stands at `now` with that instant's events processed
        (a copied state being stepped on, as the exact solver does), so the opening tick is
        skipped: ticking twice at one instant would finish cooking that a real run has not."""
        agents = self.kitchen.agents
        registry: dict[float, list[AgentState]] = {}
        heap: list[float] = []
        order = list(agents)  # time 0: map order
        tick = not resume
        while True:
            if tick:
                self.kitchen.tick(self.now)
            tick = True
            try:
                for agent in order:
                    self.advance(agent)
            except RunStopped as stop:
                for span in self.spans.values():
                    span.status = "cut"
                self._snapshot()
                return stop.detail
            for agent in agents:
                if agent.current is not None and not agent.registered:
                    slot = registry.get(agent.end)
                    if slot is None:
                        slot = registry[agent.end] = []
                        heappush(heap, agent.end)
                    slot.append(agent)
                    agent.registered = True
            self._snapshot()
            if not heap:
                return None
            self.now = heappop(heap)
            order = registry.pop(self.now)
            for agent in order:
                agent.registered = False


def execute(
    level: Level,
    plan: Plan | Mapping[str, Any],
    rules: str | RuleSet = "paracook",
    record: bool = True,
) -> Result:
    """The run alone, without its diagnosis (`game.engine.simulate` adds it)."""
    rs = get_rules(rules)
    sim = Simulation(level, as_plan(level, plan), rs, record)
    detail = sim.run()
    return _result(level, rs, sim, detail)


def wait_duration(d: Any) -> float:
    """A Wait's duration, or the bad_duration failure saying what is wrong with it."""
    if not is_number(d) or (isinstance(d, float) and not math.isfinite(d)):
        shown = number_text(d) if is_number(d) else preview(d)
        raise ActionFailed(E.BAD_DURATION, f"Wait duration {shown} is not a number")
    if d < 0:
        raise ActionFailed(E.BAD_DURATION, f"Wait duration {number_text(d)} is negative")
    if d > MAX_WAIT:
        raise ActionFailed(
            E.BAD_DURATION,
            f"Wait duration {number_text(d)} is longer than the longest Wait allowed ({MAX_WAIT})",
        )
    return d


def as_plan(level: Level, plan: Plan | Mapping[str, Any]) -> Plan:
    if isinstance(plan, Mapping) and all(
        isinstance(v, tuple) and all(isinstance(a, Action) for a in v) for v in plan.values()
    ):
        return {name: tuple(plan.get(name, ())) for name in level.agent_names}  # type: ignore[misc]
    return parse_plan(plan, level.agent_names)


def _result(level: Level, rs: RuleSet, sim: Simulation, detail: ErrorDetail | None) -> Result:
    k = sim.kitchen
    served_times = [t for _, t in k.served]
    last_serve = served_times[-1] if served_times else None
    done = detail is None and not k.remaining
    time = sim.now
    if rs.oct_is_last_serve and detail is None and done and last_serve is not None:
        time = last_serve
    agents = k.agents
    return Result(
        done=done,
        time=time,
        finished_orders=[n for n, _ in k.served],
        remaining_orders=list(k.remaining),
        agent_progress={a.name: f"{a.next}/{len(a.queue)}" for a in agents},
        agent_all_execution_time={a.name: a.total for a in agents},
        agent_waiting_time={a.name: a.waiting for a in agents},
        agent_moving_time={a.name: a.moving for a in agents},
        agent_processing_time={a.name: a.processing for a in agents},
        error=None if detail is None else detail.message(),
        error_detail=detail,
        last_serve_time=last_serve,
        served_times=served_times,
        rules=rs.name,
        t_max=t_max(level),
        d_max=d_max(level),
        md={a.name: a.moving for a in agents},
        au={a.name: utilisation(a.total, a.waiting) for a in agents},
        progress=k.progress(),
        timeline=sim.timeline,
    )
