"""The undo history beside the autosave, so reopening a level restores the plan and its undo steps.

The plan itself stays in the autosave file (game.ui.store); this file only adds the steps. A
damaged or mismatching history is ignored: the plan is what matters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.engine import Level
from game.inputs import InputError, load_json
from game.storage import write_atomic
from game.ui import store
from game.ui.editor import EditorState, PlanEditor, pack_history


def history_path(level: Level) -> Path:
    path = store.autosave_path(level)
    return path.with_name(path.stem + ".history.json")


def save_steps(level: Level, names: list[str], undo: list[EditorState], redo: list[EditorState]) -> None:
    write_atomic(history_path(level), json.dumps(pack_history(names, undo, redo), separators=(",", ":")))


def load_history(level: Level, editor: PlanEditor) -> bool:
    """Give the editor its saved undo steps; False when there are none that fit."""
    path = history_path(level)
    try:
        data: Any = load_json(path)
    except InputError:  # damaged, too deep, too large: the plan is what matters
        return False
    return editor.load_history(data)
