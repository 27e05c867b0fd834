"""ParaCook map JSON: checked field by field, turned into a Level and back."""

from __future__ import annotations

from typing import Any

from game.engine import Level, level_from_map
from game.inputs import MAX_MAP_SIDE

from .errors import LevelError


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def map_problems(data: Any) -> list[str]:
    """Form errors of a ParaCook map dict, each naming its field."""
    if not isinstance(data, dict):
        return ["the map must be a JSON object"]
    problems = [
        f"{k}: must be a positive whole number"
        for k in ("width", "height")
        if not (_is_int(data.get(k)) and data[k] > 0)
    ]
    if not problems and max(data["width"], data["height"]) > MAX_MAP_SIDE:
        return [
            f"width, height: {data['width']}x{data['height']} is too large (at most {MAX_MAP_SIDE} a side)"
        ]
    agents, tiles = data.get("agents"), data.get("tiles")
    if not isinstance(agents, list) or not agents:
        problems.append("agents: must be a non-empty list")
        agents = []
    if not isinstance(tiles, list):
        problems.append("tiles: must be a list")
        tiles = []
    for i, a in enumerate(agents):
        if not (
            isinstance(a, dict)
            and isinstance(a.get("name"), str)
            and _is_int(a.get("x"))
            and _is_int(a.get("y"))
        ):
            problems.append(f"agents[{i}]: needs a string 'name' and whole-number 'x', 'y'")
    for i, t in enumerate(tiles):
        if not (isinstance(t, dict) and _is_int(t.get("x")) and _is_int(t.get("y"))):
            problems.append(f"tiles[{i}]: needs whole-number 'x' and 'y'")
        elif t.get("type") not in ("station", "obstacle"):
            problems.append(f"tiles[{i}]: 'type' must be station or obstacle")
        elif t["type"] == "station" and not isinstance(t.get("name"), str):
            problems.append(f"tiles[{i}]: a station needs a string 'name'")
        for key in ("provides", "item"):
            if isinstance(t, dict) and key in t and not isinstance(t[key], str):
                problems.append(f"tiles[{i}]: '{key}' must be a string")
    return problems


def level_from_paracook(
    data: Any,
    source: str,
    orders=(),
    recipes=(),
    rules: str = "paracook",
    title: str = "",
    description: str = "",
) -> Level:
    problems = map_problems(data)
    if problems:
        raise LevelError(source, problems)
    return level_from_map(data, orders, recipes, rules, title, description)
