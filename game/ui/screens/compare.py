"""Two runs of one level side by side on one shared clock (human vs LLM, or two models).

level_difference(level_a, level_b) -> str | None   # why two levels cannot be compared
first_divergence(timeline_a, timeline_b) -> float | None   # when the runs start to differ
metric_differences(result_a, result_b, agents) -> list[str]
CompareScreen(replay_a, replay_b, back=None, labels=("A", "B"))

The first divergence is marked on the scrub bar (D jumps there); each run's rule set is shown,
with a warning when they differ (the same plan can take different times under them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from game.engine import ActionSpan, Level, Timeline
from game.engine.narration import narrate
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


DIVERGE = (204, 121, 167)
COMPARED = ("agents", "stations", "dirty_plates", "served")


def _kitchen(state: dict[str, Any]) -> tuple:
    return tuple(repr(state.get(k)) for k in COMPARED)


def _doing(timeline: Timeline, agent: str, t: float) -> tuple | None:
    span = timeline.span_at(agent, t)
    return None if span is None else (span.start, repr(span.action))


def first_divergence(a: Timeline, b: Timeline, agents: Sequence[str] | None = None) -> float | None:
    """The first instant at which the two kitchens differ (what agents hold or stand on, what
    lies on the stations, what was served) or an agent starts a different action; None when the
    runs are the same throughout."""
    names = list(agents) if agents is not None else list((a.states[0] if a.states else {}).get("agents", {}))
    candidates = sorted({0.0, *a.times, *b.times, *(s.start for s in a.spans), *(s.start for s in b.spans)})
    for t in candidates:
        if _kitchen(a.state_at(t)) != _kitchen(b.state_at(t)):
            return t
        if any(_doing(a, n, t) != _doing(b, n, t) for n in names):
            return t
    return None


def metric_differences(a: dict[str, Any], b: dict[str, Any], agents: Sequence[str]) -> list[str]:
    """'OCT 91 vs 44 (B -47)', then orders served and each agent's MD and AU."""

    def pair(name: str, x: float, y: float, fmt=num) -> str:
        d = y - x
        sign = "+" if d > 0 else ""
        return f"{name} {fmt(x)} vs {fmt(y)}" + (f" (B {sign}{fmt(d)})" if d else " (same)")

    out = [pair("OCT", float(a.get("time", 0)), float(b.get("time", 0)))]
    out.append(pair("served", len(a.get("finished_orders", [])), len(b.get("finished_orders", []))))
    for agent in agents:
        md_a = float(a.get("md", {}).get(agent, 0))
        md_b = float(b.get("md", {}).get(agent, 0))
        out.append(pair(f"{agent} MD", md_a, md_b))
        au_a, au_b = a.get("au", {}).get(agent), b.get("au", {}).get(agent)
        if isinstance(au_a, (int, float)) and isinstance(au_b, (int, float)):
            out.append(pair(f"{agent} AU", 100 * au_a, 100 * au_b, lambda v: f"{v:.0f}%"))
    return out


class Side:
    """One run of the comparison: its renderer, Gantt chart and rectangles."""

    def __init__(self, replay: Replay, label: str, end: float, row: int):
        self.replay = replay = with_index(replay)
        self.label = label
        self.row = row
        self.error_at = error_time(replay.result)
        self.renderer = KitchenRenderer(replay.level, 48)
        self.story = narrate(replay.level, replay.timeline, replay.rules, replay.result.get("error_detail"))
        self.gantt = Gantt(
            replay.timeline, replay.level.agent_names, end=end, stop=self.error_at, story=self.story
        )
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
        text = f"{tag}  {self.label}  ({source_text(self.replay)}, rules {self.replay.rules})"
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
            return span_lines(hover, self.story)
        kitchen = self.rects["kitchen"]
        if kitchen.collidepoint(mouse):
            pos = self.renderer.tile_at_pixel(kitchen, mouse)
            if pos is not None:
                shown = min(t, self.replay.timeline.end)
                return describe_tile(self.replay.level, self.replay.timeline.state_at(shown), pos, shown)
        return []


COMPARE_HELP = [
    ("Space", "play / pause both runs on one clock"),
    ("Left / Right", "previous / next event of either run"),
    ("Home / End", "start / end"),
    ("Up / Down", "faster / slower"),
    ("D", "jump to the first instant the runs differ (purple mark)"),
    ("E", "jump to the first error"),
    ("Gantt: wheel, drag", "zoom and pan both charts together; 0 fits"),
    ("F1 or ?", "this help"),
    ("Escape", "close help, or go back"),
]
DIFF_H = 26


