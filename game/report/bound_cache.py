"""The lower bounds a report works out, kept in the data folder for the next report.

A report's OCT/LB needs the bound of every task's kitchen that no planner result records: about
a second each, so minutes for the 360-task suite, and again for every table asked of the
same runs. A bound kept here is keyed by the kitchen, the rule set and a digest of the code that
works it out (the bound and the engine it follows), so a changed bound or rule is never read back:
it is worked out anew. The folder is only a saving; a file there that cannot be read or written
is worked around, never a failure of the report.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from game.engine import Level
from game.engine.metrics import bound_fits
from game.inputs import InputError, load_json
from game.paths import data_dir
from game.storage import write_json_atomic

FORMAT = "paracook-kitchen-bound"
FOLDER = ("cache", "bounds")  # under the data folder
MAX_ENTRY_BYTES = 4096  # an entry is one small object: a larger file is not one


def cached_bound(level: Level, rules: str | None, served: float | None = None) -> int | None:
    """`known_bound(level, rules)`, read from the data folder when a report has worked it out
    before with the same code, else worked out and kept there. `served`: the OCT of a run of
    this kitchen that served its order; a kept bound above it is a damaged entry (no plan beats
    a lower bound), worked out again."""
    from game.planners.solver.bound import known_bound

    path = entry_path(level, rules)
    found = _read(path)
    if found is not None and bound_fits(found, served is not None, served or 0):
        return found
    value = known_bound(level, rules)
    if value is None:  # none found (or it failed): asked again next time, never kept as none
        return None
    try:
        write_json_atomic(path, {"format": FORMAT, "value": value})
    except (OSError, ValueError):
        pass  # a full, read-only or unusable data folder: the bound is worked out again next time
    return value


def entry_path(level: Level, rules: str | None) -> Path:
    key = json.dumps([level.to_dict(), rules, code_digest()], sort_keys=True, default=str)
    digest = hashlib.sha256(key.encode()).hexdigest()
    return data_dir().joinpath(*FOLDER, digest[:2], f"{digest}.json")


def _read(path: Path) -> int | None:
    """The kept bound, or None when there is no usable entry."""
    try:
        if not path.is_file():
            return None
        data = load_json(path, MAX_ENTRY_BYTES)
    except (InputError, OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "value" not in data:
        return None
    value = data["value"]
    return value if type(value) is int and 0 < value < 10**9 else None


def code_digest() -> str:
    """The digest of the sources the bound runs (the engine and the bound): any change to them
    gives other keys. The shipped bounds are keyed by the same (`bound.recorded`)."""
    from game.planners.solver.bound.recorded import code_digest as bound_digest

    return bound_digest()
