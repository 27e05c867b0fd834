"""Autosave off the frame: each edit hands the plan (and its undo steps) to one writer thread,
which writes the newest one; so an edit never waits for the disk. flush() waits for it (tests);
stop() writes what is pending and ends the thread (closing the screen); the next submit starts
a new one.

One window at a time autosaves a level: the first holds `<level>.lock` in the autosave folder.
A second window on the same level does not autosave (its plan stays in the window; Ctrl+S saves
it to a file) until the first one closes; it then takes over, keeping the first one's autosave
as a `.before-*` copy."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from game import storage
from game.engine import Level, Plan
from game.ui import store
from game.ui.editor import EditorState

from . import history


class Autosaver:
    def __init__(self, level: Level, on_error: Callable[[Path, OSError], None]):
        self.level = level
        self.on_error = on_error  # called from the writer thread: keep it to setting a message
        self.blocked = False  # another window holds the level's autosave
        self.kept: Path | None = None  # that window's autosave, copied aside on taking over
        self._cond = threading.Condition()
        self._pending: tuple[Plan, list[EditorState], list[EditorState]] | None = None
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None

    def claim(self) -> None:
        """Take the level's autosave for this window; storage.Locked naming the window that has
        it. Taking over from a window that has closed keeps its autosave as a copy first."""
        try:
            storage.claim(store.autosave_lock_path(self.level))
        except storage.Locked:
            self.blocked = True
            raise
        except OSError:
            return  # a folder that cannot be written: the write itself says so
        if self.blocked:
            self.blocked = False
            self.kept = storage.backup(store.autosave_path(self.level))

    def submit(self, plan: Plan, undo: list[EditorState], redo: list[EditorState]) -> None:
        with self._cond:
            self._pending = (plan, list(undo), list(redo))
            if self._thread is None or not self._thread.is_alive():
                self._stopping = False
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._cond.notify()

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        if not self.running:  # written: another window may take the level over
            storage.unclaim(store.autosave_lock_path(self.level))

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def flush(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._stopping)
                if self._pending is None:
                    return  # stopping, nothing left to write
                job, self._pending, self._busy = self._pending, None, True
            try:
                plan, undo, redo = job
                self.claim()
                store.autosave(self.level, plan)
                history.save_steps(self.level, self.level.agent_names, undo, redo)
            except OSError as e:
                self.on_error(store.autosave_path(self.level), e)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()


def locked_message(e: storage.Locked) -> str:
    return (
        f"Open in another window ({storage.describe_holder(e.holder, since=False)}): no autosave "
        f"here until it closes; Ctrl+S saves a copy"
    )
