"""The least walking that takes the agents next to every kind of place a level needs.

Some agent must stand next to a dispenser of every ingredient the orders take, a board when
something is chopped, a stove when something is cooked, a table with a plate (or a sink), a
serving window, and the sink and plate return when plates are washed. The agents' walks from
their starts are trees joined at the starts that touch one tile of each kind, so together they
weigh at least the lightest such tree: a group Steiner tree on the floor, with every start joined
to one root at no cost. It is found exactly by the Dreyfus-Wagner recurrence over the kinds (a
dozen at most) with numpy.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..model import INF

MAX_KINDS = 12  # beyond this the recurrence (3 ** kinds) is too slow to be worth it


def visit_tree(tiles: set, starts: set, groups: list[set]) -> int:
    """The lightest forest from the starts touching a tile of every group; 0 when there are too
    many groups to tell, INF when a group is out of reach."""
    groups = [g & tiles for g in groups if not g & starts]  # a start already touches its group
    groups = [set(g) for g in {frozenset(g) for g in groups}]
    if any(not g for g in groups):
        return INF
    if not groups or len(groups) + 1 > MAX_KINDS:
        return 0
    nodes = sorted(tiles)
    index = {p: i for i, p in enumerate(nodes)}
    root = len(nodes)
    links: list[list[tuple[int, int]]] = [[] for _ in range(root + 1)]
    for p in nodes:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (p[0] + dx, p[1] + dy)
            if q in index:
                links[index[p]].append((index[q], 1))
    for p in starts & tiles:
        links[root].append((index[p], 0))
        links[index[p]].append((root, 0))
    dist = np.array([_bfs(links, i) for i in range(root + 1)], dtype=np.int64)
    terminals = [[root]] + [[index[p] for p in g] for g in groups]
    return _steiner(dist, terminals)


def _bfs(links: list, start: int) -> list[int]:
    dist = [INF] * len(links)
    dist[start] = 0
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j, w in links[i]:
            if dist[i] + w < dist[j]:
                dist[j] = dist[i] + w
                (queue.appendleft if w == 0 else queue.append)(j)
    return dist


def _steiner(dist: np.ndarray, groups: list[list[int]]) -> int:
    size = 1 << len(groups)
    best = np.full((size, dist.shape[0]), INF, dtype=np.int64)  # per set of groups, per root node
    for t, g in enumerate(groups):  # a tree touching one group, rooted at each node
        best[1 << t] = dist[g].min(axis=0)
    sets = np.arange(size)
    for full in range(3, size):  # a set's parts are smaller numbers: worked out before it
        first = full & -full
        if full == first:
            continue
        # every split, each once: the part holding the set's first group, and the rest
        parts = sets[((sets & full) == sets) & ((sets & first) != 0) & (sets != full)]
        joined = (best[parts] + best[full ^ parts]).min(axis=0)
        best[full] = (joined[:, None] + dist).min(axis=0)
    return int(min(best[size - 1].min(), INF))
