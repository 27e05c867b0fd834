"""Cuts that make the hands' program walk to every place a plan must visit.

Some agent must stand next to a dispenser of each ingredient the orders need, a board when
something is chopped, a pot or a pan where it starts when something cooks in it, a table with a
plate (or a sink), a window, and the sink and plate return when plates are washed. Whatever set
of tiles holds all the tiles next to one such kind of place and no agent's start, some agent
walks into it at least once, so the steps into the set add up to at least 1. The program alone
may meet its needs in loops that no agent ever reaches; each round (at most `ROUNDS`) finds, by a
maximum flow from the starts, a set that the current solution enters less than once, adds that
cut, and solves again. The same rounds add the cuts of `hand_turns` (one agent walks round the
counters it passes things over).
"""

from __future__ import annotations

from .hand_flow import HandFlow
from .hand_turns import SCALE, add_turn_cuts, turn_cuts
from .lp_rows import add_row, total

ROUNDS = 40  # most of what the cuts add comes in the first rounds; each costs a solve
SHORT = 1 - 1e-4


def must_visit(flow: HandFlow) -> list[set]:
    """For each kind of place some plan must visit, the tiles next to any place of that kind."""
    b = flow.b
    groups: list[list[str]] = [list(b.dispensers.get(item, ())) for item in sorted(_items(b))]
    kinds = {k for items in b.dishes for _, k in items}
    if kinds & {"chop", "pan"}:
        groups.append(list(b.boards))
    for kind in sorted(kinds & {"pan", "pot"}):  # where that cookware stands at the start
        groups.append(list(b.wares[kind]))
    groups.append(list(b.windows))
    washes = len(b.dishes) > len(b.plates)
    groups.append(list(b.plates) + (list(b.sinks) if washes else []))  # a plate is taken up
    if washes:
        groups += [list(b.sinks), [b.plate_return] if b.plate_return else []]
    return [{p for s in g for p in flow.stand.get(s, ())} for g in groups]


def _items(b) -> set[str]:
    return {item for items in b.dishes for item, _ in items}


def reach_cuts(flow: HandFlow) -> bool:
    """Add violated cuts and solve again until none is left (or the rounds run out); False when a
    solve fails."""
    tiles = sorted(flow.tiles)
    index = {p: i for i, p in enumerate(tiles)}
    source, sink = len(tiles), len(tiles) + 1
    starts = {a.pos for a in flow.level.agents}
    groups = [g for g in must_visit(flow) if g and not g & starts]
    for _ in range(ROUNDS):
        arcs = []  # the solution's steps, in millionths, built once for every group
        for (p, q), vs in flow.steps.items():
            cap = int(sum(v.solution_value() for v in vs) * SCALE)
            if cap > 0:
                arcs.append((index[p], index[q], cap))
        sides = [_near_side(arcs, index, source, sink, starts, group) for group in groups]
        sides = [near for near in sides if near is not None]
        turns = turn_cuts(flow, arcs, index)
        add_turn_cuts(flow, turns, index)
        for near in sides:  # every step from the starts' side into the set counts
            into = [
                v
                for (p, q), vs in flow.steps.items()
                if index[p] in near and index[q] not in near
                for v in vs
            ]
            add_row(flow.lp, total(into), ">=", 1)
        if not sides and not turns:
            return True
        if not flow.solve_lp():
            return False
    return True


def _near_side(arcs: list, index: dict, source: int, sink: int, starts: set, group: set) -> set | None:
    """The starts' side of a cut between them and the group that the solution crosses less than
    once (its nodes' indices), or None."""
    from ortools.graph.python import max_flow  # loaded with the first bound (see `hand_flow`)

    net = max_flow.SimpleMaxFlow()
    big = 10 * SCALE
    for i, j, cap in arcs:
        net.add_arc_with_capacity(i, j, cap)
    for p in starts:
        net.add_arc_with_capacity(source, index[p], big)
    for p in group:
        net.add_arc_with_capacity(index[p], sink, big)
    if net.solve(source, sink) != net.OPTIMAL or net.optimal_flow() >= SHORT * SCALE:
        return None
    return set(net.get_source_side_min_cut())
