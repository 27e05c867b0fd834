"""Which levels a run covers: suite names or level files (`map.json:dish1,dish2` for ParaCook maps)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from game.engine import Level
from game.inputs import InputError, load_json
from game.levels import LevelError, load_level
from game.levels.ids import resolve

MAP_WITH_ORDERS = re.compile(r"^(?P<path>.+?\.(?:json|yaml|yml)):(?P<orders>[^:\\]+)$")
PARACOOK_MAP = re.compile(r"(?P<cat>[a-z]+)/seed_(?P<seed>\d+)/agent_num_(?P<k>\d+)\.json$")


class TaskError(ValueError):
    """A --levels entry that names no level: unknown suite, missing file, bad orders."""


@dataclass(frozen=True)
class LevelTask:
    id: str  # unique within a run; also names the task's files
    level: Level
    source: str  # where it came from, as given


def file_stem(task_id: str) -> str:
    """A file name for a task id (ids may hold '/' and ':')."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "__", task_id).strip("_") or "task"


def portable(source: str) -> str:
    """A level spec as a result keeps it: relative to the working folder when the file is inside
    it (a published run folder names `levels/tutorial/01_first_salad.yaml`, not a home folder)."""
    m = MAP_WITH_ORDERS.match(source)
    path, orders = (m["path"], ":" + m["orders"]) if m else (source, "")
    p = Path(path)
    if p.is_absolute():
        try:
            return p.relative_to(Path.cwd()).as_posix() + orders
        except ValueError:
            return source
    return source


def looks_like_path(spec: str) -> bool:
    return any(c in spec for c in "/\\:") or spec.endswith((".json", ".yaml", ".yml")) or Path(spec).exists()


def suite_paths(name: str) -> list[Path]:
    try:
        from game.levels.suite import NotInstalled, suite_levels
    except ImportError:
        raise TaskError(
            f"{name!r}: level suites are not available in this version; give level files instead"
        ) from None
    try:
        return list(suite_levels(name))
    except NotInstalled as e:
        raise TaskError(str(e)) from None
    except (KeyError, ValueError, LevelError) as e:
        raise TaskError(f"{name!r}: not a known level suite ({e})") from None


def level_id(level: Level, path: Path) -> str:
    return str(level.meta.get("id") or path.stem)


def paracook_meta(path: Path) -> dict[str, object]:
    m = PARACOOK_MAP.search(path.as_posix())
    return {} if m is None else {"category": m["cat"], "seed": int(m["seed"])}


def load_spec(spec: str) -> LevelTask:
    m = MAP_WITH_ORDERS.match(spec)
    path = resolve(m["path"] if m else spec)
    if not path.exists():
        raise TaskError(f"{path}: no such level file")
    if m:
        orders = [o.strip() for o in m["orders"].split(",") if o.strip()]
        level = load_level(path, orders)
        meta = paracook_meta(path)
        paper_id = paper_task_id(path, level)
        if paper_id:
            meta["suite"] = (
                "paracook"  # the very task of the paper, as imported levels and human results name it
            )
        if meta:
            level = level.replace(meta={**level.meta, **meta})
        return LevelTask(paper_id or map_task_id(path, level), level, spec)
    level = load_level(path)
    return LevelTask(level_id(level, path), level, spec)


def paper_task_id(path: Path, level: Level) -> str | None:
    """`burger/seed_42/agent_num_2/orders_num_2` when the map is a ParaCook data folder's and the
    orders are that folder's list for some count (the id its imported level and its human result
    carry); None otherwise."""
    m = PARACOOK_MAP.search(path.as_posix())
    if m is None:
        return None
    try:
        table = load_json(path.resolve().parents[3] / "orders.json")
    except (InputError, IndexError):
        return None
    if not isinstance(table, dict):
        return None
    prefix = f"{m['cat']}/seed_{m['seed']}/orders_num_"
    for key, dishes in table.items():
        if not (isinstance(key, str) and key.startswith(prefix) and isinstance(dishes, list)):
            continue
        if [str(d).split("/")[-1] for d in dishes] == list(level.orders):
            return f"{m['cat']}/seed_{m['seed']}/agent_num_{m['k']}/orders_num_{key[len(prefix) :]}"
    return None


def map_task_id(path: Path, level: Level) -> str:
    """`salad/seed_42/agent_num_2:salad_basic,salad_full` for benchmark maps, else `stem:orders`."""
    m = PARACOOK_MAP.search(path.as_posix())
    head = path.stem if m is None else f"{m['cat']}/seed_{m['seed']}/agent_num_{m['k']}"
    return f"{head}:{','.join(level.orders)}"


def resolve_levels(specs: list[str]) -> list[LevelTask]:
    """Every level named by the specs, in order, with unique ids."""
    tasks: list[LevelTask] = []
    for spec in specs:
        try:
            if resolve(spec, folders=True).is_dir():
                tasks += [load_spec(str(p)) for p in suite_paths(spec)]
            elif looks_like_path(spec):
                tasks.append(load_spec(spec))
            else:
                tasks += [load_spec(str(p)) for p in suite_paths(spec)]
        except LevelError as e:
            raise TaskError(str(e)) from None
    return unique_ids(tasks)


def unique_ids(tasks: list[LevelTask]) -> list[LevelTask]:
    seen: dict[str, int] = {}
    out = []
    for t in tasks:
        n = seen.get(t.id, 0) + 1
        seen[t.id] = n
        out.append(t if n == 1 else LevelTask(f"{t.id}#{n}", t.level, t.source))
    return out


def shard(tasks: list[LevelTask], spec: str | None) -> list[LevelTask]:
    """Tasks of shard K of N (`K/N`, K from 1): every N-th task, starting at the K-th."""
    if not spec:
        return tasks
    k, n = parse_shard(spec)
    return tasks[k - 1 :: n]


def parse_shard(spec: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", spec)
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise TaskError(f"--shard {spec!r}: expected K/N with 1 <= K <= N, e.g. 1/4")
    return int(m[1]), int(m[2])
