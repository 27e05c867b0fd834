"""`llm --replay-from RUN_DIR --out NEW_DIR`: a recorded run again, offline (not a command)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

CHOSEN = (
    "kind",
    "label",
    "model",
    "method",
    "mode",
    "knowledge",
    "rounds",
    "max_steps",
    "temperature",
    "max_tokens",
    "attempts",
    "levels",
    "fixed",
)


def recorded_settings(run: Path) -> dict[str, Any]:
    from game.inputs import InputError, load_json
    from game.planners.llm.replayed import ReplayError

    try:
        settings = load_json(run / "run.json")
    except InputError as e:
        raise ReplayError(f"{run}: not an `llm` run folder ({e})") from None
    if not isinstance(settings, dict) or settings.get("kind") != "llm":
        raise ReplayError(f"{run / 'run.json'}: not the settings of an `llm` run")
    if not isinstance(settings.get("levels"), list) or not isinstance(settings.get("method"), str):
        raise ReplayError(f"{run / 'run.json'}: no 'levels' list or 'method' (made by an older version?)")
    return settings


def run_replay(args: argparse.Namespace) -> int:
    from game.planners.llm.log import RunLog
    from game.planners.llm.replayed import ReplayClient, ReplayError, recorded_replies
    from game.planners.llm.runner import RunError, open_run_folder
    from game.planners.llm.settings import run_settings
    from game.planners.llm.tasks import TaskError, resolve_levels

    from .llm import execute

    run = Path(args.replay_from)
    if not args.out:
        print("llm: --replay-from needs --out NEW_DIR (the re-run's folder)", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.resolve() == run.resolve():
        print("llm: --out must be another folder than the recorded run", file=sys.stderr)
        return 2
    try:
        old = recorded_settings(run)
        replies = recorded_replies(run)
        recorded = {t for t, _ in replies}
        tasks = [t for t in resolve_levels(old["levels"]) if t.id in recorded]
        chosen = {k: old.get(k) for k in CHOSEN} | {"replayed_from": str(run), "endpoint": None}
        settings = open_run_folder(out, run_settings(chosen, tasks))
    except (ReplayError, TaskError, RunError) as e:
        print(f"llm: {e}", file=sys.stderr)
        return 2
    for key in ("prompts_hash", "code_version", "levels_hash"):
        if old.get(key) is not None and old.get(key) != settings.get(key):
            print(
                f"note: {key} differs from the recorded run's ({old[key]} -> {settings[key]})",
                file=sys.stderr,
            )
    client = ReplayClient(
        str(old.get("model")),
        temperature=old.get("temperature"),
        max_tokens=old.get("max_tokens"),
        log=RunLog(out / "log.jsonl"),
        replies=replies,
    )
    code = execute(args, settings, client, tasks, out)
    left = sum(len(q) for q in client.replies.values())
    if left:
        print(
            f"note: {left} recorded repl(ies) were not asked for: the re-run stopped sooner than "
            "the recorded one on some task",
            file=sys.stderr,
        )
    return code
