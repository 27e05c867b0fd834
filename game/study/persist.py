"""A study session on disk: session.json (rewritten atomically after every change) and
log.jsonl (one line per timed event), in one folder per session.

A crash or a closed window loses at most the last few seconds of the clock: the plan and the
counters are written with every edit, and reopening the session resumes where it was.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.inputs import MAX_PARTICIPANT_CHARS, InputError, load_json, parse_json, read_text
from game.levels import LevelError, load_level
from game.levels.paper import task_digest
from game.levels.task import task_info
from game.storage import (
    Locked,
    append_line,
    claim,
    describe_holder,
    disk_message,
    json_text,
    unclaim,
    write_json_atomic,
)

from .partner import Partner
from .session import IDLE_AFTER, LevelRecord, Session, SessionError, ordered, safe_name

SESSION_FILE = "session.json"
LOG_FILE = "log.jsonl"
LOCK_FILE = "session.lock"  # held by the window the session is open in


def new_session(
    root: Path,
    participant: str,
    files: list[Path],
    order: str = "fixed",
    seed: int | None = None,
    idle_after: float = IDLE_AFTER,
    protocol: StudyPlan | None = None,
) -> SessionStore:
    """Create a session folder under root for these level files (each loaded and checked);
    a protocol adds its warm-up levels first, its instructions, time limit and condition."""
    if len(participant) > MAX_PARTICIPANT_CHARS:
        raise SessionError(f"a participant's name has at most {MAX_PARTICIPANT_CHARS} characters")
    name = safe_name(participant)
    if not name:
        raise SessionError("give the participant a name (letters, digits, - or _)")
    if not files:
        raise SessionError("a session needs at least one level")
    plan = protocol or StudyPlan()
    warmups = [(f, True) for f in plan.warmup]
    measured = [(f, False) for f in ordered(list(files), order, seed, plan.condition or 0)]
    records = [_record_of(f, warmup) for f, warmup in warmups + measured]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = root / f"{name}-{stamp}"
    n = 1
    while folder.exists():
        n += 1
        folder = root / f"{name}-{stamp}-{n}"
    session = Session(
        participant.strip(),
        records,
        order,
        seed,
        0,
        time.strftime("%Y-%m-%d %H:%M:%S"),
        idle_after,
        protocol=plan.name,
        instructions=plan.instructions,
        time_limit=plan.time_limit,
        condition=plan.condition,
        partner=plan.partner.to_dict() if plan.partner else None,
    )
    store = SessionStore(folder, session)
    store.claim()
    store.save()
    store.log(
        {
            "event": "start",
            "levels": [r.task_id for r in records],
            "order": order,
            "seed": seed,
            **({"protocol": plan.name, "condition": plan.condition} if plan.name else {}),
            **({"partner": plan.partner.to_dict()} if plan.partner else {}),
        }
    )
    return store


@dataclass(frozen=True)
class StudyPlan:
    """What a study protocol adds to a session (game/study/protocol.py reads the file)."""

    name: str = ""
    warmup: tuple[Path, ...] = ()
    instructions: str = ""
    time_limit: float | None = None
    condition: int | None = None
    partner: Partner | None = None  # the partner condition (protocol.py); None: solo


def _record_of(file: Path, warmup: bool) -> LevelRecord:
    try:
        level = load_level(file)
    except LevelError as e:
        raise SessionError(f"cannot use this level: {e}") from None
    return LevelRecord(
        str(Path(file).resolve()),
        str(task_info(level)["id"]),
        level.title or level.name,
        task_digest(level),
        warmup=warmup,
    )


class SessionStore:
    """A session and its folder; every change goes through save() and log()."""

    def __init__(self, folder: Path, session: Session):
        self.folder = folder
        self.session = session
        self.log_problem = ""

    @classmethod
    def open(cls, folder: Path) -> SessionStore:
        path = folder / SESSION_FILE
        if not path.exists() and not path.is_symlink():
            what = (
                "no such folder" if not folder.exists() else f"not a study session (no {SESSION_FILE} in it)"
            )
            raise SessionError(f"{folder}: {what}; `paracook-kitchen study list` lists the sessions")
        try:
            data = load_json(path)
        except InputError as e:
            raise SessionError(str(e)) from None
        return cls(folder, Session.from_dict(data, str(path)))

    def claim(self) -> None:
        """Hold the session for this window, so that a second window cannot resume it too and
        overwrite its plan; SessionError naming the holder when another window has it."""
        try:
            claim(self.folder / LOCK_FILE)
        except Locked as e:
            raise SessionError(
                f"{self.session.participant}'s session {self.folder.name} is open in another window "
                f"({describe_holder(e.holder)}); close it there first"
            ) from None
        except OSError:
            pass  # a folder that cannot be written: save() says so

    def release(self) -> None:
        """This window is done with the session (another one may open it)."""
        unclaim(self.folder / LOCK_FILE)

    def save(self) -> None:
        write_json_atomic(self.folder / SESSION_FILE, self.session.to_dict())

    def log(self, entry: dict[str, Any]) -> None:
        """Append one event, stamped with the wall clock and the level it belongs to."""
        record = self.session.level
        line = {
            "wall": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "level": None if record is None else record.task_id,
            "index": self.session.current,
            **({"planning_s": round(record.planning_s, 3)} if record is not None else {}),
            **entry,
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            append_line(self.folder / LOG_FILE, json_text(line, indent=None))
        except OSError as e:  # the session itself is still saved; say so rather than stop
            self.log_problem = disk_message(e, self.folder / LOG_FILE, "the session itself is saved")

    def record_replan(
        self, changed: list[str], partner_oct: float | None, served: bool, plan: dict[str, Any] | None = None
    ) -> None:
        """A partner re-plan of the current level: in the session (Session.record_replan), and
        in the log beside the person's edits (with the partner's plan, when given); saved."""
        record = self.session.level
        if record is None:
            return
        self.session.record_replan(changed, partner_oct, served)
        self.log({"event": "replan", **record.replans[-1], **({"plan": plan} if plan is not None else {})})
        self.save()

    def read_log(self) -> list[dict[str, Any]]:
        path = self.folder / LOG_FILE
        if not path.is_file():
            return []
        out = []
        try:
            text = read_text(path)
        except InputError:
            return []
        for line in text.splitlines():
            try:
                out.append(parse_json(line, str(path)))
            except InputError:
                continue  # a line cut short by a crash or a full disk
        return out


def unfinished_sessions(root: Path) -> list[Path]:
    """Session folders under root that are not finished, newest first."""
    out = []
    for f in sorted(root.glob(f"*/{SESSION_FILE}"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            if not SessionStore.open(f.parent).session.finished:
                out.append(f.parent)
        except SessionError:
            continue
    return out
