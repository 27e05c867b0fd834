"""JSON out of a model's reply: forgiving of form (fences, <think> blocks, comments, trailing
commas, single quotes), strict about content (the engine judges the plan itself)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from game.inputs import nesting_problem

FENCE_OPEN = re.compile(r"```[^\n]*\n")
FENCE_CLOSE = "```"
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
BARE_WORDS = {"True": "true", "False": "false", "None": "null"}
VALUE_START = "{[,:"
VALUE_END = ",:}]"
WORD = re.compile(r"[A-Za-z_]+")


class ReplyParseError(ValueError):
    """The reply holds no usable JSON; the message says why and where."""


def strip_think(text: str) -> str:
    """Drop reasoning blocks: <think>...</think>, or everything up to a lone </think>
    (one pass over the text, however many blocks it holds)."""
    parts: list[str] = []
    i = 0
    while True:
        start = text.find(THINK_OPEN, i)
        if start < 0:
            parts.append(text[i:])
            break
        end = text.find(THINK_CLOSE, start + len(THINK_OPEN))
        if end < 0:  # unclosed: the answer never came
            parts.append(text[i:start])
            break
        parts.append(text[i:start])
        i = end + len(THINK_CLOSE)
    text = "".join(parts)
    if THINK_CLOSE in text:
        text = text.rsplit(THINK_CLOSE, 1)[1]
    return text


def _skip_string(s: str, i: int) -> int:
    """Index just past the string starting at s[i] (a quote)."""
    quote, n = s[i], len(s)
    i += 1
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == quote and (quote == '"' or _closes_single(s, i)):
            return i + 1
        if c == "\n" and quote == "'":
            return i + 1  # a stray apostrophe never swallows the rest of the text
        i += 1
    return n


def _prev_char(s: str, i: int) -> str:
    j = i - 1
    while j >= 0 and s[j] in " \t\r\n":
        j -= 1
    return s[j] if j >= 0 else ""


def _next_char(s: str, i: int) -> str:
    j = i + 1
    while j < len(s) and s[j] in " \t\r\n":
        j += 1
    return s[j] if j < len(s) else ""


def _opens_single(s: str, i: int) -> bool:
    return _prev_char(s, i) in VALUE_START


def _closes_single(s: str, i: int) -> bool:
    """An apostrophe ends a single-quoted string only where JSON punctuation follows it."""
    return _next_char(s, i) in VALUE_END or _next_char(s, i) == ""


def _skip_comment(s: str, i: int) -> int | None:
    if s.startswith("//", i):
        end = s.find("\n", i)
        return len(s) if end < 0 else end
    if s.startswith("/*", i):
        end = s.find("*/", i + 2)
        return len(s) if end < 0 else end + 2
    return None


def _match_end(s: str, start: int) -> int | None:
    """Index just past the balanced {...} or [...] opening at s[start], or None."""
    depth, i, n = 0, start, len(s)
    while i < n:
        c = s[i]
        if c == '"' or (c == "'" and _opens_single(s, i)):
            i = _skip_string(s, i)
            continue
        skip = _skip_comment(s, i)
        if skip is not None:
            i = skip
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _string_to_json(raw: str) -> str:
    """A double- or single-quoted string literal as a strict JSON string literal."""
    body = raw[1:-1] if len(raw) >= 2 and raw[-1] == raw[0] else raw[1:]
    if raw[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    return '"' + body.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + '"'


def normalise(s: str) -> str:
    """Strict JSON from JSON-ish text: no comments, no trailing commas, double quotes only."""
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == '"' or (c == "'" and _opens_single(s, i)):
            end = _skip_string(s, i)
            out.append(_string_to_json(s[i:end]))
            i = end
            continue
        skip = _skip_comment(s, i)
        if skip is not None:
            i = skip
            continue
        if c == "," and _next_meaningful(s, i + 1) in ("}", "]", ""):
            i += 1
            continue
        word = WORD.match(s, i)
        if word:
            out.append(BARE_WORDS.get(word.group(), word.group()))
            i += len(word.group())
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _next_meaningful(s: str, i: int) -> str:
    """The next character that is not space or inside a comment."""
    n = len(s)
    while i < n:
        if s[i] in " \t\r\n":
            i += 1
            continue
        skip = _skip_comment(s, i)
        if skip is None:
            return s[i]
        i = skip
    return ""


def loads_lenient(s: str) -> Any:
    """json.loads, then the same on the normalised text; ReplyParseError says where it broke
    (also for JSON nested too deep or holding a number too long to read)."""
    deep = nesting_problem(s)
    if deep:
        raise ReplyParseError(f"the JSON is {deep.split(': ', 1)[1]} ({deep.split(': ', 1)[0]})")
    try:
        return json.loads(s)
    except json.JSONDecodeError:
        pass
    except (ValueError, RecursionError) as e:
        raise ReplyParseError(f"the JSON cannot be read: {str(e).splitlines()[0][:160]}") from None
    fixed = normalise(s)
    try:
        return json.loads(fixed)
    except json.JSONDecodeError as e:
        lines = fixed.split("\n")  # as json counts lines (splitlines also splits at \r, \x1c, ...)
        line = lines[e.lineno - 1] if e.lineno <= len(lines) else ""
        raise ReplyParseError(
            f"the JSON is not valid at line {e.lineno}, column {e.colno}: {e.msg} "
            f"(near: {line.strip()[:80]!r})"
        ) from None
    except (ValueError, RecursionError) as e:
        raise ReplyParseError(f"the JSON cannot be read: {str(e).splitlines()[0][:160]}") from None


def fenced_blocks(text: str) -> list[str]:
    """The bodies of the reply's ``` blocks. A body that opens a JSON value ends at the first
    fence after that value closes, so a ``` inside one of its strings does not cut it short."""
    bodies: list[str] = []
    pos, aware = 0, True
    while (m := FENCE_OPEN.search(text, pos)) is not None:
        start = first = m.end()
        while first < len(text) and text[first] in " \t\r\n":
            first += 1
        value_end = None
        if aware and text[first : first + 1] in ("{", "["):
            value_end = _match_end(text, first)
            # a value that never closes was scanned to the end: the next ones would be too, so
            # (for a reply of thousands of open fences) the rest end at the first fence
            aware = value_end is not None
        end = text.find(FENCE_CLOSE, value_end or start)
        if end < 0 and value_end is not None:
            end = text.find(FENCE_CLOSE, start)  # never closed after the value: as it reads
        if end < 0:
            break
        bodies.append(text[start:end])
        pos = end + len(FENCE_CLOSE)
    return bodies


def candidates(text: str) -> list[str]:
    """JSON-looking pieces of a reply: fenced blocks first, else every top-level {...}."""
    fenced = [body for body in fenced_blocks(text) if body.strip()[:1] in ("{", "[")]
    if fenced:
        return fenced
    found, i = [], 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return found
        end = _match_end(text, i)
        if end is None:
            found.append(text[i:])
            return found
        found.append(text[i:end])
        i = end


def extract_json(
    text: str, accept: Callable[[Any], bool] = lambda _: True, what: str = "a JSON object"
) -> Any:
    """The last piece of the reply that parses and that `accept` takes."""
    if not isinstance(text, str) or not text.strip():
        raise ReplyParseError("the reply is empty")
    quoted = _tags_in_strings(text, accept)
    if quoted is not None:
        return quoted
    pieces = candidates(strip_think(text))
    if not pieces:
        raise ReplyParseError(f"the reply contains no JSON; expected {what} in a ```json block")
    error: ReplyParseError | None = None
    parsed_any = False
    for piece in reversed(pieces):
        try:
            data = loads_lenient(piece)
        except ReplyParseError as e:
            error = error or e
            continue
        parsed_any = True
        if accept(data):
            return data
    if not parsed_any and error is not None:
        raise error
    raise ReplyParseError(f"the reply's JSON is not {what}")


