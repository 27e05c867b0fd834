"""The hands of the hands' program (`hand_bound`): what an agent may hold, as one letter each, and
how many things of each kind the orders make the agents carry.

E empty (or holding something no order needs), F a raw ingredient on its way to be chopped, Q a
raw ingredient on its way into a pot, K a pot or pan (no cooked food in it yet), P a plate (P1,
P2, ... once it met that many parts), R a dirty plate, X a chopped ingredient a pan will cook, C
cookware with cooked food, G a chopped part of a dish, N a raw one (`hand_plating`)."""

from __future__ import annotations

from game.engine.level import COOKWARE_TIME

from .bounder import Bounder

EMPTY, RAW, POTTED, POT, PLATE, DIRTY, PANNED = "E", "F", "Q", "K", "P", "R", "X"
COOKED, CHOPPED, RAW_PART = "C", "G", "N"
CARRIED = (RAW, POTTED, POT, PLATE, DIRTY, PANNED)
SURFACES = ("table", "chopping_board", "dispenser")  # where a lone ingredient or a plate can be put


def parts(b: Bounder) -> list[dict[str, int]]:
    """Per dish, how many parts of each kind meet its plate."""
    out = []
    for items in b.dishes:
        kinds = [k for _, k in items]
        cooked = len({k for k in kinds if k in COOKWARE_TIME})
        out.append({COOKED: cooked, CHOPPED: kinds.count("chop"), RAW_PART: kinds.count("raw")})
    return out


def meetings(b: Bounder) -> list[int]:
    """Per dish, how many parts meet its plate."""
    return [sum(p.values()) for p in parts(b)]


def plate_hands(b: Bounder) -> tuple[str, ...]:
    """The plate hands: P, then P1, P2, ... for a plate that met that many parts."""
    return (PLATE, *(f"{PLATE}{j}" for j in range(1, max(meetings(b), default=0) + 1)))


def part_hands(b: Bounder) -> tuple[str, ...]:
    count = totals(b)
    return tuple(h for h in (COOKED, CHOPPED, RAW_PART) if count[h])


def extra_hands(b: Bounder) -> tuple[str, ...]:
    """The hands this module adds to the program."""
    return (*plate_hands(b)[1:], *part_hands(b))


def totals(b: Bounder) -> dict[str, int]:
    """How many parts of each kind meet the plates, over all dishes."""
    out = dict.fromkeys((COOKED, CHOPPED, RAW_PART), 0)
    for p in parts(b):
        for h, n in p.items():
            out[h] += n
    return out


def cooked_items(b: Bounder) -> int:
    """Cooked food may come from as many pots and pans as a dish has cooked ingredients."""
    return sum(1 for items in b.dishes for _, k in items if k in COOKWARE_TIME)
