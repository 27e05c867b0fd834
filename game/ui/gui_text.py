"""pygame_gui draws every label, list row and text box through one font class; pygame refuses to
render text of zero width ("Text has zero width") and that error would close the window when a
file name, a pasted path or a typed character is only zero-width characters. `make_safe` wraps
the class's three drawing calls so such text draws as a blank the size of a space."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pygame
from pygame_gui.core.gui_font_pygame import GUIFontPygame

_DONE = "_paracook_safe"


def _safe(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, text, *args, **kwargs)
        except (pygame.error, ValueError):  # zero width, or a NUL character
            return method(self, " ", *args, **kwargs)  # a space: the line's height, nothing drawn

    return wrapper


def make_safe() -> None:
    """Patch pygame_gui's font once (idempotent)."""
    if getattr(GUIFontPygame, _DONE, False):
        return
    for name in ("get_rect", "render_premul", "render_premul_to", "size"):
        setattr(GUIFontPygame, name, _safe(getattr(GUIFontPygame, name)))
    setattr(GUIFontPygame, _DONE, True)
