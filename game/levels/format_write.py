"""Level -> YAML level text (the format of format.py), byte-stable for a given level."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterator
from typing import Any

from game.engine import Level

FLOOR, WALL = "..", "##"
# Cell codes: a numbered station is its kind's letter and number (D1, C2); one without a number
# gets two letters (SW for serving_window).
KIND_LETTER = {
    "dispenser": "D",
    "chopping_board": "C",
    "stove": "S",
    "table": "T",
    "serving_window": "W",
    "sink": "K",
    "plate_return": "P",
    "trash": "X",
}
KIND_PAIR = {
    "dispenser": "DI",
    "chopping_board": "CB",
    "stove": "ST",
    "table": "TA",
    "serving_window": "SW",
    "sink": "SK",
    "plate_return": "PR",
    "trash": "TR",
}
_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_./-]*$")
_BARE_TEXT = re.compile(r"^[A-Za-z][A-Za-z0-9 ,.'!?()-]*[A-Za-z0-9.!?)]$")
_BARE_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_YAML_WORDS = {"yes", "no", "true", "false", "on", "off", "null", "y", "n"}
WRAP = 94


def scalar(v: Any) -> str:
    """A value as YAML flow text: bare when unambiguous, else JSON (which YAML reads)."""
    if isinstance(v, str) and _BARE.match(v) and v.lower() not in _YAML_WORDS:
        return v
    if isinstance(v, list):
        return "[" + ", ".join(scalar(i) for i in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(str(k))}: {scalar(i)}" for k, i in v.items()) + "}"
    if isinstance(v, float) and "e" in repr(v) and "." not in repr(v):
        mantissa, exponent = repr(v).split("e")  # YAML 1.1 reads 1e-05 as text, 1.0e-05 as a number
        return f"{mantissa}.0e{exponent}"
    return json.dumps(v, ensure_ascii=False)


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) and k.lower() not in _YAML_WORDS else json.dumps(k, ensure_ascii=False)


def text_field(key: str, v: str) -> list[str]:
    """A text field; long prose is folded over several lines, multi-line text kept as a block."""
    if "\n" not in v and len(key) + len(v) < WRAP:
        plain = _BARE_TEXT.match(v) and " #" not in v and v.lower() not in _YAML_WORDS
        return [f"{key}: {v if plain else scalar(v)}"]
    if "\n" not in v and v == v.strip() and "  " not in v and "\t" not in v:
        lines = textwrap.wrap(v, WRAP, break_long_words=False, break_on_hyphens=False)
        if " ".join(lines) == v:
            return [f"{key}: >-"] + [f"  {s}" for s in lines]
    body = v[:-1] if v.endswith("\n") else v
    if (
        body
        and not body.startswith((" ", "\t"))
        and not body.endswith("\n")
        and "\r" not in body
        and all(s == s.rstrip() for s in body.split("\n"))
    ):
        return [f"{key}: {'|' if v.endswith(chr(10)) else '|-'}"] + [
            f"  {s}" if s else "" for s in body.split("\n")
        ]
    return [f"{key}: {json.dumps(v, ensure_ascii=False)}"]


def _spare_tokens(letter: str) -> Iterator[str]:
    for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
        yield letter + c


def _station_token(name: str, kind: str | None, used: set[str]) -> str:
    letter = KIND_LETTER.get(kind or "", "Z")
    m = re.fullmatch(re.escape(kind or "") + r"(\d)", name) if kind else None
    wanted = letter + m.group(1) if m else (KIND_PAIR.get(kind or "") if name == kind else None)
    if wanted and wanted not in used:
        return wanted
    return next(t for t in _spare_tokens(letter) if t not in used)


def _wall_tokens(walls: tuple[tuple[int, int], ...]) -> list[str]:
    """One token per wall: `##` when the walls are in reading order, else numbered runs."""
    runs = [0]
    for i in range(1, len(walls)):
        prev, cur = walls[i - 1], walls[i]
        runs.append(runs[-1] + (1 if (cur[1], cur[0]) <= (prev[1], prev[0]) else 0))
    last = runs[-1] if runs else 0
    return [WALL if r == last else f"#{r + 1}" for r in runs] if walls else []


def _cells(level: Level) -> tuple[dict[tuple[int, int], str], list[str]]:
    """The token of each drawn cell, and the legend lines in map order."""
    cells: dict[tuple[int, int], str] = {}
    legend: list[str] = []
    used = {FLOOR, WALL}

    def draw(pos: tuple[int, int], token: str, what: str) -> None:
        if not level.in_bounds(pos) or pos in cells:
            raise ValueError(f"cannot draw {what} at {pos}: outside the grid or on another tile")
        cells[pos] = token
        used.add(token)

    agent_cells: dict[tuple[int, int], list[str]] = {}
    for a in level.agents:
        m = re.fullmatch(r"agent(\d)", a.name)
        token = (
            "a" + m.group(1)
            if m and "a" + m.group(1) not in used
            else next(t for t in _spare_tokens("a") if t not in used)
        )
        used.add(token)
        agent_cells.setdefault(a.pos, []).append(token)
        legend.append(f"  {_key(token)}: {scalar({'agent': a.name})}")
    for pos, tokens in agent_cells.items():
        draw(pos, "+".join(tokens), f"agent {tokens[0]}")
    for s in level.stations:
        token = _station_token(s.name, s.kind, used)
        draw(s.pos, token, f"station {s.name}")
        entry = {
            "station": s.name,
            **({"provides": s.provides} if s.provides is not None else {}),
            **({"item": s.item} if s.item is not None else {}),
        }
        legend.append(f"  {_key(token)}: {scalar(entry)}")
    for pos, token in zip(level.walls, _wall_tokens(level.walls), strict=True):
        draw(pos, token, "a wall")
        line = f"  {_key(token)}: wall"
        if token != WALL and line not in legend:
            legend.append(line)
    return cells, legend


def _option_lines(options: dict[str, Any]) -> list[str]:
    """One line per option; a non-empty mapping (can_use) gets one line per entry."""
    out = []
    for k, v in options.items():
        if isinstance(v, dict) and v:
            out.append(f"  {_key(str(k))}:")
            out += [f"    {_key(str(a))}: {scalar(x)}" for a, x in v.items()]
        else:
            out.append(f"  {_key(str(k))}: {scalar(v)}")
    return out


def level_to_yaml(level: Level, comment: str = "") -> str:
    """The level as YAML text; level_from_yaml(level_to_yaml(level)) gives the same level."""
    cells, legend = _cells(level)
    out = [f"# {c}".rstrip() for c in comment.splitlines()]
    if level.title:
        out += text_field("title", level.title)
    if level.description:
        out += text_field("description", level.description)
    out.append(f"orders: {scalar(list(level.orders))}")
    out.append(f"rules: {scalar(level.rules)}")
    if level.meta:
        out.append("meta:")
        out += [f"  {_key(str(k))}: {scalar(v)}" for k, v in level.meta.items()]
    if level.options:
        out += ["options:"] + _option_lines(level.options)
    if level.name != "kitchen":
        out.append(f"name: {scalar(level.name)}")
    out.append("grid: |")
    for y in range(level.height):
        out.append("  " + " ".join(cells.get((x, y), FLOOR) for x in range(level.width)))
    out += ["legend:"] + legend if legend else ["legend: {}"]
    return "\n".join(out) + "\n"
