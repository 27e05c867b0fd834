"""Cooked food onto the plates that serve it, for the program of `hand_bound`.

Cooked food leaves a pot or pan only onto a plate, all of it at once: a plate held next to the
cookware takes what it holds (a scoop: at a stove, or at a counter the cookware was put on), or
cookware carried in a hand (C) is tipped onto a plate standing on a counter (a pour). A plate
held over another on a counter takes what that one holds (a merge). So a dish that cooks in k
kinds of cookware is served on a plate that met cookware k times, meetings merged into it
included: the plate hand P becomes P1, then P2, as it meets them, and a plate on a counter moves
up the same way when something is poured onto it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.engine.level import COOKWARE_TIME

if TYPE_CHECKING:
    from .bound import _Bounder
    from .hand_bound import _HandFlow

EMPTY, POT, COOKED = "E", "K", "C"
PHASES = ("P", "P1", "P2")  # a plate that has met cookware 0, 1 or 2 times


def meetings(b: _Bounder) -> list[int]:
    """Per dish, how many kinds of cookware its food comes from."""
    return [len({k for _, k in items if k in COOKWARE_TIME}) for items in b.dishes]


def plate_hands(b: _Bounder) -> tuple[str, ...]:
    return PHASES[: max(meetings(b), default=0) + 1]


def extra_hands(b: _Bounder) -> tuple[str, ...]:
    """The hands this module adds to the program (none when nothing is cooked)."""
    phases = plate_hands(b)
    return (*phases[1:], COOKED) if len(phases) > 1 else ()


def served_phases(flow: _HandFlow, serves: dict[str, dict]) -> None:
    """A dish that needs k meetings is served from a plate that had at least k."""
    phases = list(serves)
    need = meetings(flow.b)
    for j in range(1, len(phases)):
        late = [v for h in phases[j:] for vs in serves[h].values() for v in vs]
        flow.lp.Add(sum(late) >= sum(1 for k in need if k >= j))


def plate_meetings(flow: _HandFlow, holders: list[str]) -> dict[tuple[str, str], tuple[list, list]]:
    """Add the scoops, pours and merges; return, per (counter, plate hand), the changes that make
    a plate of that kind stand there and those that end one, beside puts and takes."""
    b, lp = flow.b, flow.lp
    phases = plate_hands(b)
    top = len(phases) - 1
    if not top:
        return {}
    on: dict[tuple[str, str], tuple[list, list]] = {(s, h): ([], []) for s in holders for h in phases}
    _stove_moves(flow, holders)
    put = flow.changes(holders, COOKED, EMPTY, "cput")
    taken = flow.changes(holders, EMPTY, COOKED, "ctake")
    scooped = {s: list(taken[s]) for s in holders}  # what takes the cookware put on a counter
    for j in range(top):
        for s, vs in flow.changes(b.stoves, phases[j], phases[j + 1], f"scoop{j}").items():
            flow.uses[s] += vs
        for s, vs in flow.changes(holders, phases[j], phases[j + 1], f"hscoop{j}").items():
            scooped[s] += vs
        for s, vs in flow.changes(holders, COOKED, EMPTY, f"pour{j}").items():
            on[(s, phases[j])][1].extend(vs)
            on[(s, phases[j + 1])][0].extend(vs)
        for i in range(top):  # held plate i takes what the plate j + 1 on the counter holds
            after = phases[min(top, i + j + 1)]
            for s, vs in flow.changes(holders, phases[i], after, f"merge{i}{j}").items():
                on[(s, phases[j + 1])][1].extend(vs)
                on[(s, phases[0])][0].extend(vs)
    for s in holders:  # cookware put on a counter is scooped from or taken up again, once
        lp.Add(sum(scooped[s]) <= sum(put[s]))
    return on


def _stove_moves(flow: _HandFlow, holders: list[str]) -> None:
    """Cookware leaves a stove with its food cooked (C) or not yet (K, to cook on another), and
    comes onto one with food to cook."""
    b = flow.b
    if not flow.onto:  # no pots to fill: K carries only cookware moved between stoves
        flow.onto = flow.changes(b.stoves, POT, EMPTY, "stove")
        flow._balanced(*flow._relays(holders, POT))
        for s in b.stoves:
            flow.food[s] += flow.onto[s]
    for s, vs in flow.changes(b.stoves, EMPTY, POT, "unstove").items():
        flow.uses[s] += vs
    for s, vs in flow.changes(b.stoves, EMPTY, COOKED, "clift").items():
        flow.uses[s] += vs
    for s, vs in flow.changes(b.stoves, COOKED, EMPTY, "cstove").items():
        flow.food[s] += vs


def stove_food(flow: _HandFlow) -> None:
    """What leaves a stove cooked, or is taken off it to cook elsewhere, was brought to it."""
    for s, uses in flow.uses.items():
        if uses:
            flow.lp.Add(sum(uses) <= sum(flow.food[s]))
