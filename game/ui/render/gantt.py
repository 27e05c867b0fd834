"""Per-agent Gantt timeline: a lane per agent, a bar per action at engine times, a time cursor.

    g = Gantt(timeline, agents, end=None, stop=None, story=None, stations=())
    g.draw(surface, rect, t, hover=None, selected=None)  # lanes cached per size and view
    g.hit(rect, pos) -> (agent, action index) | None     # which bar is at a point
    g.span_at_pixel(rect, pos) -> ActionSpan | None
    g.handle(event, rect, mouse) -> bool                  # wheel zooms at the mouse, drag pans
    g.zoom(factor, at_t) / g.pan(dt) / g.reset_view() / g.follow(t)
    g.show_held = True      # under each lane, what the agent held over time
    g.show_stations = True  # a track per station: what sat on it
    g.marks = [(t, colour)]  # moments marked across the lanes (a failed run's causes)
    g.time_at(rect, x) / g.x_of(rect, t)
    span_lines(span, story) -> list[str]                 # tooltip text

Bars are coloured by action type (palette.ACTION_COLOURS) and labelled with what the action did
(story: game.engine.narration.Narration), each inside its own bar; zero-length actions (Interact,
Finish) are thin ticks with a diamond marker, what they did in their tooltip;
idle time is the hatched lane background; an action whose effect failed is outlined red, one
rejected at its start is a red cross; everything after `stop` (the run's end at an error) is
greyed: it never ran. Only the visible time window is drawn, so a long run stays cheap.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from game.engine import ActionSpan, Timeline
from game.engine.narration import Narration, held_track, item_key, item_words, station_track

from . import palette as P
from .icons import INGREDIENT_COLOURS
from .text import blit_text, ellipsize, fit_size, font

LABEL_W = 78
AXIS_H = 18
ROW_GAP = 4
TRACK_H = 12
IDLE = (44, 46, 55)
IDLE_HATCH = (56, 58, 68)
NEVER_RAN = (70, 70, 74)
SELECTED = (255, 220, 80)
ITEM_COLOURS = {"plate": (225, 225, 230), "pan": (110, 110, 120), "pot": (140, 120, 100)}
DIRTY = (150, 120, 80)
MIN_VIEW = 2.0  # the narrowest time window zoom allows


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


def span_lines(span: ActionSpan, story: Narration | None = None) -> list[str]:
    """Tooltip: the action, its times, and what it did (the event sentences)."""
    lines = [f"{span.agent} action {span.index}: {action_text(span.action)}"]
    if span.status == "rejected":
        lines.append(f"rejected at t = {_num(span.start)} (never started)")
    else:
        lines.append(f"t = {_num(span.start)} to {_num(span.end)} ({_num(span.end - span.start)} long)")
        if span.status == "failed":
            lines.append("its effect failed: the run stopped here")
        elif span.status == "cut":
            lines.append("still running when the run stopped")
    if story is not None:
        lines += [e.text for e in story.for_action(span.agent, span.index) if e.kind != "move"]
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


def item_colour(item: Mapping[str, Any] | None) -> tuple[int, int, int]:
    """The colour of a track segment: the ingredient's, or the container's."""
    if item is None:
        return IDLE
    kind = item.get("kind")
    if kind == "ingredient":
        return INGREDIENT_COLOURS.get(str(item.get("name")), (160, 160, 170))
    if kind == "dirty_plate":
        return DIRTY
    return ITEM_COLOURS.get(str(kind), (160, 160, 170))


class _Lane:
    """One horizontal strip: an agent's actions, or a track of held items."""

    __slots__ = ("kind", "name", "rect", "index")

    def __init__(self, kind: str, name: str, rect: pygame.Rect, index: int):
        self.kind, self.name, self.rect, self.index = kind, name, rect, index


