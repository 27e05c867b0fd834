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

from .partner import MAX_NAME_CHARS, Partner, PartnerSpecError, condition_of

ORDERS = ("fixed", "shuffled", "counterbalanced")
# What happened to a level: served or failed once submitted, abandoned when opened and left
# unsubmitted (a failure for SR, marked as such), not_attempted when never opened (left out of
# SR, means and task counts); warm-up levels are practice and never scored.
STATUSES = ("served", "failed", "abandoned", "not_attempted", "warmup")
IDLE_AFTER = 30.0  # seconds without input after which planning time counts as idle
COUNTERS = ("edits", "undos", "redos", "previews", "error_runs")
MAX_CHANGED = 64  # agents one re-plan record names (a level has far fewer)


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
    opened: bool = False  # the participant saw this level (its clock ran)
    warmup: bool = False  # a practice level before the measured ones: never scored
    history: dict[str, Any] = field(default_factory=dict)  # the editor's undo/redo stacks
    # the partner's re-plans: {"at": planning seconds, "changed": agents whose queue the partner
    # changed, "partner_oct": the new plan's OCT (None when it serves nothing), "served": bool}
    replans: list[dict[str, Any]] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.warmup:
            return "warmup"
        if self.submitted:
            return "served" if self.outcome.get("done") else "failed"
        return "abandoned" if self.opened else "not_attempted"

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
            "replans": len(self.replans),
            "submitted": self.submitted,
            "status": self.status,
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
    protocol: str = ""  # the study protocol's name, when the session was started from one
    instructions: str = ""  # the protocol's own text for the intro page
    time_limit: float | None = None  # seconds of planning per level; None: no limit
    condition: int | None = None  # the counterbalanced order's row this participant got
    partner: dict[str, Any] | None = None  # the partner condition (Partner.to_dict); None: solo
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

    def record_replan(self, changed: list[str], partner_oct: float | None, served: bool) -> None:
        """The partner re-planned the current level: when (planning seconds so far), which
        agents' queues it changed, its plan's OCT and whether that plan serves every order."""
        record = self.level
        if record is None:
            return
        record.replans.append(replan_entry(record.planning_s, changed, partner_oct, served))

    @property
    def condition_name(self) -> str:
        """`solo`, or the partner condition's name (`partner planner (person: agent1)`)."""
        return condition_of(self.partner)

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
            keys = ("order", "seed", "current", "started", "idle_after", "finished", *_PROTOCOL_FIELDS)
            kept = {k: data[k] for k in keys if k in data and _session_field_ok(k, data[k], where, repairs)}
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
        limit = session.time_limit
        if limit is not None and not (_number(limit) and limit > 0):
            raise SessionError(f"{where}: 'time_limit' must be a positive number of seconds or null")
        if not isinstance(session.protocol, str) or not isinstance(session.instructions, str):
            raise SessionError(f"{where}: 'protocol' and 'instructions' must be text")
        cond = session.condition
        if cond is not None and (type(cond) is not int or cond < 0):
            raise SessionError(f"{where}: 'condition' must be a whole number of 0 or more, or null")
        if session.order not in ORDERS:
            raise SessionError(f"{where}: 'order' must be one of {', '.join(ORDERS)}")
        if session.partner is not None:  # the condition a report compares by: never guessed
            try:
                session.partner = Partner.from_dict(session.partner).to_dict()
            except PartnerSpecError as e:
                raise SessionError(f"{where}: {e}") from None
        for i, record in enumerate(levels):  # files written before levels said they were opened
            if "opened" not in data["levels"][i]:
                record.opened = record.submitted or i == session.current and record.planning_s > 0
        return session


_PROTOCOL_FIELDS = ("protocol", "instructions", "time_limit", "condition", "partner")


SESSION_FORMAT = "paracook-kitchen-study"
_RECORD_FIELDS = {f.name for f in fields(LevelRecord)}
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


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_dict(v: Any) -> bool:
    return isinstance(v, dict)


def replan_entry(at: float, changed: list[str], partner_oct: float | None, served: bool) -> dict[str, Any]:
    """One re-plan record; ValueError for values a session file could not hold."""
    if not isinstance(changed, list | tuple) or not all(isinstance(a, str) for a in changed):
        raise ValueError(f"changed must be a list of agent names, not {short_repr(changed)}")
    if partner_oct is not None and not _number(partner_oct):
        raise ValueError(f"partner_oct must be a number of 0 or more or None, not {short_repr(partner_oct)}")
    if not isinstance(served, bool):
        raise ValueError(f"served must be true or false, not {short_repr(served)}")
    return {
        "at": round(float(at), 3),
        "changed": [a[:MAX_NAME_CHARS] for a in list(changed)[:MAX_CHANGED]],
        "partner_oct": partner_oct,
        "served": served,
    }


