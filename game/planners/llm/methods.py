"""The planning methods. io, cot and plag ask for a whole plan and retry with feedback;
msreact plans in batches, showing the model the kitchen whenever an agent's queue runs dry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, Plan, PlanError, Result, Timeline, parse_plan, simulate, unreadable_actions

from .client import ChatClient, Messages, Usage
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


def empty_plan(level: Level) -> Plan:
    return {name: () for name in level.agent_names}


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
    try:
        plan = parse_plan(extract_plan(text), level.agent_names)
    except ReplyParseError as e:
        return None, parse_feedback(e)
    except PlanError as e:
        return None, plan_feedback(e)
    # a plan with unreadable actions still runs up to the first one; the model hears of all
    problems = unreadable_actions(plan)
    return plan, plan_feedback(PlanError(problems)) if problems else None


async def solve(
    level: Level,
    method: str,
    client: ChatClient,
    attempts: int = 3,
    tag: dict[str, Any] | None = None,
    max_steps: int = 40,
) -> Outcome:
    if method == "msreact":
        return await solve_stepwise(level, client, attempts, max_steps, tag or {})
    if method not in WHOLE_PLAN_METHODS:
        raise ValueError(f"unknown method {method!r}")
    return await solve_whole(level, method, client, attempts, tag or {})


async def solve_whole(
    level: Level, method: str, client: ChatClient, attempts: int, tag: dict[str, Any]
) -> Outcome:
    """Up to `attempts` whole plans; each one runs from t = 0; errors go back to the model."""
    messages: Messages = first_messages(level, method)
    out = Outcome(empty_plan(level), run_plan(level, empty_plan(level)), "no_plan")
    for n in range(1, attempts + 1):
        reply = await client.complete(messages, {**tag, "attempt": n})
        out.usage.add(reply)
        out.attempts = n
        plan, feedback = read_plan(level, reply.text)
        result, refused = try_plan(level, plan) if plan is not None else (None, None)
        if plan is not None and result is not None:
            out.plan, out.result = plan, result
            out.status = "done" if out.result.done else "failed"
            feedback = feedback or result_feedback(level, out.result)
        feedback = refused or feedback
        out.note = feedback
        if feedback is None:
            break
        messages += [{"role": "assistant", "content": reply.text}, {"role": "user", "content": feedback}]
    return out


# -- MultiStepReAct -----------------------------------------------------------------------


def dry_point(plan: Plan, timeline: Timeline) -> tuple[float, list[str]] | None:
    """When the first agent (not yet finished) runs out of actions, and who; None if all finished."""
    ends: dict[str, float] = {}
    for agent, actions in plan.items():
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


def extend(plan: Plan, batch: Plan) -> Plan:
    return {agent: plan[agent] + batch.get(agent, ()) for agent in plan}


async def solve_stepwise(
    level: Level, client: ChatClient, attempts: int, max_steps: int, tag: dict[str, Any]
) -> Outcome:
    """Batches appended to one growing plan; every step re-runs the whole plan from t = 0.
    A failing batch is dropped and asked for again, up to `attempts` times in a row."""
    messages: Messages = first_messages(level, "msreact")
    out = Outcome(empty_plan(level), run_plan(level, empty_plan(level)), "no_plan")
    misses = 0
    while out.steps < max_steps and misses < attempts:
        reply = await client.complete(messages, {**tag, "step": out.steps + 1, "attempt": misses + 1})
        out.usage.add(reply)
        out.attempts += 1
        messages.append({"role": "assistant", "content": reply.text})
        batch, feedback = read_plan(level, reply.text)
        if batch is not None:
            candidate = extend(out.plan, batch)
            result, refused = try_plan(level, candidate)
            if result is None:
                feedback = refused
            elif result.error is not None:
                feedback = feedback or engine_feedback(level, result, "msreact_error")
                if misses + 1 >= attempts:  # the last chance failed: keep it as the final run
                    out.plan, out.result, out.status = candidate, result, "failed"
            else:
                out.plan, out.result, out.status = candidate, result, "done" if result.done else "failed"
                out.steps += 1
                misses = 0
                out.note = None
                point = dry_point(candidate, result.timeline)
                if result.done or point is None or not any(batch.values()):
                    break
                messages.append({"role": "user", "content": step_prompt(level, candidate, result, point)})
                continue
        misses += 1
        out.note = feedback
        messages.append({"role": "user", "content": feedback})
    if out.status != "done" and out.note is None:
        out.note = result_feedback(level, out.result)
    return out
