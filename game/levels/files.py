"""Finding level files on disk and checking them in bulk."""

from __future__ import annotations

from pathlib import Path

from game.inputs import MAX_LEVEL_BYTES, InputError, parse_json, read_text

from .catalog import CATALOG_PATH
from .errors import LevelError
from .ids import resolve
from .paracook import level_from_paracook
from .validate import check_level


def level_files(paths: list[Path]) -> list[Path]:
    """The files given, folders searched recursively for YAML levels (ParaCook maps only when named;
    the dish catalog is not a level)."""
    out: list[Path] = []
    for given in paths:
        p = resolve(given, folders=True)
        if p.is_dir():
            out += sorted(
                f
                for f in p.rglob("*")
                if f.suffix in (".yaml", ".yml") and f.is_file() and f.resolve() != CATALOG_PATH
            )
        elif p.is_file():
            out.append(p)
        elif p.exists():  # a FIFO or device: named as what it is, never opened
            raise InputError(f"{p}: not a regular file (a folder, FIFO or device); give a file")
        else:
            raise FileNotFoundError(f"{p}: no such file, directory or level id")
    return out


def file_problems(path: Path) -> LevelError | None:
    """The error loading a level file gives, or None when it is fine. A ParaCook map (JSON) is
    checked as a kitchen, since its orders live elsewhere."""
    from . import load_level

    try:
        if path.suffix.lower() == ".json":
            _check_map(path)
        else:
            load_level(path)
    except LevelError as e:
        return e
    return None


def _check_map(path: Path) -> None:
    try:
        data = parse_json(read_text(path, MAX_LEVEL_BYTES), str(path))
    except InputError as e:
        raise LevelError(str(path), [str(e).removeprefix(f"{path}: ")]) from None
    problems = check_level(level_from_paracook(data, str(path)))
    if problems:
        raise LevelError(str(path), problems)


def validate_files(paths: list[Path]) -> dict[Path, str]:
    """Path -> error message for every broken level file."""
    errors = {}
    for path in paths:
        error = file_problems(path)
        if error is not None:
            errors[path] = str(error)
    return errors
