"""A failed run's diagnosis as data: the error, one summary sentence, and causes, likeliest first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ERROR_WORDS
from ..narration import num

# What a cause can be. The first six are the failures that matter in a multi-agent kitchen.
CAUSE_KINDS: dict[str, str] = {
    "plan_error": "the failing action itself is wrong (a wall, an unreachable tile, an unreadable "
    "action, a station of the wrong kind)",
    "same_instant": "another agent acted at the same instant and the engine handled one of them first",
    "not_ready": "food taken out before it was cooked",
    "moved_away": "what the plan expected at a station was taken away (or never put back)",
    "wrong_order": "a dish served before the order that comes first",
    "missing_step": "an ingredient or a step the order needs that the plan never does",
    "holding": "what the failing agent held, and since when",
    "station_state": "what the station held, and since when",
    "position": "where the failing agent stood, and since when",
    "busy": "another agent's Process was running on the station",
    "burnt": "the food burnt on the stove",
    "rule": "a rule of the level forbids the action",
    "all_served": "every order had already been served",
    "no_plate_back": "no dirty plate had come back yet",
    "stale": "the food on the plate was prepared too long before serving",
    "extra": "something on the plate that the order does not have",
    "last_event": "the failing agent's last event (an error kind without its own explanation)",
    "no_plan": "the planner's reply never became a plan the engine could run",
}


@dataclass(frozen=True)
class Cause:
    """One reason, with where a 'Go to' button seeks (`time`) and the action it names."""

    kind: str
    text: str
    time: float
    agent: str | None = None
    action_index: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind, "t": self.time, "agent": self.agent, "action": self.action_index}
        return {**d, "text": self.text, **self.fields}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Cause:
        known = ("kind", "t", "agent", "action", "text")
        extra = {k: v for k, v in d.items() if k not in known}
        return cls(str(d["kind"]), str(d["text"]), float(d["t"]), d.get("agent"), d.get("action"), extra)


@dataclass
class Diagnosis:
    """`kind` is the engine's error kind; `need` the unmet precondition in words."""

    kind: str
    need: str
    causes: list[Cause] = field(default_factory=list)
    summary: str = ""

    @property
    def jump(self) -> float | None:
        return self.causes[0].time if self.causes else None

    def lines(self) -> list[str]:
        return [f"Needed: {self.need}"] + [c.text for c in self.causes]

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": self.kind,
            "summary": self.summary,
            "need": self.need,
            "causes": [c.to_dict() for c in self.causes],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Diagnosis:
        """Raises ValueError for anything not shaped like `to_dict()`'s output."""
        causes = d.get("causes", [])
        if not isinstance(causes, list) or not all(isinstance(c, dict) for c in causes):
            raise ValueError("'causes' must be a list of objects")
        causes = [Cause.from_dict(c) for c in causes]
        return cls(str(d["error"]), str(d.get("need", "")), causes, str(d.get("summary", "")))


def summary_sentence(err: dict[str, Any], action: str, first: Cause | None) -> str:
    """'At t = 53 agent2's Interact serving_window (action 21) tried to serve a plate that is not
    the next order. Likeliest cause: ...'"""
    kind = str(err.get("kind", ""))
    words = ERROR_WORDS.get(kind, f"failed ({kind})")
    head = f"At t = {num(err.get('time', 0))} {err.get('agent')}'s {action} (action {err.get('action_index')}) {words}."
    return f"{head} Likeliest cause: {first.text.rstrip('.')}." if first is not None else head
