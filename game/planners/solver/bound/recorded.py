"""The bounds of the bundled levels and the ParaCook tasks, worked out ahead and shipped.

A bound is a linear program and its cuts (about a second a kitchen, and a CP-SAT solve more on
one-order levels): a window opening a suite level, a report of a 360-task LLM run, a planner on
a bundled level would each work it out again. `recorded_bounds.json` beside this module holds
them, written by `benchmarks/record_bounds.py`. An entry is read only when the code that would
work the bound out here is the code that recorded it: the same sources of the engine and of the
bound (`code_digest`) and the same version of ortools, whose solvers it runs. Otherwise the table is not
read at all, and every bound is worked out as before: the table saves time, it never changes a
figure."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from game.engine import Level

from ..model import INF
from .bounder import Bound

FORMAT = "paracook-kitchen-recorded-bounds"
TABLE = "recorded_bounds.json"
LIBRARIES = ("ortools",)  # the solvers (the bound's numpy work is on integers and booleans)
# not part of the kitchen: the same task under another title is the same bound
NOT_THE_KITCHEN = ("title", "description", "meta")


def kitchen_key(level: Level, rules: str | None = None) -> str:
    """The level as the bound reads it (and, for the routes term, the rule set), hashed."""
    body = {k: v for k, v in level.to_dict().items() if k not in NOT_THE_KITCHEN}
    text = json.dumps([body, rules], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@cache
def code_digest() -> str:
    """A digest of the sources the bound runs: the engine, the bound (this reader aside) and the
    kitchen model."""
    solver = Path(__file__).resolve().parents[1]
    engine = solver.parents[1] / "engine"
    bound = [f for f in sorted((solver / "bound").rglob("*.py")) if f.name != "recorded.py"]
    files = [*sorted(engine.rglob("*.py")), *bound, solver / "model.py"]
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(solver.parents[1]).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def library_versions() -> dict[str, str]:
    out = {}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "none"
    return out


def table_header() -> dict[str, Any]:
    """What a table must say of itself to be read here."""
    return {"format": FORMAT, "code": code_digest(), "libraries": library_versions()}


@cache
def _table() -> dict[str, Any]:
    """The shipped table's entries when it was recorded by this code, else no entries."""
    try:
        data = json.loads(resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or any(data.get(k) != v for k, v in table_header().items()):
        return {}
    bounds, routes = data.get("bounds"), data.get("routes")
    return (
        {"bounds": bounds, "routes": routes} if isinstance(bounds, dict) and isinstance(routes, dict) else {}
    )


def table_is_current() -> bool:
    return bool(_table())


def recorded_bound(level: Level) -> Bound | None:
    """The bound `lower._work_out` would give this level, when the table holds it."""
    entry = _table().get("bounds", {}).get(kitchen_key(level, level.rules))
    if not (isinstance(entry, list) and len(entry) == 3):
        return None
    value, terms, cost = entry
    if not (
        _count(value) and isinstance(terms, dict) and all(map(_count, terms.values())) and _seconds(cost)
    ):
        return None
    return Bound(value, dict(terms), cost)


def recorded_routes(level: Level, rules: str) -> tuple[int | None, float] | None:
    """The routes term and its cost `route_bound_spent` would give, when the table holds them."""
    entry = _table().get("routes", {}).get(kitchen_key(level, rules))
    if not (isinstance(entry, list) and len(entry) == 2):
        return None
    value, cost = entry
    return (value, cost) if (value is None or _count(value)) and _seconds(cost) else None


def _count(v: object) -> bool:
    return type(v) is int and 0 <= v <= INF


def _seconds(v: object) -> bool:
    return type(v) in (int, float) and 0 <= v < 1e9  # NaN compares false


def entry_of(bound: Bound) -> list:
    return [bound.value, dict(bound.terms), bound.cost]
