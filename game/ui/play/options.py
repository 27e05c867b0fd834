"""What a play screen allows: a small policy object, so other modes (a study, a demo) can wrap the
same screen with the planner hidden, files off, or every edit counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayOptions:
    planner: bool = True  # the Strong plan button (when the built-in planner is installed)
    files: bool = True  # Save, Open and Export
    viewer: bool = True  # buttons that open the replay viewer
    record_scores: bool = True  # finished runs go to the scoreboard and replays/
    restore: bool = True  # reopen the autosave of the level
    # called with "edit", "undo", "redo", "preview" (playing or seeking), "finish"
    on_event: Callable[[str], None] | None = None

    def tell(self, what: str) -> None:
        if self.on_event is not None:
            self.on_event(what)
