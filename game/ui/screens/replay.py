"""The replay viewer: a run on a timeline, with transport, Gantt chart, metrics and queues.

    ReplayScreen(replay, back=None, label="")   # back: the screen Escape returns to
    ReplayScreen.from_file(path, back=None)      # raises game.replay.ReplayError

Keys: Space play/pause, Left/Right previous/next event, Home/End, [ and ] speed, E the error,
Escape back (or quit). Mouse: click or drag the scrub bar, click a Gantt bar to seek to that
action, hover the kitchen, the Gantt chart or a marker for details.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine import ActionSpan, parse_plan
from game.engine.diagnosis import SAME_INSTANT_RULE
from game.engine.metrics import bound_fits
from game.engine.narration import item_words, narrate
from game.replay import Replay, load_replay
from game.replay.conversation import replay_messages
from game.ui import speed_keys
from game.ui.clock import Clock, clock_text
from game.ui.planner_job import warm_bound
from game.ui.render import palette as P
from game.ui.render.gantt import Gantt, action_text, span_lines, track_lines
from game.ui.render.kitchen import KitchenRenderer, describe_tile, fit_tile
from game.ui.render.messages_panel import MessagePanel
from game.ui.render.panels import (
    EventLog,
    Marker,
    MetricsPanel,
    QueuePanel,
    draw_chip,
    draw_error_box,
    draw_help,
    draw_scrub,
    draw_tooltip,
    error_highlight,
    marker_at,
    num,
    run_markers,
    scrub_time,
)
from game.ui.render.text import blit_text, ellipsize, fit_size, font
from game.ui.render.timeline_index import with_index
from game.ui.render.why_panel import WhyPanel, error_of, run_diagnosis

THEME = str(Path(__file__).resolve().parents[1] / "theme.json")
HEADER_H = 44
TRANSPORT_H = 92


class Transport(Clock):
    """The viewer's clock: the play window's own (game.ui.clock), with the viewer's verbs."""

    def update(self, dt: float) -> None:
        self.advance(dt)

    def next_event(self) -> None:
        self.step_event(None, 1)

    def prev_event(self) -> None:
        self.step_event(None, -1)

    def home(self) -> None:
        self.seek(0.0)

    def end_(self) -> None:
        self.seek(self.end)

    def faster(self) -> None:
        self.change_speed(1)

    def slower(self) -> None:
        self.change_speed(-1)


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


HELP_SECTIONS = [
    (
        "Time",
        [
            ("Space", "play / pause"),
            ("Left / Right", "previous / next event"),
            ("Home / End", "start / end of the run"),
            (speed_keys.HELP[0], speed_keys.HELP[1] + " (0.25x to 16x)"),
            ("scrub bar", "click or drag to seek; hover a mark for what it is"),
            ("same instant", SAME_INSTANT_RULE),
        ],
    ),
    (
        "Why it failed",
        [
            ("E", "jump to the error"),
            ("C", "jump to the likeliest cause of the error"),
            ("Go to", "a button of the why box: jump to that cause (the first is the likeliest)"),
        ],
    ),
    (
        "Chart and panels",
        [
            ("Gantt: wheel", "zoom around the mouse (Shift+wheel pans)"),
            ("Gantt: drag", "pan a zoomed chart; click a bar to go to that action"),
            ("0", "fit the whole run in the Gantt chart"),
            ("H / S", "tracks: what each agent held / what sat on each station"),
            ("L", "side panel: why it failed, event log or action queues"),
            ("event log", "click a row to go there; filter by agent, station, moves"),
            ("queues", "click a row to go to that action; the wheel scrolls"),
        ],
    ),
    (
        "Window",
        [
            ("P", "edit this plan in the play window (a copy)"),
            ("hover", "an agent, a tile, a bar or a mark: what is there"),
            ("F1 or ?", "this help"),
            ("Escape", "close help, or go back"),
        ],
    ),
]


