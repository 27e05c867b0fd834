"""Checks every level format shares: what makes a kitchen unusable, named by field."""

from __future__ import annotations

from game.engine import Level
from game.engine.level import START_ITEMS


def check_level(level: Level) -> list[str]:
    """Problems that make the level unplayable (empty when it is fine)."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, s in enumerate(level.stations):
        where = f"tiles[{s.name}]"
        if s.kind is None:
            problems.append(f"{where}: unknown station kind (a name must contain one of "
                            "table, dispenser, chopping_board, stove, serving_window, sink, "
                            "plate_return, trash)")
        if s.name in seen:
            problems.append(f"{where}: two stations are called {s.name!r}")
        seen[s.name] = i
        if s.item is not None and s.item not in START_ITEMS:
            problems.append(f"{where}: item {s.item!r} must be one of {', '.join(START_ITEMS)}")
        if s.kind == "stove" and s.item == "plate":
            problems.append(f"{where}: a stove holds only a pot or a pan")
        if s.kind == "dispenser" and not s.provides:
            problems.append(f"{where}: a dispenser needs 'provides'")
        if not level.in_bounds(s.pos):
            problems.append(f"{where}: ({s.x}, {s.y}) is outside the grid")
    for a in level.agents:
        if not level.is_floor(a.pos):
            problems.append(f"agents[{a.name}]: starts on ({a.x}, {a.y}), which is not floor")
    if len(set(level.agent_names)) != len(level.agents):
        problems.append("agents: two agents share a name")
    if problems:
        return problems
    reach: set = set()
    for a in level.agents:
        reach |= set(level.distances(a.pos))
    for s in level.stations:
        if not any(n in reach for n in level.neighbours(s.pos)):
            problems.append(f"tiles[{s.name}]: no agent can reach a tile next to it")
    for name in level.orders:
        if name not in level.recipe_book:
            problems.append(f"orders: no recipe for {name!r}")
    return problems