class CompareScreen(TimelineScreen):
    HELP = COMPARE_HELP
    KEYS = {**TimelineScreen.KEYS, pygame.K_d: "diverge", pygame.K_0: "fit"}

    def __init__(self, a: Replay, b: Replay, back: Any = None, labels: tuple[str, str] = ("A", "B")):
        why = level_difference(a.level, b.level)
        if why:
            raise ValueError(f"cannot compare these replays: {why}")
        end = max(a.timeline.end, b.timeline.end)
        self.sides = [Side(a, labels[0], end, 0), Side(b, labels[1], end, 1)]
        agents = a.level.agent_names
        self.divergence = first_divergence(a.timeline, b.timeline, agents)
        self.differences = metric_differences(a.result, b.result, agents)
        self.rules_warning = (
            f"rules differ: A runs under {a.rules}, B under {b.rules}; their times are not comparable"
            if a.rules != b.rules
            else ""
        )
        errors = [s.error_at for s in self.sides if s.error_at is not None]
        markers = self.sides[0].markers() + self.sides[1].markers()
        if self.divergence is not None:
            markers.append(
                Marker(self.divergence, DIVERGE, f"the runs differ from t = {num(self.divergence)}", 0)
            )
        super().__init__(
            end,
            list(a.timeline.times) + list(b.timeline.times),
            markers,
            min(errors) if errors else None,
            back,
        )

    def extra_buttons(self) -> list[tuple[str, str, int, str]]:
        if self.divergence is None:
            return []
        return [
            ("diverge", f"Differ t={num(self.divergence)}", 120, "Jump to where the runs start to differ (D)")
        ]

    def command(self, name: str) -> None:
        if name == "diverge" and self.divergence is not None:
            self.transport.playing = False
            self.seek(self.divergence)
        elif name == "fit":
            for side in self.sides:
                side.gantt.reset_view()
        else:
            super().command(name)

    def on_seek(self) -> None:
        for side in self.sides:
            side.gantt.follow(self.transport.t)

    def update(self, dt: float) -> Any:
        nxt = super().update(dt)
        if self.transport.playing:
            self.on_seek()
        return nxt

    def panel_event(self, event: pygame.event.Event) -> bool:
        for side, other in zip(self.sides, self.sides[::-1], strict=True):
            if side.gantt.handle(event, side.rects["gantt"], self.mouse):
                other.gantt.view = side.gantt.view  # one clock, one window
                return True
        return False

    def draw_key(self) -> Any:
        return (super().draw_key(), self.sides[0].gantt.view)

    def shown_states(self) -> list[dict[str, Any]]:
        t = self.transport.t
        return [s.replay.timeline.state_at(min(t, s.replay.timeline.end)) for s in self.sides]

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        transport = pygame.Rect(0, h - TRANSPORT_H, w, TRANSPORT_H)
        col_w = (w - 18) // 2
        diff = pygame.Rect(6, HEADER_H + 2, w - 12, DIFF_H * (2 if self.rules_warning else 1))
        top, bottom = diff.bottom + 4, transport.y - 4
        for i, side in enumerate(self.sides):
            side.layout(pygame.Rect(6 + i * (col_w + 6), top, col_w, bottom - top))
        self.rects = {
            "header": pygame.Rect(0, 0, w, HEADER_H),
            "diff": diff,
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
        self._draw_differences(surface)
        t = self.transport.t
        tips: list[str] = []
        for side in self.sides:
            hover = side.draw(surface, t, self.mouse)
            tips = tips or side.tooltip(t, self.mouse, hover)
        self.draw_transport(surface)
        self.manager.draw_ui(surface)
        if not tips and self.rects["diff"].collidepoint(self.mouse):
            tips = ["A vs B (B's difference in brackets):", *self.differences]
        draw_tooltip(surface, self.mouse, tips or self.marker_tooltip())

    def _draw_differences(self, surface: pygame.Surface) -> None:
        rect = self.rects["diff"]
        pygame.draw.rect(surface, P.PANEL, rect, border_radius=4)
        line = pygame.Rect(rect.x, rect.y, rect.w, DIFF_H)
        when = (
            "the runs never differ" if self.divergence is None else f"differ from t = {num(self.divergence)}"
        )
        text = f"A vs B: {when};  " + ";  ".join(self.differences)
        blit_text(
            surface,
            ellipsize(text, line.w - 16, 16),
            (line.x + 8, line.centery),
            16,
            P.TEXT,
            anchor="midleft",
        )
        if self.rules_warning:
            warn = pygame.Rect(rect.x, rect.y + DIFF_H, rect.w, DIFF_H)
            pygame.draw.rect(surface, (96, 64, 10), warn, border_radius=4)
            blit_text(
                surface,
                ellipsize("Warning: " + self.rules_warning, warn.w - 16, 16),
                (warn.x + 8, warn.centery),
                16,
                (255, 225, 160),
                bold=True,
                anchor="midleft",
            )
