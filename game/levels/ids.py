"""Levels named by id instead of path, so that an installed user can type them:

- a bundled level: its path under the levels folder, without `.yaml`
  (`tutorial/01_first_salad`, `suite/burger/seed_42/agent_num_2/orders_num_2`);
- a task imported with `levels import-paracook` into the data folder: `paracook/<task>` or just
  `<task>` (`paracook/burger/seed_42/agent_num_2/orders_num_2`); `paracook` is the folder of
  them all.

A path that exists always wins over an id.
"""

from __future__ import annotations

import re
from pathlib import Path

from game.paths import LEVELS_DIR, data_dir

IMPORTED = "paracook"  # the data folder's sub-folder `levels import-paracook` writes to
TASK_ID = re.compile(r"(paracook/)?(?P<task>[a-z_]+/seed_\d+/agent_num_\d+/orders_num_\d+)")


def id_roots() -> list[tuple[Path, str]]:
    """Where ids are looked up, in order, with the prefix an id there may carry: the bundled
    levels, the imported tasks."""
    return [(LEVELS_DIR, ""), (data_dir() / IMPORTED, f"{IMPORTED}/")]


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long, a NUL byte: not a file either way
        return False


def resolve(spec: str | Path, folders: bool = False) -> Path:
    """The file (or, with `folders`, the folder) `spec` names: itself when it exists, else the
    bundled level or imported task of that id; unchanged when nothing matches, so that the
    caller's 'no such file' names what the user typed."""
    path = Path(spec)
    if _exists(path) or path.is_absolute() or ".." in path.parts or not path.parts:
        return path
    text = path.as_posix().removeprefix("./")
    for root, prefix in id_roots():
        if prefix and text == prefix.rstrip("/"):  # `paracook`: every imported task
            candidate = root
        else:
            candidate = root / text.removeprefix(prefix) if prefix else root / text
        if folders and candidate.is_dir():
            return candidate
        if candidate.suffix not in (".yaml", ".yml", ".json"):
            candidate = candidate.with_name(candidate.name + ".yaml")
        if candidate.is_file():
            return candidate
    return path


def level_id(path: Path) -> str | None:
    """The id a level file can be named by (`tutorial/01_first_salad`), or None when it lies
    outside the bundled levels and the imported tasks."""
    try:
        full = path.resolve()
    except (OSError, RuntimeError):
        return None
    for root, prefix in id_roots():
        try:
            rel = full.relative_to(root.resolve())
        except (ValueError, OSError):
            continue
        return prefix + rel.with_suffix("").as_posix()
    return None


def missing_task(spec: str | Path) -> str | None:
    """The task id `spec` names when it is a ParaCook task's id (`paracook/<task>` or `<task>`)
    that is not imported; None otherwise."""
    m = TASK_ID.fullmatch(Path(spec).as_posix().removeprefix("./"))
    if m is None or _exists(Path(spec)) or resolve(spec) != Path(spec):
        return None
    return m["task"]
