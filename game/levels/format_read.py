"""YAML level text -> Level, refusing broken files with the line and field at fault."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from game.engine import AgentStart, Level, Station
from game.inputs import MAX_MAP_SIDE

from .catalog import dish_name, load_catalog
from .errors import LevelError
from .validate import level_issues, meta_problems
from .yaml_doc import entries, line, parse_document, value

FLOOR, WALL = "..", "##"
FIELDS = ("title", "description", "orders", "rules", "meta", "options", "name", "grid", "legend")
STATION_KEYS = ("station", "provides", "item")


@dataclass
class Key:
    """One legend entry: what its cells stand for and where it was written."""

    token: str
    kind: str  # station | agent | wall
    line: int
    names: list[str] = field(default_factory=list)  # the station's or agent's name
    provides: str | None = None
    item: str | None = None
    cells: list[tuple[int, int]] = field(default_factory=list)


class Problems:
    def __init__(self, source: str):
        self.source = source
        self.items: list[str] = []

    def add(self, at: int | yaml.Node, where: str, message: str) -> None:
        n = at if isinstance(at, int) else line(at)
        self.items.append(f"line {n}, {where}: {message}")

    def raise_any(self) -> None:
        if self.items:
            raise LevelError(self.source, self.items)


def level_from_yaml(text: str, source: str) -> Level:
    """Parse a YAML level; raises LevelError listing every problem with its line and field."""
    root = parse_document(text, source)
    problems = Problems(source)
    fields = _top_fields(root, problems)
    if "grid" not in fields:
        problems.add(1, "grid", "missing: draw the kitchen under 'grid: |'")
    rows = _grid_rows(fields["grid"], problems) if "grid" in fields else []
    keys = _legend(fields.get("legend"), problems)
    width = len(rows[0][1]) if rows else 0
    walls = _place(rows, width, keys, problems)
    orders = _orders(fields.get("orders"), problems, root)
    text_fields = {
        k: _string(fields.get(k), k, problems, default)
        for k, default in (("title", ""), ("description", ""), ("name", "kitchen"), ("rules", "paracook"))
    }
    meta = _meta(fields.get("meta"), problems)
    options, option_nodes = _options(fields.get("options"), problems)
    problems.raise_any()
    book = load_catalog()
    level = Level(
        name=text_fields["name"],
        width=width,
        height=len(rows),
        agents=tuple(AgentStart(n, *k.cells[0]) for k in keys.values() if k.kind == "agent" for n in k.names),
        stations=tuple(
            Station(k.names[0], *k.cells[0], k.provides, k.item) for k in keys.values() if k.kind == "station"
        ),
        walls=tuple(walls),
        orders=tuple(orders),
        recipes=tuple(book[n] for n in dict.fromkeys(orders)),
        rules=text_fields["rules"],
        title=text_fields["title"],
        description=text_fields["description"],
        meta=meta,
        options=options,
    )
    _check(level, keys, fields, option_nodes, problems)
    problems.raise_any()
    return level


def _top_fields(root: yaml.MappingNode, problems: Problems) -> dict[str, yaml.Node]:
    fields: dict[str, yaml.Node] = {}
    for key, key_node, node in entries(root):
        if key not in FIELDS:
            problems.add(key_node, key, f"unknown field (fields are {', '.join(FIELDS)})")
        elif key in fields:
            problems.add(key_node, key, f"given twice (first on line {line(fields[key])})")
        else:
            fields[key] = node
    return fields


def _string(node: yaml.Node | None, where: str, problems: Problems, default: str) -> str:
    if node is None:
        return default
    v = value(node)
    if not isinstance(v, str):
        problems.add(node, where, "must be text")
        return default
    return v


def _meta(node: yaml.Node | None, problems: Problems) -> dict[str, Any]:
    if node is None:
        return {}
    v = value(node)
    if not isinstance(v, dict):
        problems.add(node, "meta", "must be a mapping (id, suite, category, seed, difficulty, ...)")
        return {}
    found = meta_problems(v)
    for problem in found:
        problems.add(node, *problem.split(": ", 1))
    return {} if found else v


def _options(node: yaml.Node | None, problems: Problems) -> tuple[dict[str, Any], dict[str, yaml.Node]]:
    """The options mapping, and the node of each option, can_use agent and kind by its path
    (burn_after, can_use.agent2, can_use.agent2[1]) so checks can name their line."""
    if node is None:
        return {}, {}
    v = value(node)
    if not isinstance(v, dict) or not isinstance(node, yaml.MappingNode):
        problems.add(node, "options", "must be a mapping, e.g. {burn_after: 10, serve_within: 40}")
        return {}, {}
    nodes: dict[str, yaml.Node] = {"": node}
    for key, key_node, entry in entries(node):
        if key in nodes:
            problems.add(key_node, f"options.{key}", f"given twice (first on line {line(nodes[key])})")
        nodes[key] = key_node
        if key == "can_use" and isinstance(entry, yaml.MappingNode):
            for agent, agent_node, kinds in entries(entry):
                nodes[f"can_use.{agent}"] = agent_node
                if isinstance(kinds, yaml.SequenceNode):
                    nodes.update({f"can_use.{agent}[{i}]": k for i, k in enumerate(kinds.value)})
    return v, nodes


def _grid_rows(node: yaml.Node, problems: Problems) -> list[tuple[int, list[str]]]:
    """(line, cells) per row; a block scalar (grid: |) or a list of row strings."""
    if isinstance(node, yaml.ScalarNode) and node.style == "|":
        lines = node.value.rstrip("\n").split("\n")
        first = line(node) + 1
        rows = [(first + i, text.split()) for i, text in enumerate(lines)]
    elif isinstance(node, yaml.SequenceNode) and all(isinstance(n, yaml.ScalarNode) for n in node.value):
        rows = [(line(n), str(n.value).split()) for n in node.value]
    else:
        problems.add(
            node,
            "grid",
            "write the rows as a block ('grid: |' then one row per line) or as a list of strings",
        )
        return []
    if not rows or not rows[0][1]:
        problems.add(node, "grid", "is empty")
        return []
    width = len(rows[0][1])
    if max(width, len(rows)) > MAX_MAP_SIDE:
        problems.add(
            node, "grid", f"is {width}x{len(rows)}; a kitchen has at most {MAX_MAP_SIDE} tiles a side"
        )
        return []
    for r, (n, cells) in enumerate(rows):
        if len(cells) != width:
            problems.add(n, f"grid row {r}", f"has {len(cells)} cells, but row 0 has {width}")
    return rows


def _legend(node: yaml.Node | None, problems: Problems) -> dict[str, Key]:
    keys: dict[str, Key] = {}
    if node is None:
        return keys
    if not isinstance(node, yaml.MappingNode):
        problems.add(node, "legend", "must map each grid key to a station, an agent or 'wall'")
        return keys
    for token, key_node, entry in entries(node):
        where = f"legend.{token}"
        if token in (FLOOR, WALL) or not token or any(c.isspace() or c == "+" for c in token):
            problems.add(key_node, where, "a key is one word without '+', and '..' and '##' are taken")
        elif token in keys:
            problems.add(key_node, where, f"given twice (first on line {keys[token].line})")
        else:
            key = _legend_entry(token, entry, where, problems)
            if key:
                keys[token] = key
    return keys


def _legend_entry(token: str, node: yaml.Node, where: str, problems: Problems) -> Key | None:
    v = value(node)
    n = line(node)
    if v == "wall":
        return Key(token, "wall", n)
    if isinstance(v, str):
        return Key(token, "station", n, [v])
    if not isinstance(v, dict):
        problems.add(node, where, "must be a station name, 'wall', {station: ...} or {agent: ...}")
        return None
    if "agent" in v:
        if len(v) != 1 or not isinstance(v["agent"], str):
            problems.add(node, where, "an agent entry is {agent: NAME}")
            return None
        return Key(token, "agent", n, [v["agent"]])
    unknown = [k for k in v if k not in STATION_KEYS]
    if unknown:
        problems.add(
            node,
            where,
            f"unknown field {unknown[0]!r} (a station has {', '.join(STATION_KEYS)}; an agent has agent)",
        )
        return None
    bad = [k for k in STATION_KEYS if k in v and not isinstance(v[k], str)]
    if "station" not in v or bad:
        problems.add(node, where, f"'{bad[0] if bad else 'station'}' must be text")
        return None
    return Key(token, "station", n, [v["station"]], v.get("provides"), v.get("item"))


def _place(
    rows: list[tuple[int, list[str]]], width: int, keys: dict[str, Key], problems: Problems
) -> list[tuple[int, int]]:
    """Record each key's cells; returns the walls in map order."""
    plain_walls: list[tuple[int, int]] = []
    for y, (n, cells) in enumerate(rows):
        for x, cell in enumerate(cells[:width]):
            where = f"grid row {y}, column {x}"
            if cell in (WALL, FLOOR):
                plain_walls += [(x, y)] if cell == WALL else []
                continue
            for token in cell.split("+") if "+" in cell else [cell]:
                if token not in keys:
                    problems.add(n, where, f"{token!r} is not in the legend")
                elif "+" in cell and keys[token].kind != "agent":
                    kind = keys[token].kind
                    problems.add(n, where, f"only agents can share a cell ({token!r} is a {kind})")
                else:
                    keys[token].cells.append((x, y))
    for key in keys.values():
        if key.kind != "wall" and len(key.cells) != 1:
            count = "is not drawn in the grid" if not key.cells else f"is drawn {len(key.cells)} times"
            problems.add(key.line, f"legend.{key.token}", f"{key.kind} {count} (draw it once)")
    walls = [c for k in keys.values() if k.kind == "wall" for c in k.cells]
    return walls + plain_walls


