"""Side panels and bars of the replay views: scrub bar, metrics, action queues, error box,
tooltips. Each draws into a Rect; the costly ones cache their text per state."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game.engine import ActionSpan, Level, Timeline

from . import palette as P
from .gantt import action_text
from .text import blit_text, ellipsize, font, wrap

MOVING = P.ACTION_COLOURS["MoveTo"]
PROCESSING = P.ACTION_COLOURS["Process"]
WAITING = P.ACTION_COLOURS["Wait"]
IDLE = (70, 72, 82)


def num(x: Any) -> str:
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    return f"{f:g}" if f.is_integer() else f"{f:.1f}"


# -- tooltip --------------------------------------------------------------------------------
TOOLTIP_W = 560  # a longer line wraps
PAPER = (250, 248, 235)


def draw_tooltip(
    surface: pygame.Surface, pos: tuple[int, int], lines: Sequence[str], size: int = 17
) -> pygame.Rect | None:
    """The one tooltip style of every window: paper by the pointer, long lines wrapped, kept on
    screen and off the pointer. Returns the box (None when there is nothing to say)."""
    if not lines:
        return None
    f = font(size)
    room = max(120, min(TOOLTIP_W, surface.get_width() - 40))
    lines = [part for line in lines for part in (wrap(line, room, size) or [""])]
    lh = f.get_linesize()
    box = pygame.Rect(
        pos[0] + 18, pos[1] + 18, max(f.size(line)[0] for line in lines) + 16, len(lines) * lh + 12
    )
    box.clamp_ip(surface.get_rect())
    if box.collidepoint(pos):
        box.bottom = pos[1] - 8
        box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, PAPER, box, border_radius=6)
    pygame.draw.rect(surface, (40, 40, 40), box, 1, border_radius=6)
    for i, line in enumerate(lines):
        blit_text(surface, line, (box.x + 8, box.y + 6 + i * lh), size, (20, 20, 20))
    return box


# -- scrub bar ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Marker:
    time: float
    colour: tuple[int, int, int]
    label: str
    row: int = 0  # compare view: 0 = top run, 1 = bottom run


def run_markers(result: Mapping[str, Any], row: int = 0) -> list[Marker]:
    """A marker per served order and one for the error, if any."""
    out = [
        Marker(float(t), P.OK, f"served {name} at t = {num(t)}", row)
        for name, t in zip(result.get("finished_orders", []), result.get("served_times", []), strict=False)
    ]
    detail = result.get("error_detail")
    if result.get("error"):
        t = detail.get("time") if isinstance(detail, dict) else result.get("time", 0)
        out.append(Marker(float(t or 0), P.ERROR, f"error at t = {num(t)}", row))
    return out


def scrub_track(rect: pygame.Rect) -> pygame.Rect:
    return pygame.Rect(rect.x + 8, rect.centery - 4, rect.w - 16, 8)


def scrub_time(rect: pygame.Rect, x: int, end: float) -> float:
    track = scrub_track(rect)
    return min(end, max(0.0, (x - track.x) / max(1, track.w) * end))


def draw_scrub(
    surface: pygame.Surface,
    rect: pygame.Rect,
    t: float,
    end: float,
    markers: Sequence[Marker] = (),
    events: Sequence[float] = (),
) -> None:
    """The one scrub bar of every window: a track filled up to t, a tick per event, served-order
    (green), error (red) and cause (orange) markers, a round handle."""
    end = max(end, 1e-9)
    track = scrub_track(rect)
    pygame.draw.rect(surface, P.PANEL_LIGHT, track, border_radius=4)
    filled = track.copy()
    filled.w = round(track.w * min(1.0, t / end))
    pygame.draw.rect(surface, (86, 180, 233), filled, border_radius=4)
    for e in events:
        x = track.x + round(track.w * min(1.0, e / end))
        pygame.draw.line(surface, (40, 44, 56), (x, track.y + 1), (x, track.bottom - 2))
    for m in markers:
        x = track.x + round(track.w * min(1.0, m.time / end))
        if m.row == 0:
            tip, base = track.y - 1, track.y - 10
        else:
            tip, base = track.bottom + 1, track.bottom + 10
        pygame.draw.polygon(surface, m.colour, [(x - 6, base), (x + 6, base), (x, tip)])
        pygame.draw.polygon(surface, (15, 15, 15), [(x - 6, base), (x + 6, base), (x, tip)], 1)
    hx = track.x + round(track.w * min(1.0, t / end))
    pygame.draw.circle(surface, (15, 15, 15), (hx, track.centery), 9)
    pygame.draw.circle(surface, (250, 250, 250), (hx, track.centery), 7)


def marker_at(
    rect: pygame.Rect, pos: tuple[int, int], end: float, markers: Sequence[Marker]
) -> Marker | None:
    track = scrub_track(rect)
    for m in reversed(markers):  # the one drawn on top
        x = track.x + round(track.w * min(1.0, m.time / max(end, 1e-9)))
        y = track.y - 6 if m.row == 0 else track.bottom + 6
        if abs(pos[0] - x) <= 6 and abs(pos[1] - y) <= 7:
            return m
    return None


# -- metrics --------------------------------------------------------------------------------
def time_split(result: Mapping[str, Any], agent: str) -> dict[str, float]:
    """The paper's time budget of one agent over the run: moving, processing, waiting, idle."""
    moving = float(result.get("agent_moving_time", {}).get(agent, 0))
    processing = float(result.get("agent_processing_time", {}).get(agent, 0))
    waiting = float(result.get("agent_waiting_time", {}).get(agent, 0))
    busy = float(result.get("agent_all_execution_time", {}).get(agent, moving + processing + waiting))
    return {
        "moving": moving,
        "processing": processing,
        "waiting": waiting,
        "idle": max(0.0, float(result.get("time", 0)) - busy),
    }