def _replan_ok(v: Any) -> bool:
    return (
        isinstance(v, dict)
        and set(v) == {"at", "changed", "partner_oct", "served"}
        and _number(v["at"])
        and isinstance(v["changed"], list)
        and len(v["changed"]) <= MAX_CHANGED
        and all(isinstance(a, str) and len(a) <= MAX_NAME_CHARS for a in v["changed"])
        and (v["partner_oct"] is None or _number(v["partner_oct"]))
        and isinstance(v["served"], bool)
    )


def _replans(value: Any, where: str, repairs: list[str] | None) -> list[dict[str, Any]]:
    """The usable re-plan records; each one that is not is named in `repairs` and left out."""
    if not isinstance(value, list):
        if repairs is not None:
            repairs.append(f"{where}: field 'replans' is not a list ({short_repr(value)}); left out")
        return []
    kept = [v for v in value if _replan_ok(v)]
    bad = [i for i, v in enumerate(value) if not _replan_ok(v)]
    if bad and repairs is not None:
        shown = ", ".join(map(str, bad[:5])) + (", ..." if len(bad) > 5 else "")
        repairs.append(f"{where}: field 'replans': {len(bad)} record(s) not usable (at {shown}); left out")
    return kept


def _record(data: Any, where: str, repairs: list[str] | None = None) -> LevelRecord:
    """One level's record, each field checked (a hand-edited file is named, not a crash later):
    a level's identity must be right; a bad counter, clock, plan or outcome is named in `repairs`
    and the record opens without it."""
    if not isinstance(data, dict):
        raise SessionError(f"{where}: must be an object")
    unknown = [k for k in data if k not in _RECORD_FIELDS]
    record = LevelRecord(**{k: v for k, v in data.items() if k in _RECORD_FIELDS})
    bad = [k for k in ("path", "task_id", "title", "digest") if not isinstance(getattr(record, k), str)]
    if bad:
        raise SessionError(f"{where}: field(s) {', '.join(bad)} of the wrong type")
    checks: dict[str, Callable[[Any], bool]] = {k: _number for k in _NUMBERS}
    checks.update(plan=_is_dict, history=_is_dict, outcome=_outcome_ok)
    checks.update(submitted=_is_bool, opened=_is_bool, warmup=_is_bool)
    defaults = LevelRecord("", "", "", "")
    for key, ok in checks.items():
        value = getattr(record, key)
        if not ok(value):
            setattr(record, key, getattr(defaults, key))
            if repairs is not None:
                repairs.append(f"{where}: field '{key}' is not usable ({short_repr(value)}); left out")
    record.replans = _replans(record.replans, where, repairs)
    if unknown and repairs is not None:
        repairs.append(f"{where}: unknown field(s) {', '.join(map(str, unknown[:5]))} left out")
    return record


def ordered(items: list[Any], order: str, seed: int | None, condition: int = 0) -> list[Any]:
    """The levels in session order: as given, shuffled by a seeded generator, or row
    `condition` of a balanced Latin square (counterbalanced across participants)."""
    if order not in ORDERS:
        raise SessionError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    out = list(items)
    if order == "shuffled":
        random.Random(seed).shuffle(out)
    elif order == "counterbalanced":
        out = [out[i] for i in latin_row(len(out), condition)]
    return out


def latin_row(n: int, row: int) -> list[int]:
    """Row `row` (mod the square's rows) of a balanced Latin square over n items: every item
    comes first once, and every item follows every other equally often (2n rows for odd n)."""
    if n == 0:
        return []
    first = [0]  # 0, 1, n-1, 2, n-2, ...
    lo, hi = 1, n - 1
    while len(first) < n:
        first.append(lo)
        lo += 1
        if len(first) < n:
            first.append(hi)
            hi -= 1
    rows = n if n % 2 == 0 else 2 * n
    r = row % rows
    shifted = [(x + r) % n for x in first]
    return shifted[::-1] if r >= n else shifted


def safe_name(text: str) -> str:
    """A participant name usable in a folder name (letters, digits, - and _)."""
    cleaned = "".join(c if c.isalnum() or c in "-_" else "-" for c in text.strip())
    return cleaned.strip("-")[:40]
