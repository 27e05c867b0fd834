"""A study session: one participant planning a list of levels, with what a paper reports.

Pure data and rules (no Pygame, no files): the order of the levels, the planning clock that
splits wall-clock time into active and idle, and per-level counters (edits, undos, redos,
animation previews, runs ending in an error). persist.py keeps a session on disk.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

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
        try:
            levels = [_record(r, f"{where}: levels[{i}]") for i, r in enumerate(data["levels"])]
            kept = {
                k: data[k]
                for k in ("order", "seed", "current", "started", "idle_after", "finished")
                if k in data
            }
            session = cls(str(data["participant"]), levels, **kept)
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
    return isinstance(x, int | float) and not isinstance(x, bool) and x >= 0


def _record(data: Any, where: str) -> LevelRecord:
    """One level's record, each field checked (a hand-edited file is named, not a crash later)."""
    if not isinstance(data, dict):
        raise SessionError(f"{where}: must be an object")
    record = LevelRecord(**data)
    bad = [k for k in _NUMBERS if not _number(getattr(record, k))]
    bad += [k for k in ("path", "task_id", "title", "digest") if not isinstance(getattr(record, k), str)]
    bad += [k for k in ("plan", "outcome") if not isinstance(getattr(record, k), dict)]
    if bad:
        raise SessionError(f"{where}: field(s) {', '.join(bad)} of the wrong type")
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
