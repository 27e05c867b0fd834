"""Two runs of one level side by side on one shared clock (human vs LLM, or two models).

level_difference(level_a, level_b) -> str | None   # why two levels cannot be compared
CompareScreen(replay_a, replay_b, back=None, labels=("A", "B"))
"""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import ActionSpan, Level
from game.replay import Replay
from game.ui.render import palette as P
from game.ui.render.gantt import Gantt, span_lines
from game.ui.render.kitchen import KitchenRenderer, describe_tile, fit_tile
from game.ui.render.panels import (
    Marker,
    draw_tooltip,
    error_highlight,
    error_lines,
    headline,
    num,
    run_markers,
)
from game.ui.render.text import blit_text, ellipsize
from game.ui.render.timeline_index import with_index

from .replay import HEADER_H, TRANSPORT_H, TimelineScreen, error_time, source_text

SUMMARY_H = 62


def _tiles(level: Level) -> list[tuple]:
    m = level.to_paracook_map()
    return sorted(
        (t["x"], t["y"], t["type"], t["name"], t.get("provides"), t.get("item")) for t in m["tiles"]
    )


def level_difference(a: Level, b: Level) -> str | None:
    """None when both replays ran the same kitchen and orders; else what differs."""
    if (a.width, a.height) != (b.width, b.height):
        return f"different kitchens ({a.width}x{a.height} and {b.width}x{b.height})"
    if _tiles(a) != _tiles(b):
        return "different kitchens (stations or walls differ)"
    if [(s.name, s.pos) for s in a.agents] != [(s.name, s.pos) for s in b.agents]:
        return "different agents or start positions"
    if tuple(a.orders) != tuple(b.orders):
        return f"different orders ({', '.join(a.orders)} and {', '.join(b.orders)})"
    return None


