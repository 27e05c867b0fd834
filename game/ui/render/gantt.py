"""Per-agent Gantt timeline: one row per agent, a bar per action, a cursor at the current time.

    g = Gantt(timeline, level.agent_names, end=None, stop=None)
    g.draw(surface, rect, t, hover=None)     # bars are cached per rect size; only the cursor moves
    g.span_at_pixel(rect, (x, y)) -> ActionSpan | None   # click to seek, hover for a tooltip
    g.time_at(rect, x) / g.x_of(rect, t)
    span_lines(span) -> list[str]            # tooltip text

Bars are coloured by action type (palette.ACTION_COLOURS); zero-length actions (Interact,
Finish) are thin ticks; idle time is the hatched row background; an action whose effect failed
is outlined red, one rejected at its start is a red cross; everything after `stop` (the run's
end at an error) is greyed: it never ran.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from game.engine import ActionSpan, Timeline

from . import palette as P
from .text import blit_text, ellipsize, font

LABEL_W = 78
AXIS_H = 18
ROW_GAP = 4
IDLE = (44, 46, 55)
IDLE_HATCH = (56, 58, 68)
NEVER_RAN = (70, 70, 74)


def action_text(action: dict[str, Any]) -> str:
    """An action in a few words: 'MoveTo (3, 4)', 'Interact stove1', 'Wait 2'."""
    name = action.get("action", "?")
    if name == "MoveTo":
        target = action.get("target")
        if isinstance(target, (list, tuple)) and len(target) == 2:
            return f"MoveTo ({target[0]}, {target[1]})"
        return f"MoveTo {target!r}"
    if name in ("Interact", "Process"):
        return f"{name} {action.get('target')}"
    if name == "Wait":
        return f"Wait {_num(action.get('duration', 1))}"
    return str(name)


def short_text(action: dict[str, Any]) -> str:
    """What fits on a bar: '3,4', 'stove1', 'wait 2'."""
    name = action.get("action")
    target = action.get("target")
    if name == "MoveTo" and isinstance(target, (list, tuple)) and len(target) == 2:
        return f"{target[0]},{target[1]}"
    if name == "Process":
        return f"{target}"
    if name == "Wait":
        return f"wait {_num(action.get('duration', 1))}"
    return ""


def span_lines(span: ActionSpan) -> list[str]:
    lines = [f"{span.agent} action {span.index}: {action_text(span.action)}"]
    if span.status == "rejected":
        lines.append(f"rejected at t = {_num(span.start)} (never started)")
        return lines
    lines.append(f"t = {_num(span.start)} to {_num(span.end)} ({_num(span.end - span.start)} long)")
    if span.status == "failed":
        lines.append("its effect failed: the run stopped here")
    elif span.status == "cut":
        lines.append("still running when the run stopped")
    return lines


def _num(x: Any) -> str:
    try:
        f = float(x)
    except (TypeError, ValueError):
        return repr(x)
    return f"{f:g}" if f.is_integer() else f"{f:.2f}".rstrip("0")


def nice_step(span: float, pixels: float, min_px: float = 56) -> float:
    """A tick step from 1, 2, 5 x 10^k that keeps ticks at least min_px apart."""
    if span <= 0 or pixels <= 0:
        return 1.0
    step = 1.0
    while step * pixels / span < min_px:
        for m in (2, 2.5, 2):
            step *= m
            if step * pixels / span >= min_px:
                break
    return step


class Gantt:
    def __init__(
        self, timeline: Timeline, agents: Sequence[str], end: float | None = None, stop: float | None = None
    ):
        self.agents = list(agents)
        self.rows = {a: [s for s in timeline.spans if s.agent == a] for a in self.agents}
        self.end = max(float(end if end is not None else timeline.end), 1.0)
        self.stop = stop
        self._cache: tuple[tuple[int, int], pygame.Surface] | None = None

    # -- geometry -----------------------------------------------------------------------
    def plot(self, rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(rect.x + LABEL_W, rect.y + 2, max(10, rect.w - LABEL_W - 8), rect.h - AXIS_H - 4)

    def row_rect(self, rect: pygame.Rect, i: int) -> pygame.Rect:
        plot = self.plot(rect)
        h = plot.h / max(1, len(self.agents))
        return pygame.Rect(plot.x, round(plot.y + i * h + ROW_GAP / 2), plot.w, max(4, round(h - ROW_GAP)))

    def x_of(self, rect: pygame.Rect, t: float) -> int:
        plot = self.plot(rect)
        return plot.x + round(plot.w * min(max(t, 0.0), self.end) / self.end)

    def time_at(self, rect: pygame.Rect, x: int) -> float:
        plot = self.plot(rect)
        return min(self.end, max(0.0, (x - plot.x) / plot.w * self.end))

    def span_rect(self, rect: pygame.Rect, row: pygame.Rect, span: ActionSpan) -> pygame.Rect:
        x0 = self.x_of(rect, span.start)
        end = span.end if self.stop is None else min(span.end, max(self.stop, span.start))
        x1 = self.x_of(rect, end)
        if x1 - x0 < 3:
            return pygame.Rect(x0 - 1, row.y, 3, row.h)
        return pygame.Rect(x0, row.y, x1 - x0, row.h)

    def span_at_pixel(self, rect: pygame.Rect, pos: tuple[int, int]) -> ActionSpan | None:
        """The action under pos; zero-length ticks win within 3 pixels, then the bar under pos."""
        for i, agent in enumerate(self.agents):
            row = self.row_rect(rect, i)
            if not row.collidepoint(pos):
                continue
            best, best_d = None, 4
            for span in self.rows[agent]:
                r = self.span_rect(rect, row, span)
                if r.w <= 3:
                    d = abs(r.centerx - pos[0])
                    if d < best_d:
                        best, best_d = span, d
            if best is not None:
                return best
            for span in self.rows[agent]:
                if self.span_rect(rect, row, span).collidepoint(pos):
                    return span
        return None

    # -- drawing ------------------------------------------------------------------------
    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, t: float, hover: ActionSpan | None = None
    ) -> None:
        if self._cache is None or self._cache[0] != rect.size:
            self._cache = (rect.size, self._render(rect.size))
        surface.blit(self._cache[1], rect.topleft)
        if hover is not None:
            i = self.agents.index(hover.agent) if hover.agent in self.agents else -1
            if i >= 0:
                r = self.span_rect(rect, self.row_rect(rect, i), hover)
                pygame.draw.rect(surface, (255, 255, 255), r.inflate(4, 4), 2)
        self._draw_cursor(surface, rect, t)

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        rect = pygame.Rect((0, 0), size)
        img = pygame.Surface(size)
        img.fill(P.PANEL)
        for i, agent in enumerate(self.agents):
            row = self.row_rect(rect, i)
            self._draw_row_background(img, row)
            self._draw_label(img, pygame.Rect(4, row.y, LABEL_W - 8, row.h), i, agent)
            if self.stop is not None and self.stop < self.end:
                x = self.x_of(rect, self.stop)
                pygame.draw.rect(img, NEVER_RAN, pygame.Rect(x, row.y, row.right - x, row.h))
            ticks = []
            for span in self.rows[agent]:
                r = self.span_rect(rect, row, span)
                if span.status == "rejected":
                    ticks.append((span, r))
                elif r.w <= 3:
                    ticks.append((span, r))
                else:
                    self._draw_bar(img, r, span)
            for span, r in ticks:
                self._draw_tick(img, r, span)
        if self.stop is not None and self.stop < self.end:
            x = self.x_of(rect, self.stop)
            pygame.draw.line(img, P.ERROR, (x, 0), (x, self.plot(rect).bottom), 2)
        self._draw_axis(img, rect)
        return img

    def _draw_row_background(self, img: pygame.Surface, row: pygame.Rect) -> None:
        pygame.draw.rect(img, IDLE, row)
        clip = img.get_clip()
        img.set_clip(row)
        for x in range(row.x - row.h, row.right, 8):
            pygame.draw.line(img, IDLE_HATCH, (x, row.bottom), (x + row.h, row.y), 1)
        img.set_clip(clip)

    def _draw_label(self, img: pygame.Surface, rect: pygame.Rect, i: int, agent: str) -> None:
        colour = P.agent_colour(i)
        r = min(rect.h // 2 - 1, 10)
        centre = (rect.x + r + 1, rect.centery)
        pygame.draw.circle(img, colour, centre, r)
        blit_text(
            img, str(i + 1), centre, max(10, r * 2), P.text_colour_on(colour), bold=True, anchor="center"
        )
        name = ellipsize(agent, rect.w - 2 * r - 6, 15)
        blit_text(img, name, (rect.x + 2 * r + 6, rect.centery), 15, P.TEXT, anchor="midleft")

    def _draw_bar(self, img: pygame.Surface, r: pygame.Rect, span: ActionSpan) -> None:
        name = span.action.get("action", "")
        colour = P.ACTION_COLOURS.get(name, (120, 120, 120))
        pygame.draw.rect(img, colour, r)
        if name == "Wait":  # stripes: waiting is planned, unlike idle time
            clip = img.get_clip()
            img.set_clip(r)
            for x in range(r.x, r.right, 6):
                pygame.draw.line(img, (185, 185, 185), (x, r.y), (x, r.bottom), 2)
            img.set_clip(clip)
        pygame.draw.rect(img, (20, 20, 24), r, 1)
        text = short_text(span.action)
        size = max(10, min(15, r.h - 4))
        if text and font(size).size(text)[0] < r.w - 4:
            blit_text(img, text, r.center, size, P.text_colour_on(colour), anchor="center")
        if span.status in ("failed", "cut"):
            pygame.draw.rect(img, P.ERROR, r, 3)

    def _draw_tick(self, img: pygame.Surface, r: pygame.Rect, span: ActionSpan) -> None:
        if span.status == "rejected":
            c, s = (r.centerx, r.centery), max(4, r.h // 3)
            pygame.draw.line(img, P.ERROR, (c[0] - s, c[1] - s), (c[0] + s, c[1] + s), 3)
            pygame.draw.line(img, P.ERROR, (c[0] - s, c[1] + s), (c[0] + s, c[1] - s), 3)
            return
        name = span.action.get("action", "")
        colour = P.ACTION_COLOURS.get(name, (120, 120, 120))
        if name == "Finish":
            colour = (250, 250, 250)
        pygame.draw.rect(img, (20, 20, 24), r.inflate(2, 0))
        pygame.draw.rect(img, colour, r)
        d = 4
        top = (r.centerx, r.y + 1)
        pygame.draw.polygon(
            img,
            colour,
            [(top[0] - d, top[1] + d), (top[0], top[1]), (top[0] + d, top[1] + d), (top[0], top[1] + 2 * d)],
        )
        if span.status == "failed":
            pygame.draw.rect(img, P.ERROR, r.inflate(4, 4), 2)

    def _draw_axis(self, img: pygame.Surface, rect: pygame.Rect) -> None:
        plot = self.plot(rect)
        y = plot.bottom + 2
        step = nice_step(self.end, plot.w)
        k = 0
        while k * step <= self.end + 1e-9:
            x = self.x_of(rect, k * step)
            pygame.draw.line(img, P.TEXT_DIM, (x, y), (x, y + 4))
            blit_text(img, _num(k * step), (x, y + 4), 14, P.TEXT_DIM, anchor="midtop")
            k += 1

    def _draw_cursor(self, surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
        plot = self.plot(rect)
        x = self.x_of(rect, t)
        pygame.draw.line(surface, (0, 0, 0), (x + 1, plot.y), (x + 1, plot.bottom), 1)
        pygame.draw.line(surface, (255, 255, 255), (x, plot.y), (x, plot.bottom), 2)
        pygame.draw.polygon(surface, (255, 255, 255), [(x - 5, plot.y), (x + 5, plot.y), (x, plot.y + 6)])
