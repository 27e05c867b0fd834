"""pygame_gui's file dialog, made to survive any path typed or pasted into it.

The stock dialog asks the OS about the path after every keystroke; a path the OS refuses (a name
too long, a NUL character, a folder it may not read) raises there and would close the window.
Here such a path is simply not a usable one yet: the dialog stays open and keeps its last folder."""

from __future__ import annotations

import pygame
from pygame_gui.windows import UIFileDialog


class SafeFileDialog(UIFileDialog):
    def process_event(self, event: pygame.event.Event) -> bool:
        try:
            return super().process_event(event)
        except (OSError, ValueError):  # the OS refused the path typed so far
            self.ok_button.disable()
            return True

    def update_current_file_list(self, should_try_again: bool = True) -> None:
        try:
            super().update_current_file_list(should_try_again)
        except (OSError, ValueError):
            self.current_directory_path = self.last_valid_directory_path
            if should_try_again:
                self.update_current_file_list(should_try_again=False)
