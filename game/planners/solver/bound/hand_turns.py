"""Cuts for one agent: what it puts on a counter from one side and takes from another, it walks
round for.

A counter (a table, a board, a dispenser's top, a sink) holds one thing at a time, so the things
of one kind put on it and taken off it pair up in turn: each one taken was put there earlier (or
stood there from the start), and the pairs' spans of time do not overlap. With one agent, a pair
put from a tile outside a set of tiles and taken from a tile inside it means the agent stepped
into the set in between, and the pairs of one counter need distinct steps. So for each counter,
kind of thing and set S:

    steps into S  >=  taken from S  -  put from S  -  (1 if the counter starts full and the
                                                       agent starts in S)

Without these the hands' program lets a hand hop over a counter for free: it may take one thing
and put another from the same tile, over and over, since it does not know which thing is which.
Pairs at different counters, or of different kinds, may overlap in time, so the cuts do not add
up across them. Each round of `hand_reach`, a minimum cut over the solution's steps finds, for each
counter and kind, the set breaking its cut the most, if any does.
"""

from __future__ import annotations

from .hand_flow import HandFlow
from .lp_rows import add_row, minus, total

SCALE = 10**6  # flows are fractions: capacities in millionths
SLACK = 10**-3  # a cut must be broken by more than this to be added


def turn_cuts(flow: HandFlow, arcs: list, index: dict) -> list:
    """The broken cuts of the current solution, as (counter and kind, the set's tile indices);
    read them all before `add_turn_cuts` changes the program."""
    if len(flow.level.agents) != 1:
        return []  # another agent may take what one puts down: nobody need walk round
    start = index[flow.level.agents[0].pos]
    out = []
    for key, (puts, takes) in sorted(flow.turns.items()):
        near = _broken_side(arcs, index, start, key[0] in flow.initial, puts, takes)
        if near is not None:
            out.append((key, near))
    return out


def add_turn_cuts(flow: HandFlow, cuts: list, index: dict) -> None:
    start = index[flow.level.agents[0].pos]  # only called with cuts, so with one agent
    for key, near in cuts:
        puts, takes = flow.turns[key]
        into = [
            v for (p, q), vs in flow.steps.items() if index[p] not in near and index[q] in near for v in vs
        ]
        taken = [v for p, v in takes if index[p] in near]
        put = [v for p, v in puts if index[p] in near]
        given = 1 if key[0] in flow.initial and start in near else 0
        add_row(flow.lp, total(into), ">=", minus(minus(total(taken), total(put)), given))


def _broken_side(arcs: list, index: dict, start: int, full: bool, puts: list, takes: list) -> set | None:
    """The set of tiles (their indices) whose cut the solution breaks the most, or None.

    A minimum cut with the set on the source's side: a take from a tile outside the set costs its
    amount, a put from inside costs its amount, the start inside costs 1 when the counter starts
    full, and a step from outside into the set costs its flow. The cut is broken when the least
    of these costs is below all that is taken."""
    amount = sum(v.solution_value() for _, v in takes)
    if amount <= SLACK or len({p for p, _ in puts + takes}) < 2:
        return None  # nothing taken, or all put and taken from one tile: no walk needed
    from ortools.graph.python import max_flow  # loaded with the first bound (see `hand_flow`)

    source, sink = len(index), len(index) + 1
    net = max_flow.SimpleMaxFlow()
    for i, j, cap in arcs:
        net.add_arc_with_capacity(j, i, cap)  # the step i -> j is paid when j is inside, i not
    for p, v in takes:
        _arc(net, source, index[p], v.solution_value())
    for p, v in puts:
        _arc(net, index[p], sink, v.solution_value())
    if full:
        net.add_arc_with_capacity(start, sink, SCALE)
    if net.solve(source, sink) != net.OPTIMAL or net.optimal_flow() >= (amount - SLACK) * SCALE:
        return None
    return set(net.get_source_side_min_cut()) - {source}


def _arc(net, i: int, j: int, value: float) -> None:
    cap = int(value * SCALE)
    if cap > 0:
        net.add_arc_with_capacity(i, j, cap)
