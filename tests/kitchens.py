"""Tiny kitchens drawn as text, for rule tests."""

from __future__ import annotations

from game.engine import Level, level_from_map
from game.levels import load_catalog


def kitchen(rows: list[str], stations: dict[str, dict], orders: tuple[str, ...] = ()) -> Level:
    """'.' floor, '#' wall, digits agent starts (agentN), letters stations from `stations`."""
    tiles, agents = [], []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                tiles.append({"x": x, "y": y, "type": "obstacle", "name": "wall"})
            elif ch.isdigit():
                agents.append({"name": f"agent{ch}", "x": x, "y": y})
            elif ch != ".":
                tiles.append({"x": x, "y": y, "type": "station", **stations[ch]})
    agents.sort(key=lambda a: a["name"])
    book = load_catalog()
    recipes = [book[o] for o in dict.fromkeys(orders)]
    return level_from_map(
        {"name": "test", "width": len(rows[0]), "height": len(rows), "agents": agents, "tiles": tiles},
        orders,
        recipes,
    )


# one agent, a lettuce, a board, the window and two plates: one salad or two
TWO_PLATES = ["#L.C#", "#1..#", "#P.W#", "#Q..#"]
TWO_PLATES_STATIONS = {
    "L": {"name": "dispenser1", "provides": "lettuce"},
    "C": {"name": "chopping_board1"},
    "P": {"name": "table1", "item": "plate"},
    "Q": {"name": "table2", "item": "plate"},
    "W": {"name": "serving_window"},
}


def mv(x: int, y: int) -> dict:
    return {"action": "MoveTo", "target": [x, y]}


def it(name: str) -> dict:
    return {"action": "Interact", "target": name}


def pr(name: str) -> dict:
    return {"action": "Process", "target": name}


def wait(d=1) -> dict:
    return {"action": "Wait", "duration": d}
