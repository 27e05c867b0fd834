"""The replay viewer: a run on a timeline, with transport, Gantt chart, metrics and queues.

    ReplayScreen(replay, back=None, label="")   # back: the screen Escape returns to
    ReplayScreen.from_file(path, back=None)      # raises game.replay.ReplayError

Keys: Space play/pause, Left/Right previous/next event, Home/End, Up/Down speed, E the error,
Escape back (or quit). Mouse: click or drag the scrub bar, click a Gantt bar to seek to that
action, hover the kitchen, the Gantt chart or a marker for details.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine import ActionSpan
from game.replay import Replay, load_replay
from game.ui.render import palette as P
from game.ui.render.gantt import Gantt, span_lines
from game.ui.render.kitchen import KitchenRenderer, describe_tile, fit_tile
from game.ui.render.panels import (
    Marker,
    MetricsPanel,
    QueuePanel,
    draw_error_box,
    draw_scrub,
    draw_tooltip,
    error_highlight,
    marker_at,
    num,
    run_markers,
    scrub_time,
)
from game.ui.render.text import blit_text, ellipsize
from game.ui.render.timeline_index import with_index

THEME = str(Path(__file__).resolve().parents[1] / "theme.json")
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
DEFAULT_SPEED = 2.0
UNITS_PER_SECOND = 1.0  # at 1x the kitchen clock runs one time unit per second
HEADER_H = 44
TRANSPORT_H = 92


class Transport:
    """The viewer's clock: current time, play/pause, speed, event stepping. No pygame."""

    def __init__(self, end: float, events: Iterable[float], speed: float = DEFAULT_SPEED):
        self.end = float(end)
        self.events = sorted({0.0, self.end, *(float(e) for e in events)})
        self.t = 0.0
        self.playing = False
        self.speed_index = SPEEDS.index(speed) if speed in SPEEDS else SPEEDS.index(DEFAULT_SPEED)

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def update(self, dt: float) -> None:
        if self.playing:
            self.t = min(self.end, self.t + dt * self.speed * UNITS_PER_SECOND)
            if self.t >= self.end:
                self.playing = False

    def seek(self, t: float) -> None:
        self.t = min(self.end, max(0.0, float(t)))

    def toggle(self) -> None:
        if not self.playing and self.t >= self.end:
            self.t = 0.0
        self.playing = not self.playing

    def next_event(self) -> None:
        i = bisect_right(self.events, self.t + 1e-9)
        self.seek(self.events[min(i, len(self.events) - 1)])

    def prev_event(self) -> None:
        i = bisect_left(self.events, self.t - 1e-9)
        self.seek(self.events[max(0, i - 1)])

    def home(self) -> None:
        self.seek(0.0)

    def end_(self) -> None:
        self.seek(self.end)

    def faster(self) -> None:
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)


def error_time(result: dict[str, Any]) -> float | None:
    if not result.get("error"):
        return None
    detail = result.get("error_detail") or {}
    return float(detail.get("time", result.get("time", 0)))


def source_text(replay: Replay) -> str:
    src = replay.source or {}
    parts = [str(src.get("kind", "unknown source"))]
    for key in ("model", "method", "player", "plan_file"):
        if src.get(key):
            parts.append(f"{key} {src[key]}")
    return ", ".join(parts)


