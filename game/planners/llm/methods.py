"""The planning methods. io, cot and plag ask for a whole plan and retry with feedback;
msreact plans in batches, showing the model the kitchen whenever an agent's queue runs dry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, Plan, PlanError, Result, Timeline, parse_plan, simulate, unreadable_actions

from . import attempts as rec
from .client import ChatClient, Messages, Reply, Usage
from .constraint import Fixed
from .describe import action_text, state_text
from .feedback import engine_feedback, parse_feedback, plan_feedback, result_feedback
from .parsing import ReplyParseError, extract_plan
from .prompts import fill, first_messages

WHOLE_PLAN_METHODS = ("io", "cot", "plag")


@dataclass
class Outcome:
    """How one task went: the plan that ran last, its result, and what it cost."""

    plan: Plan
    result: Result
    status: str  # done | failed | no_plan
    attempts: int = 0
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    note: str | None = None  # the last problem, when the task failed
    records: list[dict[str, Any]] = field(default_factory=list)  # one per model call (attempts.py)
    fixed: Fixed | None = None  # the agents whose queues were fixed (as given), when any


def empty_plan(level: Level, fixed: Fixed | None = None) -> Plan:
    """No actions for anyone but the fixed agents, whose queues are there from the start."""
    return fixed.empty_plan(level) if fixed else {name: () for name in level.agent_names}


def run_plan(level: Level, plan: Plan) -> Result:
    return simulate(level, plan, level.rules, record=True)


def try_plan(level: Level, plan: Plan) -> tuple[Result | None, str | None]:
    """The run of a checked plan, or, when the engine refuses its numbers (a Wait too large to
    compute with), the feedback saying so: one failed attempt, never the end of the task."""
    try:
        return run_plan(level, plan), None
    except (PlanError, ArithmeticError, ValueError) as e:
        return None, f"The engine cannot run this plan: {e}. Use Wait durations of ordinary size."


def read_plan(level: Level, text: str) -> tuple[Plan | None, str | None]:
    """A checked plan from a reply, or the feedback saying why there is none."""
    plan, feedback, _, _ = read_reply(level, Reply(text, 0, 0, 0.0))
    return plan, feedback


def truncation_feedback(limit: int | None) -> str:
    return fill("feedback_truncated", limit=f" ({limit} tokens)" if limit else "")


def read_reply(
    level: Level, reply: Reply, limit: int | None = None, fixed: Fixed | None = None, whole: bool = True
) -> tuple[Plan | None, str | None, dict | None, list[str]]:
    """A checked plan from a reply, or the feedback saying why there is none, the error on
    record, and the fixed agents whose queue the reply wrote (ignored: the fixed queues stand in
    a whole plan, and a step's batch gives a fixed agent nothing). A reply cut at the length
    limit is told as such."""
    ignored: list[str] = []
    try:
        raw = extract_plan(reply.text)
        if fixed is not None:
            raw, ignored = fixed.strip(raw, whole)
        plan = parse_plan(raw, level.agent_names)
    except (ReplyParseError, PlanError) as e:
        if rec.truncated(reply):
            return None, truncation_feedback(limit), rec.reading_error(e, reply), ignored
        feedback = parse_feedback(e) if isinstance(e, ReplyParseError) else plan_feedback(e)
        return None, feedback, rec.reading_error(e, reply), ignored
    if fixed is not None and whole:
        plan = fixed.whole(plan)
    # a plan with unreadable actions still runs up to the first one; the model hears of all
    problems = unreadable_actions(plan)
    if not problems:
        return plan, None, None, ignored
    return plan, plan_feedback(PlanError(problems)), rec.reading_error(PlanError(problems), reply), ignored


def with_ignored(level: Level, fixed: Fixed | None, ignored: list[str], feedback: str | None) -> str | None:
    """The feedback, after a word on the fixed queues the reply wrote and that were ignored."""
    if fixed is None or not ignored or feedback is None:
        return feedback
    return fixed.ignored_feedback(level, ignored) + "\n\n" + feedback


async def solve(
    level: Level,
    method: str,
    client: ChatClient,
    attempts: int = 3,
    tag: dict[str, Any] | None = None,
    max_steps: int = 40,
    fixed: Fixed | None = None,
) -> Outcome:
    """The task planned by the method. With `fixed`, those agents' queues run as given and the
    model plans the others (the prompt shows the fixed queues)."""
    if method == "msreact":
        return await solve_stepwise(level, client, attempts, max_steps, tag or {}, fixed)
    if method not in WHOLE_PLAN_METHODS:
        raise ValueError(f"unknown method {method!r}")
    return await solve_whole(level, method, client, attempts, tag or {}, fixed)


def start(level: Level, fixed: Fixed | None) -> Outcome:
    """A task before any reply: the fixed queues alone, run."""
    plan = empty_plan(level, fixed)
    return Outcome(plan, run_plan(level, plan), "no_plan", fixed=fixed)


async def solve_whole(
    level: Level,
    method: str,
    client: ChatClient,
    attempts: int,
    tag: dict[str, Any],
    fixed: Fixed | None = None,
) -> Outcome:
    """Up to `attempts` whole plans; each one runs from t = 0; errors go back to the model."""
    messages: Messages = first_messages(level, method, fixed.queues if fixed else None)
    out = start(level, fixed)
    for n in range(1, attempts + 1):
        reply = await client.complete(messages, {**tag, "attempt": n})
        out.usage.add(reply)
        out.attempts = n
        plan, feedback, error, ignored = read_reply(level, reply, client.max_tokens, fixed)
        result, refused = try_plan(level, plan) if plan is not None else (None, None)
        if plan is not None and result is not None:
            out.plan, out.result = plan, result
            out.status = "done" if out.result.done else "failed"
            feedback = feedback or result_feedback(level, out.result)
            error = error or rec.result_error(result)
        if refused:
            error = rec.error("refused", "numbers", refused)
        out.records.append(rec.record(reply, {"attempt": n}, plan is not None, error, ignored))
        feedback = with_ignored(level, fixed, ignored, refused or feedback)
        out.note = feedback
        if feedback is None:
            break
        messages += [{"role": "assistant", "content": reply.text}, {"role": "user", "content": feedback}]
    return out


# -- MultiStepReAct -----------------------------------------------------------------------


def dry_point(plan: Plan, timeline: Timeline, fixed: Fixed | None = None) -> tuple[float, list[str]] | None:
    """When the first agent (not yet finished) runs out of actions, and who; None if all finished.
    A fixed agent is never asked for more: its queue is whole."""
    ends: dict[str, float] = {}
    for agent, actions in plan.items():
        if fixed is not None and agent in fixed.queues:
            continue
        if actions and actions[-1].name == "Finish":
            continue
        spans = timeline.spans_of(agent)
        ends[agent] = spans[-1].end if spans else 0
    if not ends:
        return None
    t = min(ends.values())
    return t, [a for a, end in ends.items() if end == t]


def queued_text(timeline: Timeline, agents: tuple[str, ...], t: float) -> str:
    lines = []
    for agent in agents:
        later = [s for s in timeline.spans_of(agent) if s.end > t]
        if later:
            acts = ", ".join(action_text(s.action) for s in later)
            lines.append(f"- {agent}: busy until t = {later[-1].end}: {acts}")
        else:
            lines.append(f"- {agent}: nothing")
    return "\n".join(lines)


def step_prompt(level: Level, plan: Plan, result: Result, point: tuple[float, list[str]]) -> str:
    t, dry = point
    assert result.timeline is not None
    return fill(
        "msreact_state",
        time=t,
        dry=" and ".join(dry),
        state=state_text(level, result.timeline.state_at(t), t=t),
        queued=queued_text(result.timeline, level.agent_names, t),
    )


def waits_on_model(plan: Plan, result: Result, fixed: Fixed | None) -> bool:
    """Whether a run stopped by a fixed agent's error after the model's agents ran out of
    actions: the fixed queue went on without work still to be planned, not the step's fault."""
    d = result.error_detail
    if fixed is None or d is None or d.agent not in fixed.queues or result.timeline is None:
        return False
    point = dry_point(plan, result.timeline, fixed)
    return point is not None and point[0] < d.time


def pending_text(result: Result) -> str:
    """The fixed agent's failure still ahead, for the next step."""
    d = result.error_detail
    assert d is not None
    return fill(
        "partner_pending",
        time=d.time,
        agent=d.agent,
        index=d.action_index,
        action=action_text(d.action),
        reason=d.reason,
    )


def extend(plan: Plan, batch: Plan) -> Plan:
    return {agent: plan[agent] + batch.get(agent, ()) for agent in plan}


async def solve_stepwise(
    level: Level,
    client: ChatClient,
    attempts: int,
    max_steps: int,
    tag: dict[str, Any],
    fixed: Fixed | None = None,
) -> Outcome:
    """Batches appended to one growing plan; every step re-runs the whole plan from t = 0.
    A failing batch is dropped and asked for again, up to `attempts` times in a row. Fixed
    queues are in the plan from the start; a batch's actions for them are ignored."""
    messages: Messages = first_messages(level, "msreact", fixed.queues if fixed else None)
    out = start(level, fixed)
    misses = 0
    while out.steps < max_steps and misses < attempts:
        where = {"step": out.steps + 1, "attempt": misses + 1}
        reply = await client.complete(messages, {**tag, **where})
        out.usage.add(reply)
        out.attempts += 1
        messages.append({"role": "assistant", "content": reply.text})
        batch, feedback, error, ignored = read_reply(level, reply, client.max_tokens, fixed, whole=False)
        if batch is not None and fixed is not None and ignored and not any(batch.values()):
            # actions only for fixed agents: nothing to add, which is not the end of the plan
            feedback = fixed.nothing_new(level)
            error = rec.error("plan", "fixed_only", "the reply gave actions only for fixed agents")
            batch = None
        if batch is not None:
            candidate = extend(out.plan, batch)
            result, refused = try_plan(level, candidate)
            if result is None:
                feedback = refused
                error = rec.error("refused", "numbers", refused or "")
            elif result.error is not None and not waits_on_model(candidate, result, fixed):
                feedback = feedback or engine_feedback(level, result, "msreact_error")
                error = error or rec.result_error(result)
                if misses + 1 >= attempts:  # the last chance failed: keep it as the final run
                    out.plan, out.result, out.status = candidate, result, "failed"
            else:
                out.plan, out.result, out.status = candidate, result, "done" if result.done else "failed"
                out.steps += 1
                misses = 0
                out.note = None
                out.records.append(rec.record(reply, where, True, error, ignored))
                point = dry_point(candidate, result.timeline, fixed)
                if result.done or point is None or not any(batch.values()):
                    break
                step = step_prompt(level, candidate, result, point)
                if result.error is not None:
                    step += "\n\n" + pending_text(result)
                if fixed is not None:
                    step += "\n" + fixed.answer_text(level)
                messages.append({"role": "user", "content": with_ignored(level, fixed, ignored, step)})
                continue
        out.records.append(rec.record(reply, where, batch is not None, error, ignored))
        misses += 1
        feedback = with_ignored(level, fixed, ignored, feedback)
        out.note = feedback
        messages.append({"role": "user", "content": feedback})
    if out.status != "done" and out.note is None:
        out.note = result_feedback(level, out.result)
    return out
