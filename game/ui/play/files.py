"""Plan files of the play window: save, save as, open and export, through the file dialog."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from game.ui import store
from game.ui.render import play_panels as panels

if TYPE_CHECKING:
    from .screen import PlayScreen


class PlanFiles:
    def __init__(self, host: PlayScreen):
        self.s = host
        self.plan_path: Path | None = None

    def save(self, save_as: bool = False) -> None:
        if not self.s.options.files:
            return
        if self.plan_path is not None and not save_as:
            self._write_plan(self.plan_path)
            return
        default = self.plan_path or store.data_dir() / "plans" / f"{store.slug(self.s.title())}.json"
        self._dialog("save", "Save the plan as", default, existing_only=False)

    def open(self) -> None:
        if self.s.options.files:
            self._dialog(
                "open", "Open a plan", self.plan_path or store.data_dir() / "plans", existing_only=True
            )

    def export(self) -> None:
        if not self.s.options.files:
            return
        name = f"{store.slug(self.s.title())}_{panels.fmt(self.s.clock.end)}.json"
        self._dialog("export", "Export as ParaCook JSON", store.exports_dir() / name, existing_only=False)

    def _dialog(self, purpose: str, title: str, initial: Path, existing_only: bool) -> None:
        try:
            note = self.s.dialog_box.open(purpose, title, initial, self.s.size, existing_only)
            if note:
                self.s.say(note, error=True)
        except OSError as e:
            self.s.notice = ("Cannot open the file dialog", [f"{initial}: {e}"])

    def on_path(self, purpose: str, path: Path) -> None:
        if purpose == "save":
            self._write_plan(path)
        elif purpose == "open":
            self.load(path)
        elif purpose == "export":
            try:
                store.export_result(path, self.s.level, self.s.editor.plan, self.s.editor.result)
                self.s.say(f"exported to {path}")
            except OSError as e:
                self.s.notice = ("Export failed", [f"{path}: {e}"])

    def _write_plan(self, path: Path) -> None:
        try:
            store.save_plan(path, self.s.level, self.s.editor.plan)
        except OSError as e:
            self.s.notice = ("Save failed", [f"{path}: {e}", "Your plan is still here and autosaved."])
            return
        self.plan_path = path
        self.s.say(f"saved to {path}")

    def load(self, path: Path) -> None:
        """Load a plan file; one that does not fit the level is refused with the reasons."""
        try:
            plan, note = store.load_plan(path, self.s.level)
        except store.StoreError as e:
            lines = str(e).splitlines()
            self.s.notice = (
                "This plan does not fit the level",
                [lines[0]] + [x.strip() for x in lines[1:]] + ["Your current plan is unchanged."],
            )
            return
        self.s.viewing = None
        self.s.editor.replace_plan(plan)
        self.plan_path = path
        self.s.after_edit()
        self.s.say(note or f"loaded {path.name} ({self.s.editor.action_count} actions; Ctrl+Z undoes)")
