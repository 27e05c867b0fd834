"""The file dialog of the play window (save, open, export) with the keys people expect:
Enter confirms what is typed or selected, Escape cancels, a double-click on a file opens it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
from pygame_gui import UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION

from game.ui import store
from game.ui.file_dialog import SafeFileDialog


class FileDialog:
    def __init__(self, manager: pygame_gui.UIManager):
        self.manager = manager
        self.window: pygame_gui.windows.UIFileDialog | None = None
        self.purpose = ""
        self.existing_only = False

    @property
    def is_open(self) -> bool:
        return self.window is not None and self.window.alive()

    def open(
        self, purpose: str, title: str, initial: Path, size: tuple[int, int], existing_only: bool
    ) -> str | None:
        """Open the dialog; returns a note when the data folder is unusable and it starts elsewhere."""
        self.close()
        folder, note = store.writable_folder(initial if initial.suffix == "" else initial.parent)
        if note:
            initial = folder if initial.suffix == "" else folder / initial.name
        rect = pygame.Rect(0, 0, min(720, size[0] - 40), min(520, size[1] - 40))
        rect.center = (size[0] // 2, size[1] // 2)
        self.window = SafeFileDialog(
            rect,
            self.manager,
            window_title=title,
            initial_file_path=str(initial),
            allow_existing_files_only=existing_only,
        )
        self.purpose, self.existing_only = purpose, existing_only
        self._enable_ok()
        return note

    def close(self) -> None:
        if self.window is not None and self.window.alive():
            self.window.kill()
        self.window = None

    def chosen(self) -> Path | None:
        """The file the dialog points at now: what is typed, else what is selected."""
        w = self.window
        if w is None:
            return None
        text = w.file_path_text_line.get_text().strip()
        # a bare name belongs in the folder the dialog shows, never in the program's working folder
        typed = Path(w.current_directory_path) / Path(text).expanduser() if text else None
        for path in (typed, w.current_file_path):
            try:
                if path is None or path.is_dir():
                    continue
                if path.is_file() or (not self.existing_only and path.parent.is_dir()):
                    return path
            except (OSError, ValueError):  # the OS refuses the path (too long, a NUL character)
                continue
        return None

    def handle(self, event: pygame.event.Event) -> Path | None:
        """After the UI manager saw the event: the path picked, if any (the dialog then closes)."""
        w = self.window
        if w is None:
            return None
        picked = None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return None
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            picked = self.chosen()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is w.ok_button:
            picked = self.chosen()
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is w:
            picked = Path(event.text)
        elif (
            event.type == UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION
            and event.ui_element is w.file_selection_list
        ):
            path = Path(w.current_directory_path) / event.text
            picked = path if path.is_file() else None
        if picked is not None or not w.alive():
            self.close()  # picked, or closed by its own Cancel or close button
            return picked
        self._enable_ok()
        return None

    def _enable_ok(self) -> None:
        w = self.window
        if w is not None and self.chosen() is not None and not w.ok_button.is_enabled:
            w.ok_button.enable()
