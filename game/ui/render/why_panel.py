"""The why box: a failed run's diagnosis (game.engine.diagnosis) as the viewers show it.

    why = WhyPanel(diagnosis)           # diagnosis: Diagnosis | None
    why.draw(surface, rect)             # the error's kind, the summary, what was needed, then
                                        #   every cause, likeliest first, each with a Go-to button
    why.button_at(pos) -> Cause | None  # the cause whose button is under pos (as last drawn)
    why.scroll_by(rect, rows)           # the wheel, when the text is taller than its room
    why.rows(width)                     # what is drawn, wrapped to width (for tests)

Every text is wrapped to the box's width, never cut; what does not fit scrolls. The replay
viewer, the compare view and the exports all draw the same diagnosis, so they say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from game.engine.diagnosis import Diagnosis, explain

from . import palette as P
from .text import blit_text, font, wrap

BACK = (52, 30, 30)
BORDER = (150, 70, 60)
HEAD = (70, 22, 22)
TEXT = (255, 215, 205)
DIM = (215, 170, 160)
KIND = (255, 190, 120)
BUTTON_H = 24
PAD = 8
BAR_W = 6


def run_diagnosis(replay: Any, story: Any) -> Diagnosis | None:
    """The diagnosis a replay's result carries (the engine's, worked out afresh when the file was
    opened; it also explains unfinished runs and plans that never parsed); for a Replay made in
    memory without one, the engine explains its error here, with the plan and rules."""
    stored = replay.result.get("diagnosis")
    if isinstance(stored, dict):
        try:
            return Diagnosis.from_dict(stored)
        except (KeyError, TypeError, ValueError):
            pass
    detail = replay.result.get("error_detail")
    if not replay.result.get("error") or not isinstance(detail, dict) or not detail:
        return None
    return explain(replay.level, story, detail, replay.timeline, replay.plan, replay.rules)


def error_of(replay: Any) -> dict[str, Any] | None:
    detail = replay.result.get("error_detail")
    return detail if replay.result.get("error") and isinstance(detail, dict) and detail else None


def num(x: Any) -> str:
    f = float(x)
    return f"{f:g}" if f.is_integer() else f"{f:.1f}"


def kind_words(kind: str) -> str:
    return kind.replace("_", " ")


def cause_heading(i: int, cause: Any) -> str:
    """'1. same instant (likeliest): agent1, action 16'."""
    who = []
    if cause.agent:
        who.append(str(cause.agent))
    if cause.action_index is not None:
        who.append(f"action {cause.action_index}")
    tail = f": {', '.join(who)}" if who else ""
    return f"{i + 1}. {kind_words(cause.kind)}{' (likeliest)' if i == 0 else ''}{tail}"


def go_label(cause: Any) -> str:
    return f"Go to t = {num(cause.time)}"


@dataclass(frozen=True)
class Row:
    """One line of the box: text, or a Go-to button for cause `cause` (then text is its label)."""

    text: str
    colour: tuple[int, int, int]
    bold: bool = False
    cause: int | None = None
    head: bool = False  # part of the red heading band
    gap: int = 0  # an empty row this many pixels high, between blocks
    after: str = ""  # a button row: the text right of the button (the cause's heading)
    indent: int = 0

    @property
    def height(self) -> int:
        return BUTTON_H + 4 if self.cause is not None else self.gap


class WhyPanel:
    def __init__(self, diagnosis: Any, size: int = 15, error: dict[str, Any] | None = None):
        self.diagnosis = diagnosis
        self.size = size
        self.error = error or {}
        self.offset = 0  # pixels scrolled
        self.buttons: list[tuple[pygame.Rect, int]] = []  # (screen rect, cause index), as drawn
        self._rows: tuple[int, list[Row]] | None = None

    def __bool__(self) -> bool:
        return self.diagnosis is not None

    @property
    def causes(self) -> list[Any]:
        return list(self.diagnosis.causes) if self.diagnosis is not None else []

    # -- what is drawn ---------------------------------------------------------------------
    def rows(self, width: int) -> list[Row]:
        """Every line, wrapped to width (cached per width)."""
        if self._rows is not None and self._rows[0] == width:
            return self._rows[1]
        d, out = self.diagnosis, []
        if d is None:
            return []
        inner = width - 2 * PAD - BAR_W
        at = self.error.get("time")
        kind = kind_words(d.kind)
        head = f"Failed at t = {num(at)}: {kind}" if at is not None else kind[:1].upper() + kind[1:]
        out += self._para(head, inner, (255, 230, 225), True, head=True)
        out.append(Row("", TEXT, gap=4))
        out += self._para(d.summary, inner, TEXT)
        if d.need:
            out += self._para(f"Needed: {d.need}", inner, DIM)
        if d.causes:
            out.append(Row("", TEXT, gap=6))
            out += self._para("Causes, likeliest first:", inner, TEXT, True)
        for i, cause in enumerate(d.causes):
            out.append(Row("", TEXT, gap=6))
            label = go_label(cause)
            indent = self.button_w(label) + 8
            heading = wrap(cause_heading(i, cause), inner - indent, self.size, True)
            out.append(Row(label, KIND, True, cause=i, after=heading[0], indent=indent))
            out += [Row(part, KIND, True, indent=indent) for part in heading[1:]]
            out += self._para(cause.text, inner, TEXT)
        self._rows = (width, out)
        return out

    def _para(self, text: str, width: int, colour: Any, bold: bool = False, head: bool = False) -> list[Row]:
        parts = wrap(text, width, self.size, bold)
        return [Row(p, colour, bold, head=head) for p in parts]

    def button_w(self, label: str) -> int:
        return font(self.size, True).size(label)[0] + 20

    def line_h(self) -> int:
        return font(self.size).get_linesize()

    def height_for(self, width: int) -> int:
        rows = self.rows(width)
        lh = self.line_h()
        return sum(r.height or lh for r in rows) + 2 * PAD if rows else 0

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """Draw into rect (as tall as the text needs, at most rect.h); return the height used."""
        self.buttons = []
        if self.diagnosis is None or rect.w < 40 or rect.h < 20:
            return 0
        full = self.height_for(rect.w)
        box = pygame.Rect(rect.x, rect.y, rect.w, min(full, rect.h))
        self.offset = max(0, min(self.offset, full - box.h))
        pygame.draw.rect(surface, BACK, box, border_radius=4)
        clip = surface.get_clip()
        surface.set_clip(box.clip(clip) if clip else box)
        y = box.y + PAD - self.offset
        lh = self.line_h()
        rows = self.rows(rect.w)
        heads = [r for r in rows if r.head]
        if heads:
            band = pygame.Rect(box.x, y - PAD, box.w, len(heads) * lh + PAD + 2)
            pygame.draw.rect(surface, HEAD, band, border_radius=4)
        for row in rows:
            if row.cause is not None:
                button = pygame.Rect(box.x + PAD, y + 2, self.button_w(row.text), BUTTON_H)
                pygame.draw.rect(surface, (78, 84, 104), button, border_radius=4)
                pygame.draw.rect(surface, (120, 124, 136), button, 1, border_radius=4)
                blit_text(surface, row.text, button.center, self.size, P.TEXT, bold=True, anchor="center")
                at = (box.x + PAD + row.indent, button.centery)
                blit_text(surface, row.after, at, self.size, row.colour, bold=True, anchor="midleft")
                visible = button.clip(box)
                if visible.h >= BUTTON_H // 2:
                    self.buttons.append((visible, row.cause))
                y += row.height
            elif row.gap:
                y += row.gap
            else:
                if box.y - lh < y < box.bottom:
                    at = (box.x + PAD + row.indent, y)
                    blit_text(surface, row.text, at, self.size, row.colour, bold=row.bold)
                y += lh
        surface.set_clip(clip)
        pygame.draw.rect(surface, BORDER, box, 1, border_radius=4)
        if full > box.h:  # a scroll bar: how much there is and where the view is
            track = pygame.Rect(box.right - BAR_W - 2, box.y + 4, BAR_W, box.h - 8)
            pygame.draw.rect(surface, (40, 24, 24), track, border_radius=3)
            thumb_h = max(16, track.h * box.h // full)
            thumb_y = track.y + (track.h - thumb_h) * self.offset // max(1, full - box.h)
            pygame.draw.rect(surface, DIM, (track.x, thumb_y, BAR_W, thumb_h), border_radius=3)
        return box.h

    def scroll_by(self, rect: pygame.Rect, rows: int) -> None:
        full = self.height_for(rect.w)
        self.offset = max(0, min(full - rect.h, self.offset + rows * self.line_h()))

    def button_at(self, pos: tuple[int, int]) -> Any:
        for rect, i in self.buttons:
            if rect.collidepoint(pos):
                return self.causes[i]
        return None

    def button_rects(self) -> dict[int, pygame.Rect]:
        """Cause index -> its button's rect on screen, as last drawn (only the visible ones)."""
        return {i: rect for rect, i in self.buttons}
