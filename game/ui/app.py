"""The window and its loop. Screens return the next screen; the app holds no other state.

A screen is any object with:
    handle(event) -> None           every pygame event (pygame_gui events included)
    update(dt: float) -> Screen|None  the screen to show next (itself to stay, None to quit)
    draw(surface) -> None
    resize(size) -> None            optional: the window changed size
    needs_draw() -> bool            optional: False when the last frame is still right; the app
                                    then sleeps until input arrives (a screen without it is
                                    drawn every frame)
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Protocol

import pygame

from game.ui.store import data_dir
from game.ui.window_size import clamp_to, fitting_size, load_remembered, save_remembered

DEFAULT_SIZE = (1440, 900)
MIN_SIZE = (1024, 700)  # the smallest window the layouts are made for
FPS = 60
IDLE_SLEEP_S = 0.03  # an idle window looks for input this often (SDL's own wait polls, and costs more)
SETTLE_S = 1.5  # after input, keep drawing this long: widget hovers and tooltips settle
MAX_DT = 0.25  # after a long sleep, time moves on by at most this much in one frame


NO_DISPLAY_HELP = (
    "the windows need a desktop session or a virtual display (Xvfb); "
    "`paracook-kitchen export` renders a replay without one"
)


class NoDisplay(RuntimeError):
    """There is no screen to open a window on."""


def init_display() -> None:
    """Start SDL's video, or raise NoDisplay: with no display SDL may fall back to its offscreen
    driver, where a window opens unseen and the program waits for input that never comes."""
    try:
        pygame.display.init()
    except pygame.error as e:
        raise NoDisplay(f"no display to open a window on ({e}); {NO_DISPLAY_HELP}") from None
    if pygame.display.get_driver() == "offscreen" and os.environ.get("SDL_VIDEODRIVER") != "offscreen":
        pygame.display.quit()
        raise NoDisplay(f"no display to open a window on ({_why_none()}); {NO_DISPLAY_HELP}")


def _why_none() -> str:
    """Why SDL found no display: none named, or the one named does not answer."""
    named = [f"{k}={os.environ[k]}" for k in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(k)]
    if not named:
        return "DISPLAY is not set"
    return f"nothing answers at {' or '.join(named)}"[:200]


class Screen(Protocol):
    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> Screen | None: ...

    def draw(self, surface: pygame.Surface) -> None: ...


def desktop_size() -> tuple[int, int] | None:
    """The first screen's size in pixels, when the video driver knows it."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return tuple(sizes[0]) if sizes and sizes[0][0] > 0 and sizes[0][1] > 0 else None


def window_size(size: tuple[int, int] | None = None) -> tuple[int, int]:
    """The size to open at: the one asked for kept within the screen, else the remembered one if
    it fits, else the largest preset that fits (game/ui/window_size.py)."""
    init_display()
    desktop = desktop_size()
    if size is not None:
        return clamp_to(size, desktop)
    return fitting_size(desktop, load_remembered(data_dir()))


def open_window(size: tuple[int, int] | None = None, title: str = "ParaCook Kitchen") -> pygame.Surface:
    """Create (or reuse) the resizable main window, centred, at a size that fits the screen."""
    init_display()  # not pygame.init(): the kitchen is silent, and audio init is noisy
    pygame.font.init()
    pygame.display.set_caption(title)
    os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
    flags = 0 if os.environ.get("SDL_VIDEODRIVER") == "dummy" else pygame.RESIZABLE
    return pygame.display.set_mode(window_size(size), flags)


def settle_memory(let_go: bool = True) -> None:
    """Set what lives aside from the collector (`gc.freeze`): a screen's modules, widgets and
    level are tens of thousands of objects, and a full collection walking them all, at a moment
    of the collector's choosing, took one frame to 50-80 ms. Done when a screen is shown, where a
    pause goes unseen. With `let_go`, the screen left behind is collected first (a walk of the
    whole program); the first screen has none before it."""
    if let_go:
        gc.unfreeze()
        gc.collect()
    gc.freeze()


class App:
    """Runs one screen at a time. `step()` is one frame, so tests can drive the real loop."""

    def __init__(self, screen: Screen, surface: pygame.Surface | None = None, remember: bool = False):
        self.surface = surface or open_window()
        self.remember = remember  # keep a size the user resized to for the next window
        self.resized: tuple[int, int] | None = None
        self.screen: Screen | None = screen
        self.clock = pygame.time.Clock()
        self.last_input = time.monotonic()
        self.frames = 0  # frames drawn (the idle benchmark counts them)
        settle_memory(let_go=False)

    def step(self, dt: float | None = None) -> bool:
        """Handle pending events, update and draw once; False once the app should close.
        With dt given (tests) the frame is always drawn; otherwise an idle screen is not redrawn
        and the loop sleeps until input comes."""
        if self.screen is None:
            return False
        events = pygame.event.get()
        if dt is None and not events and self._idle():
            time.sleep(IDLE_SLEEP_S)
            events = pygame.event.get()
        if events:
            self.last_input = time.monotonic()
        for event in events:
            if event.type == pygame.QUIT:
                self._close()
                return False
            if event.type == pygame.VIDEORESIZE:
                size = (max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h))
                self.resized = size
                resize = getattr(self.screen, "resize", None)
                if resize:
                    resize(size)
            self.screen.handle(event)
        frame_dt = min(MAX_DT, self.clock.tick(FPS) / 1000) if dt is None else dt
        nxt = self.screen.update(frame_dt)
        if nxt is not self.screen:
            close = getattr(self.screen, "close", None)
            if close:
                close()
            self.screen = nxt
            if nxt is None:
                return False
            resize = getattr(nxt, "resize", None)
            if resize:
                resize(self.surface.get_size())
            settle_memory()
            events = [None]  # a new screen is always drawn
        if dt is not None or events or not self._idle():
            self.screen.draw(self.surface)
            pygame.display.flip()
            self.frames += 1
        return True

    def _idle(self) -> bool:
        """The screen says its last frame is still right, and no input came in a while."""
        needs_draw = getattr(self.screen, "needs_draw", None)
        if needs_draw is None or needs_draw():
            return False
        return time.monotonic() - self.last_input > SETTLE_S

    def _close(self) -> None:
        close = getattr(self.screen, "close", None)
        if close:
            close()
        self.screen = None

    def run(self) -> None:
        while self.step():
            pass
        if self.remember and self.resized:
            problem = save_remembered(data_dir(), self.resized)
            if problem:
                print(f"note: {problem}", file=sys.stderr)
        pygame.quit()
