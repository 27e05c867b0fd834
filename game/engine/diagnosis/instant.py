"""Same-instant conflicts: two agents due at one instant, and the rule that decided which went first.

The engine handles the agents due at an instant one by one: the one whose running action began
at an earlier instant first, ties in map order (at t = 0, map order). An earlier agent's effects
are visible to a later one, and the first error stops the run before the later ones land.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import errors as E
from ..level import Level
from ..narration import action_words, num
from ..simulator import execute
from ..timeline import ActionSpan
from .context import HAND_KINDS, Context
from .model import Cause

SAME_INSTANT_RULE = (
    "At one instant agents act one after another: first the agent whose running action began "
    "earliest, ties (and t = 0) in map order (agent1, agent2, ...). An earlier agent's effect is "
    "seen by the later ones."
)

# the error kinds where what another agent did at the same instant can decide the outcome
STATE_ERRORS = (
    E.BAD_INTERACT,
    E.COOKWARE_REJECTS,
    E.PROCESS_FAILED,
    E.NO_PROCESS,
    E.NOT_A_PLATE,
    E.NO_ORDER_LEFT,
    E.WRONG_DISH,
    E.STALE_DISH,
    E.STATION_IN_USE,
)
# causes that name the plan's own mistake outright: a same-instant conflict comes second to them
DEFINITIVE = ("missing_step", "not_ready", "plan_error")
MOMENT = 1e-6  # how much later the swapped agent acts when a conflict is checked


def running_start(spans: Sequence[ActionSpan], agent: str, t: float) -> float | None:
    """When the agent's action that ended at t began: what placed it in t's queue."""
    for s in spans:
        if s.agent == agent and s.end == t and s.start < s.end and s.status != "rejected":
            return s.start
    return None


def rule_words(
    t: float, first: str, first_began: float | None, second: str, second_began: float | None
) -> str:
    """Why `first` was handled before `second` at t: the one sentence every view uses."""
    if t == 0 or first_began is None or second_began is None:
        return "at t = 0 agents go in map order"
    if first_began == second_began:
        return f"both actions began at t = {num(first_began)}, and ties go in map order"
    return (
        f"{first}'s action began at t = {num(first_began)}, {second}'s at t = {num(second_began)}, "
        f"and the earlier start goes first"
    )


def order_rule(level: Level, spans: Sequence[ActionSpan], t: float, first: str, second: str) -> str:
    """Why the engine handled `first` before `second` at t, in words."""
    return rule_words(t, first, running_start(spans, first, t), second, running_start(spans, second, t))


def same_instant_causes(ctx: Context, causes: list[Cause], plan: dict[str, Any] | None) -> list[Cause]:
    """The causes with same-instant conflicts made explicit and put first. With the plan, a
    conflict counts only when running the plan again with the order swapped (one agent a moment
    later) lets the failing action work."""
    if ctx.kind not in STATE_ERRORS:
        return causes
    out: list[Cause] = []
    front: list[Cause] = []
    for c in causes:
        same = c.time == ctx.time and c.agent not in (None, ctx.agent) and c.action_index is not None
        helps = _swap_helps(ctx, plan, str(c.agent), c.action_index) if same else False
        if helps is not False:
            front.append(_handled_before(ctx, c, helps))
        else:
            out.append(c)
    conflicts = front + [c for c in (_pending_cause(ctx, plan), _interference(ctx, plan)) if c is not None]
    if out and (out[0].kind in DEFINITIVE or (out[0].kind == "moved_away" and out[0].agent == ctx.agent)):
        return out[:1] + conflicts + out[1:]
    return conflicts + out


def _swap_helps(ctx: Context, plan: dict[str, Any] | None, agent: str, index: int | None) -> bool | None:
    """Would the failing action work had `agent`'s action `index` come a moment later? None when
    it cannot be checked (no plan)."""
    queue = plan.get(agent) if plan else None
    if not isinstance(queue, list) or index is None or ctx.index is None or not 0 <= index <= len(queue):
        return None
    later = [*queue[:index], {"action": "Wait", "duration": MOMENT}, *queue[index:]]
    result = execute(ctx.level, {**plan, agent: later}, ctx.rules)
    failing = ctx.index + 1 if agent == ctx.agent and index <= ctx.index else ctx.index
    spans = result.timeline.spans if result.timeline is not None else []
    span = next((s for s in spans if s.agent == ctx.agent and s.index == failing), None)
    if span is None or span.status == "cut":
        return None  # the run stopped before that action: it cannot tell
    return span.status == "done"


def _checked(checked: bool | None, later: str, agent: str) -> str:
    """The note that the conflict was confirmed by running the plan again."""
    if not checked:
        return ""
    return f" (checked: run again with {later} a moment later, {agent}'s action works)"


def _pending_cause(ctx: Context, plan: dict[str, Any] | None) -> Cause | None:
    """Another agent due at the failing instant, never handled (the run stopped first), whose
    action would have changed what the failing agent found."""
    pending = _pending(ctx)
    if not pending:
        return None
    helps = _swap_helps(ctx, plan, ctx.agent, ctx.index)
    if helps is False:
        return None
    touching = [
        s for s in pending if _touches(ctx, s.action) or _touches(ctx, _next_action(plan, s.agent, s.index))
    ]
    if helps is None and not touching:
        return None
    return _due_too(ctx, (touching or pending)[0], plan, checked=helps is True)


def _interference(ctx: Context, plan: dict[str, Any] | None) -> Cause | None:
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
    helps = None if other is None else _swap_helps(ctx, plan, str(other.agent), other.action_index)
    if other is None or helps is False:
        return None
    rule = order_rule(ctx.level, ctx.spans(), mine.time, str(other.agent), ctx.agent)
    text = (
        f"{other.agent} and {ctx.agent} used {mine.station} at the same instant, t = {num(mine.time)}, and "
        f"{other.agent} was handled first: {rule}. So {other.text}, and then {mine.text}"
        f"{_checked(helps, str(other.agent), ctx.agent)}"
    )
    fields = {
        "agents": [other.agent, ctx.agent],
        "first": other.agent,
        "rule": rule,
        "station": mine.station,
        "checked": helps is True,
    }
    return Cause("same_instant", text, mine.time, other.agent, other.action_index, fields)


def _handled_before(ctx: Context, c: Cause, helps: bool | None) -> Cause:
    """Another agent changed the kitchen at the failing instant, just before the failing agent."""
    other = str(c.agent)
    rule = order_rule(ctx.level, ctx.spans(), ctx.time, other, ctx.agent)
    text = (
        f"{other} and {ctx.agent} acted at the same instant, t = {num(ctx.time)}, and {other} was "
        f"handled first: {rule}. {_capital(c.text)}{_checked(helps, other, ctx.agent)}"
    )
    fields = {"agents": [other, ctx.agent], "first": other, "rule": rule, "effect": c.kind, **c.fields}
    fields["checked"] = helps is True
    return Cause("same_instant", text, c.time, other, c.action_index, fields)


def _pending(ctx: Context) -> list[ActionSpan]:
    """Other agents' actions due at the failing instant that never landed (the run stopped)."""
    return [s for s in ctx.spans() if s.status == "cut" and s.end == ctx.time and s.agent != ctx.agent]


def _due_too(ctx: Context, span: ActionSpan, plan: dict[str, Any] | None, checked: bool) -> Cause:
    """The sentence for another agent's action that was due at the failing instant too."""
    nxt = _next_action(plan, span.agent, span.index)
    other = span.agent
    rule = order_rule(ctx.level, ctx.spans(), ctx.time, ctx.agent, other)
    doing = action_words(span.action)
    then = f", and its next action was {action_words(nxt)}" if nxt is not None else ""
    held = ctx.held_at(other)
    holding = f" (it held {held})" if held else ""
    text = (
        f"{other}'s action {span.index} ({doing}) was due to end at the same instant, t = {num(ctx.time)}"
        f"{holding}{then}, but {ctx.agent} was handled first: {rule}. The run stopped at {ctx.agent}'s "
        f"error, so {other}'s action never landed{_checked(checked, ctx.agent, ctx.agent)}"
    )
    fields = {"agents": [ctx.agent, other], "first": ctx.agent, "rule": rule, "checked": checked}
    return Cause("same_instant", text, ctx.time, other, span.index, fields)


def _touches(ctx: Context, action: dict[str, Any] | None) -> bool:
    """The action uses the failing station, or walks to a tile beside it."""
    if ctx.station is None or action is None:
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
