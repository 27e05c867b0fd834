"""Every part of a dish meets its plate, for the program of `hand_bound`.

A dish's parts come together only on a plate: its cooked food (all a pot or pan holds, at once),
each chopped ingredient that is not cooked (from the board it was chopped on) and each raw one
(from a dispenser). A part meets the plate in one of two ways: the plate, held, is brought next to
where the part lies (cookware on a stove or a counter, a chopped ingredient on its board or a
counter, a raw one on a counter), or the part is carried to a plate standing on a counter and put
or tipped onto it. A plate held over another on a counter takes what that one holds (a merge).
On the way each part is alone in a hand: cookware with cooked food (C), a chopped ingredient (G),
a raw one (N). So a dish of k parts is served on a plate that met k of them, merged ones
included: the plate hand P becomes P1, P2, ... as it meets them, and a plate standing on a
counter moves up the same way when a part is put onto it. Cooked food leaves a stove only if
food was brought to that stove to cook, and a part is met on a counter only if it lay there
(`settle`).
"""

from __future__ import annotations

from .hand_flow import HandFlow
from .hands import COOKED, EMPTY, POT, RAW_PART, cooked_items, meetings, part_hands, plate_hands, totals
from .lp_rows import add_row, total


def served_phases(flow: HandFlow, serves: dict[str, dict]) -> None:
    """A dish of k parts is served from a plate that met at least k."""
    phases = list(serves)
    need = meetings(flow.b)
    for j in range(1, len(phases)):
        late = [v for h in phases[j:] for vs in serves[h].values() for v in vs]
        add_row(flow.lp, total(late), ">=", sum(1 for k in need if k >= j))


def plate_meetings(flow: HandFlow, holders: list[str]) -> dict[tuple[str, str], tuple[list, list]]:
    """Add the parts' trips and meetings; return, per (counter, plate hand), the changes that make
    a plate of that kind stand there and those that end one, beside puts and takes."""
    b = flow.b
    phases = plate_hands(b)
    top = len(phases) - 1
    if not top:
        return {}
    on: dict[tuple[str, str], tuple[list, list]] = {(s, h): ([], []) for s in holders for h in phases}
    joins: dict[str, list] = {h: [] for h in part_hands(b)}
    for h in joins:
        _part_trips(flow, holders, h)
        for j in range(top):
            for s, vs in flow.changes(holders, phases[j], phases[j + 1], f"join{h}{j}").items():
                flow.lying[(s, h)][1].extend(vs)  # the held plate takes the part lying there
                joins[h] += vs
            for s, vs in flow.changes(holders, h, EMPTY, f"onto{h}{j}").items():
                on[(s, phases[j])][1].extend(vs)  # the part put onto the plate standing there
                on[(s, phases[j + 1])][0].extend(vs)
                joins[h] += vs
    if COOKED in joins:
        for j in range(top):  # a plate held next to cookware on a stove
            for s, vs in flow.changes(b.stoves, phases[j], phases[j + 1], f"scoop{j}").items():
                flow.uses[s] += vs
                joins[COOKED] += vs
    for i in range(top):  # the held plate i takes what the plate j + 1 on the counter holds
        for j in range(top):
            after = phases[min(top, i + j + 1)]
            for s, vs in flow.changes(holders, phases[i], after, f"merge{i}{j}").items():
                on[(s, phases[j + 1])][1].extend(vs)
                on[(s, phases[0])][0].extend(vs)
    # a served plate holds just its dishes' parts (any other is thrown away with what it met)
    count = totals(b)
    for h, vs in joins.items():
        add_row(flow.lp, total(vs), ">=", count[h])
        add_row(flow.lp, total(vs), "<=", cooked_items(b) if h == COOKED else count[h])
    return on


def _part_trips(flow: HandFlow, holders: list[str], hand: str) -> None:
    """Where parts of this kind come from, and their puts and takes on counters."""
    b = flow.b
    if hand == COOKED:
        _stove_moves(flow, holders)
    elif hand == RAW_PART:
        for item, count in sorted(flow.needed(("raw",)).items()):
            flow.exactly(count, flow.changes(b.dispensers.get(item, ()), EMPTY, hand, f"npick{item}"))
    # a chopped part is taken from its board, where chopping it made it lie (`hand_bound`)
    puts = flow.changes(holders, hand, EMPTY, f"put{hand}")
    takes = flow.changes(holders, EMPTY, hand, f"take{hand}")
    for s in holders:
        flow.lying[(s, hand)][0].extend(puts[s])
        flow.lying[(s, hand)][1].extend(takes[s])


def _stove_moves(flow: HandFlow, holders: list[str]) -> None:
    """Cookware leaves a stove with its food cooked (C) or not yet (K, to cook on another), and
    comes onto one with food to cook."""
    b = flow.b
    if not flow.onto:  # no pots to fill: K carries only cookware moved between stoves
        flow.onto = flow.changes(b.stoves, POT, EMPTY, "stove")
        flow.balanced(*flow.relays(holders, POT))
        for s in b.stoves:
            flow.food[s] += flow.onto[s]
    for s, vs in flow.changes(b.stoves, EMPTY, POT, "unstove").items():
        flow.uses[s] += vs
    for s, vs in flow.changes(b.stoves, EMPTY, COOKED, "clift").items():
        flow.uses[s] += vs
    for s, vs in flow.changes(b.stoves, COOKED, EMPTY, "cstove").items():
        flow.food[s] += vs


def settle(flow: HandFlow) -> None:
    """What leaves a stove cooked, or is taken off it to cook elsewhere, was brought to it; what
    is taken from a counter, or met there, lay there."""
    for s, uses in flow.uses.items():
        if uses:
            add_row(flow.lp, total(uses), "<=", total(flow.food[s]))
    for made, ended in flow.lying.values():
        if ended:
            add_row(flow.lp, total(ended), "<=", total(made))
