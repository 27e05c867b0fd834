"""How fast two agents can move one item: hand-overs need the other agent on the far side.

`Carry` lets an item cross any counter for free when there are several agents, as if a helper
stood behind every counter. Two agents cannot: to pass an item on again, the agent that handed
it over must first walk round to the next counter. Here both agents move together, a tile a step
each (or stay), starting wherever they like in their own part of the kitchen (the most favourable
start, so the result holds whatever they did before); the item is in one hand, or on a station
from which an agent next to it can take it. A search over (where the item is, where each agent
stands), one time step a level, gives the least time from the item being available at one
station to an agent holding it next to another: a lower bound on that carrying in any plan.
"""

from __future__ import annotations

import numpy as np

from game.engine import Level

from ..model import INF
from .carry import NOT_HOLDING, Carry

MAX_STEPS = 200  # no carrying on a map of the benchmark's size takes nearly this long


class TeamCarry(Carry):
    """`Carry` for exactly two agents, with hand-overs that need the other agent there."""

    def __init__(self, level: Level):
        super().__init__(level, handoffs=True)
        tiles: dict = {}
        reach = []
        for a in level.agents:
            mine = level.distances(a.pos)
            reach.append(mine)
            for p in sorted(mine):
                tiles.setdefault(p, len(tiles))
        self.tiles = tiles
        n = len(tiles)
        moves = np.arange(n)[:, None].repeat(5, axis=1)  # stay, or step to a neighbour
        for p, i in tiles.items():
            for k, q in enumerate(level.neighbours(p), 1):
                if q in tiles:
                    moves[i, k] = tiles[q]
        self.moves = moves[:, 1:]  # staying is the identity
        mask = [np.zeros(n, bool) for _ in range(2)]
        for who, mine in enumerate(reach[:2]):
            mask[who][[tiles[p] for p in mine]] = True
        self.valid = mask[0][:, None] & mask[1][None, :]
        self.names = list(self.adjacent)
        self.beside = np.array([self._beside(self.adjacent[name]) for name in self.names]).reshape(-1, n)
        self.holding = [s for s in self.names if self.stations[s].kind not in NOT_HOLDING]
        self._team: dict[str, dict[str, int]] = {}
        self._start: dict[str, dict[str, int]] = {}
        self.starts = (tiles[level.agents[0].pos], tiles[level.agents[1].pos])

    def _beside(self, adj: list) -> np.ndarray:
        out = np.zeros(len(self.tiles), bool)
        out[[self.tiles[p] for p in adj if p in self.tiles]] = True
        return out

    def between(self, a: str, b: str) -> int:
        got = self._team.get(a)
        if got is None:
            got = self._team[a] = self._search(a)
        return got.get(b, INF)

    def from_start(self, a: str, b: str) -> int:
        """Least time from the start, the agents where they stand, until an item waiting at a
        (a dispenser's, a plate on its table) is held next to b."""
        got = self._start.get(a)
        if got is None:
            got = self._start[a] = self._search(a, self.starts)
        return got.get(b, INF)

    def _search(self, source: str, where: tuple[int, int] | None = None) -> dict[str, int]:
        """Least time from the item at `source` to an agent holding it next to each station; the
        agents start `where` given, else wherever suits them best."""
        places = [source] + [s for s in self.holding if s != source]
        near = self.beside[[self.names.index(p) for p in places]]
        keeps = np.array([p in self.holding for p in places])  # the source may only hand it out
        kept = near[keeps]  # where both agents stand beside one counter, they pass it over there
        shared = (kept[:, :, None] & kept[:, None, :]).any(axis=0)
        state = np.zeros((2 + len(places), *self.valid.shape), bool)  # hand 0, hand 1, on a place
        if where is None:
            state[2] = self.valid
        else:
            state[2][where] = True
        found = np.full(len(self.names), INF)
        for t in range(MAX_STEPS):
            self._settle(state, near, keeps, shared)
            held = self.beside & state[0].any(axis=1) | self.beside & state[1].any(axis=0)
            found[(found == INF) & held.any(axis=1)] = t
            moved = self._step(state)
            if (found < INF).all() or np.array_equal(moved, state):
                break  # everything reached, or nothing more can be (the rest is out of reach)
            state = moved
        else:  # not reached in MAX_STEPS: it takes at least that long
            found[found == INF] = MAX_STEPS
        return {name: int(found[i]) for i, name in enumerate(self.names) if found[i] < INF}

    @staticmethod
    def _settle(state: np.ndarray, near: np.ndarray, keeps: np.ndarray, shared: np.ndarray) -> None:
        """Take and put down at once, as often as it helps (interacting takes no time): an agent
        takes the item from a place beside it, and from the other agent over a counter beside
        both (`shared`); then either puts it on any holding place beside it. Nothing more comes of
        a second round: what is put down was in a hand that could already reach it."""
        on = state[2:]
        side0, side1 = near[:, :, None], near[:, None, :]
        hand0 = state[0] | (on & side0).any(axis=0)
        hand1 = state[1] | (on & side1).any(axis=0)
        state[0] = hand0 | (hand1 & shared)
        state[1] = hand1 | (hand0 & shared)
        on |= (state[0] & side0 | state[1] & side1) & keeps[:, None, None]

    def _step(self, state: np.ndarray) -> np.ndarray:
        """Both agents take one step or stay: agent 0 moves along the rows, then agent 1 along the
        columns (the same, once they are made rows)."""
        return self._moved(self._moved(state).transpose(0, 2, 1)).transpose(0, 2, 1) & self.valid

    def _moved(self, state: np.ndarray) -> np.ndarray:
        """Where the agent of the middle axis may be after one step or staying."""
        rows = np.ascontiguousarray(state)
        out = rows.copy()
        for to in self.moves.T:
            out |= rows[:, to, :]
        return out
