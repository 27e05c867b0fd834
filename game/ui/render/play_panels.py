"""Side-panel drawing for the play window: queues, orders, recipes, clock, scrub bar, overlays.

Pure drawing: each function takes what it shows and returns the rects the caller hit-tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pygame

from game.engine import ActionSpan, Level

from . import icons, panels
from . import palette as P
from .text import blit_text, ellipsize, font

ROW_H = 20
HEADER_H = 40
SERVED = (0, 158, 115)
NEXT = (230, 159, 0)
SELECTED_ROW = (70, 84, 120)
ERROR_ROW = (120, 36, 36)
RUNNING_ROW = (56, 60, 72)
STATE_COLOURS = {"raw": (200, 80, 70), "chopped": (90, 170, 90), "cooked": (190, 130, 50)}


def fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def wrap(text: str, width: int, size: int) -> list[str]:
    """Greedy word wrap for one font size."""
    wrapped = _wrapped if len(text) <= KEPT_TEXT else _wrapped.__wrapped__  # a long text is not kept
    return list(wrapped(text, width, size))


KEPT_TEXT = 2000  # characters of a text whose wrapping is kept between frames, at most


@lru_cache(maxsize=2048)  # the same texts are wrapped on every frame
def _wrapped(text: str, width: int, size: int) -> tuple[str, ...]:
    f, lines, line = font(size), [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    return (*lines, *([line] if line else []))


def panel(surface: pygame.Surface, rect: pygame.Rect, colour=P.PANEL) -> None:
    pygame.draw.rect(surface, colour, rect)


def heading(surface: pygame.Surface, text: str, x: int, y: int, width: int) -> int:
    blit_text(surface, text, (x, y), 20, P.TEXT_DIM, bold=True)
    pygame.draw.line(surface, P.PANEL_LIGHT, (x, y + 18), (x + width, y + 18))
    return y + 24


# -- action queues ---------------------------------------------------------------------------------
@dataclass
class QueueRow:
    """A clickable row: index None is the header or the "new actions go here" row at the end."""

    agent: str
    index: int | None
    rect: pygame.Rect


@dataclass
class QueueColumn:
    agent: str
    number: int
    colour: tuple[int, int, int]
    actions: Sequence[Any]
    spans: Sequence[ActionSpan | None]
    selected_agent: bool
    cursor: int | None
    error_index: int | None
    running: int | None
    summary: str
    scroll: int = 0
    owner: str = ""  # with a partner: "you" or "partner" (said in the header)


def visible_rows(rect: pygame.Rect) -> int:
    return max(1, (rect.h - HEADER_H - 4) // ROW_H)


def draw_queue_column(surface: pygame.Surface, rect: pygame.Rect, col: QueueColumn) -> list[QueueRow]:
    panel(surface, rect, P.PANEL)
    head = pygame.Rect(rect.x, rect.y, rect.w, HEADER_H)
    pygame.draw.rect(surface, P.PANEL_LIGHT if col.selected_agent else P.PANEL, head)
    if col.selected_agent:
        pygame.draw.rect(surface, col.colour, head, 3)
    pygame.draw.circle(surface, (20, 20, 20), (rect.x + 20, rect.y + 20), 13)
    pygame.draw.circle(surface, col.colour, (rect.x + 20, rect.y + 20), 11)
    blit_text(
        surface,
        str(col.number),
        (rect.x + 20, rect.y + 20),
        20,
        P.text_colour_on(col.colour),
        bold=True,
        anchor="center",
    )
    blit_text(surface, col.agent, (rect.x + 40, rect.y + 5), 20, P.TEXT, bold=True)
    if col.owner:
        _draw_owner(surface, rect, col)
    shown = visible_rows(rect)
    hidden = len(col.actions) + 1 - col.scroll - shown
    note = f"{col.scroll} above, {max(0, hidden)} below" if col.scroll or hidden > 0 else ""
    name_w = font(20, True).size(col.agent)[0]
    if note and rect.x + 40 + name_w + 12 + font(16).size(note)[0] > rect.right - 6:
        note = f"{col.scroll} up, {max(0, hidden)} down"  # narrow column: the short form
    if note:  # on the name's line, so the summary below keeps its line to itself
        blit_text(surface, note, (rect.right - 6, rect.y + 5), 16, P.TEXT_DIM, anchor="topright")
    blit_text(surface, ellipsize(col.summary, rect.w - 46, 16), (rect.x + 40, rect.y + 23), 16, P.TEXT_DIM)
    rows = [QueueRow(col.agent, None, head)]
    y = rect.y + HEADER_H + 2
    for index in range(col.scroll, len(col.actions) + 1):
        if y + ROW_H > rect.bottom:
            break
        row = pygame.Rect(rect.x + 2, y, rect.w - 4, ROW_H)
        if index == len(col.actions):
            _draw_append_row(surface, row, col)
        else:
            _draw_action_row(surface, row, col, index)
        rows.append(QueueRow(col.agent, None if index == len(col.actions) else index, row))
        y += ROW_H
    return rows


OWNER_TEXT = {"you": "yours", "partner": "partner plans it"}


def _draw_owner(surface: pygame.Surface, rect: pygame.Rect, col: QueueColumn) -> None:
    """Whose queue it is, after the agent's name; a partner's column gets a frame in its colour."""
    x = rect.x + 40 + font(20, True).size(col.agent)[0] + 8
    colour = P.PARTNER if col.owner == "partner" else P.TEXT_DIM
    tag = blit_text(surface, OWNER_TEXT[col.owner], (x, rect.y + 8), 15, colour, bold=col.owner == "partner")
    if col.owner == "partner":
        pygame.draw.rect(surface, P.PARTNER, rect, 1)
        pygame.draw.line(surface, P.PARTNER, (tag.x, tag.bottom + 1), (tag.right, tag.bottom + 1))


def _draw_action_row(surface: pygame.Surface, row: pygame.Rect, col: QueueColumn, index: int) -> None:
    action, span = col.actions[index], col.spans[index]
    if index == col.error_index:
        pygame.draw.rect(surface, ERROR_ROW, row)
    elif col.selected_agent and index == col.cursor:
        pygame.draw.rect(surface, SELECTED_ROW, row)
    elif index == col.running:
        pygame.draw.rect(surface, RUNNING_ROW, row)
    if col.selected_agent and index == col.cursor:
        pygame.draw.line(surface, (255, 255, 255), (row.x, row.y), (row.right, row.y), 2)
    pygame.draw.rect(surface, P.ACTION_COLOURS.get(action.name, P.GREYED), (row.x, row.y + 3, 5, row.h - 6))
    reached = span is not None and span.status != "rejected"
    colour = P.TEXT if reached or index == col.error_index else P.GREYED
    blit_text(surface, f"{index:>2}", (row.x + 10, row.y + 3), 17, P.TEXT_DIM)
    times = _span_text(span)
    tw = font(17).size(times)[0]
    blit_text(surface, ellipsize(str(action), row.w - 44 - tw - 8, 17), (row.x + 36, row.y + 3), 17, colour)
    blit_text(surface, times, (row.right - 6, row.y + 3), 17, colour, anchor="topright")
    if index == col.running:
        pygame.draw.rect(surface, col.colour, (row.right - 3, row.y + 2, 3, row.h - 4))


def _span_text(span: ActionSpan | None) -> str:
    if span is None:
        return "not reached"
    if span.status == "rejected":
        return f"{fmt(span.start)} refused"
    if span.start == span.end:
        return f"t {fmt(span.start)}"
    suffix = " cut" if span.status == "cut" else ""
    return f"{fmt(span.start)}-{fmt(span.end)}{suffix}"


def _draw_append_row(surface: pygame.Surface, row: pygame.Rect, col: QueueColumn) -> None:
    if col.selected_agent and col.cursor is None:
        pygame.draw.rect(surface, SELECTED_ROW, row)
        pygame.draw.line(surface, (255, 255, 255), (row.x, row.y), (row.right, row.y), 2)
        blit_text(surface, "+ new actions go here", (row.x + 36, row.y + 3), 17, P.TEXT)
    else:
        blit_text(surface, "+", (row.x + 36, row.y + 3), 17, P.GREYED)


# -- side panel --------------------------------------------------------------------------------------
def draw_clock(
    surface: pygame.Surface, x: int, y: int, width: int, t: float, end: float, playing: bool, speed: float
) -> int:
    clock = f"t = {fmt(t)}"
    blit_text(surface, clock, (x, y), 44, P.TEXT, bold=True)
    blit_text(surface, f"of {fmt(end)}", (x + font(44, True).size(clock)[0] + 10, y + 14), 24, P.TEXT_DIM)
    state = f"playing {fmt(speed)}x" if playing else f"paused ({fmt(speed)}x)"
    blit_text(surface, state, (x + width, y + 16), 20, NEXT if playing else P.TEXT_DIM, anchor="topright")
    return y + 44


def draw_orders(
    surface: pygame.Surface,
    x: int,
    y: int,
    width: int,
    orders: Sequence[str],
    served_by_t: int,
    served_times: Sequence[float],
    failed: bool,
) -> int:
    """Orders in sequence: served (by the shown time), next, waiting; and the plan's outcome."""
    y = heading(surface, "Orders", x, y, width)
    for i, dish in enumerate(orders):
        if i < served_by_t:
            status, colour = f"served at {fmt(served_times[i])}", SERVED
        elif i == served_by_t:
            status, colour = "next", NEXT
        else:
            status, colour = "waiting", P.TEXT_DIM
        pygame.draw.circle(surface, colour, (x + 7, y + 9), 6)
        blit_text(surface, f"{i + 1}. {dish}", (x + 20, y), 20, P.TEXT)
        blit_text(surface, status, (x + width, y), 18, colour, anchor="topright")
        y += 22
    outcome = f"this plan serves {len(served_times)} of {len(orders)}"
    outcome += " (stops at an error)" if failed else ""
    blit_text(surface, outcome, (x, y + 2), 17, P.ERROR if failed else P.TEXT_DIM)
    return y + 26


