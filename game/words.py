"""Counts in words, as every view writes them ("1 schedule", "2 schedules")."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """`n` and `word`, with an s unless `n` is 1, thousands grouped."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"
