"""`collab`: collaboration metrics of finished runs (docs/collaboration.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from game.analysis.collaboration import BETA, NoReference, collaboration, reference_for
from game.commands.ranges import number, seconds
from game.engine import Level, PlanError, parse_plan, simulate
from game.inputs import finite
from game.levels import LevelError
from game.levels.catalog import LEVELS_DIR
from game.planners.llm.tasks import MAP_WITH_ORDERS, TaskError, load_spec
from game.replay.check import checked_level
from game.replay.file import FORMAT as REPLAY_FORMAT
from game.report.files import ResultError, is_result, label_of, read_records, result_files

NAME = "collab"
HELP = "Collaboration metrics of runs: trajectory efficiency, help that worked, wasted work."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="run folders, result files or replays")
    p.add_argument("--format", choices=("md", "json"), default="md", help="table (md, default) or json")
    p.add_argument(
        "--time-limit",
        type=seconds(3600),
        default=2.0,
        metavar="S",
        help="built-in planner's limit when a level names no reference plan (default 2)",
    )
    p.add_argument(
        "--beta", type=number(0, 100), default=BETA, help=f"weight of a redundant action (default {BETA:g})"
    )


def level_of(data: dict[str, Any]) -> tuple[Level, Path | None]:
    """The run's level (and its file, where references are looked up)."""
    spec = data.get("level")
    if isinstance(spec, dict):  # a replay carries its level; its file, when it is one of ours
        level = checked_level(spec)  # as strictly as a level file: size, orders, text
        ours = LEVELS_DIR / f"{level.meta.get('id')}.yaml"
        return level, ours if level.meta.get("id") and ours.is_file() else None
    if not isinstance(spec, str):
        raise ValueError("no 'level' field naming the level file")
    m = MAP_WITH_ORDERS.match(spec)
    return load_spec(spec).level, Path(m["path"] if m else spec)


def one(data: dict[str, Any], where: str, args: argparse.Namespace) -> dict[str, Any]:
    source = data.get("source") if isinstance(data.get("source"), dict) else {}
    level, path = level_of(data)
    if data.get("format") == REPLAY_FORMAT:
        data = {**data["result"], "plan": data["plan"], "messages": source.get("messages", [])}
    plan = parse_plan(data.get("plan") or {}, level.agent_names)
    result = simulate(level, plan, level.rules, record=True)
    reference, ref_name = reference_for(level, path, args.time_limit)
    c = collaboration(level, result, reference, data.get("rounds"), data.get("messages"), args.beta, ref_name)
    return {"file": where, "task": str(level.meta.get("id") or where), "done": result.done, **c.to_dict()}


def share(d: dict[str, int]) -> str:
    return f"{d['advanced']}/{d['total']}" if d["total"] else "-"


def table(rows: list[dict[str, Any]]) -> str:
    head = "| run | task | done | TES | TES per agent | PC | requests that helped | responses that helped | wasted actions (time) |"
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        per = ", ".join(f"{a} {s['tes']:.2f}" for a, s in r["agents"].items())
        lines.append(
            f"| {r['run']} | {r['task']} | {'yes' if r['done'] else 'no'} | {r['tes']:.2f} | {per} | "
            f"{100 * r['completeness']:.0f}% | {share(r['help_requests'])} | {share(r['help_responses'])} | "
            f"{r['wasted_actions']} ({r['wasted_time']:g}) |"
        )
    refs = {r["task"]: r["reference"] for r in rows}
    lines += ["", "TES and PC are measured against each task's reference plan:"]
    lines += [f"- {task}: {_shown_reference(ref)}" for task, ref in refs.items()]
    return "\n".join(lines)


def _shown_reference(ref: str) -> str:
    """The level's own reference file (relative to the project when inside it), or the planner."""
    path = Path(ref)
    if not path.is_absolute():
        return ref
    try:
        return f"the level's own, {path.relative_to(LEVELS_DIR.parent)}"
    except ValueError:
        return f"the level's own, {path}"


def run(args: argparse.Namespace) -> int:
    try:
        files = result_files([Path(p) for p in args.paths])
    except ResultError as e:
        print(f"collab: {e}", file=sys.stderr)
        return 2
    rows, problems = [], []
    for f in files:
        try:
            records = read_records(f)
        except ResultError as e:
            problems.append(str(e))
            continue
        for where, data in records:
            if not is_result(data):
                continue
            try:
                row = one(data, where, args)
            except (
                ValueError, KeyError, TypeError, AttributeError, IndexError, ArithmeticError, RecursionError,
                TaskError, LevelError, PlanError, NoReference,
            ) as e:  # fmt: skip
                problems.append(f"{where}: {e}")
                continue
            rows.append({"run": label_of(data, f), **row})
    for p in problems:
        print(f"collab: skipped {p}", file=sys.stderr)
    if not rows:
        print("collab: no runs to score", file=sys.stderr)
        return 2
    print(json.dumps(finite(rows), indent=1, allow_nan=False) if args.format == "json" else table(rows))
    return 0
