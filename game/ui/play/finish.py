"""When a plan serves every order: its replay and score, and the result card with what to do
next; the built-in planner's card too. Each finished plan gets one card, shown the same way
every time it comes back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from game.ui import planner_job as strong
from game.ui import store

from .card import Card, build_card

if TYPE_CHECKING:
    from .screen import PlayScreen


def replay_viewer_available() -> bool:
    import importlib.util

    try:
        spec = importlib.util.find_spec("game.ui.screens.replay")
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin is not None


def open_replay_screen(replay: object, back: object) -> object:
    from game.ui.screens.replay import ReplayScreen

    return ReplayScreen(replay, back=back)


class Results:
    def __init__(self, host: PlayScreen):
        self.s = host
        self.cards: dict[str, Card] = {}  # finished plan -> its card

    def finish(self) -> None:
        """Every order served without error: save the replay, score it, show the card (once per plan)."""
        key = self.s.fingerprint()
        if key in self.cards:
            return
        replay, notes, previous = None, [], store.best_time(self.s.level)
        if self.s.options.record_scores:
            try:
                replay = store.save_play_replay(self.s.level, self.s.editor.plan, self.s.editor.result)
                notes.append(f"Replay saved to {replay}")
            except OSError as e:
                notes.append(f"The replay could not be saved: {e}")
            try:
                store.record_score(self.s.level, self.s.editor.result, replay)
            except OSError as e:
                notes.append(f"The scoreboard could not be written: {e}")
        card = self.card_for(replay, previous)
        card.notes = notes + card.notes
        self.cards[key] = card
        self.s.options.tell("finish")
        self.open_card(card)

    def card_for(self, replay: Path | None, previous: float | None) -> Card:
        planner = self.s.options.planner and strong.solver_available()
        card = build_card(self.s.level, self.s.editor.result, replay, previous, planner, self.s.editor.rules)
        card.rows = [row for row in card.rows if row[0] not in self.s.options.hidden_rows]
        return card

    def open_card(self, card: Card) -> None:
        allowed = {"watch", "keep", "back"}
        if card.replay is not None and replay_viewer_available() and self.s.options.viewer:
            allowed.add("viewer")
        if self.s.options.files:
            allowed.add("export")
        if self.s.options.planner and strong.solver_available():
            allowed.add("strong")
        if card.title.startswith("Built-in planner"):
            allowed = (
                {"view", "viewer", "keep"}
                if replay_viewer_available() and self.s.options.viewer
                else {"view", "keep"}
            )
        self.s.clock.playing = False
        self.s.card_view.open(card, self.s.size, allowed, self.s.options.labels)

    def on_button(self, name: str) -> None:
        card = self.s.card
        self.s.card_view.close()
        if name == "watch":
            self.s.clock.t, self.s.clock.playing = 0.0, True
            self.s.options.tell("preview")
        elif name == "viewer" and card is not None:
            self.open_viewer(card)
        elif name == "export":
            self.s.export()
        elif name == "strong":
            self.s.strong_plan()
        elif name == "view":
            self.s.view_planner_plan()
        elif name == "back":
            self.s.go_back()

    def open_viewer(self, card: Card) -> None:
        from game.replay import Replay, ReplayError, load_replay

        try:
            if card.replay is not None:
                replay = load_replay(card.replay)
            else:  # the planner's run: made on the spot, not saved
                ed = self.s.planner_editor
                replay = Replay(
                    self.s.level,
                    ed.plan_dict(),
                    ed.result.to_dict(),
                    ed.result.timeline,
                    ed.result.rules,
                    {"kind": "solver"},
                )
            self.s.hand_over(open_replay_screen(replay, self.s))
        except (ReplayError, ImportError) as e:
            self.s.notice = ("Cannot open the replay", [str(e)])
