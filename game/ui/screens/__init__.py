"""Screens: level browser, play, replay, compare. Each returns the next screen."""

from game.ui.gui_text import make_safe

make_safe()  # no text a screen shows (a file name, a typed character) can break pygame_gui
