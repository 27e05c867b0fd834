"""The boundary where untrusted input enters: files, JSON text and free-form data.

Level, plan, replay, batch and data-folder files and LLM replies are read through here, so every
failure (unreadable, not UTF-8, too large, nested too deep, a number too long to read) becomes one
`InputError` naming the file and the place, never a traceback, a hang or a crash. The limits are
documented in docs/reliability.md."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

# Limits on what is read (each far above any real file of its kind).
MAX_FILE_BYTES = 32 * 1024 * 1024  # replays of long runs are the largest files
MAX_BATCH_BYTES = 256 * 1024 * 1024  # a `run --batch` file of cases, each a level and a plan
MAX_LEVEL_BYTES = 1024 * 1024
MAX_DEPTH = 64  # nesting of JSON arrays/objects and YAML collections
MAX_YAML_NODES = 200_000  # YAML nodes counted with every alias expanded
MAX_MAP_SIDE = 100  # tiles per side of a kitchen
MAX_REPLY_CHARS = 2_000_000  # an LLM reply
MAX_ORDERS = 1_000  # orders of one level
MAX_TITLE_CHARS = 200  # a level's title or name, an export's --title
MAX_DESCRIPTION_CHARS = 10_000  # a level's description
MAX_PARTICIPANT_CHARS = 100  # a study participant's name


class InputError(ValueError):
    """Input that cannot be used; the message names the file (or source) and the place."""


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A file's bytes: refused when unreadable, not a regular file (never blocks on a FIFO) or
    larger than `limit` bytes."""
    path = Path(path)
    try:
        # non-blocking, so that opening a FIFO nobody writes to returns at once (refused below)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputError(f"{path}: cannot read the file ({e.strerror or e})") from None
    except ValueError:  # a NUL byte in the name
        raise InputError(f"{str(path)!r}: not a file name (it holds a NUL byte)") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: not a regular file (a folder, FIFO or device); give a file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"{path}: cannot read the file ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"{path}: larger than the limit of {limit:,} bytes")
    return data


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A file's text: `read_bytes`, refused when not UTF-8."""
    return decode(read_bytes(path, limit), str(path))


def decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(
            f"{source}: line {line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def nesting_problem(text: str, limit: int = MAX_DEPTH) -> str | None:
    """Where JSON text nests deeper than `limit` (found in one linear pass), or None."""
    depth = 0
    in_string = escaped = False
    line = 1
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            elif c == "\n":
                line += 1
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return f"line {line}: nested deeper than {limit} levels"
        elif c in "]}":
            depth -= 1
        elif c == "\n":
            line += 1
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, source: str, max_depth: int = MAX_DEPTH) -> Any:
    """Strict JSON (no NaN or Infinity) nested at most `max_depth` deep; InputError otherwise."""
    deep = nesting_problem(text, max_depth)
    if deep:
        raise InputError(f"{source}: {deep}")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise InputError(f"{source}: line {e.lineno}, column {e.colno}: not valid JSON ({e.msg})") from None
    except (ValueError, RecursionError) as e:  # a number too long to read, NaN, Infinity
        raise InputError(f"{source}: not usable JSON ({_first_line(str(e))})") from None


def load_json(path: str | Path, limit: int = MAX_FILE_BYTES) -> Any:
    """read_text then parse_json: the one way a JSON file is read."""
    return parse_json(read_text(path, limit), str(path))


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:200] if text.strip() else "unknown reason"


def plain_data_problem(value: Any, where: str, depth: int = 0) -> str | None:
    """Why `value` is not plain JSON data (text keys; text, finite numbers, true/false, null,
    lists and mappings nested at most MAX_DEPTH deep), or None."""
    if depth > MAX_DEPTH:
        return f"{where}: nested deeper than {MAX_DEPTH} levels"
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where}: {value} is not a finite number"
    if isinstance(value, list):
        for i, v in enumerate(value):
            problem = plain_data_problem(v, f"{where}[{i}]", depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{where}: key {short_repr(k)} must be text"
            problem = plain_data_problem(v, f"{where}.{k}", depth + 1)
            if problem:
                return problem
        return None
    kind = type(value).__name__
    return f"{where}: a {kind} value is not allowed (only text, numbers, true/false, null, lists, mappings)"


def finite(value: Any) -> Any:
    """`value` with every NaN or infinite number replaced by None: what a JSON output may hold
    (strict JSON has no NaN or Infinity)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def short_repr(value: Any, n: int = 60) -> str:
    """repr cut to n characters, safe on huge or self-referencing values."""
    try:
        text = reprlib_repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= n else text[: n - 3] + "..."


def reprlib_repr(value: Any) -> str:
    import reprlib

    r = reprlib.Repr()
    r.maxstring = r.maxother = 80
    r.maxlevel = 3
    return r.repr(value)


MAX_PLAN_FILE_BYTES = 8 * 1024 * 1024  # a plan file given with --fix


def read_fixed(specs: list[str] | tuple[str, ...]) -> dict[str, list[Any]]:
    """`--fix AGENT=PLAN.json` options as {agent: queue}. PLAN.json is a plan object ({agent:
    [...]}), a result file with a `plan` field, or a bare list (the queue itself). InputError
    names the option or the file and what is wrong; whether the agent exists in the level, and
    each action, are checked by the planner (ValueError naming agent and action index)."""
    out: dict[str, list[Any]] = {}
    for spec in specs:
        agent, sep, path = str(spec).partition("=")
        agent = agent.strip()
        if not sep or not agent or not path:
            raise InputError(f"--fix {short_repr(spec)}: expected AGENT=PLAN.json, e.g. agent1=plan.json")
        if agent in out:
            raise InputError(f"--fix {agent}=...: {agent} is fixed twice; give each agent once")
        data = load_json(path, MAX_PLAN_FILE_BYTES)
        if isinstance(data, dict) and isinstance(data.get("plan"), dict):
            data = data["plan"]
        if isinstance(data, dict):
            if agent not in data:
                names = ", ".join(short_repr(k, 30) for k in list(data)[:8]) or "none"
                raise InputError(f"{path}: no queue for {agent} in this plan (agents in it: {names})")
            data = data[agent]
        if not isinstance(data, list):
            raise InputError(
                f"{path}: the queue for {agent} must be a list of actions, got {short_repr(data)}"
            )
        out[agent] = data
    return out
