"""What the play window keeps on disk: autosaves, plan files, the local scoreboard, replays.

Everything personal lives in the user's data folder (`game.paths.data_dir`: $PARACOOK_KITCHEN_DATA,
else the platform's convention, e.g. ~/.local/share/paracook-kitchen), never in the repo.
Every write is atomic, so a crash mid-write never leaves a half file behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from game.engine import Level, Plan, Result, plan_to_dict
from game.inputs import InputError, load_json
from game.levels.task import task_info
from game.paths import CHECKOUT, data_dir
from game.paths import ENV_DATA as ENV_DATA
from game.replay import save_replay
from game.storage import updating, write_json_atomic

from .editor import plan_problems

ENV_REPLAYS = "PARACOOK_KITCHEN_REPLAYS"
# a clone beside the benchmark's data (installed: only $PARACOOK_DIR names it)
PARACOOK_DIR = CHECKOUT.parent / "shared" / "paracook" if CHECKOUT else None
PLAN_FORMAT = "paracook-kitchen-plan"


class StoreError(ValueError):
    """A file that cannot be read or does not fit; the message names the file and the reason."""


# -- places -----------------------------------------------------------------------------------
def replays_dir() -> Path:
    """The checkout's replays/ folder when run from it, else replays/ in the data folder."""
    env = os.environ.get(ENV_REPLAYS)
    if env:
        return Path(env)
    repo = CHECKOUT / "replays" if CHECKOUT else None
    if repo is not None and repo.is_dir() and os.access(repo, os.W_OK):
        return repo
    return data_dir() / "replays"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:60] or "level"


@lru_cache(maxsize=256)
def content_digest(level: Level) -> str:
    """A hash of what makes the task: grid, agents, tiles, orders and rules (not its name)."""
    m = level.to_paracook_map()
    body = {
        "size": [m["width"], m["height"]],
        "agents": m["agents"],
        "tiles": sorted(m["tiles"], key=lambda t: (t["y"], t["x"], t.get("name", ""))),
        "orders": list(level.orders),
        "rules": level.rules,
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:12]


def level_key(level: Level) -> str:
    """A stable id for a level: scores and autosaves follow the kitchen, not its file name."""
    return f"{slug(str(level.meta.get('id') or level.title or level.name))}-{content_digest(level)}"


# -- plain JSON files ----------------------------------------------------------------------------
def write_json(path: Path, data: Any) -> Path:
    return write_json_atomic(path, data)


def read_json(path: Path) -> Any:
    """A JSON file of the data folder or a plan the player chose; StoreError names what is wrong
    (unreadable, not UTF-8, too large, nested too deep, not JSON)."""
    try:
        return load_json(path)
    except InputError as e:
        raise StoreError(str(e)) from None


def exists(path: Path) -> bool:
    """Path.exists that says False, not raises, when a folder on the way cannot be read."""
    try:
        return path.exists()
    except OSError:
        return False


def set_aside(path: Path) -> Path | None:
    """Move a damaged file out of the way (kept, not deleted); None when the folder is read-only."""
    try:
        return path.replace(path.with_name(path.name + f".bad-{int(time.time())}"))
    except OSError:
        return None


def unwritable_lines(path: Path, error: OSError) -> list[str]:
    """What to tell the player when a file of the data folder cannot be written."""
    return [
        f"Cannot write {path} ({error.strerror or error}).",
        "Your plan is kept in this window; nothing is lost while it stays open.",
        "Press Ctrl+S to save it in another folder, or set PARACOOK_KITCHEN_DATA to a writable one.",
    ]


def writable_folder(wanted: Path) -> tuple[Path, str | None]:
    """`wanted` (created if need be), or, when it cannot be written, the first of the home
    folder and the temporary folder that can, with a note saying what failed."""
    try:
        wanted.mkdir(parents=True, exist_ok=True)
        if os.access(wanted, os.W_OK):
            return wanted, None
        reason = "permission denied"
    except OSError as e:
        reason = e.strerror or str(e)
    note = f"Cannot write to {wanted} ({reason}); choose another folder."
    for other in (Path.home(), Path(tempfile.gettempdir())):
        if other.is_dir() and os.access(other, os.W_OK):
            return other, note
    return wanted, note


# -- plan files ---------------------------------------------------------------------------------
def plan_file(level: Level, plan: Plan) -> dict[str, Any]:
    return {
        "format": PLAN_FORMAT,
        "level": level_key(level),
        "title": level.title or level.name,
        "orders": list(level.orders),
        "plan": plan_to_dict(plan),
    }


def save_plan(path: str | Path, level: Level, plan: Plan) -> Path:
    return write_json(Path(path), plan_file(level, plan))


def load_plan(path: str | Path, level: Level) -> tuple[Plan, str | None]:
    """Read a plan file (ours, a bare ParaCook plan or a result with a plan) for this level.
    Returns (plan, note); the note says when the file was saved for another level.
    Raises StoreError listing every reason the plan does not fit."""
    path = Path(path)
    data = read_json(path)
    plan, problems = plan_problems(level, data)
    if plan is None:
        shown = problems[:8] + ([f"... and {len(problems) - 8} more"] if len(problems) > 8 else [])
        raise StoreError(f"{path.name} does not fit this level:\n  " + "\n  ".join(shown))
    note = None
    if isinstance(data, dict) and data.get("format") == PLAN_FORMAT and data.get("level") != level_key(level):
        note = f"{path.name} was saved for {data.get('title') or data.get('level')}; loaded anyway"
    return plan, note


# -- autosave -----------------------------------------------------------------------------------
def autosave_path(level: Level) -> Path:
    return data_dir() / "autosave" / f"{level_key(level)}.json"


def autosave_lock_path(level: Level) -> Path:
    return autosave_path(level).with_suffix(".lock")