class Side:
    """One run of the comparison: its renderer, Gantt chart and rectangles."""

    def __init__(self, replay: Replay, label: str, end: float, row: int):
        self.replay = replay = with_index(replay)
        self.label = label
        self.row = row
        self.error_at = error_time(replay.result)
        self.renderer = KitchenRenderer(replay.level, 48)
        self.gantt = Gantt(replay.timeline, replay.level.agent_names, end=end, stop=self.error_at)
        self.rects: dict[str, pygame.Rect] = {}

    def markers(self) -> list[Marker]:
        tag = "A" if self.row == 0 else "B"
        return [
            Marker(m.time, m.colour, f"{tag}: {m.label}", self.row) for m in run_markers(self.replay.result)
        ]

    def layout(self, col: pygame.Rect) -> None:
        n = len(self.replay.level.agents)
        gantt_h = max(64, min(int(col.h * 0.3), 24 + 30 * n))
        title = pygame.Rect(col.x, col.y, col.w, 28)
        summary = pygame.Rect(col.x, col.bottom - SUMMARY_H, col.w, SUMMARY_H)
        gantt = pygame.Rect(col.x, summary.y - gantt_h - 4, col.w, gantt_h)
        kitchen = pygame.Rect(col.x, title.bottom + 4, col.w, gantt.y - title.bottom - 8)
        self.renderer.set_tile(fit_tile(self.replay.level, kitchen.size))
        self.rects = {"col": col, "title": title, "kitchen": kitchen, "gantt": gantt, "summary": summary}

    def draw(self, surface: pygame.Surface, t: float, mouse: tuple[int, int]) -> ActionSpan | None:
        r, tl = self.rects, self.replay.timeline
        pygame.draw.rect(surface, P.PANEL, r["col"])
        tag = "A" if self.row == 0 else "B"
        text = f"{tag}  {self.label}  ({source_text(self.replay)})"
        blit_text(
            surface,
            ellipsize(text, r["title"].w - 12, 19),
            (r["title"].x + 8, r["title"].centery),
            19,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )
        shown = min(t, tl.end)
        state = tl.state_at(shown)
        failed = error_highlight(self.replay.level, self.replay.result, state, shown)
        self.renderer.draw(surface, r["kitchen"], state, timeline=tl, t=shown, highlight=failed)
        if t > tl.end:  # this run is over while the other goes on
            shade = pygame.Surface(r["kitchen"].size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 70))
            surface.blit(shade, r["kitchen"])
            how = "stopped by its error" if self.error_at is not None else "finished"
            note = f"{how} at t = {num(tl.end)}"
            box = blit_text(surface, note, r["kitchen"].center, 22, P.TEXT, bold=True, anchor="center")
            pygame.draw.rect(surface, (20, 20, 24), box.inflate(16, 10), border_radius=4)
            blit_text(
                surface,
                note,
                r["kitchen"].center,
                22,
                (255, 200, 190) if self.error_at is not None else P.TEXT,
                bold=True,
                anchor="center",
            )
        hover = self.gantt.span_at_pixel(r["gantt"], mouse)
        self.gantt.draw(surface, r["gantt"], t, hover)
        self._summary(surface, r["summary"])
        return hover

    def _summary(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        res = self.replay.result
        text, colour = headline(res)
        blit_text(surface, ellipsize(text, rect.w - 12, 18), (rect.x + 8, rect.y + 2), 18, colour, bold=True)
        parts = []
        for i, agent in enumerate(self.replay.level.agent_names):
            md = res.get("md", res.get("agent_moving_time", {})).get(agent, 0)
            au = res.get("au", {}).get(agent)
            au_text = f" AU {100 * au:.0f}%" if isinstance(au, (int, float)) else ""
            parts.append(f"{i + 1} {agent}: MD {num(md)}{au_text}")
        blit_text(
            surface, ellipsize("   ".join(parts), rect.w - 12, 16), (rect.x + 8, rect.y + 22), 16, P.TEXT
        )
        err = error_lines(res)
        if err:
            line = f"{err[1]}: {err[2]}"
            blit_text(
                surface, ellipsize(line, rect.w - 12, 16), (rect.x + 8, rect.y + 41), 16, (255, 170, 160)
            )
        else:
            served = ", ".join(
                f"{n} @{num(t)}"
                for n, t in zip(res.get("finished_orders", []), res.get("served_times", []), strict=False)
            )
            blit_text(
                surface,
                ellipsize(f"served: {served}", rect.w - 12, 16),
                (rect.x + 8, rect.y + 41),
                16,
                P.TEXT_DIM,
            )

    def tooltip(self, t: float, mouse: tuple[int, int], hover: ActionSpan | None) -> list[str]:
        if hover is not None:
            return span_lines(hover)
        kitchen = self.rects["kitchen"]
        if kitchen.collidepoint(mouse):
            pos = self.renderer.tile_at_pixel(kitchen, mouse)
            if pos is not None:
                shown = min(t, self.replay.timeline.end)
                return describe_tile(self.replay.level, self.replay.timeline.state_at(shown), pos, shown)
        return []


class CompareScreen(TimelineScreen):
    def __init__(self, a: Replay, b: Replay, back: Any = None, labels: tuple[str, str] = ("A", "B")):
        why = level_difference(a.level, b.level)
        if why:
            raise ValueError(f"cannot compare these replays: {why}")
        end = max(a.timeline.end, b.timeline.end)
        self.sides = [Side(a, labels[0], end, 0), Side(b, labels[1], end, 1)]
        errors = [s.error_at for s in self.sides if s.error_at is not None]
        markers = self.sides[0].markers() + self.sides[1].markers()
        super().__init__(
            end,
            list(a.timeline.times) + list(b.timeline.times),
            markers,
            min(errors) if errors else None,
            back,
        )

    def shown_states(self) -> list[dict[str, Any]]:
        t = self.transport.t
        return [s.replay.timeline.state_at(min(t, s.replay.timeline.end)) for s in self.sides]

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        transport = pygame.Rect(0, h - TRANSPORT_H, w, TRANSPORT_H)
        col_w = (w - 18) // 2
        top, bottom = HEADER_H + 4, transport.y - 4
        for i, side in enumerate(self.sides):
            side.layout(pygame.Rect(6 + i * (col_w + 6), top, col_w, bottom - top))
        self.rects = {
            "header": pygame.Rect(0, 0, w, HEADER_H),
            "transport": transport,
            "scrub": pygame.Rect(4, transport.y + 4, w - 8, 38),
        }

    def span_at(self, pos: tuple[int, int]) -> ActionSpan | None:
        for side in self.sides:
            span = side.gantt.span_at_pixel(side.rects["gantt"], pos)
            if span is not None:
                return span
        return None

    def render(self, surface: pygame.Surface) -> None:
        surface.fill((24, 25, 31))
        header = self.rects["header"]
        pygame.draw.rect(surface, P.PANEL_LIGHT, header)
        level = self.sides[0].replay.level
        text = f"Compare  {level.title or level.name}  ({', '.join(level.orders)})"
        blit_text(
            surface,
            ellipsize(text, header.w - 24, 22),
            (12, header.centery),
            22,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )
        t = self.transport.t
        tips: list[str] = []
        for side in self.sides:
            hover = side.draw(surface, t, self.mouse)
            tips = tips or side.tooltip(t, self.mouse, hover)
        self.draw_transport(surface)
        self.manager.draw_ui(surface)
        draw_tooltip(surface, self.mouse, tips or self.marker_tooltip())
