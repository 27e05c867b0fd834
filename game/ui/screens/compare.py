"""Two runs of one level side by side on one shared clock (human vs LLM, or two models).

level_difference(level_a, level_b) -> str | None   # why two levels cannot be compared
first_divergence(timeline_a, timeline_b) -> float | None   # when the runs start to differ
action_differences(replay_a, replay_b) -> list[ActionDifference]  # which actions differ first
metric_differences(result_a, result_b, agents) -> list[str]
CompareScreen(replay_a, replay_b, back=None, labels=("A", "B"))

The first divergence is marked on the scrub bar (D jumps there) and named as the differing
action(s) ("agent1 action 14: Wait 8 -> Wait 3"); a failed run's time is never ranked against a
served one's. Each failed run has its own why box (the same as the replay viewer's), with a
Go-to button per cause. Each run's rule set is shown, with a warning when they differ (the same
plan can take different times under them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game.engine import ActionSpan, Level, Timeline
from game.engine.diagnosis import SAME_INSTANT_RULE
from game.engine.narration import narrate
from game.replay import Replay
from game.ui.render import palette as P
from game.ui.render.gantt import Gantt, action_text, span_lines
from game.ui.render.kitchen import KitchenRenderer, fit_tile
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
from game.ui.render.why_panel import WhyPanel, error_of, run_diagnosis

from .replay import (
    HEADER_H,
    TRANSPORT_H,
    TimelineScreen,
    agent_lines,
    cause_markers,
    cause_marks,
    error_time,
    source_text,
    tile_lines,
)

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


@dataclass(frozen=True)
class ActionDifference:
    """The first action of one agent's queue that differs between the two plans."""

    agent: str
    index: int
    a: dict[str, Any] | None  # None: A's queue has ended
    b: dict[str, Any] | None
    time: float | None  # when the earlier of the two started (None: neither run reached it)
    change: str = "changed"  # or "removed in B" / "added in B": the rest of the queues agree

    def text(self) -> str:
        """'agent1 action 14: Wait 8 -> Wait 3' (A's action, then B's); 'agent2 action 21:
        Wait 6 removed in B' when B's queue is A's without it."""
        head = f"{self.agent} action {self.index}: "
        if self.change == "removed in B" and self.a is not None:
            return head + f"{action_text(self.a)} removed in B"
        if self.change == "added in B" and self.b is not None:
            return head + f"{action_text(self.b)} added in B"
        a = action_text(self.a) if self.a is not None else "nothing (A's queue has ended)"
        b = action_text(self.b) if self.b is not None else "nothing (B's queue has ended)"
        return head + f"{a} -> {b}"


def _start(timeline: Timeline, agent: str, index: int) -> float | None:
    return next(
        (s.start for s in timeline.spans if s.agent == agent and s.index == index and s.status != "rejected"),
        None,
    )


def action_differences(a: Replay, b: Replay) -> list[ActionDifference]:
    """Where the two plans first part: per agent, the first action that differs; of those, the
    one(s) that start first (empty when the plans are the same)."""
    found = []
    for agent in a.level.agent_names:
        qa, qb = list(a.plan.get(agent, [])), list(b.plan.get(agent, []))
        k = next((i for i in range(max(len(qa), len(qb))) if qa[i : i + 1] != qb[i : i + 1]), None)
        if k is None:
            continue
        starts = [t for t in (_start(a.timeline, agent, k), _start(b.timeline, agent, k)) if t is not None]
        act_a, act_b = (qa[k] if k < len(qa) else None), (qb[k] if k < len(qb) else None)
        change = "changed"
        if act_a is not None and qa[k + 1 :] == qb[k:]:
            change = "removed in B"
        elif act_b is not None and qa[k:] == qb[k + 1 :]:
            change = "added in B"
        found.append(ActionDifference(agent, k, act_a, act_b, min(starts) if starts else None, change))
    ran = [d.time for d in found if d.time is not None]
    if not ran:
        return found
    return [d for d in found if d.time == min(ran)]


def _outcome(r: dict[str, Any]) -> str:
    if r.get("done"):
        return f"served all at OCT {num(r.get('time', 0))}"
    if r.get("error"):
        return f"failed at t = {num(r.get('time', 0))}"
    return f"unfinished at t = {num(r.get('time', 0))}"