class TimelineScreen:
    """What the replay and compare views share: the clock, transport buttons, keys, scrub bar."""

    def __init__(
        self,
        end: float,
        events: Iterable[float],
        markers: Sequence[Marker],
        error_at: float | None,
        back: Any = None,
    ):
        self.transport = Transport(end, events)
        self.markers = list(markers)
        self.error_at = error_at
        self.back = back
        self.rects: dict[str, pygame.Rect] = {}
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.mouse = (-1, -1)
        self.dragging = False
        self._next: Any = self
        surface = pygame.display.get_surface()
        self.size = surface.get_size() if surface else (1440, 900)
        self.manager = pygame_gui.UIManager(self.size, THEME)
        self.resize(self.size)

    # -- layout ---------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.manager.set_window_resolution(size)
        self.layout(size)
        self._build_buttons()

    def layout(self, size: tuple[int, int]) -> None:
        raise NotImplementedError

    def transport_rect(self) -> pygame.Rect:
        return self.rects["transport"]

    def _build_buttons(self) -> None:
        for b in self.buttons.values():
            b.kill()
        area = self.transport_rect()
        y = area.bottom - 42
        specs = [
            ("home", "|<", 44, "Start (Home)"),
            ("prev", "<", 44, "Previous event (Left)"),
            ("play", "Pause" if self.transport.playing else "Play", 72, "Play / pause (Space)"),
            ("next", ">", 44, "Next event (Right)"),
            ("end", ">|", 44, "End (End)"),
            ("slower", "-", 36, "Slower (Down)"),
            ("faster", "+", 36, "Faster (Up)"),
        ]
        if self.error_at is not None:
            specs.append(("error", "Go to error", 110, "Jump to the error (E)"))
        if self.back is not None:
            specs.append(("back", "Back", 70, "Back (Escape)"))
        x = area.x + 8
        self.buttons = {}
        for key, text, w, tip in specs:
            if key == "faster":
                self.rects["speed"] = pygame.Rect(x, y, 58, 36)
                x += 62
            obj = "#error_button" if key == "error" else None
            self.buttons[key] = pygame_gui.elements.UIButton(
                pygame.Rect(x, y, w, 36), text, self.manager, tool_tip_text=tip, object_id=obj
            )
            x += w + 4
        self.rects["clock"] = pygame.Rect(x + 12, y, max(10, area.right - x - 20), 36)

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.command(key)
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.dragging:
                self.transport.seek(scrub_time(self.rects["scrub"], event.pos[0], self.transport.end))
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False

    KEYS = {
        pygame.K_SPACE: "play",
        pygame.K_LEFT: "prev",
        pygame.K_RIGHT: "next",
        pygame.K_HOME: "home",
        pygame.K_END: "end",
        pygame.K_UP: "faster",
        pygame.K_DOWN: "slower",
        pygame.K_e: "error",
        pygame.K_ESCAPE: "back",
    }

    def key(self, key: int) -> None:
        command = self.KEYS.get(key)
        if command:
            self.command(command)

    def command(self, name: str) -> None:
        tr = self.transport
        if name == "play":
            tr.toggle()
        elif name == "prev":
            tr.prev_event()
        elif name == "next":
            tr.next_event()
        elif name == "home":
            tr.home()
        elif name == "end":
            tr.end_()
        elif name == "faster":
            tr.faster()
        elif name == "slower":
            tr.slower()
        elif name == "error" and self.error_at is not None:
            tr.playing = False
            tr.seek(self.error_at)
        elif name == "back":
            self._next = self.back

    def click(self, pos: tuple[int, int]) -> None:
        scrub = self.rects["scrub"]
        if scrub.inflate(0, 8).collidepoint(pos):
            self.dragging = True
            self.transport.seek(scrub_time(scrub, pos[0], self.transport.end))
            return
        span = self.span_at(pos)
        if span is not None:
            self.transport.seek(span.start)

    def span_at(self, pos: tuple[int, int]) -> ActionSpan | None:
        return None

    def update(self, dt: float) -> Any:
        self.transport.update(dt)
        play = self.buttons.get("play")
        text = "Pause" if self.transport.playing else "Play"
        if play is not None and play.text != text:
            play.set_text(text)
        self.manager.update(dt)
        return self._next

    def close(self) -> None:
        for b in self.buttons.values():
            b.kill()

    # -- shared drawing ---------------------------------------------------------------------
    def draw_transport(self, surface: pygame.Surface) -> None:
        tr = self.transport
        pygame.draw.rect(surface, P.PANEL, self.transport_rect())
        draw_scrub(surface, self.rects["scrub"], tr.t, tr.end, self.markers)
        blit_text(
            surface, f"{tr.speed:g}x", self.rects["speed"].center, 20, P.TEXT, bold=True, anchor="center"
        )
        clock = f"t = {tr.t:.1f} / {num(tr.end)}"
        blit_text(surface, clock, self.rects["clock"].midleft, 24, P.TEXT, bold=True, anchor="midleft")

    def marker_tooltip(self) -> list[str]:
        m = marker_at(self.rects["scrub"], self.mouse, self.transport.end, self.markers)
        return [m.label] if m else []


