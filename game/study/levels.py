"""Which levels a session covers: a suite name, level files or folders, or the human study."""

from __future__ import annotations

from pathlib import Path

from game.levels.ids import resolve
from game.levels.paper import read_index
from game.levels.suite import suite_levels

from .session import SessionError

HUMAN_STUDY = "human-study"


def human_study_files(installed: Path) -> list[Path]:
    """The installed paper tasks that have a published human time (the 24 of the study)."""
    files = [installed / f"{h.task_id}.yaml" for h in read_index(installed)]
    return sorted(f for f in files if f.is_file())


def resolve_levels(specs: list[str], installed: Path) -> list[Path]:
    """Level files for each spec, in the order given; raises SessionError naming a bad one."""
    out: list[Path] = []
    for spec in specs:
        path = resolve(spec)
        if spec == HUMAN_STUDY:
            found = human_study_files(installed)
            if not found:
                raise SessionError(
                    f"{HUMAN_STUDY}: the paper's tasks are not installed "
                    "(paracook-kitchen levels import-paracook PATH)"
                )
            out += found
        elif path.is_file():
            out.append(path)
        elif (installed / f"{spec}.yaml").is_file() and ".." not in Path(spec).parts:
            out.append(installed / f"{spec}.yaml")  # an installed paper task, by its id
        else:
            try:
                found = suite_levels(spec)
            except ValueError as e:
                raise SessionError(f"{spec}: no such level file, folder or suite ({e})") from None
            missing = [p for p in found if not p.is_file()]
            if missing or not found:
                raise SessionError(
                    f"{spec}: {len(missing)} of its level files are missing, e.g. {missing[:1]}"
                )
            out += found
    return out
