"""What a play screen offers and whom it tells about changes: the free play window shows
everything, a study session hides the planner, other people's times and plan loading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# Result-card rows that compare with other results (hidden in a study).
COMPARISON_ROWS = ("Your best here", "Human baseline", "Built-in planner")


@dataclass(frozen=True)
class PlayOptions:
    hidden: frozenset[str] = frozenset()  # toolbar and card buttons not offered (e.g. "strong")
    hidden_rows: tuple[str, ...] = ()  # result-card rows not shown
    labels: dict[str, str] = field(default_factory=dict)  # button name -> its text
    keep_score: bool = True  # successful runs go to the local scoreboard and replays/
    autosave: bool = True  # the plan is autosaved per level (a study keeps its own copy)
    on_change: Callable[[str], None] | None = None  # "edit", "undo" or "redo", after the re-run

    def notify(self, kind: str) -> None:
        if self.on_change is not None:
            self.on_change(kind)


def study_options(on_change: Callable[[str], None]) -> PlayOptions:
    """A session: no built-in planner, no other results, no opening plan files or viewers."""
    return PlayOptions(
        hidden=frozenset({"strong", "open", "viewer"}),
        hidden_rows=COMPARISON_ROWS,
        labels={"back": "Pause", "card:back": "Submit..."},
        keep_score=False,
        autosave=False,
        on_change=on_change,
    )
