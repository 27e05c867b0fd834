"""The paper's tasks and their published human times, matched by what the task is.

A human time belongs to one kitchen, one set of agents and one list of orders. It is looked up
by a digest of exactly those (`task_digest`), never by a task id or a seed: the suite's
generated kitchen for "salad, seed 42" is not the paper's kitchen and gets no human time.

Sources of human times: a ParaCook data folder (maps/, orders.json, human/) and the index that
`levels import-paracook` writes next to the levels it installs (`human_times.json`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from game.engine import Level
from game.inputs import InputError, load_json
from game.storage import write_atomic

from .errors import LevelError

INDEX_NAME = "human_times.json"
INDEX_FORMAT = "paracook-kitchen-human-times"
HUMAN_FILE = re.compile(
    r"(?P<cat>[^/]+)/seed_(?P<seed>\d+)/agent_num_(?P<agents>\d+)/orders_num_(?P<n>\d+)\.json$"
)


@dataclass(frozen=True)
class HumanTime:
    task_id: str  # e.g. salad/seed_42/agent_num_2/orders_num_2
    time: float
    digest: str


def task_digest(level: Level) -> str:
    """A hash of the task itself: kitchen tiles, agents and their places, orders, options.
    Not its name, title, file or rule set (the paper's times were set on the task)."""
    m = level.to_paracook_map()
    body = {
        "size": [m["width"], m["height"]],
        "agents": sorted((a["name"], a["x"], a["y"]) for a in m["agents"]),
        "tiles": sorted(json.dumps(t, sort_keys=True) for t in m["tiles"]),
        "orders": list(level.orders),
        "options": level.options or {},
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def _human_time(path: Path) -> float | None:
    try:
        data = load_json(path)
    except InputError:
        return None
    ok = isinstance(data, dict) and data.get("done") is True
    t = data.get("time") if ok else None
    return float(t) if isinstance(t, int | float) and not isinstance(t, bool) else None


def times_from_data(root: Path) -> list[HumanTime]:
    """The human-study times of a ParaCook data folder, each tied to its task's digest."""
    from . import load_level

    try:
        orders = load_json(root / "orders.json")
    except InputError:
        return []
    out: list[HumanTime] = []
    for f in sorted((root / "human").glob("*/seed_*/agent_num_*/orders_num_*.json")):
        m = HUMAN_FILE.search(f.relative_to(root / "human").as_posix())
        t = _human_time(f)
        dishes = orders.get(f"{m['cat']}/seed_{m['seed']}/orders_num_{m['n']}") if m else None
        if m is None or t is None or not isinstance(dishes, list):
            continue
        try:
            level = load_level(
                root / "maps" / m["cat"] / f"seed_{m['seed']}" / f"agent_num_{m['agents']}.json", dishes
            )
        except LevelError:
            continue
        task_id = f"{m['cat']}/seed_{m['seed']}/agent_num_{m['agents']}/orders_num_{m['n']}"
        out.append(HumanTime(task_id, t, task_digest(level)))
    return out


def write_index(folder: Path, times: list[HumanTime]) -> Path:
    """Write the index of human times next to installed levels (atomically)."""
    path = folder / INDEX_NAME
    data = {
        "format": INDEX_FORMAT,
        "tasks": [{"id": h.task_id, "time": h.time, "digest": h.digest} for h in times],
    }
    return write_atomic(path, json.dumps(data, indent=1) + "\n")


def read_index(folder: Path) -> list[HumanTime]:
    """The index a previous import wrote; a missing or damaged one gives no times."""
    path = folder / INDEX_NAME
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return []
    return list(_read_index(str(path), stamp))


@lru_cache(maxsize=8)
def _read_index(path: str, _stamp: int) -> tuple[HumanTime, ...]:
    try:
        data = load_json(path)
        return tuple(
            HumanTime(str(t["id"]), float(t["time"]), str(t["digest"]))
            for t in data.get("tasks", [])
            if isinstance(t.get("time"), int | float)
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return ()


@lru_cache(maxsize=4)
def _data_times(root: str) -> tuple[HumanTime, ...]:
    return tuple(times_from_data(Path(root)))


def known_times(sources: list[Path]) -> dict[str, HumanTime]:
    """digest -> human time, from ParaCook data folders and installed-level folders."""
    out: dict[str, HumanTime] = {}
    for src in sources:
        if (src / INDEX_NAME).is_file():
            found: list[HumanTime] | tuple[HumanTime, ...] = read_index(src)
        elif (src / "human").is_dir() and (src / "orders.json").is_file():
            found = _data_times(str(src.resolve()))
        else:
            continue
        for h in found:
            out.setdefault(h.digest, h)
    return out


def human_time(level: Level, sources: list[Path]) -> HumanTime | None:
    """The published human time of this very task (kitchen, agents, orders), or None."""
    return known_times(sources).get(task_digest(level))