def autosave(level: Level, plan: Plan) -> Path:
    return write_json(autosave_path(level), plan_file(level, plan))


def load_autosave(level: Level) -> Plan | None:
    """The autosaved plan for this level, or None (a damaged autosave is set aside, not lost;
    in a read-only folder it stays where it is)."""
    path = autosave_path(level)
    if not exists(path):
        return None
    try:
        plan, _ = load_plan(path, level)
    except StoreError:
        set_aside(path)
        return None
    return plan if any(plan.values()) else None


def backup_autosave(level: Level) -> Path | None:
    """Copy the level's autosave aside before a plan the player did not build (one opened with
    --plan) starts replacing it; returns the copy, or None when there is nothing to keep."""
    path = autosave_path(level)
    if load_autosave(level) is None:
        return None
    backup = path.with_name(f"{path.stem}.before-{time.strftime('%Y%m%d-%H%M%S')}.json")
    try:
        shutil.copyfile(path, backup)
    except OSError:
        return None
    return backup


# -- scoreboard ---------------------------------------------------------------------------------
def scores_path() -> Path:
    return data_dir() / "scores.json"


def load_scores() -> dict[str, Any]:
    path = scores_path()
    if not exists(path):
        return {}
    try:
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
            raise StoreError(f"{path}: not a scoreboard")
    except StoreError:
        set_aside(path)
        return {}
    return data["levels"]


def scores_stamp() -> float | None:
    """When the scoreboard last changed (None when there is none or it cannot be read)."""
    try:
        return scores_path().stat().st_mtime
    except OSError:
        return None


def _record_score(level: Level, result: Result, replay: Path | None, source: str) -> dict[str, Any]:
    levels = load_scores()
    key = level_key(level)
    entry = {
        "time": result.time,
        "md": result.md,
        "au": result.au,
        "source": source,
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "replay": str(replay) if replay else None,
    }
    slot = levels.get(key)
    if not isinstance(slot, dict) or not isinstance(slot.get("runs"), list):
        slot = levels[key] = {"title": level.title or level.name, "id": level.meta.get("id"), "runs": []}
    slot["runs"].append(entry)
    write_json(scores_path(), {"version": 1, "levels": levels})
    return entry


def record_score(
    level: Level, result: Result, replay: Path | None = None, source: str = "human"
) -> dict[str, Any]:
    """Add a successful run (by the player, or the built-in planner) to the local scoreboard;
    other windows and processes recording at the same time wait their turn, so none is lost."""
    with updating(scores_path()):
        return _record_score(level, result, replay, source)


def best_time(level: Level, scores: dict[str, Any] | None = None, source: str = "human") -> float | None:
    """The best recorded time on this level by the local player (or by the planner)."""
    slot = (load_scores() if scores is None else scores).get(level_key(level))
    runs = slot.get("runs") if isinstance(slot, dict) else None
    runs = runs if isinstance(runs, list) else []
    times = [
        r["time"]
        for r in runs
        if isinstance(r, dict)
        and isinstance(r.get("time"), (int, float))
        and r.get("source", "human") == source
    ]
    return min(times) if times else None


def best_by_id(scores: dict[str, Any] | None = None) -> dict[str, float]:
    """Level id (meta id, e.g. salad/seed_42/agent_num_2/orders_num_2) -> the player's best time."""
    out: dict[str, float] = {}
    for slot in (load_scores() if scores is None else scores).values():
        if not isinstance(slot, dict) or not isinstance(slot.get("id"), str):
            continue
        runs = slot.get("runs")
        times = [
            r["time"]
            for r in (runs if isinstance(runs, list) else [])
            if isinstance(r, dict)
            and isinstance(r.get("time"), (int, float))
            and r.get("source", "human") == "human"
        ]
        if times:
            out[slot["id"]] = min(times + ([out[slot["id"]]] if slot["id"] in out else []))
    return out


# -- runs: replays and exported results ------------------------------------------------------------
def save_play_replay(level: Level, plan: Plan, result: Result) -> Path:
    name = f"{slug(level.title or level.name)}_{result.time:g}_{time.strftime('%Y%m%d-%H%M%S')}.json"
    return save_replay(replays_dir() / name, level, plan, result, {"kind": "human"})


def result_record(level: Level, plan: Plan, result: Result) -> dict[str, Any]:
    """The run as a result file (ParaCook's result fields plus plan, task and source)."""
    d = result.to_dict()
    d["plan"] = plan_to_dict(plan)
    d["task"] = task_info(level, level.meta.get("id"))
    d["source"] = {"kind": "human", "method": "play"}
    return d


def export_result(path: str | Path, level: Level, plan: Plan, result: Result) -> Path:
    return write_json(Path(path), result_record(level, plan, result))


def exports_dir() -> Path:
    return data_dir() / "exports"


# -- known times ---------------------------------------------------------------------------------
def installed_paracook_dir() -> Path:
    """Where `levels import-paracook` installs the paper's tasks by default."""
    return data_dir() / "paracook"


def paper_sources() -> list[Path]:
    """Where published human times come from: the ParaCook data, the installed paper tasks."""
    named = os.environ.get("PARACOOK_DIR")  # the data somewhere else
    beside = Path(named) if named else PARACOOK_DIR
    return [p for p in (beside, installed_paracook_dir()) if p is not None]


def human_time(level: Level) -> float | None:
    """The published human time of this very task (the paper's kitchen, agents and orders)."""
    from game.levels.paper import human_time as paper_time

    found = paper_time(level, paper_sources())
    return None if found is None else found.time


def human_reference(level: Level) -> tuple[float, str] | None:
    """A human time to compare with: only on the paper's own task, never on a look-alike."""
    exact = human_time(level)
    return None if exact is None else (exact, "ParaCook human study, this task")
