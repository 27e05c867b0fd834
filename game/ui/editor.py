"""The plan being edited in the play window: per-agent queues, selection, undo/redo, live engine.

Pure Python (no Pygame): every edit re-runs the whole plan through the engine, so the view
always shows what the engine says about the plan as it stands now.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine import Action, ActionSpan, Level, Plan, PlanError, Result, parse_plan, simulate, unwrap_plan
from game.engine.errors import ErrorDetail
from game.engine.limits import MAX_ACTIONS_PER_AGENT
from game.engine.limits import MAX_WAIT as ENGINE_MAX_WAIT
from game.engine.safe import preview

Pos = tuple[int, int]
MAX_WAIT = 999


class EditRefused(ValueError):
    """An edit that cannot be made (e.g. a wall was clicked); the message says why."""


@dataclass(frozen=True)
class EditorState:
    """Everything undo/redo restores: the queues and where the user was working."""

    queues: tuple[tuple[Action, ...], ...]
    agent: str
    cursor: tuple[int | None, ...]


@dataclass(frozen=True)
class EndPoint:
    """Where an agent stands and what it holds once its whole queue has run.
    `known` is False when the run stopped before the queue's end (held is then the last seen)."""

    pos: Pos
    held: dict[str, Any] | None
    known: bool


@dataclass
class EditorView:
    """Cached per-run lookups the panels need every frame."""

    spans: dict[tuple[str, int], ActionSpan] = field(default_factory=dict)


def plan_problems(level: Level, data: Any) -> tuple[Plan | None, list[str]]:
    """Parse plan JSON and check it fits the level: agents, station names, floor targets, waits.
    Returns (plan, []) when it fits, else (None, reasons naming agent and action index)."""
    data = unwrap_plan(data)
    if not isinstance(data, Mapping):
        return None, ["the plan must be an object mapping agent names to action lists"]
    names = level.agent_names
    problems = [
        f"{a}: no such agent in this level (agents: {', '.join(names)})" for a in data if a not in names
    ]
    try:
        plan = parse_plan({a: q for a, q in data.items() if a in names}, names)
    except PlanError as e:
        return None, problems + list(e.problems)
    for agent, queue in plan.items():
        for i, action in enumerate(queue):
            reason = _misfit(level, action)
            if reason:
                problems.append(f"{agent} action {i} ({action.name}): {reason}")
    return (None, problems) if problems else (plan, [])


def _misfit(level: Level, action: Action) -> str | None:
    if action.problem:
        return action.problem
    if action.name == "MoveTo":
        x, y = action.target
        if not (isinstance(x, int) and isinstance(y, int)):
            return f"({x}, {y}) is not a tile: coordinates are whole numbers"
        if not level.in_bounds((x, y)):
            return f"({x}, {y}) is outside this {level.width}x{level.height} kitchen"
        if not level.is_floor((x, y)):
            return f"({x}, {y}) is not a floor tile in this kitchen"
    elif action.name in ("Interact", "Process"):
        if level.target_named(action.target) is None:
            return f"this kitchen has no station called {action.target!r}"
    elif action.name == "Wait":
        d = action.duration
        if isinstance(d, bool) or not isinstance(d, (int, float)) or d != d or d < 0:
            return f"duration {preview(d)} is not a number >= 0"
        if d > ENGINE_MAX_WAIT:  # infinity included
            return f"duration {preview(d)} is longer than the longest Wait allowed ({ENGINE_MAX_WAIT})"
    return None