def headline(result: Mapping[str, Any]) -> tuple[str, tuple[int, int, int]]:
    served = len(result.get("finished_orders", []))
    total = served + len(result.get("remaining_orders", []))
    if result.get("done"):
        return f"Success: {served}/{total} orders served, OCT {num(result.get('time', 0))}", P.OK
    if result.get("error"):
        return f"Failed at t = {num(result.get('time', 0))} ({served}/{total} served)", P.ERROR
    return f"Unfinished: {served}/{total} orders served", P.COOKING


class MetricsPanel:
    """OCT, nOCT, MD, AU, the per-agent time budget and the served orders (cached per size)."""

    def __init__(self, result: Mapping[str, Any], agents: Sequence[str], bound_pending: bool = False):
        self.result = result
        self.agents = list(agents)
        # the bound is being worked out: its line is kept free, so the layout does not move when
        # it comes (a click aimed at a row below must land on that row)
        self.bound_pending = bound_pending
        self._cache: tuple[tuple[int, int], pygame.Surface] | None = None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        if self._cache is None or self._cache[0] != rect.size:
            self._cache = (rect.size, self._render(rect.size))
        surface.blit(self._cache[1], rect.topleft)

    def height_for(self, width: int) -> int:
        n_orders = len(self.result.get("finished_orders", [])) + len(self.result.get("remaining_orders", []))
        bound_line = bool(self.result.get("lower_bound")) or self.bound_pending
        return 96 + 44 * len(self.agents) + 20 * n_orders + 26 + 20 * bound_line

    def compact_height(self) -> int:
        """The height with the orders written compactly (a line each, in smaller type)."""
        n_orders = len(self.result.get("finished_orders", [])) + len(self.result.get("remaining_orders", []))
        bound_line = bool(self.result.get("lower_bound")) or self.bound_pending
        return 96 + 44 * len(self.agents) + 16 * n_orders + 30 + 20 * bound_line

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        r = self.result
        img = pygame.Surface(size)
        img.fill(P.PANEL)
        w = size[0]
        y = 6
        text, colour = headline(r)
        blit_text(img, ellipsize(text, w - 12, 19), (6, y), 19, colour, bold=True)
        y += 24
        oct_, tmax = float(r.get("time", 0)), float(r.get("t_max", 0) or 0)
        line = f"OCT {num(oct_)}    T_max {num(tmax)}    D_max {num(r.get('d_max', 0))}"
        if r.get("done") and tmax:
            line += f"    nOCT {100 * oct_ / tmax:.1f}"
        blit_text(img, line, (6, y), 16, P.TEXT)
        y += 22
        if r.get("lower_bound"):  # no plan of this level can be faster than its lower bound
            bound = float(r["lower_bound"])
            line = f"lower bound {num(bound)}" + (
                f"    OCT / bound {oct_ / bound:.2f}" if r.get("done") else ""
            )
            blit_text(img, line, (6, y), 16, P.TEXT_DIM)
            y += 20
        elif self.bound_pending:
            blit_text(img, "lower bound: working it out ...", (6, y), 16, P.TEXT_DIM)
            y += 20
        y = self._legend(img, y)
        for i, agent in enumerate(self.agents):
            y = self._agent_row(img, y, w, i, agent)
        blit_text(img, "Orders", (6, y + 2), 16, P.TEXT_DIM, bold=True)
        y += 22
        served = list(zip(r.get("finished_orders", []), r.get("served_times", []), strict=False))
        left = list(r.get("remaining_orders", []))
        if 20 * (len(served) + len(left)) > size[1] - y:  # a small window: every order, in a few lines
            self._orders_compact(img, y, w, size[1], served, left)
            return img
        for k, (name, t) in enumerate(served):
            blit_text(img, f"{k + 1}. {name}", (12, y), 16, P.TEXT)
            blit_text(img, f"served t = {num(t)}", (w - 8, y), 16, P.OK, anchor="topright")
            y += 20
        for name in left:
            blit_text(img, f"-  {name}", (12, y), 16, P.GREYED)
            blit_text(img, "not served", (w - 8, y), 16, P.GREYED, anchor="topright")
            y += 20
        return img

    def _orders_compact(self, img: pygame.Surface, y: int, w: int, bottom: int, served, left) -> None:
        """The orders as wrapped text: served ones with their times, then those not served."""
        parts = [(f"{k + 1}. {name} (t = {num(t)})", P.OK) for k, (name, t) in enumerate(served)]
        parts += [(f"not served: {', '.join(left)}", P.GREYED)] if left else []
        for text, colour in parts:
            for line in wrap(text, w - 18, 14):
                if y + 16 > bottom:
                    return
                blit_text(img, line, (12, y), 14, colour)
                y += 16

    def _legend(self, img: pygame.Surface, y: int) -> int:
        x = 6
        for label, colour in (
            ("moving", MOVING),
            ("processing", PROCESSING),
            ("waiting", WAITING),
            ("idle", IDLE),
        ):
            pygame.draw.rect(img, colour, pygame.Rect(x, y + 3, 10, 10))
            x = blit_text(img, label, (x + 14, y), 15, P.TEXT_DIM).right + 12
        return y + 22

    def _agent_row(self, img: pygame.Surface, y: int, w: int, i: int, agent: str) -> int:
        r = self.result
        colour = P.agent_colour(i)
        pygame.draw.circle(img, colour, (14, y + 8), 8)
        blit_text(img, str(i + 1), (14, y + 8), 14, P.text_colour_on(colour), bold=True, anchor="center")
        md = r.get("md", r.get("agent_moving_time", {})).get(agent, 0)
        au = r.get("au", {}).get(agent)
        au_text = f"   AU {100 * au:.1f}%" if isinstance(au, (int, float)) else ""
        blit_text(img, f"{agent}   MD {num(md)}{au_text}", (28, y), 16, P.TEXT)
        split = time_split(r, agent)
        bar = pygame.Rect(28, y + 20, w - 36, 14)
        total = sum(split.values()) or 1.0
        x = bar.x
        for key, c in (("moving", MOVING), ("processing", PROCESSING), ("waiting", WAITING), ("idle", IDLE)):
            seg_w = round(bar.w * split[key] / total)
            seg = pygame.Rect(x, bar.y, seg_w, bar.h)
            pygame.draw.rect(img, c, seg)
            label = num(split[key])
            if seg_w > font(13).size(label)[0] + 4:
                blit_text(img, label, seg.center, 13, P.text_colour_on(c), anchor="center")
            x += seg_w
        pygame.draw.rect(img, (15, 15, 15), bar, 1)
        return y + 44