def draw_recipes(surface: pygame.Surface, x: int, y: int, width: int, level: Level, bottom: int) -> int:
    """The recipes of the level's dishes that fit above bottom; the names of the rest on one line."""
    y = heading(surface, "Recipes", x, y, width)
    left_out = []
    for name in dict.fromkeys(level.orders):
        recipe = level.recipe_book.get(name)
        if recipe is None:
            continue
        if y + _recipe_height(recipe, width) > bottom - (18 if left_out or name != level.orders[-1] else 0):
            left_out.append(name)
            continue
        blit_text(surface, name, (x, y), 19, P.TEXT, bold=True)
        y += 20
        for line in wrap(recipe.text, width, 16)[:3]:
            blit_text(surface, line, (x, y), 16, P.TEXT_DIM)
            y += 15
        y = _draw_ingredients(surface, x, y + 2, width, recipe.ingredients) + 6
    if left_out:
        more = f"no room for: {', '.join(left_out)} (a larger window shows them)"
        blit_text(surface, ellipsize(more, width, 16), (x, y), 16, P.TEXT_DIM)
        y += 18
    return y


def _recipe_height(recipe, width: int) -> int:
    """How tall draw_recipes draws one recipe (so one that does not fit is left out whole)."""
    lines = len(wrap(recipe.text, width, 16)[:3])
    rows, cx = 1, 0
    for ing in recipe.ingredients:
        label = f"{ing.item} {ing.state}" + (f" ({ing.cookware})" if ing.cookware else "")
        w = 24 + font(16).size(label)[0] + 8
        if cx + w > width:
            rows, cx = rows + 1, 0
        cx += w + 4
    return 20 + lines * 15 + 2 + rows * 24 + 6


