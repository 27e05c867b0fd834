"""The play window, made of parts: kitchen, timeline, queues, status line, side panel, toolbar,
result card, file dialog, the built-in planner's background job, and the input map that routes
keys to them. `PlayScreen` composes them; `PlayOptions` says what a given use of it allows."""

from .options import PlayOptions
from .screen import PlayScreen

__all__ = ["PlayOptions", "PlayScreen"]