def _orders(node: yaml.Node | None, problems: Problems, root: yaml.Node) -> list[str]:
    if node is None:
        problems.add(root, "orders", "missing: list the dishes to serve, e.g. orders: [salad_basic]")
        return []
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        problems.add(node, "orders", "must be a non-empty list of dish names")
        return []
    book = load_catalog()
    names = []
    for i, item in enumerate(node.value):
        v = value(item)
        name = dish_name(v) if isinstance(v, str) else None
        if name not in book:
            problems.add(item, f"orders[{i}]", f"no dish called {v!r} in the catalog (levels/recipes.yaml)")
        else:
            names.append(name)
    return names


def _check(
    level: Level,
    keys: dict[str, Key],
    fields: dict[str, yaml.Node],
    option_nodes: dict[str, yaml.Node],
    problems: Problems,
) -> None:
    """The checks all formats share, reported at the legend entry or field they concern."""
    places = {
        "station": [(k.line, k.token) for k in keys.values() if k.kind == "station"],
        "agent": [(k.line, k.token) for k in keys.values() if k.kind == "agent" for _ in k.names],
    }
    for issue in level_issues(level):
        kind, index = issue.subject
        if kind in places:
            n, token = places[kind][int(index)]
            name = (level.stations if kind == "station" else level.agents)[int(index)].name
            problems.add(n, f"legend.{token}", f"{kind} {name!r}: {issue.message}")
        elif kind == "orders":
            problems.add(fields["orders"].value[int(index)], f"orders[{index}]", issue.message)
        elif kind == "options":
            at = option_nodes.get(str(index)) or option_nodes.get("") or 1
            problems.add(at, f"options.{index}" if index else "options", issue.message)
        else:
            at = fields.get(str(index)) or fields.get("legend") or 1
            problems.add(at, str(index), issue.message)
