"""Checks every level format shares: what makes a kitchen unusable, named by field."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from game.engine import RULESETS, Level
from game.engine.level import START_ITEMS, STATION_KINDS
from game.inputs import MAX_DESCRIPTION_CHARS, MAX_MAP_SIDE, MAX_ORDERS, MAX_TITLE_CHARS, plain_data_problem

MAX_NAME_CHARS = 64  # a station's or agent's name: it is printed in terminals, prompts and windows

# Scenario options a level may set (absent: the benchmark's behaviour).
OPTIONS = ("burn_after", "serve_within", "can_use")


@dataclass(frozen=True)
class Issue:
    """One problem and what it is about: ("station", i) and ("agent", i) index level.stations and
    level.agents, ("orders", i) the orders, ("level", field) a whole field. Each format turns the
    subject into its own place (a line, a field)."""

    subject: tuple[str, int | str]
    message: str


# ("options", path) subjects: path is the option ("burn_after"), an agent of can_use
# ("can_use.agent2") or one kind in its list ("can_use.agent2[1]").


def _station_issues(level: Level) -> list[Issue]:
    issues: list[Issue] = []
    seen: set[str] = set()
    taken = set(level.walls)
    for i, s in enumerate(level.stations):
        subject = ("station", i)
        if s.kind is None:
            issues.append(
                Issue(
                    subject,
                    "unknown station kind (a name must contain one of table, "
                    "dispenser, chopping_board, stove, serving_window, sink, "
                    "plate_return, trash)",
                )
            )
        if not _plain_name(s.name):
            issues.append(
                Issue(subject, f"a name must be printable text of at most {MAX_NAME_CHARS} characters")
            )
        if s.name in seen:
            issues.append(Issue(subject, f"two stations are called {s.name!r}"))
        seen.add(s.name)
        if s.item is not None and s.item not in START_ITEMS:
            issues.append(Issue(subject, f"item {s.item!r} must be one of {', '.join(START_ITEMS)}"))
        if s.kind == "stove" and s.item == "plate":
            issues.append(Issue(subject, "a stove holds only a pot or a pan"))
        if s.kind == "dispenser" and not s.provides:
            issues.append(Issue(subject, "a dispenser needs 'provides'"))
        if not level.in_bounds(s.pos):
            issues.append(Issue(subject, f"({s.x}, {s.y}) is outside the grid"))
        if s.pos in taken:
            issues.append(Issue(subject, f"({s.x}, {s.y}) already holds another station or a wall"))
        taken.add(s.pos)
    return issues


def _plain_name(name: str) -> bool:
    """No control characters (a terminal escape in a name would reach every terminal it is printed
    in), and short."""
    return isinstance(name, str) and name.isprintable() and 0 < len(name) <= MAX_NAME_CHARS


def _agent_issues(level: Level) -> list[Issue]:
    issues = [
        Issue(("agent", i), f"starts on ({a.x}, {a.y}), which is not floor")
        for i, a in enumerate(level.agents)
        if not level.is_floor(a.pos)
    ]
    issues += [
        Issue(("agent", i), f"a name must be printable text of at most {MAX_NAME_CHARS} characters")
        for i, a in enumerate(level.agents)
        if not _plain_name(a.name)
    ]
    if len(set(level.agent_names)) != len(level.agents):
        issues.append(Issue(("level", "agents"), "two agents share a name"))
    if not level.agents:
        issues.append(Issue(("level", "agents"), "a level needs at least one agent"))
    return issues


def _reach_issues(level: Level) -> list[Issue]:
    """A station no agent can stand next to can never be used (split kitchens are fine)."""
    reach: set = set()
    for a in level.agents:
        reach |= set(level.distances(a.pos))
    return [
        Issue(("station", i), "no agent can reach a tile next to it")
        for i, s in enumerate(level.stations)
        if not any(n in reach for n in level.neighbours(s.pos))
    ]


def _positive_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def _can_use_issues(level: Level, table: Any) -> list[Issue]:
    if not isinstance(table, dict):
        return [
            Issue(
                ("options", "can_use"),
                "must map agent names to lists of station kinds, "
                "e.g. {agent1: [dispenser, chopping_board, table]}",
            )
        ]
    issues = []
    for agent, kinds in table.items():
        at = f"can_use.{agent}"
        if agent not in level.agent_names:
            issues.append(
                Issue(
                    ("options", at),
                    f"no agent called {agent!r} in this kitchen (agents: {', '.join(level.agent_names)})",
                )
            )
        if not isinstance(kinds, list):
            issues.append(Issue(("options", at), "must be a list of station kinds, e.g. [stove, table]"))
            continue
        issues += [
            Issue(
                ("options", f"{at}[{i}]"),
                f"{kind!r} is not a station kind (kinds: {', '.join(STATION_KINDS)})",
            )
            for i, kind in enumerate(kinds)
            if kind not in STATION_KINDS
        ]
    return issues


def option_issues(level: Level) -> list[Issue]:
    """Problems with the scenario options (burn_after, serve_within, can_use)."""
    opts = level.options
    if not isinstance(opts, dict):
        return [Issue(("options", ""), "must be a mapping of option names to values")]
    issues = [
        Issue(("options", str(k)), f"unknown option (options are {', '.join(OPTIONS)})")
        for k in opts
        if k not in OPTIONS
    ]
    for key in ("burn_after", "serve_within"):
        if key in opts and not _positive_number(opts[key]):
            issues.append(
                Issue(("options", key), f"must be a positive number of time units, not {opts[key]!r}")
            )
    if "burn_after" in opts and not any(s.kind == "trash" for s in level.stations):
        issues.append(
            Issue(
                ("options", "burn_after"),
                "burnt food must be thrown away: a kitchen with burn_after needs a trash station",
            )
        )
    if "can_use" in opts:
        issues += _can_use_issues(level, opts["can_use"])
    return issues


# meta fields other code reads and shows: each must be one value, not a list or mapping
META_SCALARS = ("id", "suite", "category", "difficulty", "seed")


def meta_problems(meta: Any) -> list[str]:
    """Why `meta` is not a mapping of plain JSON data whose id, suite, category, difficulty and
    seed are single values; each problem starts with its field (meta.id: ...)."""
    if not isinstance(meta, dict):
        return ["meta: must be a mapping (id, suite, category, seed, difficulty, ...)"]
    plain = plain_data_problem(meta, "meta")
    if plain:
        return [plain]
    return [
        f"meta.{k}: must be a single value (text or a number), not a list or mapping"
        for k in META_SCALARS
        if isinstance(meta.get(k), (list, dict))
    ]


def _form_issues(level: Level) -> list[Issue]:
    """The kitchen's size and the free-form fields."""
    issues = []
    if max(level.width, level.height) > MAX_MAP_SIDE:
        issues.append(
            Issue(
                ("level", "size"),
                f"{level.width}x{level.height} is too large (at most {MAX_MAP_SIDE} tiles a side)",
            )
        )
    for name, most in (
        ("title", MAX_TITLE_CHARS),
        ("description", MAX_DESCRIPTION_CHARS),
        ("name", MAX_TITLE_CHARS),
    ):
        value = getattr(level, name)
        if not isinstance(value, str):
            issues.append(Issue(("level", name), "must be text"))
        elif len(value) > most:
            issues.append(Issue(("level", name), f"{len(value):,} characters; at most {most:,}"))
    if len(level.orders) > MAX_ORDERS:
        issues.append(Issue(("level", "orders"), f"{len(level.orders):,} orders; at most {MAX_ORDERS:,}"))
    for problem in meta_problems(level.meta):
        where, message = problem.split(": ", 1)
        issues.append(Issue(("level", where), message))
    return issues


