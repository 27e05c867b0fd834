"""One discrete action space per agent, and the mask of what the engine accepts right now.

Index 0 is "keep going" (the only choice of an agent that is busy), then MoveTo every floor tile,
Interact every station, Process every station, and Wait 1..max_wait. An action is legal when the
engine would not refuse it at this instant: its start checks pass and, for an Interact (which
takes no time), its effect works on the kitchen as it is now; a Process is legal only on a board
with something raw or a sink with a dirty plate (the board is the agent's for the whole Process,
and nothing can take a dirty plate out of a sink).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from game.engine import Action, Level
from game.engine.errors import ActionFailed
from game.engine.items import DirtyPlate, Ingredient, Item, item_from_dict
from game.engine.kitchen import AgentState, Kitchen

KEEP_GOING = 0


class ActionTable:
    def __init__(self, level: Level, max_wait: int):
        self.level = level
        self.tiles = [
            (x, y) for y in range(level.height) for x in range(level.width) if level.is_floor((x, y))
        ]
        self.stations = list(level.stations)
        self.move0 = 1
        self.interact0 = self.move0 + len(self.tiles)
        self.process0 = self.interact0 + len(self.stations)
        self.wait0 = self.process0 + len(self.stations)
        self.size = self.wait0 + max_wait
        self.actions: list[Action | None] = [None]
        self.actions += [Action("MoveTo", target=t) for t in self.tiles]
        self.actions += [Action("Interact", target=s.name) for s in self.stations]
        self.actions += [Action("Process", target=s.name) for s in self.stations]
        self.actions += [Action("Wait", duration=d) for d in range(1, max_wait + 1)]
        self._reach: dict[tuple[int, int], np.ndarray] = {}
        self._beside: dict[tuple[int, int], list[tuple[int, object]]] = {}
        self._keep = np.zeros(self.size, np.int8)
        self._keep[KEEP_GOING] = 1
        self._index = {_key(a.to_dict()): i for i, a in enumerate(self.actions) if a is not None}

    def index(self, action: dict) -> int | None:
        """The index of a plan's action ({"action": "MoveTo", "target": [x, y]}, ...), or None
        when the table has no such action (a Wait longer than max_wait, an unreadable action)."""
        return self._index.get(_key(action))

    def action(self, index: int) -> Action | None:
        """The engine action of an index (None: keep going)."""
        return self.actions[index]

    def keep_going(self) -> np.ndarray:
        return self._keep.copy()

    def mask(self, kitchen: Kitchen, agent: AgentState, now: float) -> np.ndarray:
        """The legal actions of an agent that must choose now."""
        mask = np.zeros(self.size, np.int8)
        mask[self.move0 : self.interact0] = self._reachable(agent.pos)
        for i, s in self._stations_beside(agent.pos):
            if not _usable(kitchen, agent, s):
                continue
            mask[self.interact0 + i] = _interact_works(kitchen, agent, s, now)
            mask[self.process0 + i] = _process_works(kitchen, s)
        mask[self.wait0 :] = 1
        return mask

    def _stations_beside(self, pos: tuple[int, int]) -> list[tuple[int, object]]:
        found = self._beside.get(pos)
        if found is None:
            x, y = pos
            found = [(i, s) for i, s in enumerate(self.stations) if abs(s.x - x) + abs(s.y - y) == 1]
            self._beside[pos] = found
        return found

    def _reachable(self, pos: tuple[int, int]) -> np.ndarray:
        row = self._reach.get(pos)
        if row is None:
            dist = self.level.distances(pos)
            row = np.array([t in dist and t != pos for t in self.tiles], np.int8)
            self._reach[pos] = row
        return row


def _key(action: dict) -> tuple:
    target = action.get("target")
    return (
        action.get("action"),
        tuple(target) if isinstance(target, list) else target,
        action.get("duration"),
    )


def _usable(kitchen: Kitchen, agent: AgentState, station) -> bool:
    try:
        kitchen.check_allowed(agent, station)
        kitchen.check_free(agent, station)
    except ActionFailed:
        return False
    return True


def _process_works(kitchen: Kitchen, station) -> bool:
    top = kitchen.surface.get(station.name)
    if station.kind == "chopping_board":
        return isinstance(top, Ingredient) and top.state == "raw"
    return station.kind == "sink" and isinstance(top, DirtyPlate)


def _clone(item: Item | None) -> Item | None:
    return None if item is None else item_from_dict(item.to_dict())


def _interact_works(kitchen: Kitchen, agent: AgentState, station, now: float) -> bool:
    """Run the Interact on copies of what it can touch, then put the kitchen back as it was."""
    k, name = kitchen, station.name
    held, top = agent.held, k.surface.get(name)
    saved = (
        list(k.remaining),
        list(k.served),
        list(k.pending_returns),
        dict(k.dirty_plates),
        Counter(k.reached),
        Counter(k.plated),
    )
    agent.held, k.surface[name] = _clone(held), _clone(top)
    try:
        k.interact(agent, station, now)
        return True
    except ActionFailed:
        return False
    finally:
        agent.held, k.surface[name] = held, top
        k.remaining, k.served, k.pending_returns, k.dirty_plates, k.reached, k.plated = saved
