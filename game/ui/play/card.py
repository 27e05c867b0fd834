"""The result card shown when every order is served: scores, baselines, what to do next.

The card is built once per finished plan and shown the same way every time it reappears."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pygame_gui

from game.engine import Level, Result
from game.ui import store
from game.ui.render import play_panels as panels

CARD_BUTTONS = (
    ("watch", "Watch it"),
    ("viewer", "Replay viewer"),
    ("export", "Export JSON"),
    ("strong", "Strong plan"),
    ("view", "View its plan"),
    ("keep", "Keep editing"),
    ("back", "Levels"),
)
WIDTH = 860


@dataclass
class Card:
    title: str
    rows: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)
    replay: Path | None = None


def bound_text(level: Level, oct_: float, rules: str | None, bound: float | None = None) -> str:
    """The lower bound beside an OCT: `bound` when it is known already (the planner reported it),
    else the level's own."""
    if bound is None:
        from game.planners.solver.bound import known_bound

        bound = known_bound(level, rules)
    if not bound:
        return "-"
    return f"{panels.fmt(bound)}   (no plan can finish sooner; OCT / bound {oct_ / bound:.2f})"


def gap_text(oct_: float, bound: float) -> str:
    """How far an OCT is above its lower bound."""
    gap = oct_ / bound - 1
    if gap < 0:
        return "-   (the bound reported is above the OCT)"
    return f"{gap:.0%} above the bound" + ("   (no plan can be faster)" if gap == 0 else "")


def build_card(
    level: Level,
    result: Result,
    replay: Path | None,
    previous: float | None,
    planner_known: bool,
    rules: str | None = None,
) -> Card:
    r, names = result, level.agent_names
    best = store.best_time(level)
    mine = panels.fmt(best)
    if replay is not None and (previous is None or r.time < previous):
        mine += "  (new best!)"
    human = store.human_reference(level)
    planner = store.best_time(level, source="planner")
    rows = [
        ("Completion time (OCT)", panels.fmt(r.time)),
        (
            "nOCT",
            f"{100 * r.time / r.t_max:.1f}   (OCT / T_max x 100, T_max = {r.t_max})" if r.t_max else "-",
        ),
        ("Lower bound", bound_text(level, r.time, rules)),
        ("Moving (MD)", ", ".join(f"{a} {panels.fmt(r.md[a])}" for a in names)),
        ("Utilisation (AU)", ", ".join(f"{a} {r.au[a]:.0%}" for a in names)),
        ("Your best here", mine),
        ("Human baseline", f"{panels.fmt(human[0])}   ({human[1]})" if human else "not recorded"),
        (
            "Built-in planner",
            panels.fmt(planner)
            if planner is not None
            else ("press Strong plan to see it" if planner_known else "not known"),
        ),
    ]
    n = len(level.orders)
    title = (
        f"All {n} orders served in {panels.fmt(r.time)}"
        if n > 1
        else f"The order is served in {panels.fmt(r.time)}"
    )
    return Card(title, rows, [], replay)


class CardView:
    """The card on screen with its buttons; `card` is None while it is closed."""

    def __init__(self, manager: pygame_gui.UIManager):
        self.manager = manager
        self.card: Card | None = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}

    def open(
        self, card: Card, size: tuple[int, int], allowed: set[str], labels: dict[str, str] | None = None
    ) -> None:
        self.close()
        self.card = card
        for name, label in CARD_BUTTONS:
            if name in allowed:
                self.buttons[name] = pygame_gui.elements.UIButton(
                    pygame.Rect(0, 0, 130, 36), (labels or {}).get("card:" + name, label), self.manager
                )
        self.place(size)

    def close(self) -> None:
        self.card = None
        for b in self.buttons.values():
            b.kill()
        self.buttons.clear()

    def rect(self, size: tuple[int, int]) -> pygame.Rect:
        card = self.card
        notes = sum(len(panels.wrap(n, WIDTH - 48, 17)) for n in card.notes) if card else 0
        rows = len(card.rows) if card else 7
        height = 54 + rows * 28 + 6 + notes * 17 + 80
        rect = pygame.Rect(0, 0, min(WIDTH, size[0] - 40), min(height, size[1] - 40))
        rect.center = (size[0] // 2, size[1] // 2)
        return rect

    def place(self, size: tuple[int, int]) -> None:
        rect = self.rect(size)
        gap = 8
        width = min(130, (rect.w - 40 - gap * (len(self.buttons) - 1)) // max(1, len(self.buttons)))
        x = rect.x + 20
        for b in self.buttons.values():
            b.set_dimensions((width, 36))
            b.set_relative_position((x, rect.bottom - 56))
            x += width + gap

    def name_of(self, element: object) -> str | None:
        return next((n for n, b in self.buttons.items() if b is element), None)

    def draw(self, surface: pygame.Surface) -> None:
        if self.card is not None:
            c = self.card
            panels.draw_card(surface, self.rect(surface.get_size()), c.title, c.rows, c.notes)