class ReplayScreen(TimelineScreen):
    """One run: kitchen, Gantt chart, transport, metrics, error and queues."""

    def __init__(self, replay: Replay, back: Any = None, label: str = ""):
        self.replay = replay = with_index(replay)
        self.label = label
        level, result, tl = replay.level, replay.result, replay.timeline
        agents = level.agent_names
        self.renderer = KitchenRenderer(level, 48)
        err = error_time(result)
        self.gantt = Gantt(tl, agents, stop=err)
        self.metrics = MetricsPanel({**result, "lower_bound": _bound(replay)}, agents)
        self.queues = QueuePanel(replay.plan, tl, agents, result.get("error_detail"))
        super().__init__(tl.end, tl.times, run_markers(result), err, back)

    @classmethod
    def from_file(cls, path: str | Path, back: Any = None) -> ReplayScreen:
        return cls(load_replay(path), back, Path(path).name)

    @property
    def t(self) -> float:
        return self.transport.t

    def shown_state(self) -> dict[str, Any]:
        """The state dict the kitchen shows now (the Timeline's state at the current time)."""
        return self.replay.timeline.state_at(self.transport.t)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        side_w = max(320, min(460, int(w * 0.3)))
        main = pygame.Rect(0, HEADER_H, w - side_w, h - HEADER_H)
        transport = pygame.Rect(main.x, h - TRANSPORT_H, main.w, TRANSPORT_H)
        n = len(self.replay.level.agents)
        gantt_h = max(70, min(int(main.h * 0.36), 26 + 34 * n))
        gantt = pygame.Rect(main.x + 6, transport.y - gantt_h - 4, main.w - 12, gantt_h)
        kitchen = pygame.Rect(main.x + 10, main.y + 6, main.w - 20, gantt.y - main.y - 12)
        self.renderer.set_tile(fit_tile(self.replay.level, kitchen.size))
        side = pygame.Rect(w - side_w, HEADER_H, side_w, h - HEADER_H)
        metrics_h = min(self.metrics.height_for(side_w), side.h // 2)
        self.rects = {
            "header": pygame.Rect(0, 0, w, HEADER_H),
            "main": main,
            "kitchen": kitchen,
            "gantt": gantt,
            "transport": transport,
            "scrub": pygame.Rect(transport.x + 4, transport.y + 6, transport.w - 8, 34),
            "side": side,
            "metrics": pygame.Rect(side.x + 6, side.y + 6, side.w - 12, metrics_h),
        }
        self.rects["below_metrics"] = pygame.Rect(
            side.x + 6, side.y + metrics_h + 12, side.w - 12, side.bottom - side.y - metrics_h - 18
        )

    def span_at(self, pos: tuple[int, int]) -> ActionSpan | None:
        return self.gantt.span_at_pixel(self.rects["gantt"], pos)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((24, 25, 31))
        self._draw_header(surface)
        t = self.transport.t
        state = self.shown_state()
        self.renderer.draw(
            surface,
            self.rects["kitchen"],
            state,
            timeline=self.replay.timeline,
            t=t,
            highlight=self._error_highlight(t),
        )
        hover = self.span_at(self.mouse)
        self.gantt.draw(surface, self.rects["gantt"], t, hover)
        self.draw_transport(surface)
        self._draw_side(surface, t)
        self.manager.draw_ui(surface)
        draw_tooltip(surface, self.mouse, self._tooltip(hover, state, t))

    def _draw_header(self, surface: pygame.Surface) -> None:
        level = self.replay.level
        rect = self.rects["header"]
        pygame.draw.rect(surface, P.PANEL_LIGHT, rect)
        title = level.title or level.name
        orders = ", ".join(level.orders)
        text = f"Replay  {self.label + '  ' if self.label else ''}{title}  ({orders})"
        blit_text(
            surface,
            ellipsize(text, rect.w // 2 + 120, 22),
            (12, rect.centery),
            22,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )
        info = f"{source_text(self.replay)}  |  rules {self.replay.rules}"
        blit_text(
            surface,
            ellipsize(info, rect.w // 2 - 140, 17),
            (rect.right - 12, rect.centery),
            17,
            P.TEXT_DIM,
            anchor="midright",
        )

    def _draw_side(self, surface: pygame.Surface, t: float) -> None:
        pygame.draw.rect(surface, P.PANEL, self.rects["side"])
        self.metrics.draw(surface, self.rects["metrics"])
        rest = self.rects["below_metrics"]
        used = draw_error_box(surface, rest, self.replay.result)
        queues = pygame.Rect(
            rest.x, rest.y + used + (6 if used else 0), rest.w, rest.h - used - (6 if used else 0)
        )
        if queues.h > 30:
            self.queues.draw(surface, queues, t)
        self.rects["queues"] = queues

    def _error_highlight(self, t: float) -> dict | None:
        return error_highlight(self.replay.level, self.replay.result, self.replay.timeline.state_at(t), t)

    def _tooltip(self, hover: ActionSpan | None, state: dict, t: float) -> list[str]:
        if hover is not None:
            return span_lines(hover)
        if self.rects["kitchen"].collidepoint(self.mouse):
            pos = self.renderer.tile_at_pixel(self.rects["kitchen"], self.mouse)
            if pos is not None:
                return describe_tile(self.replay.level, state, pos, t)
        return self.marker_tooltip()


def _bound(replay: Replay) -> int | None:
    """The lower bound on the level's OCT: the planner's own when it made the run, else computed."""
    recorded = replay.source.get("lower_bound")
    if isinstance(recorded, int) and recorded > 0:
        return recorded
    from game.planners.solver.bound import known_bound

    return known_bound(replay.level, replay.rules)
