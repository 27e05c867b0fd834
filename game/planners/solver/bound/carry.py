"""How soon an item can be carried from one station to another: on foot, and handed over stations
when there are several agents (the bound's distances)."""

from __future__ import annotations

import heapq
from collections import deque
from functools import cached_property

from game.engine import Level

from ..model import INF

NOT_HOLDING = ("serving_window", "plate_return", "trash")


class Carry:
    """Distances an item can be carried: BFS over floor tiles plus, when there are several agents
    to hand it over, one node per holding station joining the tiles around it."""

    def __init__(self, level: Level, handoffs: bool = True):
        self.level = level
        self.handoffs = handoffs
        self.stations = {s.name: s for s in level.stations}
        self.adjacent: dict[str, list[tuple[int, int]]] = {
            name: [p for p in level.neighbours(s.pos) if level.is_floor(p)]
            for name, s in self.stations.items()
        }
        self.holders: dict[tuple[int, int], list[str]] = {}
        for name, tiles in self.adjacent.items():
            if handoffs and self.stations[name].kind not in NOT_HOLDING:
                for p in tiles:
                    self.holders.setdefault(p, []).append(name)
        self._from: dict[str, dict] = {}
        self._start: dict[str, dict] = {}  # per source, `_relayed`

    def from_station(self, name: str) -> dict:
        got = self._from.get(name)
        if got is None:
            got = self._from[name] = self._bfs(name)
        return got

    def _bfs(self, name: str) -> dict:
        level = self.level
        dist: dict = {}
        queue: deque = deque()
        for p in self.adjacent[name]:
            dist[p] = 0
            queue.append(p)
        while queue:
            node = queue.popleft()
            d = dist[node]
            if isinstance(node, str):  # a holding station: every side is the same place
                for p in self.adjacent[node]:
                    if p not in dist or dist[p] > d:
                        dist[p] = d
                        queue.appendleft(p)
                continue
            for st in self.holders.get(node, ()):
                if st not in dist or dist[st] > d:
                    dist[st] = d
                    queue.appendleft(st)
            for q in level.neighbours(node):
                if level.is_floor(q) and dist.get(q, INF) > d + 1:
                    dist[q] = d + 1
                    queue.append(q)
        return dist

    def from_start(self, a: str, b: str) -> int | None:
        """The least time from the start until an item at a is held next to b, when this carry
        follows the agents from where they stand (None: it does not; see `TeamCarry`). A lone
        agent carries the item from the side of a it walked to; with hand-overs, an item put on a
        counter is taken from a side only once some agent can have walked there."""
        if self.handoffs:
            got = self._start.get(a)
            if got is None:
                got = self._start[a] = self._relayed(a)
            return min((got.get(p, INF) for p in self.adjacent[b]), default=INF)
        if len(self.level.agents) != 1:
            return None
        level = self.level
        reach = level.distances(level.agents[0].pos)
        best = INF
        for p in self.adjacent[a]:
            if p in reach:
                onward = level.distances(p)
                best = min([best] + [reach[p] + onward[q] for q in self.adjacent[b] if q in onward])
        return best

    @cached_property
    def reach(self) -> dict:
        """Earliest any agent can stand on each tile."""
        out: dict = {}
        for agent in self.level.agents:
            for p, d in self.level.distances(agent.pos).items():
                out[p] = min(d, out.get(p, INF))
        return out

    def _relayed(self, source: str) -> dict:
        """Earliest an item waiting at `source` from the start can be held on each tile (and lie
        on each holding station): picked up once an agent reaches a side, walked a tile a step,
        handed over a counter once an agent can stand on the far side."""
        level, reach = self.level, self.reach
        best: dict = {}
        heap = [(reach[p], n, p) for n, p in enumerate(self.adjacent[source]) if p in reach]
        heapq.heapify(heap)
        pushed = len(self.adjacent[source])
        while heap:
            t, _, node = heapq.heappop(heap)
            if node in best:
                continue
            best[node] = t
            if isinstance(node, str):
                nxt = [(max(t, reach[p]), p) for p in self.adjacent[node] if p in reach]
            else:
                nxt = [(t, st) for st in self.holders.get(node, ())]
                nxt += [(t + 1, q) for q in level.neighbours(node) if q in reach]
            for when, there in nxt:
                if there not in best:
                    heapq.heappush(heap, (when, pushed, there))
                    pushed += 1
        return best

    def between(self, a: str, b: str) -> int:
        da = self.from_station(a)
        return min((da.get(p, INF) for p in self.adjacent[b]), default=INF)
