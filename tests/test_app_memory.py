"""The window's loop keeps the garbage collector out of its frames: what lives when a screen is
shown is set aside from it (so a full collection never walks the whole program mid-frame), and a
screen left behind is still freed."""

from __future__ import annotations

import gc
import weakref

import pygame

from game.ui.app import App


class Plain:
    """A screen that holds a reference cycle (as widgets and their callbacks do)."""

    def __init__(self, then=None):
        self.then = then
        self.me = self  # only the collector frees this one

    def handle(self, event) -> None:
        pass

    def update(self, dt: float):
        return self.then() if self.then else self

    def draw(self, surface) -> None:
        surface.fill((0, 0, 0))


def test_showing_a_screen_freezes_what_lives_and_frees_the_screen_left_behind():
    surface = pygame.display.set_mode((200, 100))
    first = Plain(then=Plain)
    gone = weakref.ref(first)
    app = App(first, surface)
    assert gc.get_freeze_count() > 0  # the program so far is out of the collector's walks
    del first
    assert app.step(1 / 60)  # the first screen hands over to a new one
    assert gone() is None  # the cycle of the screen left behind was collected, not frozen for good
    assert isinstance(app.screen, Plain) and gc.get_freeze_count() > 0
    gc.unfreeze()