def _draw_ingredients(surface: pygame.Surface, x: int, y: int, width: int, ingredients) -> int:
    cx = x
    for ing in ingredients:
        label = f"{ing.item} {ing.state}" + (f" ({ing.cookware})" if ing.cookware else "")
        w = 24 + font(16).size(label)[0] + 8
        if cx + w > x + width:
            cx, y = x, y + 24
        chip = pygame.Rect(cx, y, w, 22)
        pygame.draw.rect(surface, P.PANEL_LIGHT, chip, border_radius=6)
        pygame.draw.rect(surface, STATE_COLOURS.get(ing.state, P.GREYED), chip, 2, border_radius=6)
        surface.blit(icons.ingredient(ing.item, ing.state, 20), (cx + 2, y + 1))
        blit_text(surface, label, (cx + 24, y + 4), 16, P.TEXT)
        cx += w + 4
    return y + 24


def draw_lines(
    surface: pygame.Surface, x: int, y: int, width: int, lines: Sequence[tuple[str, Any]], size: int = 17
) -> int:
    for text, colour in lines:
        for line in wrap(text, width, size):
            blit_text(surface, line, (x, y), size, colour)
            y += size - 1
    return y


# -- scrub bar -----------------------------------------------------------------------------------------
def scrub_track(rect: pygame.Rect) -> pygame.Rect:
    return panels.scrub_track(rect)


