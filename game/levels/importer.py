"""ParaCook data folder (maps/, orders.json, recipes/) -> one project level file per task.

Each map maps/<category>/seed_<s>/agent_num_<k>.json is paired with every orders.json entry
<category>/seed_<s>/orders_num_<n>; the result is <out>/<category>/seed_<s>/agent_num_<k>/
orders_num_<n>.yaml, whose kitchen is the map tile for tile (level.to_paracook_map() gives it back).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from game.inputs import InputError, load_json
from game.storage import write_atomic

from .catalog import dish_name, load_catalog, resolve_orders
from .errors import LevelError
from .format import level_to_yaml
from .paper import times_from_data, write_index
from .paracook import level_from_paracook
from .task import DIFFICULTY
from .validate import check_level

MAP_PATH = re.compile(r"(?P<category>[^/]+)/seed_(?P<seed>\d+)/agent_num_(?P<agents>\d+)\.json$")
ORDERS_KEY = re.compile(r"(?P<prefix>.+/seed_\d+)/orders_num_(?P<orders>\d+)$")


def _read_json(path: Path) -> Any:
    try:
        return load_json(path)
    except InputError as e:
        raise LevelError(str(path), [str(e).removeprefix(f"{path}: ")]) from None


def recipe_problems(src: Path) -> list[str]:
    """Dishes of the folder's recipes/ that our catalog lacks or makes differently."""
    book = load_catalog()
    problems = []
    for f in sorted((src / "recipes").glob("*.json")):
        dishes = _read_json(f)
        for i, dish in enumerate(dishes if isinstance(dishes, list) else []):
            name = dish.get("name") if isinstance(dish, dict) else None
            ours = book.get(str(name))
            if ours is None:
                problems.append(f"{f.name}[{i}]: the catalog (levels/recipes.yaml) has no dish {name!r}")
                continue
            theirs = sorted(f"{g.get('item')}:{g.get('state')}" for g in dish.get("ingredients", []))
            if theirs != list(ours.signature()):
                problems.append(
                    f"{f.name}[{i}] ({name}): ingredients {theirs} differ from the "
                    f"catalog's {list(ours.signature())}"
                )
    return problems


def _orders_by_prefix(orders: Any, source: str) -> dict[str, list[tuple[int, list[str]]]]:
    if not isinstance(orders, dict):
        raise LevelError(source, ["must map '<category>/seed_<s>/orders_num_<n>' to a list of dishes"])
    table: dict[str, list[tuple[int, list[str]]]] = {}
    for key, dishes in orders.items():
        m = ORDERS_KEY.match(key)
        if not m or not isinstance(dishes, list) or not all(isinstance(d, str) for d in dishes):
            raise LevelError(
                source, [f"{key!r}: expected '<category>/seed_<s>/orders_num_<n>' and a list of dish names"]
            )
        table.setdefault(m["prefix"], []).append((int(m["orders"]), dishes))
    return {k: sorted(v) for k, v in table.items()}


def _task_yaml(data: Any, rel: str, m: re.Match, count: int, dishes: list[str], source: str) -> str:
    cat, seed, agents = m["category"], int(m["seed"]), int(m["agents"])
    names, recipes = resolve_orders(dishes, f"orders.json[{cat}/seed_{seed}/orders_num_{count}]")
    task_id = f"{cat}/seed_{seed}/agent_num_{agents}/orders_num_{count}"
    level = level_from_paracook(
        data,
        source,
        names,
        recipes,
        title=f"{cat.capitalize()}, seed {seed}: {agents} agent{'s' * (agents > 1)}, "
        f"{count} order{'s' * (count > 1)} (ParaCook kitchen)",
        description="Serve in this order: " + ", ".join(dish_name(d).replace("_", " ") for d in dishes) + ".",
    ).replace(
        meta={
            "id": task_id,
            "suite": "paracook",
            "category": cat,
            "seed": seed,
            "difficulty": DIFFICULTY.get(cat, "other"),
            "source": rel,
        }
    )
    problems = check_level(level)
    if problems:
        raise LevelError(source, problems)
    return level_to_yaml(level, comment=f"ParaCook task {task_id}, imported from {rel}.")


def import_paracook(src: Path, out: Path) -> tuple[list[Path], list[str]]:
    """Write a level file per task, and the index of the human study's times (human_times.json,
    each tied to its task's content); returns the level files written and the problems met."""
    if not (src / "maps").is_dir() or not (src / "orders.json").is_file():
        raise LevelError(str(src), ["a ParaCook data folder needs maps/ and orders.json"])
    problems = recipe_problems(src)
    orders = _orders_by_prefix(_read_json(src / "orders.json"), str(src / "orders.json"))
    written: list[Path] = []
    for map_file in sorted((src / "maps").rglob("*.json")):
        rel = map_file.relative_to(src).as_posix()
        m = MAP_PATH.search(rel)
        if not m:
            problems.append(f"{rel}: not named maps/<category>/seed_<s>/agent_num_<k>.json; skipped")
            continue
        try:
            data = _read_json(map_file)
            for count, dishes in orders.get(f"{m['category']}/seed_{m['seed']}", []):
                text = _task_yaml(data, rel, m, count, dishes, str(map_file))
                path = (
                    out
                    / m["category"]
                    / f"seed_{m['seed']}"
                    / f"agent_num_{m['agents']}"
                    / f"orders_num_{count}.yaml"
                )
                write_atomic(path, text)
                written.append(path)
        except LevelError as e:
            problems.append(str(e))
    if written:
        write_index(out, times_from_data(src))
    return written, problems
