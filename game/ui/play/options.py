"""What a play screen allows: a small policy object, so other modes (a study, a demo) can wrap the
same screen with the planner hidden, files off, or every edit counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Result-card rows that compare with other results (hidden in a study).
COMPARISON_ROWS = ("Your best here", "Human baseline", "Built-in planner", "Lower bound")


@dataclass(frozen=True)
class PlayOptions:
    planner: bool = True  # the Strong plan button (when the built-in planner is installed)
    files: bool = True  # Save, Open and Export
    viewer: bool = True  # buttons that open the replay viewer
    record_scores: bool = True  # finished runs go to the scoreboard and replays/
    restore: bool = True  # reopen the autosave of the level
    autosave: bool = True  # the plan is autosaved per level (a study keeps its own copy)
    hidden_rows: tuple[str, ...] = ()  # result-card rows not shown
    labels: dict[str, str] = field(default_factory=dict)  # button name ("card:NAME" on the card) -> text
    # called with "edit", "undo", "redo", "preview" (playing or seeking), "finish"
    on_event: Callable[[str], None] | None = None
    partner_dialog: bool = True  # the Partner button (choose a partner, your agents, partner first)
    partner: Any = None  # a study.partner.Partner: partner mode from the start, its agents fixed
    on_replan: Callable[[Any], None] | None = None  # called with each partner.Replan

    def tell(self, what: str) -> None:
        if self.on_event is not None:
            self.on_event(what)


def study_options(on_event: Callable[[str], None]) -> PlayOptions:
    """A session: no built-in planner, no other results, no plan files or viewers."""
    return PlayOptions(
        planner=False,
        files=False,
        viewer=False,
        record_scores=False,
        restore=False,
        autosave=False,
        hidden_rows=COMPARISON_ROWS,
        labels={"back": "Pause", "card:back": "Submit..."},
        on_event=on_event,
        partner_dialog=False,
    )
