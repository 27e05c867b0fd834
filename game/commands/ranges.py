"""The ranges of the commands' numeric options (not a command): each option is parsed by one of
these, so a value outside its range (or NaN, Infinity, 1e308, 400 digits) is refused with one line
naming the option and its range, before anything runs."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

MAX_WINDOW_SIDE = 16_384  # pixels; larger than any screen or video a user means
MAX_SECONDS = 86_400.0  # a day: longer time limits and timeouts are typing mistakes
MAX_JOBS = 64  # searches or levels at once; more is a typing mistake


def number(low: float, high: float, *, whole: bool = False, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a number from `low` (excluded when `above`) to `high`."""
    kind = "a whole number" if whole else "a number"
    shown = "{:,}" if whole else "{:g}"
    lo, hi = shown.format(low), shown.format(high)
    span = f"above {lo} and at most {hi}" if above else f"from {lo} to {hi}"

    def parse(text: str) -> float:
        try:
            value: float = int(text) if whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {kind} (give {kind} {span})") from None
        finite = whole or math.isfinite(value)  # a whole number of 400 digits is not a float
        if not finite or value < low or value > high or (above and value == low):
            raise argparse.ArgumentTypeError(f"must be {kind} {span}, not {text[:40]}")
        return value

    parse.__name__ = kind
    return parse


def whole(low: int, high: int) -> Callable[[str], int]:
    return number(low, high, whole=True)  # type: ignore[return-value]


def seconds(high: float = MAX_SECONDS) -> Callable[[str], float]:
    return number(0, high, above=True)


def jobs(text: str) -> int:
    """--jobs: a whole number from 1 to `MAX_JOBS`, taken as given whatever the computer: for one
    level it is the number of searches, so it decides the plan (`Planner`); the processes that
    run at once are capped at the cores where they start."""
    return int(whole(1, MAX_JOBS)(text))


def size(text: str, low: tuple[int, int] = (16, 16), high: int = MAX_WINDOW_SIDE) -> tuple[int, int]:
    """WIDTHxHEIGHT, each side from its least to `high` pixels; ValueError naming the range."""
    w, _, h = text.strip().lower().partition("x")
    if not (w.isdigit() and h.isdigit() and len(w) <= 6 and len(h) <= 6):
        raise ValueError(f"--size {text[:40]!r}: expected WIDTHxHEIGHT, e.g. 1440x900")
    width, height = int(w), int(h)
    if not (low[0] <= width <= high and low[1] <= height <= high):
        raise ValueError(f"--size {text}: each side must be from {min(low)} to {high:,} pixels")
    return width, height


def text(most: int, what: str = "text") -> Callable[[str], str]:
    """An argparse type: text of at most `most` characters."""

    def parse(value: str) -> str:
        if len(value) > most:
            raise argparse.ArgumentTypeError(f"{what} of {len(value):,} characters; at most {most:,}")
        return value

    parse.__name__ = what
    return parse
