"""Levels from files: ParaCook map JSON and the project's own YAML format."""

from __future__ import annotations

import difflib
from pathlib import Path

from game.engine import Level
from game.inputs import MAX_LEVEL_BYTES, InputError, parse_json, read_text
from game.paths import data_dir

from .catalog import LEVELS_DIR, dish_name, load_catalog, resolve_orders
from .errors import LevelError
from .ids import IMPORTED, missing_task, resolve
from .paracook import level_from_paracook
from .validate import check_level


def load_level(
    path: str | Path, orders: list[str] | tuple[str, ...] | None = None, rules: str | None = None
) -> Level:
    """Load a level file. A ParaCook map JSON needs `orders`; a project YAML level carries
    its own (given `orders` replace them); `path` may be a level's id (`tutorial/01_first_salad`,
    see `ids`). Raises LevelError naming the file and field."""
    given, path = path, resolve(path)
    source = str(path)
    try:
        text = read_text(path, MAX_LEVEL_BYTES)
    except InputError as e:
        raise LevelError(source, [_missing(given) or str(e).removeprefix(f"{source}: ")]) from None
    if path.suffix.lower() in (".yaml", ".yml"):
        from .format import level_from_yaml

        level = level_from_yaml(text, source)
        if orders:
            names, recipes = resolve_orders(list(orders), source)
            level = level.with_orders(names, recipes)
    else:
        try:
            data = parse_json(text, source)
        except InputError as e:
            raise LevelError(source, [str(e).removeprefix(f"{source}: ")]) from None
        if not orders:
            raise LevelError(source, ["a ParaCook map needs the orders to cook (--orders DISH ...)"])
        names, recipes = resolve_orders(list(orders), source)
        level = level_from_paracook(data, source, names, recipes)
    if rules is not None:
        level = level.with_rules(rules)
    problems = check_level(level)
    if problems:
        raise LevelError(source, problems)
    return level


def _missing(given: str | Path) -> str | None:
    """What to say when a level was wanted and `given` names no file: a folder of levels by its
    id, or a ParaCook task that is not imported; None for anything else."""
    task = missing_task(given)
    if task is not None:
        twin = (
            f"; `suite/{task}` names the generated task of that id"
            if resolve(f"suite/{task}").is_file()
            else ""
        )
        return (
            f"the paper's task {task} is not imported in {data_dir() / IMPORTED} "
            f"(`paracook-kitchen levels import-paracook PATH/TO/ParaCook/data` imports them{twin})"
        )
    if resolve(given).exists():
        return None
    if resolve(given, folders=True).is_dir():
        return (
            "a folder of levels, not one level: name one of them "
            f"(`paracook-kitchen levels list --suite {Path(given).as_posix()}` lists them)"
        )
    return _not_in_folder(Path(given))


def _not_in_folder(given: Path) -> str | None:
    """A level named by an id (`tutorial/03_pasta_pot`) in a folder of levels that has no level
    of that name: the closest name there, and the command that lists them. None for a path on
    disk (its 'no such file' says it) or when the folder is not one of levels either."""
    parent = given.parent
    if not parent.parts or parent.exists():
        return None
    folder = resolve(parent, folders=True)
    if not folder.is_dir():
        return None
    try:
        names = sorted(f.stem for f in folder.iterdir() if f.suffix.lower() in (".yaml", ".yml", ".json"))
    except OSError:
        return None
    close = difflib.get_close_matches(given.stem, names, n=1)
    guess = f" (closest: {(parent / close[0]).as_posix()})" if close else ""
    return (
        f"no level named {given.name!r} in {parent.as_posix()}{guess}; "
        f"`paracook-kitchen levels list --suite {parent.as_posix()}` lists them"
    )


__all__ = [
    "LEVELS_DIR",
    "LevelError",
    "check_level",
    "dish_name",
    "load_catalog",
    "load_level",
    "resolve_orders",
]
