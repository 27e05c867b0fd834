"""Chopped ingredients on their way from the boards to the pans, for the program of `hand_bound`.

X is a hand holding a chopped ingredient that a pan will cook for a served dish, alone or in a pan
carried to a stove (one that has not yet stood on a stove with it). Each such ingredient leaves
its board in such a hand (taken alone, or into a pan held there) and reaches a stove in one;
what is put down on the way is taken up again. A pan holds at most one dish's worth (its contents
only ever move all at once onto one plate), so one hand settles at most `per_pan` of them.
"""

from __future__ import annotations

from .hand_flow import HandFlow
from .hands import CHOPPED, EMPTY, PANNED
from .lp_rows import add_row, minus, plus, scaled, total


def arrivals(flow: HandFlow, station: str, hand: str) -> list:
    """Every time a hand of this kind comes to stand next to the station, or turns into it there."""
    return [v for p in flow.stand.get(station, ()) for v in flow.inflow[(p, hand)]]


def pan_trips(flow: HandFlow, holders: list[str]) -> bool:
    """Chopped ingredients go from the boards to pans standing on stoves (X)."""
    b, lp = flow.b, flow.lp
    count = sum(1 for items in b.dishes for _, k in items if k == "pan")
    if not count:
        return True
    per_pan = max(sum(1 for _, k in items if k == "pan") for items in b.dishes)
    picks = flow.changes(b.boards, EMPTY, PANNED, "xpick")  # chopped there, alone or into a held pan
    takes = flow.changes(holders, EMPTY, PANNED, "xtake")
    drops = flow.changes(holders, PANNED, EMPTY, "xdrop")
    flow.record_turns(PANNED, drops, takes)
    flow.record_turns(PANNED, {s: flow.chops[s] for s in picks if s in flow.chops}, picks)
    onto = flow.changes(b.stoves, PANNED, EMPTY, "xstove")
    at_boards = [v for s in b.boards for v in arrivals(flow, s, PANNED)]
    placed = [v for vs in onto.values() for v in vs]
    if not at_boards or not placed:
        return False
    for s in b.stoves:
        flow.food[s] += onto[s]
    for s in b.boards:  # what leaves a board chopped lay there (`hand_plating.settle`)
        flow.lying[(s, CHOPPED)][1].extend(picks[s])
    add_row(lp, count, "<=", total(at_boards, per_pan))  # each leaves its board in such a hand
    add_row(lp, count, "<=", total(placed, per_pan))  # and reaches a stove in one
    for s in holders:  # what is put down on the way is taken up again, after it was put down
        here = arrivals(flow, s, PANNED)
        gap = minus(plus(total(takes[s]), total(here)), total(drops[s]))
        add_row(lp, total(drops[s]), "<=", scaled(per_pan, gap))
        add_row(lp, total(takes[s]), "<=", total(drops[s]))
    return True
