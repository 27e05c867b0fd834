"""Icons drawn by code, cached per size: station kinds, floor and wall tiles, and items.

Ingredient states differ by shape, not colour alone: raw is whole, chopped is cut into
separated slices, cooked is browned with thin steam wisps above it, burnt (a scenario option) is
charred with dark smoke puffs above it.
Every function returns a cached Surface (do not draw on it)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pygame

from . import palette as P
from .text import render_with

SS = 2  # supersampling factor: shapes are drawn large, then smooth-scaled down

INGREDIENT_COLOURS: dict[str, tuple[int, int, int]] = {
    "lettuce": (110, 190, 70),
    "tomato": (220, 60, 45),
    "cucumber": (40, 120, 60),
    "fish": (110, 150, 190),
    "shrimp": (245, 160, 150),
    "prawn": (235, 120, 80),
    "meat": (170, 50, 50),
    "chicken": (235, 190, 140),
    "mushroom": (170, 130, 100),
    "pasta": (240, 210, 110),
    "rice": (245, 245, 235),
    "tortilla": (235, 205, 140),
    "nori": (30, 60, 40),
    "bread": (215, 160, 80),
    "cheese": (250, 205, 60),
}
OUTLINE = (40, 34, 30)


def _canvas(size: int) -> pygame.Surface:
    return pygame.Surface((size * SS, size * SS), pygame.SRCALPHA)


def _finish(big: pygame.Surface, size: int) -> pygame.Surface:
    return pygame.transform.smoothscale(big, (size, size))


def _darker(c: tuple[int, int, int], f: float = 0.65) -> tuple[int, int, int]:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


# -- ingredient shapes (drawn on an s x s canvas) ---------------------------------------
def _circle(s: pygame.Surface, colour, cx: float, cy: float, r: float, width: int = 0) -> None:
    pygame.draw.circle(s, colour, (int(cx), int(cy)), max(1, int(r)), width)


def _shape_lettuce(s, n, c):
    for ang in range(0, 360, 45):
        a = math.radians(ang)
        _circle(s, c, n / 2 + math.cos(a) * n * 0.18, n / 2 + math.sin(a) * n * 0.18, n * 0.2)
    _circle(s, (170, 225, 120), n / 2, n / 2, n * 0.17)
    pygame.draw.line(s, (80, 150, 50), (n * 0.5, n * 0.3), (n * 0.5, n * 0.7), max(1, n // 24))


def _shape_tomato(s, n, c):
    _circle(s, c, n / 2, n * 0.55, n * 0.34)
    for ang in (-90, -30, -150, 30, 150):
        a = math.radians(ang)
        pygame.draw.line(
            s,
            (40, 130, 50),
            (n / 2, n * 0.26),
            (n / 2 + math.cos(a) * n * 0.14, n * 0.26 + math.sin(a) * n * 0.1),
            max(2, n // 14),
        )


def _shape_cucumber(s, n, c):
    body = pygame.Surface((int(n * 0.9), int(n * 0.36)), pygame.SRCALPHA)
    pygame.draw.ellipse(body, c, body.get_rect())
    for i in range(5):
        x = body.get_width() * (0.18 + i * 0.16)
        _circle(body, (150, 200, 130), x, body.get_height() * 0.4, n * 0.025)
    rot = pygame.transform.rotate(body, 35)
    s.blit(rot, rot.get_rect(center=(n / 2, n / 2)))


def _shape_fish(s, n, c):
    pygame.draw.ellipse(s, c, pygame.Rect(n * 0.12, n * 0.3, n * 0.6, n * 0.4))
    pygame.draw.polygon(s, c, [(n * 0.66, n * 0.5), (n * 0.92, n * 0.3), (n * 0.92, n * 0.7)])
    _circle(s, (20, 20, 30), n * 0.26, n * 0.45, n * 0.04)


def _shape_shrimp(s, n, c):
    rect = pygame.Rect(n * 0.15, n * 0.18, n * 0.64, n * 0.64)
    pygame.draw.arc(s, c, rect, math.radians(-60), math.radians(200), max(3, int(n * 0.17)))
    pygame.draw.polygon(s, c, [(n * 0.63, n * 0.74), (n * 0.86, n * 0.66), (n * 0.8, n * 0.9)])


def _shape_prawn(s, n, c):
    _shape_shrimp(s, n, c)
    w = max(1, n // 30)
    pygame.draw.line(s, _darker(c), (n * 0.2, n * 0.32), (n * 0.05, n * 0.08), w)
    pygame.draw.line(s, _darker(c), (n * 0.24, n * 0.28), (n * 0.2, n * 0.04), w)


def _shape_meat(s, n, c):
    r = pygame.Rect(n * 0.14, n * 0.24, n * 0.72, n * 0.52)
    pygame.draw.ellipse(s, c, r)
    pygame.draw.arc(
        s,
        (245, 225, 215),
        r.inflate(-n * 0.2, -n * 0.16),
        math.radians(20),
        math.radians(160),
        max(2, n // 14),
    )


def _shape_chicken(s, n, c):
    _circle(s, c, n * 0.42, n * 0.42, n * 0.27)
    pygame.draw.line(s, (245, 240, 230), (n * 0.55, n * 0.55), (n * 0.8, n * 0.8), max(3, n // 9))
    _circle(s, (245, 240, 230), n * 0.84, n * 0.78, n * 0.06)
    _circle(s, (245, 240, 230), n * 0.78, n * 0.86, n * 0.06)


def _shape_mushroom(s, n, c):
    pygame.draw.rect(
        s, (235, 225, 205), pygame.Rect(n * 0.4, n * 0.45, n * 0.2, n * 0.35), border_radius=max(1, n // 20)
    )
    pygame.draw.ellipse(s, c, pygame.Rect(n * 0.14, n * 0.2, n * 0.72, n * 0.42))
    _circle(s, (240, 230, 215), n * 0.36, n * 0.34, n * 0.05)
    _circle(s, (240, 230, 215), n * 0.6, n * 0.3, n * 0.04)


def _shape_pasta(s, n, c):
    w = max(2, n // 16)
    for i in range(4):
        y = n * (0.3 + i * 0.13)
        pts = [(n * (0.14 + k * 0.06), y + math.sin(k * 1.2 + i) * n * 0.05) for k in range(13)]
        pygame.draw.lines(s, c, False, pts, w)


def _shape_rice(s, n, c):
    pygame.draw.ellipse(s, (200, 200, 190), pygame.Rect(n * 0.12, n * 0.32, n * 0.76, n * 0.48))
    for i in range(14):
        x = n * (0.24 + (i * 37 % 100) / 100 * 0.52)
        y = n * (0.4 + (i * 53 % 100) / 100 * 0.3)
        pygame.draw.ellipse(s, c, pygame.Rect(x, y, n * 0.1, n * 0.06))


def _shape_tortilla(s, n, c):
    _circle(s, c, n / 2, n / 2, n * 0.38)
    for i in range(6):
        a = i * 1.1
        _circle(s, (190, 140, 70), n / 2 + math.cos(a) * n * 0.2, n / 2 + math.sin(a) * n * 0.22, n * 0.035)


def _shape_nori(s, n, c):
    pygame.draw.rect(s, c, pygame.Rect(n * 0.16, n * 0.16, n * 0.68, n * 0.68), border_radius=max(1, n // 20))
    for i in range(1, 4):
        pygame.draw.line(
            s,
            (70, 110, 80),
            (n * (0.16 + i * 0.17), n * 0.2),
            (n * (0.16 + i * 0.17), n * 0.8),
            max(1, n // 40),
        )


def _dome(s, colour, rect: pygame.Rect) -> None:
    """The top half of an ellipse filling rect's upper half."""
    full = pygame.Surface((rect.w, rect.h * 2), pygame.SRCALPHA)
    pygame.draw.ellipse(full, colour, full.get_rect())
    s.blit(full, rect.topleft, pygame.Rect(0, 0, rect.w, rect.h))


