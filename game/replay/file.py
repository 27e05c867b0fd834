"""Replay files: one versioned JSON with the level, plan, result and timeline of a run.

The same level and plan always give the same bytes; a checksum refuses edited files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine import Level, Plan, Result, Timeline, plan_to_dict
from game.engine.diagnosis import Diagnosis
from game.inputs import InputError, parse_json, read_text
from game.storage import write_atomic

from .check import ReplayContentError, rerun

FORMAT = "paracook-kitchen-replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay that cannot be opened: damaged, edited, or from a newer version."""


@dataclass
class Replay:
    level: Level
    plan: dict[str, list[dict[str, Any]]]
    result: dict[str, Any]
    timeline: Timeline
    rules: str
    source: dict[str, Any] = field(default_factory=dict)


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def replay_dict(
    level: Level, plan: Plan, result: Result, source: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The replay as plain data (the result must come from a recording run)."""
    if result.timeline is None:
        raise ValueError("the run was simulated without recording; use simulate(..., record=True)")
    body = {
        "format": FORMAT,
        "version": VERSION,
        "rules": result.rules,
        "source": source or {},
        "level": level.to_dict(),
        "plan": plan_to_dict(plan),
        "result": result.to_dict(),
        "timeline": {
            "spans": [s.to_dict() for s in result.timeline.spans],
            "frames": result.timeline.frames_to_json(),
        },
    }
    body["checksum"] = hashlib.sha256(_canonical(body)).hexdigest()
    return body


def replay_bytes(level: Level, plan: Plan, result: Result, source: dict[str, Any] | None = None) -> bytes:
    return (json.dumps(replay_dict(level, plan, result, source), ensure_ascii=False) + "\n").encode()


def save_replay(
    path: str | Path, level: Level, plan: Plan, result: Result, source: dict[str, Any] | None = None
) -> Path:
    """Write atomically: a crash mid-write never leaves half a file behind."""
    return write_atomic(path, replay_bytes(level, plan, result, source))


def parse_replay(data: Any, source: str = "replay") -> Replay:
    """Check and rebuild a replay from its JSON data; ReplayError says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a replay file (no '{FORMAT}' header)")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise ReplayError(f"{source}: field 'version' is missing or invalid")
    if version > VERSION:
        raise ReplayError(
            f"{source}: made by a newer version (replay schema {version}); "
            f"this program reads schema {VERSION} and older. Please update."
        )
    body = {k: v for k, v in data.items() if k != "checksum"}
    try:
        digest = hashlib.sha256(_canonical(body)).hexdigest()
    except (TypeError, ValueError, RecursionError):
        digest = None
    if data.get("checksum") != digest:
        raise ReplayError(f"{source}: checksum mismatch: the file was edited or damaged")
    try:
        level, _, result = rerun(data)
    except ReplayContentError as e:
        raise ReplayError(f"{source}: damaged replay: {e}") from None
    assert result.timeline is not None
    failure = _planner_failure(data.get("source")) if result.error_detail is None else None
    stored = {**data["result"], "diagnosis": failure or result.diagnosis}
    return Replay(level, data["plan"], stored, result.timeline, data["rules"], data.get("source", {}))


def _planner_failure(source: Any) -> dict[str, Any] | None:
    """A planner's own account of why there is no plan (an LLM reply that never parsed), when the
    replay carries a well-formed one; an engine error's diagnosis always wins over it."""
    failure = source.get("failure") if isinstance(source, dict) else None
    try:
        return Diagnosis.from_dict(failure).to_dict() if isinstance(failure, dict) else None
    except (KeyError, TypeError, ValueError):
        return None


def load_replay(path: str | Path) -> Replay:
    try:
        text = read_text(path)
    except InputError as e:
        raise ReplayError(str(e)) from None
    try:
        data = parse_json(text, str(path))
    except InputError as e:
        raise ReplayError(f"{path}: damaged or truncated ({str(e).removeprefix(f'{path}: ')})") from None
    return parse_replay(data, str(path))
