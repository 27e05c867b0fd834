"""What the model is told when its reply cannot be used: the problem, where, and the state."""

from __future__ import annotations

from game.engine import Level, PlanError, Result
from game.engine.diagnosis import Diagnosis

from .describe import action_text, state_text
from .parsing import ReplyParseError
from .prompts import fill


def parse_feedback(error: ReplyParseError) -> str:
    return fill("feedback_parse", error=str(error))


def plan_feedback(error: PlanError) -> str:
    return fill("feedback_plan", problems="\n".join(f"- {p}" for p in error.problems))


def _end_state(level: Level, result: Result, t: float) -> str:
    if result.timeline is None:
        return "(not recorded)"
    return state_text(level, result.timeline.state_at(t), result.timeline, t)


def why_text(result: Result) -> str:
    """The run's diagnosis (the viewer's own causes, likeliest first); empty when unknown."""
    if not result.diagnosis:
        return ""
    return "\n" + "\n".join(f"- {line}" for line in Diagnosis.from_dict(result.diagnosis).lines())


def engine_feedback(level: Level, result: Result, template: str = "feedback_engine") -> str:
    """The failing agent, action index, action and reason, and the kitchen at that instant."""
    d = result.error_detail
    if d is None:  # an error without details: say what we know
        return fill(
            template,
            time=result.time,
            agent="an agent",
            index="?",
            action="?",
            reason=result.error or "unknown error",
            state=_end_state(level, result, result.time),
            why="",
        )
    return fill(
        template,
        time=d.time,
        agent=d.agent,
        index=d.action_index,
        action=action_text(d.action),
        reason=d.reason,
        state=_end_state(level, result, d.time),
        why=why_text(result),
    )


def unfinished_feedback(level: Level, result: Result) -> str:
    return fill(
        "feedback_unfinished",
        time=result.time,
        remaining=", ".join(result.remaining_orders),
        state=_end_state(level, result, result.time),
        why=why_text(result),
    )


def result_feedback(level: Level, result: Result) -> str | None:
    """None for a success; else what went wrong, for the next attempt."""
    if result.done:
        return None
    if result.error is not None:
        return engine_feedback(level, result)
    return unfinished_feedback(level, result)
