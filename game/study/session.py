"""A study session: one participant planning a list of levels, with what a paper reports.

Pure data and rules (no Pygame, no files): the order of the levels, the planning clock that
splits wall-clock time into active and idle, and per-level counters (edits, undos, redos,
animation previews, runs ending in an error). persist.py keeps a session on disk.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from game.inputs import MAX_PARTICIPANT_CHARS, short_repr

ORDERS = ("fixed", "shuffled")
IDLE_AFTER = 30.0  # seconds without input after which planning time counts as idle
COUNTERS = ("edits", "undos", "redos", "previews", "error_runs")


class SessionError(ValueError):
    """A session that cannot be started or read; the message says which and why."""


@dataclass
class LevelRecord:
    """One level of the session and what the participant did on it."""

    path: str  # the level file
    task_id: str
    title: str
    digest: str  # the task's content when the session began (a changed file is noticed)
    plan: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    active_s: float = 0.0
    idle_s: float = 0.0
    paused_s: float = 0.0
    edits: int = 0
    undos: int = 0
    redos: int = 0
    previews: int = 0
    error_runs: int = 0
    since_input: float = 0.0  # seconds since the last input (decides active vs idle)
    submitted: bool = False
    outcome: dict[str, Any] = field(default_factory=dict)  # done, time, error of the last run

    @property
    def planning_s(self) -> float:
        return self.active_s + self.idle_s

    # -- the clock -------------------------------------------------------------------------
    def tick(self, dt: float, idle_after: float = IDLE_AFTER) -> None:
        """dt seconds of planning pass: active until idle_after seconds without input."""
        dt = max(0.0, float(dt))
        active = min(dt, max(0.0, idle_after - self.since_input))
        self.active_s += active
        self.idle_s += dt - active
        self.since_input += dt

    def touch(self) -> None:
        """The participant did something (a key, a click, the mouse moved)."""
        self.since_input = 0.0

    def pause(self, dt: float) -> None:
        self.paused_s += max(0.0, float(dt))

    # -- counters --------------------------------------------------------------------------
    def count(self, kind: str, error: bool = False) -> None:
        """An edit, undo or redo re-ran the plan (error: that run ended in an error); a preview."""
        key = {"edit": "edits", "undo": "undos", "redo": "redos", "preview": "previews"}.get(kind)
        if key is None:
            raise ValueError(f"unknown study event {kind!r}")
        setattr(self, key, getattr(self, key) + 1)
        if error and kind != "preview":
            self.error_runs += 1

    def stats(self) -> dict[str, Any]:
        return {
            "planning_s": round(self.planning_s, 3),
            "active_s": round(self.active_s, 3),
            "idle_s": round(self.idle_s, 3),
            "paused_s": round(self.paused_s, 3),
            **{k: getattr(self, k) for k in COUNTERS},
            "submitted": self.submitted,
        }


@dataclass
class Session:
    participant: str
    levels: list[LevelRecord]
    order: str = "fixed"
    seed: int | None = None
    current: int = 0
    started: str = ""
    idle_after: float = IDLE_AFTER
    finished: bool = False
    # what from_dict set aside (a bad field named, the session opened without it)
    repairs: ClassVar[list[str]] = []

    @property
    def level(self) -> LevelRecord | None:
        return None if self.finished or self.current >= len(self.levels) else self.levels[self.current]

    def submit(self) -> None:
        """The participant is done with the current level; on to the next (or the end)."""
        record = self.level
        if record is None:
            return
        record.submitted = True
        self.current += 1
        self.finished = self.current >= len(self.levels)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["format"] = SESSION_FORMAT
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str = "session") -> Session:
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise SessionError(f"{where}: not a study session file")
        repairs: list[str] = []
        try:
            levels = [_record(r, f"{where}: levels[{i}]", repairs) for i, r in enumerate(data["levels"])]
            kept = {
                k: data[k]
                for k in ("order", "seed", "current", "started", "idle_after", "finished")
                if k in data and _session_field_ok(k, data[k], where, repairs)
            }
            participant = str(data["participant"])
            if len(participant) > MAX_PARTICIPANT_CHARS:
                repairs.append(f"{where}: field 'participant' is cut to {MAX_PARTICIPANT_CHARS} characters")
                participant = participant[:MAX_PARTICIPANT_CHARS]
            session = cls(participant, levels, **kept)
            session.repairs = repairs
        except (KeyError, TypeError) as e:
            raise SessionError(f"{where}: a damaged session file ({e})") from None
        whole = isinstance(session.current, int) and not isinstance(session.current, bool)
        if not whole or not _number(session.idle_after) or not isinstance(session.finished, bool):
            raise SessionError(
                f"{where}: 'current' must be a whole number, 'idle_after' a number, 'finished' true/false"
            )
        if not levels or not isinstance(data["participant"], str):
            raise SessionError(f"{where}: a session needs a participant's name and at least one level")
        if not 0 <= session.current <= len(levels):
            raise SessionError(f"{where}: field 'current' is {session.current}, outside 0..{len(levels)}")
        return session


SESSION_FORMAT = "paracook-kitchen-study"
_NUMBERS = ("active_s", "idle_s", "paused_s", "since_input", *COUNTERS)


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x < 1e15


_SESSION_FIELDS: dict[str, Callable[[Any], bool]] = {
    "order": lambda v: v in ORDERS,
    "seed": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    "started": lambda v: isinstance(v, str),
    "idle_after": lambda v: _number(v),
}


def _session_field_ok(key: str, value: Any, where: str, repairs: list[str]) -> bool:
    ok = _SESSION_FIELDS.get(key, lambda _v: True)(value)
    if not ok:
        repairs.append(f"{where}: field '{key}' is not usable ({short_repr(value)}); its default is used")
    return ok


def _outcome_ok(v: Any) -> bool:
    """done true/false, time a number, error text or null (the last run of a level)."""
    return isinstance(v, dict) and (
        not v
        or (
            isinstance(v.get("done"), bool)
            and _number(v.get("time"))
            and isinstance(v.get("error"), str | None)
        )
    )


def _record(data: Any, where: str, repairs: list[str] | None = None) -> LevelRecord:
    """One level's record, each field checked (a hand-edited file is named, not a crash later):
    a level's identity must be right; a bad counter, clock, plan or outcome is named in `repairs`
    and the record opens without it."""
    if not isinstance(data, dict):
        raise SessionError(f"{where}: must be an object")
    known = {f.name for f in fields(LevelRecord)}
    unknown = [k for k in data if k not in known]
    record = LevelRecord(**{k: v for k, v in data.items() if k in known})
    bad = [k for k in ("path", "task_id", "title", "digest") if not isinstance(getattr(record, k), str)]
    if bad:
        raise SessionError(f"{where}: field(s) {', '.join(bad)} of the wrong type")
    checks: dict[str, Callable[[Any], bool]] = {k: _number for k in _NUMBERS}
    checks.update(
        plan=lambda v: isinstance(v, dict), outcome=_outcome_ok, submitted=lambda v: isinstance(v, bool)
    )
    defaults = LevelRecord("", "", "", "")
    for key, ok in checks.items():
        value = getattr(record, key)
        if not ok(value):
            setattr(record, key, getattr(defaults, key))
            if repairs is not None:
                repairs.append(f"{where}: field '{key}' is not usable ({short_repr(value)}); left out")
    if unknown and repairs is not None:
        repairs.append(f"{where}: unknown field(s) {', '.join(unknown[:5])} left out")
    return record


def ordered(items: list[Any], order: str, seed: int | None) -> list[Any]:
    """The levels in session order: as given, or shuffled by a seeded generator."""
    if order not in ORDERS:
        raise SessionError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    out = list(items)
    if order == "shuffled":
        random.Random(seed).shuffle(out)
    return out


def safe_name(text: str) -> str:
    """A participant name usable in a folder name (letters, digits, - and _)."""
    cleaned = "".join(c if c.isalnum() or c in "-_" else "-" for c in text.strip())
    return cleaned.strip("-")[:40]
