"""The window and its loop. Screens return the next screen; the app holds no other state.

A screen is any object with:
    handle(event) -> None           every pygame event (pygame_gui events included)
    update(dt: float) -> Screen|None  the screen to show next (itself to stay, None to quit)
    draw(surface) -> None
    resize(size) -> None            optional: the window changed size
"""

from __future__ import annotations

import os
from typing import Protocol

import pygame

DEFAULT_SIZE = (1440, 900)
MIN_SIZE = (960, 640)
FPS = 60


class Screen(Protocol):
    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> Screen | None: ...

    def draw(self, surface: pygame.Surface) -> None: ...


def open_window(size: tuple[int, int] = DEFAULT_SIZE, title: str = "ParaCook Kitchen") -> pygame.Surface:
    """Create (or reuse) the resizable main window."""
    pygame.display.init()  # not pygame.init(): the kitchen is silent, and audio init is noisy
    pygame.font.init()
    pygame.display.set_caption(title)
    flags = 0 if os.environ.get("SDL_VIDEODRIVER") == "dummy" else pygame.RESIZABLE
    return pygame.display.set_mode(size, flags)


class App:
    """Runs one screen at a time. `step()` is one frame, so tests can drive the real loop."""

    def __init__(self, screen: Screen, surface: pygame.Surface | None = None):
        self.surface = surface or open_window()
        self.screen: Screen | None = screen
        self.clock = pygame.time.Clock()

    def step(self, dt: float | None = None) -> bool:
        """Handle pending events, update and draw once; False once the app should close."""
        if self.screen is None:
            return False
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self._close()
                return False
            if event.type == pygame.VIDEORESIZE:
                size = (max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h))
                resize = getattr(self.screen, "resize", None)
                if resize:
                    resize(size)
            self.screen.handle(event)
        frame_dt = self.clock.tick(FPS) / 1000 if dt is None else dt
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
        self.screen.draw(self.surface)
        pygame.display.flip()
        return True

    def _close(self) -> None:
        close = getattr(self.screen, "close", None)
        if close:
            close()
        self.screen = None

    def run(self) -> None:
        while self.step():
            pass
        pygame.quit()