def metric_differences(a: dict[str, Any], b: dict[str, Any], agents: Sequence[str]) -> list[str]:
    """'OCT 91 vs 44 (B -47)', then orders served and each agent's MD and AU. Two times are
    set against each other only when both runs served every order: a run stopped by an error
    is never ranked as faster than a served one ('A served all at OCT 59; B failed at t = 53')."""

    def pair(name: str, x: float, y: float, fmt=num) -> str:
        d = y - x
        sign = "+" if d > 0 else ""
        return f"{name} {fmt(x)} vs {fmt(y)}" + (f" (B {sign}{fmt(d)})" if d else " (same)")

    if a.get("done") and b.get("done"):
        out = [pair("OCT", float(a.get("time", 0)), float(b.get("time", 0)))]
    else:
        out = [f"A {_outcome(a)}, B {_outcome(b)}: no OCT to compare"]
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
        detail = replay.result.get("error_detail")
        self.story = narrate(replay.level, replay.timeline, replay.rules, detail)
        self.diagnosis = run_diagnosis(replay, self.story)
        self.why = WhyPanel(self.diagnosis, error=error_of(replay))
        self.gantt = Gantt(
            replay.timeline, replay.level.agent_names, end=end, stop=self.error_at, story=self.story
        )
        self.gantt.marks = cause_marks(self.diagnosis)
        self.rects: dict[str, pygame.Rect] = {}

    def markers(self) -> list[Marker]:
        tag = "A" if self.row == 0 else "B"
        runs = [
            Marker(m.time, m.colour, f"{tag}: {m.label}", self.row) for m in run_markers(self.replay.result)
        ]
        return runs + cause_markers(self.diagnosis, self.row, f"{tag}: ")

    def layout(self, col: pygame.Rect, with_why: bool = False) -> None:
        """with_why: keep room for a why box (either run failed), so both columns line up."""
        n = len(self.replay.level.agents)
        gantt_h = max(64, min(int(col.h * 0.3), 24 + 30 * n))
        title = pygame.Rect(col.x, col.y, col.w, 28)
        why_h = max(110, int(col.h * 0.3)) if with_why else 0
        why = pygame.Rect(col.x + 4, col.bottom - why_h, col.w - 8, max(0, why_h - 4))
        summary = pygame.Rect(col.x, col.bottom - why_h - SUMMARY_H, col.w, SUMMARY_H)
        gantt = pygame.Rect(col.x, summary.y - gantt_h - 4, col.w, gantt_h)
        kitchen = pygame.Rect(col.x, title.bottom + 4, col.w, gantt.y - title.bottom - 8)
        self.renderer.set_tile(fit_tile(self.replay.level, kitchen.size, smallest=8))
        self.rects = {
            "col": col,
            "title": title,
            "kitchen": kitchen,
            "gantt": gantt,
            "summary": summary,
            "why": why,
        }

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
        if self.why:
            self.why.draw(surface, r["why"])
        elif r["why"].h > 0:
            pygame.draw.rect(surface, (18, 60, 46), r["why"], border_radius=4)
            note = "Nothing failed in this run" if not self.replay.result.get("error") else ""
            blit_text(surface, note, (r["why"].x + 8, r["why"].y + 8), 16, (200, 250, 225), bold=True)
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
            tl = self.replay.timeline
            shown = min(t, tl.end)
            state = tl.state_at(shown)
            agent = self.renderer.agent_at_pixel(mouse)
            if agent is not None:
                return agent_lines(tl, state, agent, shown)
            pos = self.renderer.tile_at_pixel(kitchen, mouse)
            if pos is not None:
                return tile_lines(self.replay, state, pos, shown)
        return []


COMPARE_HELP = [
    (
        "Time",
        [
            ("Space", "play / pause both runs on one clock"),
            ("Left / Right", "previous / next event of either run"),
            ("Home / End", "start / end"),
            ("Up / Down", "faster / slower"),
            ("same instant", SAME_INSTANT_RULE),
        ],
    ),
    (
        "Differences",
        [
            (
                "D",
                "jump to the first instant the runs differ (purple mark); the line above names the actions",
            ),
            ("E", "jump to the first error"),
            ("Go to", "a button of a run's why box: jump to that cause (the first is the likeliest)"),
        ],
    ),
    (
        "Window",
        [
            ("Gantt: wheel, drag", "zoom and pan both charts together; 0 fits"),
            ("F1 or ?", "this help"),
            ("Escape", "close help, or go back"),
        ],
    ),
]
DIFF_H = 26