class Gantt:
    def __init__(
        self,
        timeline: Timeline,
        agents: Sequence[str],
        end: float | None = None,
        stop: float | None = None,
        story: Narration | None = None,
        stations: Sequence[str] = (),
    ):
        self.timeline = timeline
        self.agents = list(agents)
        self.rows = {
            a: sorted((s for s in timeline.spans if s.agent == a), key=lambda s: s.index) for a in agents
        }
        self._starts = {a: [s.start for s in spans] for a, spans in self.rows.items()}
        self._ends = {a: _running_max([s.end for s in spans]) for a, spans in self.rows.items()}
        self.end = max(float(end if end is not None else timeline.end), 1.0)
        self.stop = stop
        self.story = story
        self.stations = list(stations)
        self.show_held = False
        self.show_stations = False
        self.marks: list[tuple[float, tuple[int, int, int]]] = []
        self.view = (0.0, self.end)
        self._tracks: dict[tuple[str, str], list] = {}
        self._cache: tuple[Any, pygame.Surface] | None = None
        self._drag: tuple[int, tuple[float, float]] | None = None
        self.dragged = False

    # -- the visible window ---------------------------------------------------------------
    def set_view(self, t0: float, t1: float) -> None:
        width = min(self.end, max(MIN_VIEW, t1 - t0))
        t0 = min(max(0.0, t0), self.end - width)
        self.view = (t0, t0 + width)

    def zoom(self, factor: float, at: float | None = None) -> None:
        """factor > 1 zooms in; `at` stays where it is on screen."""
        v0, v1 = self.view
        at = (v0 + v1) / 2 if at is None else at
        width = min(self.end, max(MIN_VIEW, (v1 - v0) / factor))
        frac = (at - v0) / (v1 - v0) if v1 > v0 else 0.5
        self.set_view(at - frac * width, at - frac * width + width)

    def pan(self, dt: float) -> None:
        self.set_view(self.view[0] + dt, self.view[1] + dt)

    def reset_view(self) -> None:
        self.view = (0.0, self.end)

    @property
    def zoomed(self) -> bool:
        return self.view != (0.0, self.end)

    def follow(self, t: float) -> None:
        """Keep t in view: when it leaves the window, page so it sits near the left edge."""
        v0, v1 = self.view
        if not v0 <= t <= v1:
            w = v1 - v0
            self.set_view(t - 0.1 * w, t + 0.9 * w)

    def handle(self, event: pygame.event.Event, rect: pygame.Rect, mouse: tuple[int, int]) -> bool:
        """Wheel over the chart zooms around the mouse (shift or a sideways wheel pans); a drag
        with the left button pans. True when the event was used (the caller then redraws)."""
        plot = self.plot(rect)
        if event.type == pygame.MOUSEWHEEL and rect.collidepoint(mouse):
            w = self.view[1] - self.view[0]
            if getattr(event, "x", 0) or pygame.key.get_mods() & pygame.KMOD_SHIFT:
                self.pan(-(event.x or event.y) * w * 0.15)
            elif event.y:
                self.zoom(1.25**event.y, self.time_at(rect, mouse[0]))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and plot.collidepoint(event.pos):
            self._drag, self.dragged = (event.pos[0], self.view), False
            return False
        if event.type == pygame.MOUSEMOTION and self._drag is not None:
            x0, (v0, v1) = self._drag
            if abs(event.pos[0] - x0) > 4 and self.zoomed:
                self.dragged = True
            if self.dragged:
                dt = (x0 - event.pos[0]) * (v1 - v0) / max(1, plot.w)
                self.set_view(v0 + dt, v1 + dt)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag is not None:
            self._drag = None
            return self.dragged
        return False

    # -- geometry -----------------------------------------------------------------------
    def plot(self, rect: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(
            rect.x + LABEL_W, rect.y + 2, max(10, rect.w - LABEL_W - 8), max(4, rect.h - AXIS_H - 4)
        )

    def lanes(self, rect: pygame.Rect) -> list[_Lane]:
        """Agent lanes share what the fixed-height tracks leave; tracks shrink when space is short."""
        plot = self.plot(rect)
        n = max(1, len(self.agents))
        tracks = (n if self.show_held else 0) + (len(self.stations) if self.show_stations else 0)
        track_h = TRACK_H if tracks == 0 else max(3, min(TRACK_H, (plot.h - n * 14) // tracks))
        lane_h = (plot.h - tracks * track_h) / n
        out, y = [], float(plot.y)
        for i, agent in enumerate(self.agents):
            out.append(_Lane("agent", agent, self._strip(plot, y, lane_h, ROW_GAP), i))
            y += lane_h
            if self.show_held:
                out.append(_Lane("held", agent, self._strip(plot, y - ROW_GAP / 2, track_h, 1), i))
                y += track_h
        if self.show_stations:
            for k, station in enumerate(self.stations):
                out.append(_Lane("station", station, self._strip(plot, y, track_h, 1), k))
                y += track_h
        return out

    @staticmethod
    def _strip(plot: pygame.Rect, y: float, h: float, gap: float) -> pygame.Rect:
        return pygame.Rect(plot.x, round(y + gap / 2), plot.w, max(2, round(h - gap)))

    def row_rect(self, rect: pygame.Rect, i: int) -> pygame.Rect:
        agent = self.agents[i]
        return next(lane.rect for lane in self.lanes(rect) if lane.kind == "agent" and lane.name == agent)

    def x_of(self, rect: pygame.Rect, t: float) -> int:
        plot = self.plot(rect)
        v0, v1 = self.view
        return plot.x + round(plot.w * (min(max(t, 0.0), self.end) - v0) / (v1 - v0))

    def time_at(self, rect: pygame.Rect, x: int) -> float:
        plot = self.plot(rect)
        v0, v1 = self.view
        return min(self.end, max(0.0, v0 + (x - plot.x) / plot.w * (v1 - v0)))

    def span_rect(self, rect: pygame.Rect, row: pygame.Rect, span: ActionSpan) -> pygame.Rect:
        x0 = self.x_of(rect, span.start)
        end = span.end if self.stop is None else min(span.end, max(self.stop, span.start))
        x1 = self.x_of(rect, end)
        if x1 - x0 < 3:
            return pygame.Rect(x0 - 1, row.y, 3, row.h)
        return pygame.Rect(x0, row.y, x1 - x0, row.h)

    def _visible(self, agent: str, t0: float, t1: float) -> range:
        """Indexes into rows[agent] of the spans that overlap [t0, t1] (rejected ones included)."""
        lo = bisect_left(self._ends[agent], t0)
        hi = bisect_right(self._starts[agent], t1)
        return range(lo, max(lo, hi))

    def span_at_pixel(self, rect: pygame.Rect, pos: tuple[int, int]) -> ActionSpan | None:
        """The action under pos; zero-length ticks win within 3 pixels, then the bar under pos."""
        if not self.plot(rect).inflate(6, 0).collidepoint(pos):
            return None
        lane = next((ln for ln in self.lanes(rect) if ln.kind == "agent" and ln.rect.collidepoint(pos)), None)
        if lane is None:
            return None
        spans = self.rows[lane.name]
        visible = self._visible(lane.name, self.time_at(rect, pos[0] - 4), self.time_at(rect, pos[0] + 4))
        best, best_d = None, 4
        for i in visible:
            r = self.span_rect(rect, lane.rect, spans[i])
            if r.w <= 3 and abs(r.centerx - pos[0]) < best_d:
                best, best_d = spans[i], abs(r.centerx - pos[0])
        if best is not None:
            return best
        for i in visible:
            if self.span_rect(rect, lane.rect, spans[i]).collidepoint(pos):
                return spans[i]
        return None

    def hit(self, rect: pygame.Rect, pos: tuple[int, int]) -> tuple[str, int] | None:
        span = self.span_at_pixel(rect, pos)
        return None if span is None else (span.agent, span.index)

    def track_at_pixel(self, rect: pygame.Rect, pos: tuple[int, int]) -> tuple[str, str, Any] | None:
        """(kind 'held' or 'station', name, item dict) of the track segment under pos."""
        for lane in self.lanes(rect):
            if lane.kind != "agent" and lane.rect.collidepoint(pos):
                t = self.time_at(rect, pos[0])
                for t0, t1, item in self.track(lane.kind, lane.name):
                    if t0 <= t < t1 or t1 == t0 == t:
                        return lane.kind, lane.name, item
                return lane.kind, lane.name, None
        return None

    def track(self, kind: str, name: str) -> list:
        key = (kind, name)
        if key not in self._tracks:
            make = held_track if kind == "held" else station_track
            self._tracks[key] = make(self.timeline, name)
        return self._tracks[key]

    # -- drawing ------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        t: float,
        hover: ActionSpan | None = None,
        selected: ActionSpan | tuple[str, int] | None = None,
    ) -> None:
        if rect.width < 1 or rect.height < 1:  # a window too small to leave the chart any room
            return
        key = (rect.size, self.view, self.show_held, self.show_stations, tuple(self.marks))
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self._render(rect.size))
        surface.blit(self._cache[1], rect.topleft)
        clip = surface.get_clip()
        surface.set_clip(self.plot(rect).inflate(6, 4).clip(clip) if clip else self.plot(rect).inflate(6, 4))
        for span, colour in ((self._span(selected), SELECTED), (hover, (255, 255, 255))):
            if span is not None and span.agent in self.agents:
                r = self.span_rect(rect, self.row_rect(rect, self.agents.index(span.agent)), span)
                pygame.draw.rect(surface, colour, r.inflate(4, 4), 2)
        surface.set_clip(clip)
        self._draw_cursor(surface, rect, t)

    def _span(self, which: ActionSpan | tuple[str, int] | None) -> ActionSpan | None:
        if which is None or isinstance(which, ActionSpan):
            return which
        agent, index = which
        return next((s for s in self.rows.get(agent, ()) if s.index == index), None)

    def _render(self, size: tuple[int, int]) -> pygame.Surface:
        rect = pygame.Rect((0, 0), size)
        img = pygame.Surface(size)
        img.fill(P.PANEL)
        plot = self.plot(rect)
        for lane in self.lanes(rect):
            if lane.kind == "agent":
                self._draw_lane(img, rect, lane)
            else:
                self._draw_track(img, rect, lane)
        if self.stop is not None and self.view[0] <= self.stop <= self.view[1]:
            x = self.x_of(rect, self.stop)
            pygame.draw.line(img, P.ERROR, (x, plot.y), (x, plot.bottom), 2)
        for t, colour in reversed(self.marks):  # the first (likeliest) drawn last, on top
            if self.view[0] <= t <= self.view[1]:
                self._draw_mark(img, plot, self.x_of(rect, t), colour)
        self._draw_axis(img, rect)
        return img

    @staticmethod
    def _draw_mark(img: pygame.Surface, plot: pygame.Rect, x: int, colour: tuple[int, int, int]) -> None:
        """A dashed line across the lanes under a small downward triangle."""
        for y in range(plot.y + 6, plot.bottom, 8):
            pygame.draw.line(img, colour, (x, y), (x, min(plot.bottom, y + 4)), 2)
        tri = [(x - 6, plot.y), (x + 6, plot.y), (x, plot.y + 8)]
        pygame.draw.polygon(img, colour, tri)
        pygame.draw.polygon(img, (15, 15, 15), tri, 1)

    def _draw_lane(self, img: pygame.Surface, rect: pygame.Rect, lane: _Lane) -> None:
        row, agent = lane.rect, lane.name
        self._draw_row_background(img, row)
        self._draw_label(img, pygame.Rect(4, row.y, LABEL_W - 8, row.h), lane.index, agent)
        clip = img.get_clip()
        img.set_clip(row)
        if self.stop is not None and self.stop < self.view[1]:
            x = max(row.x, self.x_of(rect, self.stop))
            pygame.draw.rect(img, NEVER_RAN, pygame.Rect(x, row.y, row.right - x, row.h))
        spans = self.rows[agent]
        visible = self._visible(agent, *self.view)
        dense = len(visible) > row.w // 4
        ticks, bars, last_x = [], [], -10
        for i in visible:
            span = spans[i]
            r = self.span_rect(rect, row, span)
            if span.status == "rejected" or r.w <= 3:
                ticks.append((span, r))
            elif not dense or r.w > 1 or r.x != last_x:
                bars.append((span, r))
                last_x = r.x
        for span, r in bars:  # each label inside its own bar, never over a neighbour
            self._draw_bar(img, r, span, dense)
        for span, r in ticks:  # an instant action: a marker; what it did is in its tooltip
            self._draw_tick(img, r, span, dense)
        img.set_clip(clip)

    def _draw_row_background(self, img: pygame.Surface, row: pygame.Rect) -> None:
        pygame.draw.rect(img, IDLE, row)
        clip = img.get_clip()
        img.set_clip(row)
        for x in range(row.x - row.h, row.right, 8):
            pygame.draw.line(img, IDLE_HATCH, (x, row.bottom), (x + row.h, row.y), 1)
        img.set_clip(clip)

    def _draw_label(self, img: pygame.Surface, rect: pygame.Rect, i: int, agent: str) -> None:
        colour = P.agent_colour(i)
        r = max(3, min(rect.h // 2 - 1, 10))
        centre = (rect.x + r + 1, rect.centery)
        pygame.draw.circle(img, colour, centre, r)
        blit_text(
            img, str(i + 1), centre, max(10, r * 2), P.text_colour_on(colour), bold=True, anchor="center"
        )
        size = max(10, min(15, rect.h))
        name = ellipsize(agent, rect.w - 2 * r - 6, size)
        blit_text(img, name, (rect.x + 2 * r + 6, rect.centery), size, P.TEXT, anchor="midleft")

    def _bar_text(self, span: ActionSpan) -> str:
        if self.story is not None and span.action.get("action") == "Process":
            return self.story.label(span.agent, span.index) or short_text(span.action)
        return short_text(span.action)

    @staticmethod
    def _fit(text: str, r: pygame.Rect) -> tuple[str, int] | None:
        """The text and a size at which it fits inside the bar (smaller type before none)."""
        size = fit_size(text, r.w - 5, max(10, min(15, r.h - 4)), 9)
        return (text, size) if font(size).size(text)[0] < r.w - 4 else None

    def _draw_bar(self, img: pygame.Surface, r: pygame.Rect, span: ActionSpan, dense: bool = False) -> None:
        name = span.action.get("action", "")
        colour = P.ACTION_COLOURS.get(name, (120, 120, 120))
        pygame.draw.rect(img, colour, r)
        if name == "Wait" and r.w > 6:  # stripes: waiting is planned, unlike idle time
            clip = img.get_clip()
            img.set_clip(r.clip(clip))
            for x in range(r.x, r.right, 6):
                pygame.draw.line(img, (185, 185, 185), (x, r.y), (x, r.bottom), 2)
            img.set_clip(clip)
        if r.w > 4:
            pygame.draw.rect(img, (20, 20, 24), r, 1)
        text = self._bar_text(span)
        fitted = self._fit(text, r) if text else None
        if fitted is not None:
            blit_text(img, fitted[0], r.center, fitted[1], P.text_colour_on(colour), anchor="center")
        if span.status in ("failed", "cut"):
            pygame.draw.rect(img, P.ERROR, r, 3)

    def _draw_tick(self, img: pygame.Surface, r: pygame.Rect, span: ActionSpan, dense: bool) -> None:
        if span.status == "rejected":
            c, s = (r.centerx, r.centery), max(4, min(10, r.h // 3))
            pygame.draw.line(img, P.ERROR, (c[0] - s, c[1] - s), (c[0] + s, c[1] + s), 3)
            pygame.draw.line(img, P.ERROR, (c[0] - s, c[1] + s), (c[0] + s, c[1] - s), 3)
            return
        name = span.action.get("action", "")
        colour = (250, 250, 250) if name == "Finish" else P.ACTION_COLOURS.get(name, (120, 120, 120))
        if dense:
            pygame.draw.line(img, colour, (r.centerx, r.y), (r.centerx, r.bottom))
        else:
            pygame.draw.rect(img, (20, 20, 24), r.inflate(2, 0))
            pygame.draw.rect(img, colour, r)
            d, top = 4, (r.centerx, r.y + 1)
            diamond = [(top[0] - d, top[1] + d), top, (top[0] + d, top[1] + d), (top[0], top[1] + 2 * d)]
            pygame.draw.polygon(img, (20, 20, 24), [(x, y + 1) for x, y in diamond])
            pygame.draw.polygon(img, colour, diamond)
        if span.status == "failed":
            pygame.draw.rect(img, P.ERROR, r.inflate(4, 4), 2)

    def _draw_track(self, img: pygame.Surface, rect: pygame.Rect, lane: _Lane) -> None:
        row = lane.rect
        pygame.draw.rect(img, (28, 29, 36), row)
        if lane.kind == "station":
            size = max(9, min(13, row.h + 1))
            name = ellipsize(lane.name, LABEL_W - 10, size)
            blit_text(img, name, (LABEL_W - 6, row.centery), size, P.TEXT_DIM, anchor="midright")
        clip = img.get_clip()
        img.set_clip(row)
        v0, v1 = self.view
        for t0, t1, item in self.track(lane.kind, lane.name):
            if item is None or t1 < v0 or t0 > v1:
                continue
            x0, x1 = self.x_of(rect, t0), max(self.x_of(rect, t1), self.x_of(rect, t0) + 1)
            seg = pygame.Rect(x0, row.y, x1 - x0, row.h)
            colour = item_colour(item)
            pygame.draw.rect(img, colour, seg)
            text = _track_text(item)
            size = max(9, min(13, row.h + 1))
            if row.h >= 9 and seg.w > 30 and font(size).size(text)[0] < seg.w - 4:
                blit_text(
                    img, text, (seg.x + 3, seg.centery), size, P.text_colour_on(colour), anchor="midleft"
                )
        img.set_clip(clip)

    def _draw_axis(self, img: pygame.Surface, rect: pygame.Rect) -> None:
        plot = self.plot(rect)
        y = plot.bottom + 2
        v0, v1 = self.view
        step = nice_step(v1 - v0, plot.w)
        k = int(v0 // step)
        while k * step <= v1 + 1e-9:
            if k * step >= v0 - 1e-9:
                x = self.x_of(rect, k * step)
                pygame.draw.line(img, P.TEXT_DIM, (x, y), (x, y + 4))
                blit_text(img, _num(k * step), (x, y + 4), 14, P.TEXT_DIM, anchor="midtop")
            k += 1
        if self.zoomed:  # which part of the run is shown, in the label column
            note = f"{v0:.0f}-{v1:.0f} of {self.end:.0f}" if v1 - v0 >= 20 else f"{_num(v0)}-{_num(v1)}"
            size = fit_size(note, LABEL_W - 8, 13, 9)
            blit_text(img, ellipsize(note, LABEL_W - 8, size), (4, y + 2), size, (255, 220, 120))

    def _draw_cursor(self, surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
        if not self.view[0] <= t <= self.view[1]:
            return
        plot = self.plot(rect)
        x = self.x_of(rect, t)
        pygame.draw.line(surface, (0, 0, 0), (x + 1, plot.y), (x + 1, plot.bottom), 1)
        pygame.draw.line(surface, (255, 255, 255), (x, plot.y), (x, plot.bottom), 2)
        pygame.draw.polygon(surface, (255, 255, 255), [(x - 5, plot.y), (x + 5, plot.y), (x, plot.y + 6)])


def _track_text(item: Mapping[str, Any]) -> str:
    if item.get("kind") in ("plate", "pan", "pot"):
        inside = [str(i.get("name")) for i in item.get("contents", ())]
        return f"{item.get('kind')}: {', '.join(inside)}" if inside else str(item.get("kind"))
    if item.get("kind") == "ingredient":
        return f"{item.get('state')} {item.get('name')}"
    return item_key(item) or ""


def track_lines(kind: str, name: str, item: Mapping[str, Any] | None) -> list[str]:
    """Tooltip for a track segment."""
    verb = "holds" if kind == "held" else "has on it"
    return [f"{name} {verb} {item_words(item)}"]


def _running_max(values: list[float]) -> list[float]:
    out, best = [], float("-inf")
    for v in values:
        best = max(best, v)
        out.append(best)
    return out