def _tags_in_strings(text: str, accept: Callable[[Any], bool]) -> Any:
    """The reply's last strict-JSON piece that `accept` takes, when a <think> tag is inside it;
    else None. Strict JSON has a "<" only in its strings, so there the tag is the plan's own text
    (a note, say), not reasoning, and stripping reasoning first would cut the plan in two."""
    if THINK_OPEN not in text and THINK_CLOSE not in text:
        return None
    for piece in reversed(candidates(text)):
        if nesting_problem(piece):
            continue
        try:
            data = json.loads(piece)
        except (ValueError, RecursionError):
            continue
        if accept(data):
            return data if THINK_OPEN in piece or THINK_CLOSE in piece else None
    return None


def looks_like_plan(data: Any) -> bool:
    """`{"plan": {...}}` or `{agent: [actions]}` with at least one list of actions."""
    if isinstance(data, dict) and isinstance(data.get("plan"), dict):
        data = data["plan"]
    return isinstance(data, dict) and bool(data) and any(isinstance(v, list) for v in data.values())


def extract_plan(text: str) -> dict[str, Any]:
    """The plan object of a reply (unwrapped from `{"plan": ...}`), not yet checked."""
    data = extract_json(text, looks_like_plan, 'a plan like {"agent1": [...], "agent2": [...]}')
    return data["plan"] if isinstance(data.get("plan"), dict) else data
