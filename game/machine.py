"""The computer the program runs on, as the planner and the commands size their work by it."""

from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may run on (its affinity where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