class TimelineScreen:
    """What the replay and compare views share: the clock, transport buttons, keys, scrub bar,
    the help overlay, and drawing only when something changed."""

    HELP = HELP_SECTIONS
    HELP_TITLE = "Replay viewer: controls"

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
        self.show_help = False
        self.version = 0  # bumped by every event: part of the key that decides whether to draw
        self.frames_drawn = 0
        self._drawn_key: Any = None
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
        self.version += 1

    def layout(self, size: tuple[int, int]) -> None:
        raise NotImplementedError

    def transport_rect(self) -> pygame.Rect:
        return self.rects["transport"]

    def extra_buttons(self) -> list[tuple[str, str, int, str]]:
        return []

    def _build_buttons(self) -> None:
        for b in self.buttons.values():
            b.kill()
        area = self.transport_rect()
        y = area.bottom - 42
        narrow = area.w < 760
        specs = [
            ("home", "|<", 40 if narrow else 44, "Start (Home)"),
            ("prev", "<", 40 if narrow else 44, "Previous event (Left)"),
            (
                "play",
                "Pause" if self.transport.playing else "Play",
                64 if narrow else 72,
                "Play / pause (Space)",
            ),
            ("next", ">", 40 if narrow else 44, "Next event (Right)"),
            ("end", ">|", 40 if narrow else 44, "End (End)"),
            ("slower", "-", 32 if narrow else 36, speed_keys.SLOWER_TIP),
            ("faster", "+", 32 if narrow else 36, speed_keys.FASTER_TIP),
        ]
        if self.error_at is not None:
            specs.append(
                (
                    "error",
                    "Error" if narrow else "Go to error",
                    64 if narrow else 110,
                    "Jump to the error (E)",
                )
            )
        specs += self.extra_buttons()
        specs.append(("help", "?", 32, "Help (F1)"))
        if self.back is not None:
            specs.append(("back", "Back", 64, "Back (Escape)"))
        x = area.x + 8
        self.buttons = {}
        for key, text, w, tip in specs:
            if key == "faster":
                self.rects["speed"] = pygame.Rect(x, y, 54, 36)
                x += 58
            obj = "#error_button" if key == "error" else None
            self.buttons[key] = pygame_gui.elements.UIButton(
                pygame.Rect(x, y, w, 36), text, self.manager, tool_tip_text=tip, object_id=obj
            )
            x += w + 4
        self.rects["clock"] = pygame.Rect(x + 12, y, max(10, area.right - x - 20), 36)

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        self.version += 1
        if self.show_help:
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                self.show_help = False
            return
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.command(key)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.panel_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self.key(event.key, getattr(event, "unicode", ""))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.MOUSEMOTION:
            if self.dragging:
                self.transport.seek(scrub_time(self.rects["scrub"], event.pos[0], self.transport.end))
                self.on_seek()
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False

    def panel_event(self, event: pygame.event.Event) -> bool:
        """Subclasses: give the Gantt charts and side panels the event first; True if used."""
        return False

    KEYS = {
        pygame.K_SPACE: "play",
        pygame.K_LEFT: "prev",
        pygame.K_RIGHT: "next",
        pygame.K_HOME: "home",
        pygame.K_END: "end",
        speed_keys.FASTER: "faster",
        speed_keys.SLOWER: "slower",
        pygame.K_e: "error",
        pygame.K_ESCAPE: "back",
        pygame.K_F1: "help",
    }

    def key(self, key: int, text: str = "") -> None:
        command = "help" if text == "?" else self.KEYS.get(key)
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
        elif name == "help":
            self.show_help = True
        elif name == "back":
            self._next = self.back
        if name in ("prev", "next", "home", "end", "error"):
            self.on_seek()

    def seek(self, t: float) -> None:
        self.transport.seek(t)
        self.on_seek()

    def on_seek(self) -> None:
        """Subclasses: panels that follow the clock catch up after a jump."""

    def click(self, pos: tuple[int, int]) -> None:
        scrub = self.rects["scrub"]
        if scrub.inflate(0, 8).collidepoint(pos):
            self.dragging = True
            self.seek(scrub_time(scrub, pos[0], self.transport.end))
            return
        span = self.span_at(pos)
        if span is not None:
            self.seek(span.start)

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

    def needs_draw(self) -> bool:
        """Input redraws the view (the app sees to that); otherwise only a playing clock does."""
        return self.transport.playing

    # -- drawing only when something changed -------------------------------------------------
    def draw_key(self) -> Any:
        tips = tuple(b.tool_tip is not None for b in self.buttons.values() if hasattr(b, "tool_tip"))
        return (
            self.transport.t,
            self.transport.speed,
            self.transport.playing,
            self.mouse,
            self.size,
            self.version,
            tips,
        )

    def draw(self, surface: pygame.Surface) -> None:
        key = (surface.get_size(), self.draw_key())
        if key == self._drawn_key:
            return
        self._drawn_key = key
        self.frames_drawn += 1
        self.render(surface)
        if self.show_help:
            draw_help(surface, self.HELP_TITLE, self.HELP)

    def render(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    # -- shared drawing ---------------------------------------------------------------------
    def draw_transport(self, surface: pygame.Surface) -> None:
        tr = self.transport
        pygame.draw.rect(surface, P.PANEL, self.transport_rect())
        draw_scrub(surface, self.rects["scrub"], tr.t, tr.end, self.markers)
        blit_text(
            surface, f"{tr.speed:g}x", self.rects["speed"].center, 20, P.TEXT, bold=True, anchor="center"
        )
        clock = clock_text(tr.t, tr.end)
        size = fit_size(clock, self.rects["clock"].w, 24, 14)
        blit_text(surface, clock, self.rects["clock"].midleft, size, P.TEXT, bold=True, anchor="midleft")

    def marker_tooltip(self) -> list[str]:
        m = marker_at(self.rects["scrub"], self.mouse, self.transport.end, self.markers)
        return [m.label] if m else []


SIDE_TABS = ("why", "events", "queues")  # "why" only for a run with a diagnosis
TAB_LABELS = {"why": "Why it failed", "events": "Event log", "queues": "Action queues"}


class ReplayScreen(TimelineScreen):
    """One run: kitchen, Gantt chart with tracks, transport, metrics, the error and why it
    happened, and a side panel with the event log or the action queues."""

    def __init__(self, replay: Replay, back: Any = None, label: str = ""):
        self.replay = replay = with_index(replay)
        self.label = label
        level, result, tl = replay.level, replay.result, replay.timeline
        agents = level.agent_names
        self.renderer = KitchenRenderer(level, 48)
        err = error_time(result)
        detail = result.get("error_detail")
        self.story = narrate(level, tl, replay.rules, detail)
        self.diagnosis = run_diagnosis(replay, self.story)
        self.why = WhyPanel(self.diagnosis, error=error_of(replay))
        stations = [s.name for s in level.stations]
        self.gantt = Gantt(tl, agents, stop=err, story=self.story, stations=_changing(tl, stations))
        self.gantt.marks = cause_marks(self.diagnosis)
        recorded = _recorded_bound(replay)
        # not recorded: worked out in the background and shown when ready (a fraction of a second)
        self.bound_job = None if recorded else warm_bound(replay.level, replay.rules)
        pending = self.bound_job is not None
        self.metrics = MetricsPanel({**result, "lower_bound": recorded}, agents, bound_pending=pending)
        self.queues = QueuePanel(replay.plan, tl, agents, detail)
        self.log = EventLog(self.story, agents, stations)
        self.tabs = SIDE_TABS if self.diagnosis is not None else SIDE_TABS[1:]
        self.tab = self.tabs[0]
        talk = replay_messages(replay.source)
        self.messages = MessagePanel(talk, agents) if talk else None
        super().__init__(tl.end, tl.times, run_markers(result) + self._cause_markers(), err, back)

    def _cause_markers(self) -> list[Marker]:
        return cause_markers(self.diagnosis)

    @classmethod
    def from_file(cls, path: str | Path, back: Any = None) -> ReplayScreen:
        return cls(load_replay(path), back, Path(path).name)

    @property
    def t(self) -> float:
        return self.transport.t

    def shown_state(self) -> dict[str, Any]:
        """The state dict the kitchen shows now (the Timeline's state at the current time)."""
        return self.replay.timeline.state_at(self.transport.t)

    def extra_buttons(self) -> list[tuple[str, str, int, str]]:
        narrow = self.transport_rect().w < 760
        return [
            (
                "edit",
                "Edit" if narrow else "Edit plan",
                60 if narrow else 90,
                "Open this plan in the play window, as a copy (P)",
            )
        ]

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        side_w = max(300, min(500, int(w * 0.32)))
        main = pygame.Rect(0, HEADER_H, w - side_w, h - HEADER_H)
        transport = pygame.Rect(main.x, h - TRANSPORT_H, main.w, TRANSPORT_H)
        n = len(self.replay.level.agents)
        tracks = 1 + (0.4 if self.gantt.show_held else 0)
        wanted = 26 + 34 * n * tracks + (12 * len(self.gantt.stations) if self.gantt.show_stations else 0)
        gantt_h = int(max(70, min(main.h * 0.42, wanted)))
        gantt = pygame.Rect(main.x + 6, transport.y - gantt_h - 4, main.w - 12, gantt_h)
        bar = pygame.Rect(gantt.x, gantt.y - 26, gantt.w, 24)
        kitchen = pygame.Rect(main.x + 10, main.y + 6, main.w - 20, bar.y - main.y - 10)
        self.renderer.set_tile(fit_tile(self.replay.level, kitchen.size, smallest=8))
        side = pygame.Rect(w - side_w, HEADER_H, side_w, h - HEADER_H)
        # a third of the side, or more (up to half) for the orders written compactly
        roomy = max(int(side.h * 0.34), min(self.metrics.compact_height(), int(side.h * 0.5)))
        metrics_h = min(self.metrics.height_for(side_w), roomy)
        self.rects = {
            "header": pygame.Rect(0, 0, w, HEADER_H),
            "main": main,
            "kitchen": kitchen,
            "gantt_bar": bar,
            "gantt": gantt,
            "transport": transport,
            "scrub": pygame.Rect(transport.x + 4, transport.y + 6, transport.w - 8, 34),
            "side": side,
            "metrics": pygame.Rect(side.x + 6, side.y + 6, side.w - 12, metrics_h),
        }
        self.rects["below_metrics"] = pygame.Rect(
            side.x + 6, side.y + metrics_h + 12, side.w - 12, side.bottom - side.y - metrics_h - 18
        )
        self.rects.setdefault("panel", self.rects["below_metrics"])

    def gantt_chips(self) -> dict[str, tuple[pygame.Rect, str, bool]]:
        bar = self.rects["gantt_bar"]
        specs = [
            ("fit", "fit (0)", self.gantt.zoomed),
            ("held", "held (H)", self.gantt.show_held),
            ("stations", "stations (S)", self.gantt.show_stations),
        ]
        out, x = {}, bar.right
        for name, text, on in reversed(specs):
            w = font(14, True).size(text)[0] + 18
            x -= w + 6
            out[name] = (pygame.Rect(x, bar.y + 1, w, 22), text, on)
        return out

    def span_at(self, pos: tuple[int, int]) -> ActionSpan | None:
        return self.gantt.span_at_pixel(self.rects["gantt"], pos)

    # -- events ------------------------------------------------------------------------------
    KEYS = {
        **TimelineScreen.KEYS,
        pygame.K_c: "cause",
        pygame.K_0: "fit",
        pygame.K_h: "held",
        pygame.K_s: "stations",
        pygame.K_l: "tab",
        pygame.K_p: "edit",
    }

    def command(self, name: str) -> None:
        if name == "cause" and self.diagnosis is not None and self.diagnosis.jump is not None:
            self.go_to(self.diagnosis.jump)
        elif name == "fit":
            self.gantt.reset_view()
        elif name in ("held", "stations"):
            attr = "show_held" if name == "held" else "show_stations"
            setattr(self.gantt, attr, not getattr(self.gantt, attr))
            self.resize(self.size)
        elif name == "tab":
            self.tab = self.tabs[(self.tabs.index(self.tab) + 1) % len(self.tabs)]
        elif name == "edit":
            self._next = edit_screen(self.replay, self.label, back=self, t=self.transport.t, size=self.size)
        else:
            super().command(name)

    def panel_event(self, event: pygame.event.Event) -> bool:
        gantt = self.rects["gantt"]
        if self.gantt.handle(event, gantt, self.mouse):
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and gantt.collidepoint(event.pos):
            return False
        panel = self.rects["panel"]
        if event.type == pygame.MOUSEWHEEL and panel.collidepoint(self.mouse):
            if self.tab == "why":
                self.why.scroll_by(panel, -3 * event.y)
            elif self.tab == "events":
                self.log.scroll_by(panel, -3 * event.y, self.transport.t)
            else:
                self.queues.scroll_by(panel, self.mouse, -3 * event.y, self.transport.t)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._click_side(event.pos)
        return False

    def _click_side(self, pos: tuple[int, int]) -> bool:
        for name, (rect, _, _) in self.gantt_chips().items():
            if rect.collidepoint(pos):
                self.command(name)
                return True
        cause = self.why.button_at(pos) if self.tab == "why" else None
        if cause is not None:
            self.go_to(cause.time)
            return True
        for name, rect in self._tab_rects().items():
            if rect.collidepoint(pos):
                self.tab = name
                return True
        panel = self.rects["panel"]
        if not panel.collidepoint(pos):
            return False
        t = self.transport.t
        if self.tab == "why":
            return True
        if self.tab == "events":
            when = self.log.click(panel, pos, t)
            if when is not None:
                self.transport.seek(when)
                self.gantt.follow(when)
        else:
            row = self.queues.row_at(panel, pos, t)
            start = self.queues.start_of(*row) if row else None
            if start is not None:
                self.transport.seek(start)
                self.gantt.follow(start)
        return True

    def go_to(self, t: float) -> None:
        """A Go-to button or key: stop and show that moment."""
        self.transport.playing = False
        self.seek(t)

    def on_seek(self) -> None:
        self.log.follow()
        self.queues.follow()
        self.gantt.follow(self.transport.t)

    def update(self, dt: float) -> Any:
        nxt = super().update(dt)
        if self.transport.playing:
            self.gantt.follow(self.transport.t)
        if self.bound_job is not None and not self.bound_job.is_alive():
            self.bound_job = None
            self._show_bound()
        return nxt

    def _show_bound(self) -> None:
        from game.planners.solver.bound import known_bound

        value = known_bound(self.replay.level, self.replay.rules)  # worked out already: at once
        self.metrics = MetricsPanel({**self.metrics.result, "lower_bound": value}, self.metrics.agents)
        self.version += 1  # its line is drawn in the space kept for it
        if not value:
            self.resize(self.size)  # no bound after all: its line goes

    def draw_key(self) -> Any:
        return (super().draw_key(), self.gantt.view, self.tab, self.why.offset)

    # -- drawing -----------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        surface.fill((24, 25, 31))
        clip = surface.get_clip()
        self._draw_header(surface)
        t = self.transport.t
        state = self.shown_state()
        surface.set_clip(self.rects["kitchen"])
        self.renderer.draw(
            surface,
            self.rects["kitchen"],
            state,
            timeline=self.replay.timeline,
            t=t,
            highlight=self._error_highlight(t),
        )
        surface.set_clip(clip)
        hover = self.span_at(self.mouse)
        self._draw_gantt_bar(surface)
        self.gantt.draw(surface, self.rects["gantt"], t, hover)
        self.draw_transport(surface)
        self._draw_side(surface, t)
        self.manager.draw_ui(surface)
        draw_tooltip(surface, self.mouse, self._tooltip(hover, state, t))

    def _draw_gantt_bar(self, surface: pygame.Surface) -> None:
        bar = self.rects["gantt_bar"]
        chips = self.gantt_chips()
        left = min(r.x for r, _, _ in chips.values()) - 8
        hint = "Gantt: wheel zooms, drag pans, click a bar to go there"
        if left - bar.x > 120:
            blit_text(
                surface,
                ellipsize(hint, left - bar.x - 8, 15),
                (bar.x + 4, bar.centery),
                15,
                P.TEXT_DIM,
                anchor="midleft",
            )
        for rect, text, on in chips.values():
            draw_chip(surface, rect, text, on)

    def _draw_header(self, surface: pygame.Surface) -> None:
        level = self.replay.level
        rect = self.rects["header"]
        pygame.draw.rect(surface, P.PANEL_LIGHT, rect)
        title = level.title or level.name
        orders = ", ".join(level.orders)
        text = f"Replay  {self.label + '  ' if self.label else ''}{title}  ({orders})"
        left_w = int(rect.w * 0.6)
        blit_text(
            surface,
            ellipsize(text, left_w - 12, 22),
            (12, rect.centery),
            22,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )
        info = f"{source_text(self.replay)}  |  rules {self.replay.rules}"
        blit_text(
            surface,
            ellipsize(info, rect.w - left_w - 24, 17),
            (rect.right - 12, rect.centery),
            17,
            P.TEXT_DIM,
            anchor="midright",
        )

    def _tab_rects(self) -> dict[str, pygame.Rect]:
        tabs = self.rects.get("tabs")
        if tabs is None:
            return {}
        n = len(self.tabs)
        w = (tabs.w - 6 * (n - 1)) // n
        return {
            name: pygame.Rect(tabs.x + i * (w + 6), tabs.y, w, tabs.h) for i, name in enumerate(self.tabs)
        }

    def _tab_label(self, name: str, width: int) -> str:
        label = TAB_LABELS[name]
        if name == "events":
            label += f" ({len(self.story.events)})"
        elif name == "why":
            label += f" ({len(self.why.causes)})"
        hinted = label + (" (L)" if name != self.tab else "")
        return hinted if font(15, True).size(hinted)[0] <= width - 8 else label

    def _draw_side(self, surface: pygame.Surface, t: float) -> None:
        pygame.draw.rect(surface, P.PANEL, self.rects["side"])
        self.metrics.draw(surface, self.rects["metrics"])
        rest = self.rects["below_metrics"]
        # the why tab opens with the error itself, in the summary: no second error box above it
        used = 0 if self.tab == "why" else draw_error_box(surface, rest, self.replay.result)
        y = rest.y + used + (6 if used else 0)
        tabs = pygame.Rect(rest.x, y, rest.w, 24)
        self.rects["tabs"] = tabs
        for name, rect in self._tab_rects().items():
            draw_chip(surface, rect, self._tab_label(name, rect.w), name == self.tab, 15)
        panel = pygame.Rect(rest.x, tabs.bottom + 4, rest.w, rest.bottom - tabs.bottom - 4)
        if self.messages is not None and panel.h > 120:  # a talking run: its messages below
            talk = pygame.Rect(panel.x, panel.bottom - panel.h * 2 // 5, panel.w, panel.h * 2 // 5)
            panel.h -= talk.h + 6
            self.messages.draw(surface, talk, t)
            self.rects["messages"] = talk
        self.rects["panel"] = panel
        if panel.h > 30:
            if self.tab == "why":
                self.why.draw(surface, panel)
            elif self.tab == "events":
                self.log.draw(surface, panel, t)
            else:
                self.queues.draw(surface, panel, t)
        self.rects["queues"] = panel

    def _error_highlight(self, t: float) -> dict | None:
        return error_highlight(self.replay.level, self.replay.result, self.replay.timeline.state_at(t), t)

    def _tooltip(self, hover: ActionSpan | None, state: dict, t: float) -> list[str]:
        if hover is not None:
            return span_lines(hover, self.story)
        track = self.gantt.track_at_pixel(self.rects["gantt"], self.mouse)
        if track is not None:
            return track_lines(*track)
        if self.rects["kitchen"].collidepoint(self.mouse):
            agent = self.renderer.agent_at_pixel(self.mouse)
            if agent is not None:
                return agent_lines(self.replay.timeline, state, agent, t)
            pos = self.renderer.tile_at_pixel(self.rects["kitchen"], self.mouse)
            if pos is not None:
                return tile_lines(self.replay, state, pos, t)
        if self.tab == "events":
            tips = self.log.tooltip(self.rects["panel"], self.mouse, t)
            if tips:
                return tips
        return self.marker_tooltip()


def agent_lines(timeline: Any, state: dict, agent: str, t: float) -> list[str]:
    """Tooltip for an agent, walking or not: where, doing what, holding what. An agent whose
    action the run's stop cut short is where its walk had got to, on its way somewhere."""
    x, y = timeline.position_at(agent, t)
    held = (state.get("agents", {}).get(agent) or {}).get("held")
    lines = [f"{agent} at ({num(x)}, {num(y)}), holding {item_words(held)}"]
    span = timeline.span_at(agent, t)
    if span is not None and span.status == "cut" and t >= span.end:
        lines.append(stopped_words(span))
    elif span is not None:
        lines.append(
            f"action {span.index}: {action_text(span.action)}, t = {num(span.start)} to {num(span.end)}"
        )
    else:
        lines.append("idle")
    return lines


def tile_lines(replay: Replay, state: dict, pos: tuple[int, int], t: float) -> list[str]:
    """A tile's tooltip with the agents where they are drawn, cooking as an Interact finds it."""
    tl = replay.timeline
    where = {a: tl.position_at(a, t) for a in state.get("agents", {})}
    return describe_tile(replay.level, state, pos, t, where, replay.rules)


def stopped_words(span: ActionSpan) -> str:
    """'on its way to (3, 1), stopped at t = 53: the run ended before its action 16 (MoveTo
    (3, 1)) completed'."""
    what = f"its action {span.index} ({action_text(span.action)})"
    target = span.action.get("target")
    if span.action.get("action") == "MoveTo" and isinstance(target, list) and len(target) == 2:
        head = f"on its way to ({num(target[0])}, {num(target[1])}), stopped at t = {num(span.end)}"
    else:
        head = f"stopped at t = {num(span.end)} in the middle of {what}"
        what = "it"
    return f"{head}: the run ended before {what} completed"


def cause_markers(diagnosis: Any, row: int = 0, tag: str = "") -> list[Marker]:
    """A scrub-bar mark per cause of a failed run: the likeliest in orange, the others paler."""
    if diagnosis is None:
        return []
    out = []
    for i, c in enumerate(diagnosis.causes):
        which = "likeliest cause" if i == 0 else f"cause {i + 1}"
        colour = P.COOKING if i == 0 else (200, 170, 120)
        out.append(Marker(c.time, colour, f"{tag}{which} at t = {num(c.time)}: {c.text}", row))
    return out[::-1]  # the likeliest drawn last, on top


def cause_marks(diagnosis: Any) -> list[tuple[float, tuple[int, int, int]]]:
    """The Gantt chart's marks for a failed run's causes (the same colours as the scrub bar's)."""
    return [(m.time, m.colour) for m in cause_markers(diagnosis)[::-1]]


def _changing(timeline: Any, stations: Sequence[str]) -> list[str]:
    """The stations whose contents change during the run (the others need no track)."""
    first = timeline.states[0]["stations"] if timeline.states else {}
    return [s for s in stations if any(st["stations"].get(s) != first.get(s) for st in timeline.states)]


def edit_copy(replay: Replay, label: str = "") -> tuple[Any, Any]:
    """The replay's level and plan as a new play-window level: under the run's rules, and with
    its own id, so edits autosave apart from the player's own plan for that kitchen."""
    level = replay.level.with_rules(replay.rules)
    ident = str(level.meta.get("id") or level.title or level.name)
    name = Path(label).stem if label else "replay"
    level = level.replace(
        title=f"{level.title or level.name} (edit of {name})",
        meta={**level.meta, "id": f"{ident}/edit-of-{name}"},
    )
    return level, parse_plan(replay.plan, level.agent_names)


def edit_screen(replay: Replay, label: str, back: Any, t: float, size: tuple[int, int]) -> Any:
    """The play window on a copy of this replay's level and plan; Escape/Levels returns here."""
    from game.ui.screens.play import PlayScreen

    level, plan = edit_copy(replay, label)
    screen = PlayScreen(level, plan, back=back, restore=False, size=size)
    screen.t = t
    return screen


def _recorded_bound(replay: Replay) -> int | None:
    """The lower bound the planner recorded when it made the run, if it did and it can be one
    (never above the run's served OCT: then it is worked out instead)."""
    recorded = replay.source.get("lower_bound")
    if not (isinstance(recorded, int) and not isinstance(recorded, bool) and recorded > 0):
        return None
    result = replay.result
    return recorded if bound_fits(recorded, result.get("done") is True, result.get("time", 0)) else None
