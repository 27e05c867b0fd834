"""The play window's clock: the shared one (game.ui.clock)."""

from __future__ import annotations

from game.ui.clock import DEFAULT_SPEED, SPEEDS, Clock

PlayClock = Clock

__all__ = ["DEFAULT_SPEED", "SPEEDS", "PlayClock"]
