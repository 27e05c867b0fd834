"""The row of buttons at the top right of the play window."""

from __future__ import annotations

from collections.abc import Iterable

import pygame
import pygame_gui

from game.ui import speed_keys
from game.ui.planner_job import JobState
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.text import blit_text, ellipsize, font

STRONG_TIP = "Run the built-in planner on this level (in the background)"
PARTNER_TIP = "Plan with a partner: the built-in planner or an LLM plans the agents you leave to it"
CANCEL_TIP = "Stop the partner's re-plan (its queues stay as they were)"
TOOLBAR = (
    ("back", "Levels", "Back to the level list"),
    ("play", "Play", "Play / pause (Space)"),
    ("slower", "Slower", speed_keys.SLOWER_TIP),
    ("faster", "Faster", speed_keys.FASTER_TIP),
    ("undo", "Undo", "Undo (Ctrl+Z)"),
    ("redo", "Redo", "Redo (Ctrl+Y)"),
    ("save", "Save", "Save the plan (Ctrl+S)"),
    ("open", "Open", "Open a plan (Ctrl+O)"),
    ("export", "Export", "Export as ParaCook JSON (Ctrl+E)"),
    ("partner", "Partner", PARTNER_TIP),
    ("strong", "Strong plan", STRONG_TIP),
    ("help", "Help", "Controls (F1 or ?)"),
)
PROGRESS = (86, 180, 233)
BAR_W = 170  # the planner's progress bar
JOB_SIZE = 18
FILE_BUTTONS = ("save", "open", "export")
WIDE_ONLY = ("slower", "faster")  # below WIDE px these stay on their keys ([ and ]) only
WIDE = 1280


class Toolbar:
    def __init__(
        self, manager: pygame_gui.UIManager, hidden: Iterable[str] = (), labels: dict[str, str] | None = None
    ):
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        for name, label, tip in TOOLBAR:
            self.buttons[name] = pygame_gui.elements.UIButton(
                pygame.Rect(0, 0, 10, 32), (labels or {}).get(name, label), manager, tool_tip_text=tip
            )
        self.hidden = set(hidden)
        for name in self.hidden:
            self.buttons[name].hide()
        # shown in the title bar while the partner re-plans
        self.cancel = pygame_gui.elements.UIButton(
            pygame.Rect(0, 6, 80, 32), "Cancel", manager, tool_tip_text=CANCEL_TIP
        )
        self.cancel.hide()

    def place(self, width: int) -> None:
        x = width - 8
        narrow = width < WIDE
        for name in WIDE_ONLY:
            if name in self.hidden:
                continue
            if narrow and self.buttons[name].visible:
                self.buttons[name].hide()
            elif not narrow and not self.buttons[name].visible:
                self.buttons[name].show()
        for name, label, _ in reversed(TOOLBAR):
            button = self.buttons[name]
            if not button.visible:
                continue
            size = 22 + (8 if narrow else 9) * len(label)
            x -= size + 4
            button.set_dimensions((size, 32))
            button.set_relative_position((x, 6))
        self.cancel.set_relative_position((x - 4 - self.cancel.relative_rect.w, 6))

    @property
    def left(self) -> int:
        """The x where the leftmost visible button starts (the title ends before it)."""
        shown = [b for b in (*self.buttons.values(), self.cancel) if b.visible]
        return min((b.relative_rect.x for b in shown), default=10_000)

    def show_cancel(self, show: bool) -> None:
        if show and not self.cancel.visible:
            self.cancel.show()
        elif not show and self.cancel.visible:
            self.cancel.hide()

    def name_of(self, element: object) -> str | None:
        if element is self.cancel:
            return "cancel_partner"
        return next((n for n, b in self.buttons.items() if b is element), None)

    def sync(self, playing: bool, enabled: dict[str, bool]) -> None:
        play = "Pause" if playing else "Play"
        if self.buttons["play"].text != play:
            self.buttons["play"].set_text(play)
        for name, ok in enabled.items():
            button = self.buttons[name]
            if ok and not button.is_enabled:
                button.enable()
            elif not ok and button.is_enabled:
                button.disable()


def job_text(job: JobState) -> str:
    """The search's progress in words: best OCT so far, lower bound, gap (what is known of them)."""
    parts = []
    if job.best_oct is not None:
        parts.append(f"best OCT {panels.fmt(job.best_oct)}")
    if job.bound is not None:
        parts.append(f"bound {panels.fmt(job.bound)}")
    if job.gap is not None:
        parts.append(f"gap {job.gap:.0%}" if job.gap < 10 else "gap >999%")
    if parts:
        return "  ·  ".join(parts)
    # a planner that reports works its lower bound out first: until then it has told nothing
    bounding = job.progress.reports and not job.progress.fraction
    return "working out the bound" if bounding else "planning"


def job_look(job: JobState) -> tuple:
    """What the title bar shows of a job: when it changes, the window is redrawn."""
    return job_text(job), f"{job.elapsed:.0f} s", round(BAR_W * job.fraction)


def draw_job(surface: pygame.Surface, top: pygame.Rect, right: int, job: JobState) -> int:
    """The planner's progress, right-aligned at `right`: its words above a bar that follows the
    search, the seconds beside the bar. Returns the x where it starts."""
    text = job_text(job)
    width = max(BAR_W + 8 + font(JOB_SIZE).size("888 s")[0], font(JOB_SIZE).size(text)[0])
    x = right - width
    blit_text(surface, text, (right, top.y + 5), JOB_SIZE, P.TEXT, anchor="topright")
    seconds = blit_text(
        surface, f"{job.elapsed:.0f} s", (right, top.bottom - 6), JOB_SIZE, P.TEXT_DIM, anchor="bottomright"
    )
    bar = pygame.Rect(seconds.x - 8 - BAR_W, top.bottom - 14, BAR_W, 8)
    pygame.draw.rect(surface, P.PANEL_LIGHT, bar, border_radius=3)
    filled = bar.copy()
    filled.w = max(3, round(bar.w * job.fraction))
    pygame.draw.rect(surface, PROGRESS, filled, border_radius=3)
    return x


def draw_title_bar(
    surface: pygame.Surface,
    top: pygame.Rect,
    right: int,
    title: str,
    viewing: bool,
    job: JobState | None,
    partner: tuple[str, tuple[int, int, int]] = ("", P.TEXT),
) -> None:
    """The bar under the buttons: the level's title (or what is being viewed), the planner's
    progress while it runs and the partner's state, all left of `right` (where the buttons start)."""
    pygame.draw.rect(surface, P.PANEL, top)
    if job is not None:
        right = draw_job(surface, top, right, job) - 12
    text, colour = partner
    if text:  # the partner's state gets the room it needs, up to 65% of the bar; the title the rest
        room = int(0.65 * (right - 12))
        shown = ellipsize(text, room, 18)
        box = blit_text(surface, shown, (right, top.centery), 18, colour, anchor="midright")
        right = box.x - 16
    if viewing:
        text, colour = "Viewing the built-in planner's plan  -  Esc: back to yours, U: use it", panels.NEXT
    else:
        text, colour = title, P.TEXT
    blit_text(
        surface,
        ellipsize(text, right - 12, 24, bold=True),
        (12, top.centery),
        24,
        colour,
        bold=True,
        anchor="midleft",
    )
