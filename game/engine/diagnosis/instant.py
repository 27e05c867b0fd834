"""Same-instant conflicts: two agents due at one instant, and the rule that decided which went first.

The engine handles the agents due at an instant one by one: the one whose running action began
at an earlier instant first, ties in map order (at t = 0, map order). An earlier agent's effects
are visible to a later one, and the first error stops the run before the later ones land.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..level import Level
from ..narration import action_words, num
from ..timeline import ActionSpan
from .context import HAND_KINDS, Context
from .model import Cause


def running_start(spans: Sequence[ActionSpan], agent: str, t: float) -> float | None:
    """When the agent's action that ended at t began: what placed it in t's queue."""
    for s in spans:
        if s.agent == agent and s.end == t and s.start < s.end and s.status != "rejected":
            return s.start
    return None


def order_rule(level: Level, spans: Sequence[ActionSpan], t: float, first: str, second: str) -> str:
    """Why the engine handled `first` before `second` at t, in words."""
    a, b = running_start(spans, first, t), running_start(spans, second, t)
    if t == 0 or a is None or b is None:
        return f"at t = 0 agents go in map order ({', '.join(level.agent_names)})"
    if a < b:
        return f"{first}'s running action began at t = {num(a)}, {second}'s at t = {num(b)}, and the earlier start goes first"
    if a == b:
        return (
            f"both running actions began at t = {num(a)}, and ties go in map order ({first} before {second})"
        )
    return f"{first} was registered for t = {num(t)} before {second}"


def same_instant_causes(ctx: Context, causes: list[Cause], plan: dict[str, Any] | None) -> list[Cause]:
    """The causes with same-instant conflicts made explicit and put first."""
    out: list[Cause] = []
    front: list[Cause] = []
    for c in causes:
        if c.time == ctx.time and c.agent not in (None, ctx.agent) and c.kind != "busy":
            front.append(_handled_before(ctx, c))
        else:
            out.append(c)
    pending = [_due_too(ctx, s, plan) for s in _pending(ctx)]
    earlier = _interference(ctx)
    return front + [c for c in [*pending, earlier] if c is not None] + out


def _interference(ctx: Context) -> Cause | None:
    """Another agent used the station of the failing agent's last hand event at that same instant,
    just before it (both reached for one plate, say): the failing agent got what was left."""
    mine = ctx.last(lambda e: e.agent == ctx.agent and e.kind in HAND_KINDS and e.station is not None)
    if mine is None or mine.time == ctx.time:
        return None
    other = next(
        (
            e
            for e in reversed(ctx.before)
            if e.time == mine.time
            and e.seq < mine.seq
            and e.station == mine.station
            and e.agent not in (None, ctx.agent)
            and e.kind in HAND_KINDS
        ),
        None,
    )
    if other is None:
        return None
    rule = order_rule(ctx.level, ctx.spans(), mine.time, str(other.agent), ctx.agent)
    text = (
        f"{other.agent} and {ctx.agent} used {mine.station} at the same instant, t = {num(mine.time)}, and "
        f"{other.agent} was handled first: {rule}. So {other.text}, and then {mine.text}"
    )
    fields = {"agents": [other.agent, ctx.agent], "first": other.agent, "rule": rule, "station": mine.station}
    return Cause("same_instant", text, mine.time, other.agent, other.action_index, fields)


def _handled_before(ctx: Context, c: Cause) -> Cause:
    """Another agent changed the kitchen at the failing instant, just before the failing agent."""
    other = str(c.agent)
    rule = order_rule(ctx.level, ctx.spans(), ctx.time, other, ctx.agent)
    text = (
        f"{other} and {ctx.agent} acted at the same instant, t = {num(ctx.time)}, and {other} was "
        f"handled first: {rule}. {_capital(c.text)}"
    )
    fields = {"agents": [other, ctx.agent], "first": other, "rule": rule, "effect": c.kind, **c.fields}
    return Cause("same_instant", text, c.time, other, c.action_index, fields)


def _pending(ctx: Context) -> list[ActionSpan]:
    """Other agents' actions due at the failing instant that never landed (the run stopped)."""
    return [s for s in ctx.spans() if s.status == "cut" and s.end == ctx.time and s.agent != ctx.agent]


def _due_too(ctx: Context, span: ActionSpan, plan: dict[str, Any] | None) -> Cause | None:
    """A cut action at the failing instant that touched the failing station (or led to it)."""
    nxt = _next_action(plan, span.agent, span.index)
    if not (_touches(ctx, span.action) or (nxt is not None and _touches(ctx, nxt))):
        return None
    other = span.agent
    rule = order_rule(ctx.level, ctx.spans(), ctx.time, ctx.agent, other)
    doing = action_words(span.action)
    then = f", then {action_words(nxt)}" if nxt is not None else ""
    held = ctx.held_at(other)
    holding = f", holding {held}," if held else ""
    text = (
        f"{other} was due at {ctx.station} at the same instant, t = {num(ctx.time)}{holding} (its action "
        f"{span.index}, {doing}{then}), but {ctx.agent} was handled first: {rule}. The run stopped at "
        f"{ctx.agent}'s error, so {other}'s action never landed"
    )
    fields = {"agents": [ctx.agent, other], "first": ctx.agent, "rule": rule}
    return Cause("same_instant", text, ctx.time, other, span.index, fields)


def _touches(ctx: Context, action: dict[str, Any]) -> bool:
    """The action uses the failing station, or walks to a tile beside it."""
    if ctx.station is None:
        return False
    target = action.get("target")
    if target == ctx.station:
        return True
    station = ctx.level.station_by_name[ctx.station]
    if action.get("action") == "MoveTo" and isinstance(target, list | tuple) and len(target) == 2:
        return abs(target[0] - station.x) + abs(target[1] - station.y) == 1
    return False


def _next_action(plan: dict[str, Any] | None, agent: str, index: int) -> dict[str, Any] | None:
    queue = plan.get(agent) if isinstance(plan, dict) else None
    if isinstance(queue, list | tuple) and 0 <= index + 1 < len(queue) and isinstance(queue[index + 1], dict):
        return queue[index + 1]
    return None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
