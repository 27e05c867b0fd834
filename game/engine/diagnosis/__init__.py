"""Why a run failed, as data: one source for the viewer, the LLM feedback, exports and reports.

    d = diagnose(level, result, plan)      # None for a run without an error
    d.summary                              # one sentence: what failed, and the likeliest cause
    d.need                                 # 'something on stove1 to pick up, or something in hand'
    d.causes[0].kind, d.causes[0].text     # 'moved_away', 'stove1 has been empty since t = 21: ...'
    d.causes[0].time                       # where a "Go to" button seeks
    d.to_dict()                            # {"error", "summary", "need", "causes": [{kind, t, agent,
                                           #   action, text, ...kind-specific fields}]}

The error says what broke at its instant; a cause names the state that broke it and the event
that left the kitchen in that state, which may be in another agent's queue (CAUSE_KINDS lists
them). Every error kind has an explanation; a kind this package does not know gets the failing
agent's last event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ErrorDetail
from ..level import Level
from ..narration import Narration, action_words, narrate
from ..result import Result
from ..timeline import Timeline
from .context import Context
from .handlers import HANDLERS, fallback
from .instant import SAME_INSTANT_RULE, order_rule, rule_words, running_start, same_instant_causes
from .model import CAUSE_KINDS, Cause, Diagnosis, summary_sentence
from .unfinished import UNFINISHED, explain_unfinished

_HANDLERS = HANDLERS  # the error kinds with their own explanation (tests check every kind has one)


def explain(
    level: Level,
    story: Narration,
    error: ErrorDetail | Mapping[str, Any] | None,
    timeline: Timeline | None = None,
    plan: Mapping[str, Any] | None = None,
    rules: str = "paracook",
) -> Diagnosis | None:
    """The explanation of a failed run's error (None for a run without one). With the `plan`
    (and its rule set), a same-instant conflict is checked by running the plan again with the
    other agent handled first, and names what a cut agent was about to do next."""
    if error is None:
        return None
    err = error.to_dict() if isinstance(error, ErrorDetail) else dict(error)
    if not err:
        return None
    ctx = Context(level, story, err, timeline, rules)
    diagnosis = HANDLERS.get(ctx.kind, fallback)(ctx)
    if not diagnosis.causes:
        diagnosis.causes.append(ctx.plan_cause())
    diagnosis.causes = _unique(same_instant_causes(ctx, diagnosis.causes, _plain(plan)))
    diagnosis.summary = summary_sentence(err, action_words(ctx.action), diagnosis.causes[0])
    return diagnosis


def diagnose(level: Level, result: Result, plan: Mapping[str, Any] | None = None) -> Diagnosis | None:
    """The diagnosis of a recorded run: of its error, or (kind 'unfinished') of the orders a plan
    left unserved. None for a served run or one simulated without recording."""
    if result.timeline is None or (result.error_detail is None and not result.remaining_orders):
        return None
    story = narrate(level, result.timeline, result.rules, result.error_detail)
    if result.error_detail is None:
        return explain_unfinished(level, story, result)
    return explain(level, story, result.error_detail, result.timeline, plan, result.rules)


def _plain(plan: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Queues as lists of action dicts, whatever form the plan came in."""
    if not isinstance(plan, Mapping):
        return None
    out: dict[str, Any] = {}
    for agent, queue in plan.items():
        if isinstance(queue, list | tuple):
            out[str(agent)] = [a.to_dict() if hasattr(a, "to_dict") else a for a in queue]
    return out


def _unique(causes: list[Cause]) -> list[Cause]:
    seen: set[tuple[str, float, str | None, int | None]] = set()
    out = []
    for c in causes:
        key = (c.text, c.time, c.agent, c.action_index)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


__all__ = [
    "CAUSE_KINDS",
    "SAME_INSTANT_RULE",
    "Cause",
    "Diagnosis",
    "UNFINISHED",
    "diagnose",
    "explain",
    "order_rule",
    "rule_words",
    "running_start",
]
