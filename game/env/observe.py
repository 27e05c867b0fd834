"""What an agent observes: the kitchen as arrays (a documented Dict space) and in words.

grid      int8  (C, H, W)   channels: floor, wall, one per station kind (STATION_KINDS order),
                             any agent, this agent
items     int16 (S + A, 1 + 4V)  what each station (level order) then each agent (map order)
                             holds: column 0 the item kind (ITEM_KINDS index; 0 nothing), then
                             how many of each ingredient name x state it holds (V names of the
                             level, sorted; states raw, chopped, cooked, burnt)
cooking   float32 (S, 2)    a pot or pan's cooking on each station: (done, required) time units,
                             what an Interact now would find
agents    int32 (A, 3)      x, y, busy (1 while a running action has time left)
orders    int8  (O,)        1 for each order still to serve, in the level's order
time      float32 (1,)      the current instant
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from game.engine import Level
from game.engine.items import COOKWARE, Container, DirtyPlate, Ingredient, Item, cooking_progress
from game.engine.kitchen import Kitchen
from game.engine.level import STATION_KINDS
from game.engine.limits import MAX_TIME

ITEM_KINDS = ("nothing", "ingredient", "plate", "pan", "pot", "dirty_plate")
STATES = ("raw", "chopped", "cooked", "burnt")


def ingredient_names(level: Level) -> list[str]:
    names = {i.item for r in level.recipe_book.values() for i in r.ingredients}
    names |= {s.provides for s in level.stations if getattr(s, "provides", None)}
    return sorted(n for n in names if n)


class Observer:
    def __init__(self, level: Level):
        self.level = level
        self.names = ingredient_names(level)
        self.column = {
            (n, s): 1 + len(STATES) * i + j for i, n in enumerate(self.names) for j, s in enumerate(STATES)
        }
        self.stations = list(level.stations)
        self.agent_names = list(level.agent_names)
        h, w = level.height, level.width
        self.channels = 2 + len(STATION_KINDS) + 2
        base = np.zeros((self.channels, h, w), np.int8)
        for y in range(h):
            for x in range(w):
                base[0 if level.is_floor((x, y)) else 1, y, x] = 1
        for s in self.stations:
            base[1, s.y, s.x] = 0
            if s.kind in STATION_KINDS:
                base[2 + STATION_KINDS.index(s.kind), s.y, s.x] = 1
        self.base = base
        self.space = self._space()

    def _space(self) -> spaces.Dict:
        h, w = self.level.height, self.level.width
        holders, cols = len(self.stations) + len(self.agent_names), 1 + len(STATES) * len(self.names)
        big = max(self.level.width, self.level.height)
        return spaces.Dict(
            {
                "grid": spaces.Box(0, 1, (self.channels, h, w), np.int8),
                "items": spaces.Box(0, 1000, (holders, cols), np.int16),
                "cooking": spaces.Box(0.0, float(MAX_TIME), (len(self.stations), 2), np.float32),
                "agents": spaces.Box(0, big, (len(self.agent_names), 3), np.int32),
                "orders": spaces.Box(0, 1, (len(self.level.orders),), np.int8),
                "time": spaces.Box(0.0, float(MAX_TIME), (1,), np.float32),
            }
        )

    def shared(self, kitchen: Kitchen, now: float) -> dict[str, np.ndarray]:
        """The parts every agent sees alike (the grid without its 'this agent' channel)."""
        items = np.zeros(self.space["items"].shape, np.int16)
        cooking = np.zeros(self.space["cooking"].shape, np.float32)
        for i, s in enumerate(self.stations):
            top = kitchen.surface.get(s.name)
            self._item_row(items[i], top)
            if isinstance(top, Container) and top.kind in COOKWARE:
                counters = {"processed": top.processed, "required": top.required, "stamp": top.stamp}
                cooking[i] = cooking_progress({**counters, "cooking": top.cooking}, now, s.kind == "stove")
        grid = self.base.copy()
        agents = np.zeros(self.space["agents"].shape, np.int32)
        for j, a in enumerate(kitchen.agents):
            self._item_row(items[len(self.stations) + j], a.held)
            grid[self.channels - 2, a.pos[1], a.pos[0]] = 1
            agents[j] = (a.pos[0], a.pos[1], int(a.current is not None and a.end > now))
        served = len(kitchen.served)
        orders = np.array([1 if k >= served else 0 for k in range(len(self.level.orders))], np.int8)
        time = np.array([min(now, MAX_TIME)], np.float32)
        return {
            "grid": grid,
            "items": items,
            "cooking": cooking,
            "agents": agents,
            "orders": orders,
            "time": time,
        }

    def for_agent(self, shared: dict[str, np.ndarray], kitchen: Kitchen, agent: str) -> dict[str, Any]:
        grid = shared["grid"].copy()
        a = kitchen.agents[self.agent_names.index(agent)]
        grid[self.channels - 1, a.pos[1], a.pos[0]] = 1
        return {**shared, "grid": grid}

    def _item_row(self, row: np.ndarray, item: Item | None) -> None:
        if item is None:
            return
        if isinstance(item, Ingredient):
            row[0] = ITEM_KINDS.index("ingredient")
            row[self.column[(item.name, item.state)]] += 1
        elif isinstance(item, DirtyPlate):
            row[0] = ITEM_KINDS.index("dirty_plate")
        else:
            row[0] = ITEM_KINDS.index(item.kind)
            for ing in item.contents:
                col = self.column.get((ing.name, ing.state))
                if col is not None:
                    row[col] += 1