class PlanEditor:
    """Queues of every agent plus the editing state. Each change re-simulates."""

    def __init__(
        self, level: Level, plan: Mapping[str, Iterable[Action]] | None = None, rules: str | None = None
    ):
        self.level = level
        self.rules = rules or level.rules
        self.names = level.agent_names
        plan = plan or {}
        self.queues: dict[str, list[Action]] = {a: list(plan.get(a, ())) for a in self.names}
        self.agent = self.names[0]
        self.cursor: dict[str, int | None] = {a: None for a in self.names}
        self.last_edit: tuple[str, int] | None = None
        self.revision = 0
        self._undo: list[EditorState] = []
        self._redo: list[EditorState] = []
        self.result: Result = self._run()
        self.view = self._index()

    # -- the plan and its run -------------------------------------------------------------
    @property
    def plan(self) -> Plan:
        return {a: tuple(q) for a, q in self.queues.items()}

    def plan_dict(self) -> dict[str, list[dict[str, Any]]]:
        return {a: [x.to_dict() for x in q] for a, q in self.queues.items()}

    @property
    def error(self) -> ErrorDetail | None:
        return self.result.error_detail

    @property
    def action_count(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def _run(self) -> Result:
        return simulate(self.level, self.plan, self.rules, record=True)

    def _index(self) -> EditorView:
        view = EditorView()
        timeline = self.result.timeline
        for span in timeline.spans if timeline else ():
            view.spans[(span.agent, span.index)] = span
        return view

    def span(self, agent: str, index: int) -> ActionSpan | None:
        """How the engine ran that action (None if the run never reached it)."""
        return self.view.spans.get((agent, index))

    def _changed(self) -> None:
        self.revision += 1
        self.result = self._run()
        self.view = self._index()

    # -- undo / redo ----------------------------------------------------------------------
    def _state(self) -> EditorState:
        return EditorState(
            tuple(tuple(self.queues[a]) for a in self.names),
            self.agent,
            tuple(self.cursor[a] for a in self.names),
        )

    def _restore(self, state: EditorState) -> None:
        self.queues = {a: list(q) for a, q in zip(self.names, state.queues, strict=True)}
        self.agent = state.agent
        self.cursor = dict(zip(self.names, state.cursor, strict=True))
        self.last_edit = None
        self._changed()

    def _checkpoint(self) -> None:
        self._undo.append(self._state())
        self._redo.clear()

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def history(self, limit: int = 50) -> dict[str, Any]:
        """The undo and redo steps as compact JSON (see pack_history)."""
        return pack_history(self.names, self._undo, self._redo, limit)

    @property
    def steps(self) -> tuple[list[EditorState], list[EditorState]]:
        """The undo and redo steps themselves (immutable; safe to hand to another thread)."""
        return self._undo, self._redo

    def load_history(self, data: Any) -> bool:
        """Take back undo/redo steps saved by history(); False (and no change) when they do not fit."""
        try:
            if data.get("agents") != list(self.names):
                return False
            actions = parse_plan({self.names[0]: data["actions"]}, self.names)[self.names[0]]

            def unpack(step: Any) -> EditorState:
                if any(type(i) is not int or not 0 <= i < len(actions) for q in step["queues"] for i in q):
                    raise ValueError("an action index out of range")
                queues = tuple(tuple(actions[i] for i in q) for q in step["queues"])
                cursor = tuple(None if c is None else int(c) for c in step["cursor"])
                if (
                    len(queues) != len(self.names)
                    or len(cursor) != len(self.names)
                    or step["agent"] not in self.names
                ):
                    raise ValueError("wrong shape")
                return EditorState(queues, step["agent"], cursor)

            undo = [unpack(s) for s in data["undo"]]
            redo = [unpack(s) for s in data["redo"]]
        except (AttributeError, KeyError, IndexError, TypeError, ValueError, PlanError):
            return False
        self._undo, self._redo = undo, redo
        return True

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(self._state())
        self._restore(self._undo.pop())
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(self._state())
        self._restore(self._redo.pop())
        return True

    # -- selection ------------------------------------------------------------------------
    def select_agent(self, name: str) -> None:
        if name in self.queues:
            self.agent = name

    def cycle_agent(self, step: int = 1) -> None:
        i = self.names.index(self.agent)
        self.agent = self.names[(i + step) % len(self.names)]

    def select_action(self, index: int | None, agent: str | None = None) -> None:
        """Select an action (new ones go in before it); None means "append at the end"."""
        agent = agent or self.agent
        self.agent = agent
        queue = self.queues[agent]
        self.cursor[agent] = index if index is not None and 0 <= index < len(queue) else None

    def move_selection(self, step: int) -> None:
        """Up/down through the selected agent's queue; past either end means "append"."""
        queue, cur = self.queues[self.agent], self.cursor[self.agent]
        if not queue:
            return
        if cur is None:
            nxt = len(queue) - 1 if step < 0 else None
        else:
            nxt = cur + step
            if nxt < 0:
                nxt = 0
        self.select_action(nxt)

    @property
    def selected(self) -> int | None:
        return self.cursor[self.agent]

    def insertion_index(self, agent: str | None = None) -> int:
        agent = agent or self.agent
        cur = self.cursor[agent]
        return len(self.queues[agent]) if cur is None else cur

    # -- where an agent is at a point of its plan -------------------------------------------
    def position_before(self, agent: str, index: int) -> Pos:
        """The tile the agent stands on when action `index` starts (its last MoveTo's target)."""
        for action in reversed(self.queues[agent][:index]):
            if action.name == "MoveTo":
                return (action.target[0], action.target[1])
        start = next(a for a in self.level.agents if a.name == agent)
        return start.pos

    def end_point(self, agent: str) -> EndPoint:
        queue = self.queues[agent]
        pos = self.position_before(agent, len(queue))
        start_state = self.result.timeline.states[0] if self.result.timeline else None
        if not queue:
            held = start_state["agents"][agent]["held"] if start_state else None
            return EndPoint(pos, held, True)
        last = self.span(agent, len(queue) - 1)
        timeline = self.result.timeline
        if last is not None and last.status == "done" and timeline is not None:
            return EndPoint(pos, timeline.state_at(last.end)["agents"][agent]["held"], True)
        final = timeline.states[-1]["agents"][agent]["held"] if timeline else None
        return EndPoint(pos, final, False)

    def nearest_access(self, agent: str, station_pos: Pos, index: int) -> Pos | None:
        """The free floor tile next to the station that the agent reaches soonest from where
        it stands before action `index`; ties go to a tile no other agent's plan ends on."""
        here = self.position_before(agent, index)
        dist = self.level.distances(here)
        others = {self.position_before(a, len(self.queues[a])) for a in self.names if a != agent}
        options = [
            (dist[p], p in others, i, p)
            for i, p in enumerate(self.level.neighbours(station_pos))
            if p in dist
        ]
        return min(options)[3] if options else None

    # -- edits ----------------------------------------------------------------------------
    def _insert(self, actions: list[Action]) -> int:
        """Insert at the cursor as one undo step; returns the index of the last one."""
        if len(self.queues[self.agent]) + len(actions) > MAX_ACTIONS_PER_AGENT:
            # a longer queue would be refused as a plan (and its autosave would not reopen)
            raise EditRefused(
                f"{self.agent} has {MAX_ACTIONS_PER_AGENT:,} actions, the most a queue may hold"
            )
        self._checkpoint()
        agent, i = self.agent, self.insertion_index()
        self.queues[agent][i:i] = actions
        if self.cursor[agent] is not None:
            self.cursor[agent] = i + len(actions)
        self.last_edit = (agent, i + len(actions) - 1)
        self._changed()
        return i + len(actions) - 1

    def queue_move(self, pos: Pos) -> int:
        pos = (int(pos[0]), int(pos[1]))
        if not self.level.in_bounds(pos):
            raise EditRefused(f"({pos[0]}, {pos[1]}) is outside the kitchen")
        if not self.level.is_floor(pos):
            raise EditRefused(f"({pos[0]}, {pos[1]}) is not floor: agents cannot stand there")
        here = self.position_before(self.agent, self.insertion_index())
        if pos not in self.level.distances(here):
            raise EditRefused(f"{self.agent} cannot walk from {here} to {pos}")
        return self._insert([Action("MoveTo", pos)])

    def queue_station(self, station: str, process: bool = False) -> int:
        """Interact with (or Process at) a station, walking next to it first when needed."""
        st = self.level.station_by_name.get(station)
        if st is None:
            raise EditRefused(f"there is no station called {station!r}")
        index = self.insertion_index()
        here = self.position_before(self.agent, index)
        actions = [Action("Process" if process else "Interact", station)]
        if abs(here[0] - st.x) + abs(here[1] - st.y) != 1:
            spot = self.nearest_access(self.agent, st.pos, index)
            if spot is None:
                raise EditRefused(f"{self.agent} cannot reach any tile next to {station} from {here}")
            actions.insert(0, Action("MoveTo", spot))
        return self._insert(actions)

    def queue_wait(self, duration: float) -> int:
        return self._insert([Action("Wait", duration=_clamp_wait(duration))])

    def queue_finish(self) -> int:
        return self._insert([Action("Finish")])

    def delete(self) -> bool:
        """Delete the selected action (or the last one when none is selected)."""
        queue = self.queues[self.agent]
        if not queue:
            return False
        cur = self.cursor[self.agent]
        index = len(queue) - 1 if cur is None else cur
        self._checkpoint()
        del queue[index]
        if cur is not None and cur >= len(queue):
            self.cursor[self.agent] = None
        self.last_edit = None
        self._changed()
        return True

    def adjust_wait(self, delta: float) -> bool:
        """Change the selected Wait's duration by delta (never below 0)."""
        index = self.selected
        if index is None or self.queues[self.agent][index].name != "Wait":
            return False
        return self.set_wait(index, self.queues[self.agent][index].duration + delta)

    def set_wait(self, index: int, duration: float) -> bool:
        queue = self.queues[self.agent]
        new = Action("Wait", duration=_clamp_wait(duration))
        if queue[index] == new:
            return False
        self._checkpoint()
        queue[index] = new
        self.last_edit = (self.agent, index)
        self._changed()
        return True

    def clear_agent(self) -> bool:
        if not self.queues[self.agent]:
            return False
        self._checkpoint()
        self.queues[self.agent] = []
        self.cursor[self.agent] = None
        self.last_edit = None
        self._changed()
        return True

    def set_queues(self, queues: Mapping[str, Iterable[Action]]) -> None:
        """Replace some agents' queues, not as an undo step (a partner's re-plan: undoing the
        person's edit gives the partner's earlier queues back with it)."""
        for agent, queue in queues.items():
            self.queues[agent] = list(queue)
            cur = self.cursor[agent]
            if cur is not None and cur >= len(self.queues[agent]):
                self.cursor[agent] = None
        if self.last_edit is not None and self.last_edit[0] in queues:
            self.last_edit = None
        self._changed()

    def replace_plan(self, plan: Mapping[str, Iterable[Action]]) -> None:
        """Load a whole plan (undoable)."""
        self._checkpoint()
        self.queues = {a: list(plan.get(a, ())) for a in self.names}
        self.cursor = {a: None for a in self.names}
        self.last_edit = None
        self._changed()

    def focus_time(self) -> float:
        """The moment worth showing after an edit: the edited action's end, else the error."""
        if self.last_edit is not None:
            span = self.span(*self.last_edit)
            if span is not None:
                return span.end
        if self.error is not None:
            return self.error.time
        return self.result.time


def pack_history(
    names: list[str], undo: list[EditorState], redo: list[EditorState], limit: int = 50
) -> dict[str, Any]:
    """Undo/redo steps as compact JSON: a table of distinct actions and, per step, each agent's
    queue as indices into it (the last `limit` steps of each)."""
    table: dict[int, int] = {}  # by identity: steps share their Action objects, and hashing is slow
    actions: list[Action] = []

    def index(a: Action) -> int:
        i = table.get(id(a))
        if i is None:
            i = table[id(a)] = len(actions)
            actions.append(a)
        return i

    def pack(state: EditorState) -> dict[str, Any]:
        queues = [[index(a) for a in q] for q in state.queues]
        return {"queues": queues, "agent": state.agent, "cursor": list(state.cursor)}

    packed_undo = [pack(s) for s in undo[-limit:]]
    packed_redo = [pack(s) for s in redo[-limit:]]
    return {
        "agents": list(names),
        "actions": [a.to_dict() for a in actions],
        "undo": packed_undo,
        "redo": packed_redo,
    }


def _clamp_wait(duration: Any) -> float:
    try:
        d = float(duration)
    except (TypeError, ValueError, OverflowError):
        raise EditRefused(f"a wait needs a number, not {preview(duration)}") from None
    if not math.isfinite(d):
        raise EditRefused("a wait needs a finite number")
    d = min(max(d, 0.0), MAX_WAIT)
    return int(d) if d == int(d) else d