class CompareScreen(TimelineScreen):
    HELP = COMPARE_HELP
    HELP_TITLE = "Compare: controls"
    KEYS = {**TimelineScreen.KEYS, pygame.K_d: "diverge", pygame.K_0: "fit"}

    def __init__(self, a: Replay, b: Replay, back: Any = None, labels: tuple[str, str] = ("A", "B")):
        why = level_difference(a.level, b.level)
        if why:
            raise ValueError(f"cannot compare these replays: {why}")
        end = max(a.timeline.end, b.timeline.end)
        self.sides = [Side(a, labels[0], end, 0), Side(b, labels[1], end, 1)]
        agents = a.level.agent_names
        self.divergence = first_divergence(a.timeline, b.timeline, agents)
        self.first_actions = action_differences(a, b)
        self.any_why = any(bool(side.why) for side in self.sides)
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
        for side in self.sides:
            why = side.rects.get("why")
            if not side.why or why is None or not why.collidepoint(self.mouse):
                continue
            if event.type == pygame.MOUSEWHEEL:
                side.why.scroll_by(why, -3 * event.y)
                return True
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                cause = side.why.button_at(event.pos)
                if cause is not None:
                    self.transport.playing = False
                    self.seek(cause.time)
                return True
        for side, other in zip(self.sides, self.sides[::-1], strict=True):
            if side.gantt.handle(event, side.rects["gantt"], self.mouse):
                other.gantt.view = side.gantt.view  # one clock, one window
                return True
        return False

    def draw_key(self) -> Any:
        return (super().draw_key(), self.sides[0].gantt.view, tuple(s.why.offset for s in self.sides))

    def shown_states(self) -> list[dict[str, Any]]:
        t = self.transport.t
        return [s.replay.timeline.state_at(min(t, s.replay.timeline.end)) for s in self.sides]

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        transport = pygame.Rect(0, h - TRANSPORT_H, w, TRANSPORT_H)
        col_w = (w - 18) // 2
        lines = 1 + bool(self.first_actions) + bool(self.rules_warning)
        diff = pygame.Rect(6, HEADER_H + 2, w - 12, DIFF_H * lines)
        top, bottom = diff.bottom + 4, transport.y - 4
        for i, side in enumerate(self.sides):
            side.layout(pygame.Rect(6 + i * (col_w + 6), top, col_w, bottom - top), self.any_why)
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
            tips = ["A vs B (B's difference in brackets):", *self.differences, *self.difference_lines()[1:]]
        draw_tooltip(surface, self.mouse, tips or self.marker_tooltip())

    def difference_lines(self) -> list[str]:
        """What the differences line says: when the runs part, then which actions differ."""
        when = (
            "the runs never differ" if self.divergence is None else f"differ from t = {num(self.divergence)}"
        )
        out = [f"A vs B: {when};  " + ";  ".join(self.differences)]
        if self.first_actions:
            t = self.first_actions[0].time
            at = f" (t = {num(t)})" if t is not None else " (after both runs stopped)"
            out.append(f"First different action{at}: " + ";  ".join(d.text() for d in self.first_actions))
        return out

    def _draw_differences(self, surface: pygame.Surface) -> None:
        rect = self.rects["diff"]
        pygame.draw.rect(surface, P.PANEL, rect, border_radius=4)
        for i, text in enumerate(self.difference_lines()):
            line = pygame.Rect(rect.x, rect.y + i * DIFF_H, rect.w, DIFF_H)
            colour = P.TEXT if i == 0 else (235, 200, 225)
            blit_text(
                surface,
                ellipsize(text, line.w - 16, 16),
                (line.x + 8, line.centery),
                16,
                colour,
                bold=i == 1,
                anchor="midleft",
            )
        if self.rules_warning:
            warn = pygame.Rect(rect.x, rect.bottom - DIFF_H, rect.w, DIFF_H)
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