# -- action queues --------------------------------------------------------------------------
class QueuePanel:
    """Every agent's plan with start-end times; the running action is lit, the error action red,
    and the actions that never ran are greyed."""

    ROW_H = 19

    def __init__(
        self,
        plan: Mapping[str, Sequence[dict]],
        timeline: Timeline,
        agents: Sequence[str],
        error_detail: Mapping[str, Any] | None = None,
    ):
        self.plan = plan
        self.agents = list(agents)
        self.error = (error_detail.get("agent"), error_detail.get("action_index")) if error_detail else None
        self.spans: dict[tuple[str, int], ActionSpan] = {}
        for s in timeline.spans:
            self.spans[(s.agent, s.index)] = s
        self.starts = {a: [s.start for s in timeline.spans if s.agent == a] for a in self.agents}
        self.indexes = {a: [s.index for s in timeline.spans if s.agent == a] for a in self.agents}
        self.ran = {  # a rejected action (its start check failed) never ran, as the result counts it
            a: sum(
                (a, k) in self.spans and self.spans[(a, k)].status != "rejected"
                for k in range(len(plan.get(a, [])))
            )
            for a in self.agents
        }
        self._cache: tuple[Any, pygame.Surface] | None = None
        self._rows: dict[tuple, pygame.Surface] = {}
        self.scroll: dict[str, int | None] = {a: None for a in self.agents}  # None: follow the clock
        self._shown: dict[str, tuple[pygame.Rect, int]] = {}  # section rect, first row shown

    def sections(self, rect: pygame.Rect) -> list[tuple[str, pygame.Rect]]:
        n = max(1, len(self.agents))
        h = rect.h // n
        return [(a, pygame.Rect(rect.x, rect.y + i * h, rect.w, h)) for i, a in enumerate(self.agents)]

    def _first_row(self, agent: str, section_h: int, t: float) -> int:
        rows = max(1, (section_h - 26) // self.ROW_H)
        n = len(self.plan.get(agent, []))
        wanted = self.scroll.get(agent)
        if wanted is None:
            wanted = self.current_index(agent, t) - rows // 3
        return max(0, min(wanted, n - rows))

    def row_at(self, rect: pygame.Rect, pos: tuple[int, int], t: float) -> tuple[str, int] | None:
        """(agent, action index) of the queue row under pos."""
        for agent, sec in self.sections(rect):
            if sec.collidepoint(pos) and pos[1] >= sec.y + 24:
                k = self._first_row(agent, sec.h, t) + (pos[1] - sec.y - 24) // self.ROW_H
                rows = max(1, (sec.h - 26) // self.ROW_H)
                if k < len(self.plan.get(agent, [])) and (pos[1] - sec.y - 24) // self.ROW_H < rows:
                    return agent, k
        return None

    def scroll_by(self, rect: pygame.Rect, pos: tuple[int, int], rows: int, t: float) -> bool:
        """Scroll the section under pos by rows (the wheel); True when it moved."""
        for agent, sec in self.sections(rect):
            if sec.collidepoint(pos):
                first = self._first_row(agent, sec.h, t)
                self.scroll[agent] = max(0, first + rows)
                return self._first_row(agent, sec.h, t) != first
        return False

    def follow(self) -> None:
        """Back to following the clock (after a seek)."""
        self.scroll = {a: None for a in self.agents}

    def start_of(self, agent: str, index: int) -> float | None:
        span = self.spans.get((agent, index))
        return None if span is None else span.start

    def current_index(self, agent: str, t: float) -> int:
        """The index of the agent's latest action started at or before t (-1 before any)."""
        k = bisect_right(self.starts[agent], t)
        return self.indexes[agent][k - 1] if k else -1

    def status(self, agent: str, index: int, t: float) -> str:
        span = self.spans.get((agent, index))
        if (agent, index) == self.error:
            return "error"
        if span is None:
            return "never"
        if span.start > t:
            return "later"
        if span.start <= t < span.end:
            return "running"
        return "done"  # zero-length actions are done the instant they start

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
        key = (
            rect.size,
            tuple(self.current_index(a, t) for a in self.agents),
            tuple(self.status(a, self.current_index(a, t), t) for a in self.agents),
            tuple(self.scroll.values()),
        )
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self._render(rect.size, t))
        surface.blit(self._cache[1], rect.topleft)

    def _render(self, size: tuple[int, int], t: float) -> pygame.Surface:
        img = pygame.Surface(size)
        img.fill(P.PANEL)
        n = max(1, len(self.agents))
        section_h = size[1] // n
        for i, agent in enumerate(self.agents):
            self._section(img, pygame.Rect(0, i * section_h, size[0], section_h), i, agent, t)
        return img

    def _section(self, img: pygame.Surface, rect: pygame.Rect, i: int, agent: str, t: float) -> None:
        actions = self.plan.get(agent, [])
        colour = P.agent_colour(i)
        pygame.draw.rect(img, colour, pygame.Rect(rect.x, rect.y + 2, 4, 18))
        header = f"{agent}  ({self.ran[agent]}/{len(actions)} ran)"
        blit_text(img, header, (rect.x + 10, rect.y + 2), 17, P.TEXT, bold=True)
        rows = max(1, (rect.h - 26) // self.ROW_H)
        first = self._first_row(agent, rect.h, t)
        if first > 0 or first + rows < len(actions):
            more = f"{first + 1}-{min(len(actions), first + rows)}"
            blit_text(img, more, (rect.right - 6, rect.y + 4), 14, P.TEXT_DIM, anchor="topright")
        y = rect.y + 24
        for k in range(first, min(len(actions), first + rows)):
            status = self.status(agent, k, t)
            img.blit(self._row(agent, k, actions[k], status, rect.w - 8, colour), (rect.x + 4, y))
            y += self.ROW_H

    def _row(
        self, agent: str, k: int, action: dict, status: str, width: int, colour: tuple[int, int, int]
    ) -> pygame.Surface:
        """One queue row, drawn once per (action, status, width)."""
        key = (agent, k, status, width)
        img = self._rows.get(key)
        if img is not None:
            return img
        if len(self._rows) > 4000:
            self._rows.clear()
        img = self._rows[key] = pygame.Surface((width, self.ROW_H - 1))
        img.fill(P.PANEL)
        r = img.get_rect()
        text_colour = {"never": P.GREYED, "later": P.TEXT_DIM}.get(status, P.TEXT)
        if status == "running":
            pygame.draw.rect(img, tuple(c // 2 for c in colour), r, border_radius=3)
            pygame.draw.rect(img, colour, r, 1, border_radius=3)
        elif status == "error":
            pygame.draw.rect(img, (110, 28, 26), r, border_radius=3)
            pygame.draw.rect(img, P.ERROR, r, 1, border_radius=3)
        right = blit_text(img, self._times(agent, k), (r.right - 4, 2), 15, text_colour, anchor="topright")
        label = ellipsize(f"{k:>2}  {action_text(action)}", right.x - 10, 15)
        blit_text(img, label, (4, 2), 15, text_colour)
        if status == "never":
            pygame.draw.line(img, P.GREYED, (22, r.centery), (4 + font(15).size(label)[0], r.centery))
        return img

    def _times(self, agent: str, k: int) -> str:
        span = self.spans.get((agent, k))
        if span is None:
            return "never ran"
        if span.status == "rejected":
            return f"rejected at {num(span.start)}"
        if span.status == "cut":
            return f"{num(span.start)}-{num(span.end)} (cut)"
        return f"{num(span.start)}-{num(span.end)}"


# -- error box ------------------------------------------------------------------------------
def error_highlight(
    level: Level, result: Mapping[str, Any], state: Mapping[str, Any], t: float
) -> dict[tuple[int, int], tuple[int, int, int]] | None:
    """At or after a run's error: the failing agent's tile and its action's target, in red."""
    d = result.get("error_detail") or {}
    if not result.get("error") or not d or t < float(d.get("time", 0)):
        return None
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    agent = state.get("agents", {}).get(d.get("agent"))
    if agent:
        out[(int(agent["pos"][0]), int(agent["pos"][1]))] = P.ERROR
    target = (d.get("action") or {}).get("target")
    if isinstance(target, str) and target in level.station_by_name:
        out[level.station_by_name[target].pos] = P.ERROR
    elif (
        isinstance(target, list)
        and len(target) == 2
        and all(type(v) is int for v in target)  # an unreadable target may hold anything
        and level.in_bounds((target[0], target[1]))
    ):
        out[(target[0], target[1])] = P.ERROR
    return out


def draw_error_strip(
    surface: pygame.Surface, rect: pygame.Rect, result: Mapping[str, Any], size: int = 16
) -> None:
    """One or two lines of the error over the bottom of rect (exported frames, compare view)."""
    lines = error_lines(result)
    if not lines:
        return
    text = wrap(f"{lines[1]}: {lines[2]}", rect.w - 16, size)[:2]
    h = len(text) * font(size).get_linesize() + 8
    band = pygame.Surface((rect.w, h), pygame.SRCALPHA)
    band.fill((90, 20, 20, 225))
    surface.blit(band, (rect.x, rect.bottom - h))
    for i, line in enumerate(text):
        blit_text(
            surface,
            line,
            (rect.x + 8, rect.bottom - h + 4 + i * font(size).get_linesize()),
            size,
            (255, 230, 225),
            bold=(i == 0),
        )


def error_lines(result: Mapping[str, Any]) -> list[str]:
    """The error's text, agent, action and time as short lines (empty for a clean run)."""
    if not result.get("error"):
        return []
    d = result.get("error_detail") or {}
    if not d:
        return [f"Error: {result['error']}"]
    lines = [
        f"Error at t = {num(d.get('time', result.get('time', 0)))}: {d.get('kind', '')}",
        f"{d.get('agent')} action {d.get('action_index')}: {action_text(d.get('action') or {})}",
        str(d.get("reason", result.get("error"))),
    ]
    return lines


def draw_error_box(
    surface: pygame.Surface, rect: pygame.Rect, result: Mapping[str, Any], size: int = 16
) -> int:
    """Draw the error box at the top of rect; return the height used (0 when no error)."""
    lines = error_lines(result)
    if not lines:
        return 0
    wrapped: list[str] = []
    for line in lines:
        wrapped += wrap(line, rect.w - 16, size)
    h = len(wrapped) * font(size).get_linesize() + 12
    box = pygame.Rect(rect.x, rect.y, rect.w, h)
    pygame.draw.rect(surface, (70, 22, 22), box, border_radius=4)
    pygame.draw.rect(surface, P.ERROR, box, 2, border_radius=4)
    for i, line in enumerate(wrapped):
        blit_text(
            surface,
            line,
            (box.x + 8, box.y + 6 + i * font(size).get_linesize()),
            size,
            (255, 225, 220),
            bold=(i == 0),
        )
    return h


# -- why it failed --------------------------------------------------------------------------
def draw_why_box(
    surface: pygame.Surface, rect: pygame.Rect, diagnosis: Any, size: int = 15
) -> tuple[int, pygame.Rect | None]:
    """The unmet need and its causes under the error box, with a 'Go to cause' button.
    Returns the height used and the button's rect (None when there is nothing to jump to)."""
    if diagnosis is None:
        return 0, None
    lh = font(size).get_linesize()
    lines: list[tuple[str, bool]] = []
    for i, line in enumerate(diagnosis.lines()):
        width = rect.w - 16 - (font(size, True).size(line)[0] - font(size).size(line)[0] if i == 0 else 0)
        for k, part in enumerate(wrap(("Why: " if i == 1 else "") + line, width, size)):
            lines.append((part, i == 0 and k == 0))
    lines = lines[:8]
    button_h = 26 if diagnosis.jump is not None else 0
    h = len(lines) * lh + 12 + button_h
    box = pygame.Rect(rect.x, rect.y, rect.w, min(h, rect.h))
    pygame.draw.rect(surface, (52, 30, 30), box, border_radius=4)
    pygame.draw.rect(surface, (150, 70, 60), box, 1, border_radius=4)
    for i, (line, bold) in enumerate(lines):
        blit_text(surface, line, (box.x + 8, box.y + 6 + i * lh), size, (255, 215, 205), bold=bold)
    button = None
    if diagnosis.jump is not None:
        label = f"Go to cause (t = {num(diagnosis.jump)})"
        w = font(size, True).size(label)[0] + 20
        button = pygame.Rect(box.x + 8, box.bottom - button_h - 2, w, 22)
        draw_chip(surface, button, label, active=True, size=size)
    return box.h, button


def draw_chip(
    surface: pygame.Surface, rect: pygame.Rect, text: str, active: bool = False, size: int = 14
) -> pygame.Rect:
    """A small clickable label (filters, tabs, jump buttons)."""
    fill = (78, 84, 104) if active else P.PANEL_LIGHT
    pygame.draw.rect(surface, fill, rect, border_radius=4)
    pygame.draw.rect(surface, (120, 124, 136), rect, 1, border_radius=4)
    blit_text(
        surface, ellipsize(text, rect.w - 8, size), rect.center, size, P.TEXT, bold=active, anchor="center"
    )
    return rect


# -- event log --------------------------------------------------------------------------------
class EventLog:
    """Every state change as a sentence, following the clock; filter by agent and station,
    click a row to seek, the wheel scrolls (and stops following until the next seek).

        log = EventLog(story, agents, stations)
        log.draw(surface, rect, t)
        log.click(rect, pos) -> float | None     # the time to seek to, or None (a filter changed)
        log.scroll_by(rows)
    """

    ROW_H = 19
    HEAD_H = 30

    def __init__(self, story: Any, agents: Sequence[str], stations: Sequence[str]):
        self.story = story
        self.agents = list(agents)
        self.stations = [s for s in stations if any(e.station == s for e in story.events)]
        self.agent: str | None = None
        self.station: str | None = None
        self.moves = False
        self.top: int | None = None  # first row shown; None: follow the clock
        self._rows_cache: tuple[Any, list] | None = None
        self._chips: dict[str, pygame.Rect] = {}
        self._cache: tuple[Any, pygame.Surface] | None = None
        self._row_cache: dict[tuple, pygame.Surface] = {}

    def rows(self) -> list[Any]:
        key = (self.agent, self.station, self.moves)
        if self._rows_cache is None or self._rows_cache[0] != key:
            rows = [
                e
                for e in self.story.events
                if (self.moves or e.kind != "move")
                and (self.agent is None or e.agent == self.agent)
                and (self.station is None or e.station == self.station)
            ]
            self._rows_cache = (key, rows)
        return self._rows_cache[1]

    def current(self, t: float) -> int:
        """Index (in rows()) of the last event at or before t; -1 before the first."""
        rows = self.rows()
        lo, hi = 0, len(rows)
        while lo < hi:
            mid = (lo + hi) // 2
            if rows[mid].time <= t + 1e-9:
                lo = mid + 1
            else:
                hi = mid
        return lo - 1

    def visible_rows(self, rect: pygame.Rect) -> int:
        return max(1, (rect.h - self.HEAD_H) // self.ROW_H)

    def first_row(self, rect: pygame.Rect, t: float) -> int:
        n, shown = len(self.rows()), self.visible_rows(rect)
        top = self.top if self.top is not None else self.current(t) - shown * 2 // 3
        return max(0, min(top, n - shown))

    def scroll_by(self, rect: pygame.Rect, rows: int, t: float) -> None:
        self.top = max(0, self.first_row(rect, t) + rows)

    def follow(self) -> None:
        self.top = None

    def _chip_rects(self, rect: pygame.Rect) -> dict[str, pygame.Rect]:
        w = (rect.w - 16) // 3
        y = rect.y + 3
        return {
            "agent": pygame.Rect(rect.x + 2, y, w, 22),
            "station": pygame.Rect(rect.x + 8 + w, y, w, 22),
            "moves": pygame.Rect(rect.x + 14 + 2 * w, y, rect.w - 16 - 2 * w, 22),
        }

    def click(self, rect: pygame.Rect, pos: tuple[int, int], t: float) -> float | None:
        for name, chip in self._chip_rects(rect).items():
            if chip.collidepoint(pos):
                self._cycle(name)
                return None
        if pos[1] < rect.y + self.HEAD_H or not rect.collidepoint(pos):
            return None
        k = self.first_row(rect, t) + (pos[1] - rect.y - self.HEAD_H) // self.ROW_H
        rows = self.rows()
        return rows[k].time if 0 <= k < len(rows) else None

    def _cycle(self, name: str) -> None:
        if name == "moves":
            self.moves = not self.moves
        else:
            options = [None, *(self.agents if name == "agent" else self.stations)]
            now = getattr(self, name)
            setattr(self, name, options[(options.index(now) + 1) % len(options)])
        self.top = None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
        current = self.current(t)
        first = self.first_row(rect, t)
        key = (rect.size, current, first, self.agent, self.station, self.moves)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self._render(rect.size, current, first))
        surface.blit(self._cache[1], rect.topleft)

    def _render(self, size: tuple[int, int], current: int, first: int) -> pygame.Surface:
        img = pygame.Surface(size)
        img.fill(P.PANEL)
        local = pygame.Rect((0, 0), size)
        chips = self._chip_rects(local)
        draw_chip(img, chips["agent"], f"agent: {self.agent or 'all'}", self.agent is not None)
        draw_chip(img, chips["station"], f"station: {self.station or 'all'}", self.station is not None)
        draw_chip(img, chips["moves"], "moves: on" if self.moves else "moves: off", self.moves)
        rows = self.rows()
        if not rows:
            blit_text(img, "no events for this filter", (8, self.HEAD_H + 4), 15, P.TEXT_DIM)
        y = self.HEAD_H
        for k in range(first, min(len(rows), first + self.visible_rows(local))):
            style = (
                "error"
                if rows[k].is_error
                else "current"
                if k == current
                else "past"
                if k <= current
                else "later"
            )
            img.blit(self._row(rows[k], style, size[0] - 4), (2, y))
            y += self.ROW_H
        return img

    def _row(self, e: Any, style: str, width: int) -> pygame.Surface:
        """One log row, drawn once per (event, style, width)."""
        key = (e.seq, style, width)
        img = self._row_cache.get(key)
        if img is not None:
            return img
        if len(self._row_cache) > 4000:
            self._row_cache.clear()
        img = self._row_cache[key] = pygame.Surface((width, self.ROW_H - 1))
        img.fill(P.PANEL)
        r = img.get_rect()
        colour = P.TEXT if style in ("current", "past") else P.TEXT_DIM
        if style == "error":
            pygame.draw.rect(img, (110, 28, 26), r, border_radius=3)
            colour = (255, 225, 220)
        elif style == "current":
            pygame.draw.rect(img, (60, 66, 84), r, border_radius=3)
        elif e.agent is None:  # the kitchen by itself: cooking done, plates back
            colour = (150, 200, 160) if style == "past" else (100, 130, 110)
        stamp = blit_text(img, f"{num(e.time):>5}", (4, 2), 15, P.TEXT_DIM)
        blit_text(img, ellipsize(e.text, r.w - stamp.w - 14, 15), (stamp.right + 8, 2), 15, colour)
        return img

    def tooltip(self, rect: pygame.Rect, pos: tuple[int, int], t: float) -> list[str]:
        if not rect.collidepoint(pos) or pos[1] < rect.y + self.HEAD_H:
            return []
        k = self.first_row(rect, t) + (pos[1] - rect.y - self.HEAD_H) // self.ROW_H
        rows = self.rows()
        if not 0 <= k < len(rows):
            return []
        return wrap(rows[k].sentence(), 520, 16) + ["click: go to this moment"]


# -- help overlay ----------------------------------------------------------------------------
HelpSections = Sequence[tuple[str, Sequence[tuple[str, str]]]]
KEY_COLOUR = (230, 159, 0)


def draw_help(surface: pygame.Surface, title: str, sections: HelpSections) -> pygame.Rect:
    """The one help overlay of every window: a dimmed screen, the controls by section in two
    balanced columns, long explanations wrapped; the text shrinks until it all fits."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 160))
    surface.blit(shade, (0, 0))
    screen = surface.get_rect()
    box = pygame.Rect(0, 0, min(1100, screen.w - 40), min(820, screen.h - 40))
    box.center = screen.center
    sizes = [len(rows) + 2 for _, rows in sections]
    split = min(range(1, len(sections) + 1), key=lambda i: abs(sum(sizes[:i]) - sum(sizes[i:])))
    columns = (sections[:split], sections[split:])
    half = (box.w - 60) // 2
    for size in range(18, 10, -1):
        keys_w = max((font(size, True).size(k)[0] for _, rows in sections for k, _ in rows), default=0)
        keys_w = min(keys_w + 14, half // 2)
        tallest = max(_help_height(col, size, half, keys_w) for col in columns)
        if tallest <= box.h - 70:
            break
    box.h = min(box.h, tallest + 76)
    box.center = screen.center
    pygame.draw.rect(surface, P.PANEL, box, border_radius=10)
    pygame.draw.rect(surface, (200, 200, 210), box, 2, border_radius=10)
    blit_text(surface, title, (box.x + 20, box.y + 14), 30, P.TEXT, bold=True)
    blit_text(surface, "F1, ? or Esc closes", (box.right - 20, box.y + 20), 16, P.TEXT_DIM, anchor="topright")
    lh = font(size).get_linesize()
    for c, col in enumerate(columns):
        x, y = box.x + 20 + c * (half + 20), box.y + 56
        for name, rows in col:
            blit_text(surface, name, (x, y), size + 2, P.TEXT_DIM, bold=True)
            pygame.draw.line(surface, P.PANEL_LIGHT, (x, y + lh + 2), (x + half, y + lh + 2))
            y += lh + 8
            for keys, what in rows:
                blit_text(
                    surface, ellipsize(keys, keys_w - 6, size, True), (x, y), size, KEY_COLOUR, bold=True
                )
                for line in wrap(what, half - keys_w, size):
                    blit_text(surface, line, (x + keys_w, y), size, P.TEXT)
                    y += lh
                y += 3
            y += 8
    return box


def _help_height(sections: HelpSections, size: int, width: int, keys_w: int) -> int:
    lh = font(size).get_linesize()
    rows = sum(len(wrap(what, width - keys_w, size)) * lh + 3 for _, r in sections for _, what in r)
    return rows + len(sections) * (lh + 16)