def level_issues(level: Level) -> list[Issue]:
    """Problems that make the level unplayable (empty when it is fine)."""
    form = _form_issues(level)
    if any(i.subject in (("level", "size"), ("level", "orders")) for i in form):
        return form  # a huge kitchen is refused before anything walks over it
    issues = form + _station_issues(level) + _agent_issues(level) + option_issues(level)
    if level.rules not in RULESETS:
        issues.append(
            Issue(("level", "rules"), f"unknown rule set {level.rules!r} (choose {' or '.join(RULESETS)})")
        )
    if issues:
        return issues
    issues += _reach_issues(level)
    issues += [
        Issue(("orders", i), f"no recipe for {name!r}")
        for i, name in enumerate(level.orders)
        if name not in level.recipe_book
    ]
    return issues


def _where(level: Level, subject: tuple[str, int | str]) -> str:
    kind, key = subject
    if kind == "station":
        return f"tiles[{level.stations[int(key)].name}]"
    if kind == "agent":
        return f"agents[{level.agents[int(key)].name}]"
    if kind == "options":
        return f"options.{key}" if key else "options"
    return f"orders[{key}]" if kind == "orders" else str(key)


def check_level(level: Level) -> list[str]:
    """The problems of `level_issues`, each prefixed with the map field it is about."""
    return [f"{_where(level, i.subject)}: {i.message}" for i in level_issues(level)]
