"""Colours shared by every view: colour-blind-safe agents (Okabe-Ito), action types, UI."""

from __future__ import annotations

Colour = tuple[int, int, int]

# Okabe & Ito's palette, most distinct first (black and yellow last: they clash with the UI).
AGENT_COLOURS: tuple[Colour, ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (213, 94, 0),  # vermillion
    (0, 114, 178),  # blue
    (240, 228, 66),  # yellow
    (40, 40, 40),  # black
)

ACTION_COLOURS: dict[str, Colour] = {
    "MoveTo": (86, 180, 233),
    "Interact": (240, 228, 66),
    "Process": (213, 94, 0),
    "Wait": (150, 150, 150),
    "Finish": (40, 40, 40),
}

FLOOR = (226, 220, 204)
FLOOR_LINE = (208, 200, 182)
WALL = (70, 74, 84)
WALL_LINE = (52, 55, 63)
COUNTER = (196, 160, 112)
COUNTER_EDGE = (140, 106, 66)
LABEL_BAND = (30, 30, 36, 190)
LABEL_TEXT = (250, 250, 250)
HIGHLIGHT = (255, 255, 255)
ERROR = (220, 50, 47)
OK = (0, 158, 115)
COOKING = (230, 159, 0)
PANEL = (34, 36, 44)
PANEL_LIGHT = (48, 51, 61)
TEXT = (232, 232, 236)
TEXT_DIM = (150, 152, 162)
GREYED = (95, 97, 105)
# what a partner plans (its lanes' dashed frame, its queues' headers, its state): pale lavender,
# no agent's colour; stripes and the word "partner" say it as well, for every eye
PARTNER = (200, 190, 255)


def agent_colour(index: int) -> Colour:
    return AGENT_COLOURS[index % len(AGENT_COLOURS)]


def text_colour_on(bg: Colour) -> Colour:
    """Black or white, whichever reads better on bg."""
    r, g, b = bg[:3]
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)
