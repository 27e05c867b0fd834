"""Which size a window opens at: the size the user last resized it to, if it still fits the
screen, else the largest preset that fits (never larger than the screen, so never off-screen).

The remembered size is one small JSON file in the data folder; a missing or damaged file is no
remembered size."""

from __future__ import annotations

import json
import os
from pathlib import Path

from game.inputs import MAX_LEVEL_BYTES, InputError, load_json

PRESETS = ((1600, 1000), (1440, 900), (1280, 800), (1024, 700))
SMALLEST = PRESETS[-1]  # the layouts are made down to this size
DECOR = 40  # room left for a title bar and a panel above or below a preset window
FILE = "window.json"


def fitting_size(
    desktop: tuple[int, int] | None, remembered: tuple[int, int] | None = None
) -> tuple[int, int]:
    """The window size for a screen of `desktop` pixels (None: unknown, the 1440x900 preset)."""
    if desktop is None:
        return remembered or PRESETS[1]
    dw, dh = desktop
    if remembered and remembered[0] <= dw and remembered[1] <= dh:
        return remembered
    for w, h in PRESETS:
        if w <= dw and h + DECOR <= dh:
            return (w, h)
    return (min(SMALLEST[0], dw), min(SMALLEST[1], dh))  # a small screen: all of it


def clamp_to(size: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """A size asked for (--size) kept within the screen."""
    if desktop is None:
        return size
    return (min(size[0], desktop[0]), min(size[1], desktop[1]))


def _path(folder: Path) -> Path:
    return folder / FILE


def load_remembered(folder: Path) -> tuple[int, int] | None:
    try:
        data = load_json(_path(folder), MAX_LEVEL_BYTES)
        w, h = data["size"]
    except (InputError, ValueError, KeyError, TypeError):
        return None
    ok = all(type(v) is int and SMALLEST[i] <= v <= 16384 for i, v in enumerate((w, h)))
    return (w, h) if ok else None


def save_remembered(folder: Path, size: tuple[int, int]) -> str:
    """Remember a resized window; returns a problem to report ('' when saved)."""
    path = _path(folder)
    tmp = path.with_name(path.name + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"size": [int(size[0]), int(size[1])]}) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        return f"{path}: cannot remember the window size ({e.strerror or e})"
    return ""
