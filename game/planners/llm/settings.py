"""What makes a run folder one experiment: every setting that changes what the model sees or how
it is scored, written once in run.json; a resume with any of them different is refused."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import game
from game.levels.paper import task_digest

from .prompts import PROMPTS_DIR
from .tasks import LevelTask

# The settings a resume must share with the run it continues (run.json keeps more: label,
# timeout, retries, the level specs as given, the start time, the commit).
LOCKED = (
    "kind",
    "agents",  # abstract runs: how many agents the schedule has
    "model",
    "method",
    "mode",
    "knowledge",
    "temperature",
    "max_tokens",
    "attempts",
    "max_steps",
    "rounds",
    "endpoint",
    "tasks",
    "fixed",  # the queues a partner run kept as given (llm --fix)
    "levels_hash",
    "prompts_hash",
    "code_version",
)
SOURCES = (Path(game.__file__).resolve().parent / "engine", Path(__file__).resolve().parent)


def endpoint(url: str | None) -> str | None:
    """The endpoint without credentials: no user:password, query or fragment."""
    if not url:
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(an endpoint that is not a URL)"
    return urlunsplit((parts.scheme, host + port, parts.path, "", ""))


def files_hash(folders: Sequence[Path], patterns: Sequence[str]) -> str:
    """A short hash of the files' names and bytes: it changes whenever one of them does."""
    h = hashlib.sha256()
    for folder in folders:
        for pattern in patterns:
            for f in sorted(folder.glob(pattern)):
                h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def prompts_hash() -> str:
    return files_hash([PROMPTS_DIR], ["*.md", "*.json"])


def code_version() -> str:
    """The package version and a hash of the engine's and the LLM planners' sources: scores from
    two different engines are not one experiment."""
    return f"{game.__version__}+src.{files_hash(SOURCES, ['*.py'])}"


def git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=SOURCES[1],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def levels_hash(tasks: Sequence[LevelTask]) -> str:
    """A hash of every task's kitchen, orders and options (a level file edited between two
    sessions of a run is another experiment)."""
    body = [[t.id, task_digest(t.level), t.level.rules] for t in tasks]
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()[:16]


def run_settings(chosen: dict[str, Any], tasks: Sequence[LevelTask]) -> dict[str, Any]:
    """run.json for a run: the settings chosen on the command line plus what identifies the
    tasks, the prompts and the code, and when it started."""
    return {
        **chosen,
        "endpoint": endpoint(chosen.get("endpoint")),
        "tasks": [t.id for t in tasks],
        "levels_hash": levels_hash(tasks),
        "prompts_hash": prompts_hash(),
        "code_version": code_version(),
        "commit": git_commit(),
        "started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _shown(value: Any) -> str:
    if isinstance(value, list) and len(value) > 4:
        return f"{len(value)} tasks ({', '.join(map(str, value[:2]))}, ...)"
    text = json.dumps(value)
    return text if len(text) <= 200 else text[:200] + "..."  # fixed queues can be long


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """One line per locked setting that differs: `temperature: 0.2 in the folder, 0.9 now`."""
    lines = []
    for key in LOCKED:
        if old.get(key) != new.get(key):
            lines.append(f"{key}: {_shown(old.get(key))} in the folder, {_shown(new.get(key))} now")
    label_old, label_new = old.get("label"), new.get("label")
    if label_new is not None and label_old != label_new:
        lines.append(f"label: {_shown(label_old)} in the folder, {_shown(label_new)} now")
    return lines
