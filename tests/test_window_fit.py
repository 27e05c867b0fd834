"""Windows open at a size that fits the screen: the largest preset that fits, a remembered
resized size when it still fits, and an asked-for size kept within the screen."""

from __future__ import annotations

import pygame
import pytest

from game.ui import app as app_module
from game.ui import store
from game.ui.app import App, open_window
from game.ui.window_size import fitting_size, load_remembered, save_remembered


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize(
    "desktop, size",
    [
        ((1024, 700), (1024, 700)),
        ((1366, 768), (1024, 700)),
        ((1440, 900), (1280, 800)),
        ((1920, 1080), (1600, 1000)),
        ((800, 600), (800, 600)),
    ],
)
def test_the_largest_preset_that_fits_never_more_than_the_screen(desktop, size):
    assert fitting_size(desktop) == size
    assert fitting_size(desktop)[0] <= desktop[0] and fitting_size(desktop)[1] <= desktop[1]


def test_a_window_opened_on_a_1024x700_display_fits_it(monkeypatch):
    monkeypatch.setattr(app_module, "desktop_size", lambda: (1024, 700))
    surface = open_window()
    assert surface.get_size() == (1024, 700)
    assert open_window((1440, 900)).get_size() == (1024, 700)  # --size larger than the screen


class Still:
    def __init__(self):
        self.sizes = []

    def handle(self, event):
        pass

    def update(self, dt):
        return self

    def draw(self, surface):
        pass

    def resize(self, size):
        self.sizes.append(size)


def test_a_resized_window_is_remembered_while_it_fits(monkeypatch, data_home):
    monkeypatch.setattr(app_module, "desktop_size", lambda: (1920, 1080))
    screen = Still()
    app = App(screen, open_window(), remember=True)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1300, h=820, size=(1300, 820)))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()
    assert screen.sizes == [(1300, 820)] and load_remembered(data_home) == (1300, 820)
    assert open_window().get_size() == (1300, 820)
    monkeypatch.setattr(app_module, "desktop_size", lambda: (1024, 700))
    assert open_window().get_size() == (1024, 700)  # the remembered size no longer fits


def test_a_damaged_or_unwritable_size_file_is_no_remembered_size(data_home, tmp_path):
    data_home.mkdir(parents=True)
    for text in ("{", '{"size": [10, 10]}', '{"size": "big"}', '{"size": [1e400, 900]}'):
        (data_home / "window.json").write_text(text)
        assert load_remembered(data_home) is None
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert "cannot remember" in save_remembered(blocked / "sub", (1200, 800))


def test_a_long_error_is_shown_whole_in_a_1024x700_play_window():
    from pathlib import Path

    from game.levels import load_level
    from game.ui.play import PlayScreen
    from game.ui.play.status import _error_lines

    pygame.init()
    surface = pygame.display.set_mode((1024, 700))
    screen = PlayScreen(
        load_level(Path("levels/tutorial/01_first_salad.yaml")), size=(1024, 700), restore=False
    )
    rect = screen.layout.status
    text = (
        "agent1 action 12 Interact(serving_window) at t = 31: the plate holds chopped lettuce and "
        "raw tomato, but the next order, salad_tomato_lettuce (order 2 of 3), needs chopped lettuce "
        "and chopped tomato; nothing was served and the run stopped here"
    )
    lines, size = _error_lines(text, rect)
    assert " ".join(lines) == text and size >= 13 and len(lines) * (size + 2) <= rect.h - 4
    screen.draw(surface)  # and the window draws it


def test_the_browsers_subtitle_is_whole_at_1024_wide():
    from game.ui.render.text import font
    from game.ui.screens.browser import SUBTITLES

    assert font(17).size(SUBTITLES[1])[0] <= 1024 - 40  # a whole sentence fits the smallest window
    assert font(17).size(SUBTITLES[0])[0] <= 1600 - 40
