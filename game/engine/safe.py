"""Bounded, JSON-safe views of anything found in a plan: for messages and for stored plans.

Nothing here recurses without a limit, converts a huge integer to text, or lets NaN/Infinity
through, so a hostile plan can neither crash a message nor poison a result or replay file."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 4  # deeper values become "…"
MAX_ITEMS = 20  # longer lists and objects keep their first items, then "…"
MAX_TEXT = 200  # longer strings are cut, ending in "…"
BIG_INT = 10**15  # integers this large (or larger) are shown by their size, never stored
MORE = "…"


def is_number(v: Any) -> bool:
    """A real number as JSON means it: int or float, not bool."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _digits(n: int) -> int:
    """Decimal digits of a big integer without converting it to text (which may be refused)."""
    return max(1, int(abs(n).bit_length() * math.log10(2)) + 1)


def number_text(v: int | float) -> str:
    """A number as a short text, whatever its size: 3, 2.5, NaN, Infinity, a 401-digit number."""
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return f"{v:g}"
    if abs(v) >= BIG_INT:
        return f"{'-' if v < 0 else ''}a {_digits(v)}-digit number"
    return str(v)


def json_safe(v: Any, depth: int = 0) -> Any:
    """A JSON-safe copy of v, bounded in depth, length and size. NaN, Infinity and huge
    integers become null, so a number that could not be stored never turns into valid text."""
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v if abs(v) < BIG_INT else None
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, str):
        return v if len(v) <= MAX_TEXT else v[:MAX_TEXT] + MORE
    if depth >= MAX_DEPTH:
        return MORE
    if isinstance(v, Mapping):
        out: dict[str, Any] = {}
        for i, (k, item) in enumerate(v.items()):
            if i >= MAX_ITEMS:
                out[MORE] = MORE
                break
            if isinstance(k, str):
                out[json_safe(k)] = json_safe(item, depth + 1)
        return out
    if isinstance(v, (list, tuple)):
        items = [json_safe(x, depth + 1) for x in v[:MAX_ITEMS]]
        return items + [MORE] if len(v) > MAX_ITEMS else items
    return f"<{type(v).__name__}>"


def preview(v: Any, limit: int = 60) -> str:
    """A short one-line text of v for a message, e.g. '"Chop"', '[1, 2, 3]', '{"action": …}'."""
    if is_number(v):
        text = number_text(v)
    elif isinstance(v, str):
        text = '"' + v[: limit + 1].replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif v is None or isinstance(v, bool):
        text = {None: "null", True: "true", False: "false"}[v]
    else:
        text = _compact(json_safe(v), limit)
    return text if len(text) <= limit else text[: limit - 1] + MORE


def _compact(v: Any, limit: int) -> str:
    """JSON-like text of an already safe value, stopping once it is longer than limit."""
    parts: list[str] = []
    size = 0

    def emit(s: str) -> bool:
        nonlocal size
        parts.append(s)
        size += len(s)
        return size <= limit

    def walk(x: Any) -> bool:
        if isinstance(x, dict):
            if not emit("{"):
                return False
            for i, (k, item) in enumerate(x.items()):
                if (i and not emit(", ")) or not emit(preview(k, limit) + ": ") or not walk(item):
                    return False
            return emit("}")
        if isinstance(x, list):
            if not emit("["):
                return False
            for i, item in enumerate(x):
                if (i and not emit(", ")) or not walk(item):
                    return False
            return emit("]")
        return emit(preview(x, limit))

    walk(v)
    return "".join(parts)
