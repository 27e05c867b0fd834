"""The two lines under the timeline: the run's outcome or its first error (with the same-instant
order when it decided the error), then a hint, a message or the Wait prompt."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.editor import PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.text import blit_text, ellipsize, font

from . import instant

ERROR_BG = (110, 30, 30)
ERROR_TEXT = (255, 235, 235)
BG = (24, 25, 31)


def action_text(action: dict[str, Any]) -> str:
    name = action.get("action")
    if name == "MoveTo":
        x, y = action.get("target", ("?", "?"))
        return f"MoveTo({x}, {y})"
    if name in ("Interact", "Process"):
        return f"{name}({action.get('target')})"
    if name == "Wait":
        return f"Wait({action.get('duration')})"
    return str(name)


def error_text(ed: PlanEditor) -> str | None:
    err = ed.error
    if err is None:
        return None
    text = (
        f"Error  {err.agent}, action {err.action_index} {action_text(err.action)} at t = "
        f"{panels.fmt(err.time)}: {err.reason}"
    )
    why = instant.explain_error(ed.result.timeline, ed.level.agent_names, err)
    return f"{text}. {why[0].upper()}{why[1:]}" if why else text


def outcome_text(ed: PlanEditor) -> str:
    r = ed.result
    if r.done:
        return f"No error: every order is served at t = {panels.fmt(r.time)} (Enter: the result card)"
    if ed.action_count == 0:
        return "No actions yet: click the kitchen to plan the selected agent (F1 for help)"
    return (
        f"No error so far: {len(r.finished_orders)} of {len(ed.level.orders)} orders served; "
        f"the plan ends at t = {panels.fmt(r.time)}"
    )


def insertion_text(ed: PlanEditor) -> str:
    if ed.selected is None:
        return f"{ed.agent}: new actions go at the end of its queue"
    return f"{ed.agent}: new actions go before action {ed.selected} (Esc: at the end)"


def _error_lines(text: str, rect: pygame.Rect) -> tuple[list[str], int]:
    """The error in as many lines as the status area holds, in the largest type that shows all
    of it (a narrow window gets smaller type rather than a sentence cut short)."""
    for size in (18, 16, 15, 14, 13):
        lines = panels.wrap(text, rect.w - 16, size)
        if len(lines) * (size + 2) <= rect.h - 4:
            return lines, size
    size = 13
    keep = max(1, (rect.h - 4) // (size + 2))
    lines = panels.wrap(text, rect.w - 16, size)
    return lines[: keep - 1] + [ellipsize(" ".join(lines[keep - 1 :]), rect.w - 16, size)], size


def draw_status(
    surface: pygame.Surface, rect: pygame.Rect, ed: PlanEditor, hint: tuple[str, Any], two_lines_ok: bool
) -> None:
    text = error_text(ed)
    first = pygame.Rect(rect.x, rect.y, rect.w, 25)
    if text is not None:
        size = 19
        if font(size).size(text)[0] > rect.w - 16 and two_lines_ok:  # too long: use both lines
            pygame.draw.rect(surface, ERROR_BG, rect)
            lines, small = _error_lines(text, rect)
            for i, line in enumerate(lines):
                blit_text(surface, line, (rect.x + 8, rect.y + 3 + i * (small + 2)), small, ERROR_TEXT)
            return
        pygame.draw.rect(surface, ERROR_BG, first)
        blit_text(
            surface,
            ellipsize(text, rect.w - 16, size),
            (rect.x + 8, first.centery),
            size,
            ERROR_TEXT,
            anchor="midleft",
        )
    else:
        pygame.draw.rect(surface, P.PANEL, first)
        colour = P.OK if ed.result.done else P.TEXT_DIM
        blit_text(
            surface,
            ellipsize(outcome_text(ed), rect.w - 16, 19),
            (rect.x + 8, first.centery),
            19,
            colour,
            anchor="midleft",
        )
    second = pygame.Rect(rect.x, first.bottom, rect.w, rect.h - first.h)
    pygame.draw.rect(surface, BG, second)
    blit_text(
        surface,
        ellipsize(hint[0], rect.w - 16, 19),
        (rect.x + 8, second.centery),
        19,
        hint[1],
        anchor="midleft",
    )
