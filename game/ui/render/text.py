"""Fonts (cached per size) and small text helpers; pygame's bundled font, so no system fonts."""

from __future__ import annotations

from functools import lru_cache

import pygame

_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}
pygame.register_quit(_FONTS.clear)  # fonts die with pygame.quit(); a later init makes new ones


def font(size: int, bold: bool = False) -> pygame.font.Font:
    key = (max(6, int(size)), bold)
    f = _FONTS.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = _FONTS[key] = pygame.font.Font(None, key[0])
        f.bold = bold
    return f


_RENDERED: dict[tuple, pygame.Surface] = {}
RENDER_CACHE = 4096  # rendered strings kept: the same labels are drawn every frame
pygame.register_quit(_RENDERED.clear)


def render(text: str, size: int, colour, bold: bool = False) -> pygame.Surface:
    key = (text, size, tuple(colour), bold)
    img = _RENDERED.get(key)
    if img is None:
        if len(_RENDERED) >= RENDER_CACHE:
            _RENDERED.clear()
        img = _RENDERED[key] = render_with(font(size, bold), text, colour)
    return img


def render_with(f: pygame.font.Font, text: str, colour) -> pygame.Surface:
    """f.render, safe on any text: what draws nothing (zero-width characters only) gives an
    empty surface of the line's height instead of pygame's "Text has zero width" error."""
    try:
        return f.render(text, True, colour)
    except (pygame.error, ValueError):  # zero width; ValueError: a NUL character in the text
        try:
            return f.render(text.replace("\0", ""), True, colour)
        except (pygame.error, ValueError):
            return pygame.Surface((1, f.get_linesize()), pygame.SRCALPHA)


def blit_text(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    size: int,
    colour,
    bold: bool = False,
    anchor: str = "topleft",
) -> pygame.Rect:
    """Draw text with any Rect anchor (topleft, center, midright...); returns its rect."""
    img = render(text, size, colour, bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


@lru_cache(maxsize=4096)  # labels and bars are fitted again on every redraw
def fit_size(text: str, width: int, largest: int, smallest: int = 8) -> int:
    """The largest font size (<= largest) whose rendering of text fits width."""
    size = largest
    while size > smallest and font(size).size(text)[0] > width:
        size -= 1
    return size


def ellipsize(text: str, width: int, size: int, bold: bool = False) -> str:
    # no glyph is narrower than a pixel that shows: that bounds any text, and what is kept
    return _ellipsized(text[: max(0, width) + 1], width, size, bold)


@lru_cache(maxsize=4096)  # the same labels and log rows are fitted on every frame
def _ellipsized(text: str, width: int, size: int, bold: bool) -> str:
    f = font(size, bold)
    if f.size(text)[0] <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis, by bisection
    while low < high:
        mid = (low + high + 1) // 2
        if f.size(text[:mid] + "…")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low] + "…"


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Greedy word wrap to a pixel width (a word longer than width gets its own line)."""
    f = font(size, bold)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