def _shape_bread(s, n, c):
    _dome(s, c, pygame.Rect(n * 0.12, n * 0.26, n * 0.76, n * 0.36))
    pygame.draw.rect(
        s, _darker(c, 0.8), pygame.Rect(n * 0.14, n * 0.62, n * 0.72, n * 0.12), border_radius=max(1, n // 24)
    )
    for x in (0.34, 0.5, 0.64):
        pygame.draw.ellipse(s, (250, 240, 210), pygame.Rect(n * x, n * 0.36, n * 0.06, n * 0.035))


def _shape_cheese(s, n, c):
    pygame.draw.polygon(s, c, [(n * 0.12, n * 0.72), (n * 0.88, n * 0.72), (n * 0.88, n * 0.3)])
    for x, y, r in ((0.66, 0.6, 0.05), (0.78, 0.5, 0.035), (0.5, 0.66, 0.03)):
        _circle(s, (220, 170, 40), n * x, n * y, n * r)


def _shape_unknown(s, n, c):
    _circle(s, c, n / 2, n / 2, n * 0.34)


SHAPES: dict[str, Callable[[pygame.Surface, int, Any], None]] = {
    "lettuce": _shape_lettuce,
    "tomato": _shape_tomato,
    "cucumber": _shape_cucumber,
    "fish": _shape_fish,
    "shrimp": _shape_shrimp,
    "prawn": _shape_prawn,
    "meat": _shape_meat,
    "chicken": _shape_chicken,
    "mushroom": _shape_mushroom,
    "pasta": _shape_pasta,
    "rice": _shape_rice,
    "tortilla": _shape_tortilla,
    "nori": _shape_nori,
    "bread": _shape_bread,
    "cheese": _shape_cheese,
}


def _ingredient_colour(name: str) -> tuple[int, int, int]:
    if name in INGREDIENT_COLOURS:
        return INGREDIENT_COLOURS[name]
    h = sum(map(ord, name))
    return (90 + h * 37 % 140, 90 + h * 59 % 140, 90 + h * 83 % 140)


def _slice(img: pygame.Surface, n: int) -> pygame.Surface:
    """Cut a shape into three vertical slices pulled apart: the chopped look."""
    out = pygame.Surface(img.get_size(), pygame.SRCALPHA)
    strip = n // 3
    gap = max(2, n // 12)
    for i in range(3):
        area = pygame.Rect(i * strip, 0, strip if i < 2 else n - 2 * strip, n)
        piece = img.subsurface(area)
        piece = pygame.transform.smoothscale(piece, (max(1, area.w - gap), area.h))
        out.blit(piece, (area.x + (i - 1) * gap // 2 + gap // 2, (i - 1) * gap // 2))
    return out


def _steam(s: pygame.Surface, n: int) -> None:
    w = max(2, n // 18)
    for x in (0.3, 0.5, 0.7):
        pts = [(n * x + math.sin(k * 1.6) * n * 0.04, n * (0.02 + k * 0.045)) for k in range(5)]
        pygame.draw.lines(s, (250, 250, 250), False, pts, w + 2)
        pygame.draw.lines(s, (110, 110, 120), False, pts, w)


def _smoke(s: pygame.Surface, n: int) -> None:
    """Dark puffs above: burnt food (unlike the thin light wisps of cooked food)."""
    for x, y, r in ((0.3, 0.12, 0.1), (0.5, 0.07, 0.12), (0.7, 0.13, 0.09), (0.42, 0.2, 0.07)):
        _circle(s, (20, 20, 22), n * x, n * y, n * r + 2)
        _circle(s, (85, 85, 90), n * x, n * y, n * r)


def _outline(img: pygame.Surface, colour, width: int) -> pygame.Surface:
    """img with a solid outline of `width` pixels around its opaque area."""
    mask = pygame.mask.from_surface(img, 60)
    sil = mask.to_surface(setcolor=colour, unsetcolor=(0, 0, 0, 0))
    out = pygame.Surface(img.get_size(), pygame.SRCALPHA)
    for dx in (-width, 0, width):
        for dy in (-width, 0, width):
            if dx or dy:
                out.blit(sil, (dx, dy))
    out.blit(img, (0, 0))
    return out


@lru_cache(maxsize=2048)
def ingredient(name: str, state: str, size: int) -> pygame.Surface:
    """An ingredient: raw whole, chopped in slices, cooked browned with steam."""
    n = size * SS
    colour = _ingredient_colour(name)
    if state == "cooked":
        colour = _darker(colour, 0.72) if name not in ("rice", "pasta") else _darker(colour, 0.9)
    elif state == "burnt":
        colour = _darker(colour, 0.3)
    img = _canvas(size)
    SHAPES.get(name, _shape_unknown)(img, n, colour)
    if name not in SHAPES:
        f = pygame.font.Font(None, int(n * 0.5))
        t = render_with(f, name[:2], P.text_colour_on(colour))
        img.blit(t, t.get_rect(center=(n / 2, n / 2)))
    if state == "chopped":
        img = _slice(img, n)
    img = _outline(img, OUTLINE, max(1, n // 30))
    if state in ("cooked", "burnt"):
        cooked = _canvas(size)
        cooked.blit(pygame.transform.smoothscale(img, (int(n * 0.84), int(n * 0.84))), (n * 0.08, n * 0.16))
        (_steam if state == "cooked" else _smoke)(cooked, n)
        img = cooked
    return _finish(img, size)


# -- containers ------------------------------------------------------------------------
def _contents_grid(big: pygame.Surface, contents: tuple[tuple[str, str], ...], box: pygame.Rect) -> None:
    """Lay ingredient icons out inside box (1, 2, 3-4 or more in a grid)."""
    k = len(contents)
    if not k:
        return
    cols = 1 if k == 1 else 2 if k <= 4 else 3
    rows = math.ceil(k / cols)
    cell = min(box.w // cols, box.h // rows)
    for i, (name, state) in enumerate(contents):
        r, c = divmod(i, cols)
        icon = ingredient(name, state, max(4, cell // SS))
        icon = pygame.transform.smoothscale(icon, (cell, cell))
        x = box.x + (box.w - cols * cell) // 2 + c * cell
        y = box.y + (box.h - rows * cell) // 2 + r * cell
        big.blit(icon, (x, y))


@lru_cache(maxsize=2048)
def plate(contents: tuple[tuple[str, str], ...], size: int, dirty: bool = False) -> pygame.Surface:
    n = size * SS
    img = _canvas(size)
    _circle(img, (120, 120, 130), n / 2, n / 2, n * 0.46)
    _circle(img, (250, 250, 252), n / 2, n / 2, n * 0.44)
    _circle(img, (220, 222, 230), n / 2, n / 2, n * 0.32, max(1, n // 40))
    if dirty:
        for x, y, r in ((0.38, 0.4, 0.09), (0.6, 0.55, 0.11), (0.45, 0.66, 0.06), (0.66, 0.34, 0.05)):
            _circle(img, (140, 110, 70), n * x, n * y, n * r)
    _contents_grid(img, contents, pygame.Rect(n * 0.2, n * 0.2, n * 0.6, n * 0.6))
    return _finish(img, size)


@lru_cache(maxsize=2048)
def cookware(kind: str, contents: tuple[tuple[str, str], ...], size: int) -> pygame.Surface:
    """A pan (round, long handle) or a pot (deep, two handles) with what is inside."""
    n = size * SS
    img = _canvas(size)
    metal, inner = (60, 62, 70), (105, 108, 118)
    if kind == "pan":
        pygame.draw.line(img, (40, 30, 25), (n * 0.6, n * 0.6), (n * 0.97, n * 0.97), max(3, n // 9))
        _circle(img, metal, n * 0.44, n * 0.44, n * 0.4)
        _circle(img, inner, n * 0.44, n * 0.44, n * 0.33)
        box = pygame.Rect(n * 0.18, n * 0.18, n * 0.52, n * 0.52)
    else:
        parts = (
            (metal, (0.02, 0.36, 0.96, 0.12), 20),
            (metal, (0.12, 0.2, 0.76, 0.72), 10),
            (inner, (0.18, 0.26, 0.64, 0.6), 12),
        )
        for colour, part, radius in parts:
            pygame.draw.rect(img, colour, pygame.Rect(*(v * n for v in part)), border_radius=n // radius)
        box = pygame.Rect(n * 0.2, n * 0.28, n * 0.6, n * 0.56)
    _contents_grid(img, contents, box)
    return _finish(img, size)


def item_key(item: dict[str, Any] | None) -> tuple | None:
    """A hashable key for an item dict (used to cache its icon)."""
    if item is None:
        return None
    kind = item.get("kind")
    if kind == "ingredient":
        return ("ingredient", item.get("name", "?"), item.get("state", "raw"))
    if kind == "dirty_plate":
        return ("dirty_plate",)
    contents = tuple((i.get("name", "?"), i.get("state", "raw")) for i in item.get("contents", ()))
    return (kind, contents)


def item_icon(item: dict[str, Any], size: int) -> pygame.Surface:
    """The icon of any item dict from a state (ingredient, plate, pan, pot, dirty plate)."""
    key = item_key(item)
    assert key is not None
    if key[0] == "ingredient":
        return ingredient(key[1], key[2], size)
    if key[0] == "dirty_plate":
        return plate((), size, dirty=True)
    if key[0] == "plate":
        return plate(key[1], size)
    return cookware(key[0], key[1], size)


# -- tiles -----------------------------------------------------------------------------
@lru_cache(maxsize=64)
def floor_tile(size: int) -> pygame.Surface:
    s = pygame.Surface((size, size))
    s.fill(P.FLOOR)
    pygame.draw.rect(s, P.FLOOR_LINE, s.get_rect(), 1)
    return s


@lru_cache(maxsize=64)
def wall_tile(size: int) -> pygame.Surface:
    s = pygame.Surface((size, size))
    s.fill(P.WALL)
    h = max(4, size // 4)
    for row in range(0, size, h):
        pygame.draw.line(s, P.WALL_LINE, (0, row), (size, row), 1)
        off = (row // h % 2) * size // 4
        for x in range(off, size, size // 2):
            pygame.draw.line(s, P.WALL_LINE, (x, row), (x, row + h), 1)
    return s


def _counter(n: int, colour=P.COUNTER, edge=P.COUNTER_EDGE) -> pygame.Surface:
    img = pygame.Surface((n, n), pygame.SRCALPHA)
    pygame.draw.rect(img, edge, img.get_rect(), border_radius=n // 12)
    pygame.draw.rect(img, colour, img.get_rect().inflate(-n // 14, -n // 14), border_radius=n // 14)
    return img


def _station_table(img, n):
    for y in (0.3, 0.5, 0.7):
        pygame.draw.line(img, (176, 140, 94), (n * 0.08, n * y), (n * 0.92, n * y), max(1, n // 60))


def _station_dispenser(img, n, provides=None):
    crate = pygame.Rect(n * 0.1, n * 0.08, n * 0.8, n * 0.62)
    pygame.draw.rect(img, (120, 84, 48), crate, border_radius=n // 24)
    pygame.draw.rect(img, (158, 116, 70), crate.inflate(-n * 0.08, -n * 0.08), border_radius=n // 28)
    if provides:
        icon = ingredient(provides, "raw", max(6, int(n * 0.5) // SS))
        icon = pygame.transform.smoothscale(icon, (int(n * 0.52), int(n * 0.52)))
        img.blit(icon, icon.get_rect(center=crate.center))


def _station_chopping_board(img, n):
    board = pygame.Rect(n * 0.12, n * 0.12, n * 0.64, n * 0.54)
    pygame.draw.rect(img, (236, 226, 200), board, border_radius=n // 16)
    pygame.draw.rect(img, (170, 150, 110), board, max(1, n // 50), border_radius=n // 16)
    pygame.draw.polygon(
        img,
        (190, 195, 205),
        [(n * 0.62, n * 0.12), (n * 0.9, n * 0.1), (n * 0.9, n * 0.36), (n * 0.62, n * 0.3)],
    )
    pygame.draw.rect(
        img, (40, 40, 45), pygame.Rect(n * 0.78, n * 0.36, n * 0.1, n * 0.26), border_radius=n // 40
    )


def _station_stove(img, n):
    body = img.get_rect().inflate(-n // 14, -n // 14)
    pygame.draw.rect(img, (58, 60, 68), body, border_radius=n // 14)
    for r, c in ((0.3, (200, 70, 40)), (0.22, (58, 60, 68)), (0.14, (200, 70, 40))):
        _circle(img, c, n * 0.5, n * 0.4, n * r, 0 if c != (200, 70, 40) else max(2, n // 30))


def _station_serving_window(img, n):
    frame = pygame.Rect(n * 0.1, n * 0.08, n * 0.8, n * 0.6)
    pygame.draw.rect(img, (70, 110, 160), frame, border_radius=n // 20)
    pygame.draw.rect(img, (190, 220, 245), frame.inflate(-n * 0.1, -n * 0.1), border_radius=n // 24)
    _dome(img, (230, 180, 40), pygame.Rect(n * 0.32, n * 0.26, n * 0.36, n * 0.16))
    pygame.draw.rect(img, (150, 110, 20), pygame.Rect(n * 0.28, n * 0.42, n * 0.44, n * 0.05))
    _circle(img, (150, 110, 20), n * 0.5, n * 0.25, n * 0.03)


def _station_sink(img, n):
    basin = pygame.Rect(n * 0.12, n * 0.16, n * 0.76, n * 0.52)
    pygame.draw.rect(img, (170, 176, 186), basin, border_radius=n // 10)
    pygame.draw.rect(img, (110, 170, 220), basin.inflate(-n * 0.12, -n * 0.12), border_radius=n // 12)
    pygame.draw.rect(img, (120, 125, 135), pygame.Rect(n * 0.44, n * 0.04, n * 0.12, n * 0.16))
    for x in (0.3, 0.55):
        pygame.draw.arc(
            img,
            (230, 240, 250),
            pygame.Rect(n * x, n * 0.34, n * 0.18, n * 0.12),
            0,
            math.pi,
            max(1, n // 50),
        )


def _station_plate_return(img, n):
    for i in range(3):
        r = pygame.Rect(n * 0.14, n * (0.44 - i * 0.1), n * 0.56, n * 0.16)
        pygame.draw.ellipse(img, (120, 120, 130), r)
        pygame.draw.ellipse(img, (240, 240, 244), r.inflate(-n * 0.04, -n * 0.04))
    w = max(2, n // 20)
    pygame.draw.line(img, (60, 60, 70), (n * 0.92, n * 0.2), (n * 0.76, n * 0.2), w)
    pygame.draw.polygon(img, (60, 60, 70), [(n * 0.72, n * 0.2), (n * 0.8, n * 0.12), (n * 0.8, n * 0.28)])


def _station_trash(img, n):
    pygame.draw.polygon(
        img,
        (90, 95, 100),
        [(n * 0.24, n * 0.22), (n * 0.76, n * 0.22), (n * 0.68, n * 0.7), (n * 0.32, n * 0.7)],
    )
    lid = pygame.Rect(n * 0.18, n * 0.12, n * 0.64, n * 0.1)
    pygame.draw.rect(img, (70, 74, 80), lid, border_radius=n // 30)
    pygame.draw.rect(img, (70, 74, 80), pygame.Rect(n * 0.42, n * 0.06, n * 0.16, n * 0.08))
    for x in (0.4, 0.5, 0.6):
        pygame.draw.line(img, (150, 155, 160), (n * x, n * 0.3), (n * x, n * 0.62), max(1, n // 40))


def _station_unknown(img, n):
    f = pygame.font.Font(None, int(n * 0.5))
    t = f.render("?", True, (60, 40, 30))
    img.blit(t, t.get_rect(center=(n * 0.5, n * 0.38)))


STATION_DRAW = {
    "table": _station_table,
    "chopping_board": _station_chopping_board,
    "stove": _station_stove,
    "serving_window": _station_serving_window,
    "sink": _station_sink,
    "plate_return": _station_plate_return,
    "trash": _station_trash,
}


@lru_cache(maxsize=512)
def station(kind: str | None, size: int, provides: str | None = None) -> pygame.Surface:
    """A station tile without its name (the renderer adds the label band)."""
    n = size * SS
    img = _counter(n)
    if kind == "dispenser":
        _station_dispenser(img, n, provides)
    else:
        STATION_DRAW.get(kind or "", _station_unknown)(img, n)
    return pygame.transform.smoothscale(img, (size, size))