def time_at(rect: pygame.Rect, end: float, px: int) -> float:
    return panels.scrub_time(rect, px, end)


def draw_scrub(
    surface: pygame.Surface,
    rect: pygame.Rect,
    t: float,
    end: float,
    events: Sequence[float],
    served: Sequence[float],
    error: float | None,
) -> None:
    """The viewer's scrub bar (one for every window), on the play window's panel."""
    panel(surface, rect, P.PANEL)
    marks = [panels.Marker(float(s), P.OK, f"served at t = {fmt(s)}") for s in served]
    if error is not None:
        marks.append(panels.Marker(float(error), P.ERROR, f"error at t = {fmt(error)}"))
    panels.draw_scrub(surface, rect, t, end, marks, events)


# -- overlays -------------------------------------------------------------------------------------------
def draw_tooltip(surface: pygame.Surface, at: tuple[int, int], lines: Sequence[str]) -> pygame.Rect:
    """The viewer's tooltip (one style for every window)."""
    return panels.draw_tooltip(surface, at, lines) or pygame.Rect(at, (0, 0))


def dim(surface: pygame.Surface, alpha: int = 160) -> None:
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, alpha))
    surface.blit(shade, (0, 0))


def draw_box(surface: pygame.Surface, rect: pygame.Rect, title: str, border=(200, 200, 210)) -> int:
    pygame.draw.rect(surface, P.PANEL, rect, border_radius=10)
    pygame.draw.rect(surface, border, rect, 2, border_radius=10)
    blit_text(surface, title, (rect.x + 20, rect.y + 14), 32, P.TEXT, bold=True)
    return rect.y + 54


def draw_help(surface: pygame.Surface, sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
    """The viewer's help overlay (one for every window)."""
    panels.draw_help(surface, "Controls", sections)


def draw_notice(surface: pygame.Surface, title: str, lines: Sequence[str], colour=P.ERROR) -> pygame.Rect:
    dim(surface, 120)
    screen = surface.get_rect()
    width = min(900, screen.w - 40)
    body = [w for line in lines for w in (wrap(line, width - 40, 19) or [""])]
    rect = pygame.Rect(0, 0, width, 54 + len(body) * 19 + 44)
    rect.center = screen.center
    y = draw_box(surface, rect, title, colour)
    for line in body:
        blit_text(surface, line, (rect.x + 20, y), 19, P.TEXT)
        y += 19
    blit_text(
        surface,
        "click or press any key to close",
        (rect.centerx, rect.bottom - 14),
        16,
        P.TEXT_DIM,
        anchor="midbottom",
    )
    return rect


def draw_card(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    rows: Sequence[tuple[str, str]],
    notes: Sequence[str],
) -> None:
    dim(surface)
    y = draw_box(surface, rect, title, SERVED)
    for label, value in rows:
        blit_text(surface, label, (rect.x + 24, y), 21, P.TEXT_DIM)
        for i, line in enumerate(wrap(value, rect.w - 260, 21)):
            blit_text(surface, line, (rect.x + 230, y), 21, P.TEXT, bold=i == 0)
            y += 20
        y += 8
    y += 6
    for note in notes:
        for line in wrap(note, rect.w - 48, 17):
            blit_text(surface, line, (rect.x + 24, y), 17, P.TEXT_DIM)
            y += 17
