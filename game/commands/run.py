"""`run`: simulate a plan in a level and print the result (or a batch of cases)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from game.engine import RULESETS, Level, PlanError, Result, parse_plan, simulate
from game.levels import LevelError, load_level
from game.replay import save_replay

NAME = "run"
HELP = "Run a plan in a level and print the result."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("level", nargs="?", help="a ParaCook map JSON (needs --orders) or a level file")
    p.add_argument("plan", nargs="?", help='plan JSON: {agent: [...]}, {"plan": ...} or a result')
    p.add_argument("--orders", nargs="+", metavar="DISH", help="dishes in order, e.g. salad_basic")
    p.add_argument("--rules", choices=sorted(RULESETS), help="rule set (default: the level's)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--replay", metavar="OUT.json", help="also save a replay file")
    p.add_argument("--batch", metavar="CASES.jsonl", help="run every line of a JSONL file")
    p.add_argument(
        "--label", help="who made the plan: written into the replay and --json (report groups by it)"
    )


def run(args: argparse.Namespace) -> int:
    if args.batch:
        return run_batch(Path(args.batch), args.rules)
    if not args.level or not args.plan:
        print("run: give LEVEL and PLAN, or --batch CASES.jsonl", file=sys.stderr)
        return 2
    try:
        level = load_level(args.level, args.orders)
        plan = parse_plan(read_json(Path(args.plan)), level.agent_names)
    except (LevelError, PlanError, InputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    rules = args.rules or level.rules
    result = simulate(level, plan, rules, record=bool(args.replay))
    if args.replay:
        label = {"label": args.label} if args.label else {}
        save_replay(args.replay, level, plan, result, {"kind": "cli", "plan_file": args.plan, **label})
    if args.json:
        print(json.dumps(result.to_dict() | ({"label": args.label} if args.label else {})))
    else:
        print(summary(result))
    return 0 if result.done else 1


class InputError(ValueError):
    pass


def read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read the file ({e.strerror or e})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: line {e.lineno}, column {e.colno}: not valid JSON ({e.msg})") from None


def summary(r: Result) -> str:
    served = f"{len(r.finished_orders)}/{len(r.finished_orders) + len(r.remaining_orders)}"
    if r.done:
        head = f"done in {r.time} ({r.rules}), {served} orders served"
    elif r.error:
        head = f"FAILED at t={r.time} ({r.rules}), {served} orders served"
    else:
        head = f"NOT DONE: the plan ends at t={r.time} ({r.rules}), {served} orders served"
    lines = [head]
    if r.error:
        lines.append(f"  error: {r.error}")
    for agent in r.agent_progress:
        lines.append(
            f"  {agent}: {r.agent_progress[agent]} actions, moving {r.agent_moving_time[agent]}, "
            f"processing {r.agent_processing_time[agent]}, waiting {r.agent_waiting_time[agent]}, "
            f"utilisation {r.au[agent]:.0%}"
        )
    lines.append(f"  progress {r.progress:.0%}, T_max {r.t_max}, D_max {r.d_max}")
    return "\n".join(lines)


def run_batch(path: Path, rules: str | None) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        print(f"error: {path}: cannot read the file ({e.strerror or e})", file=sys.stderr)
        return 2
    cache: dict[tuple, Level] = {}
    for n, line in enumerate(lines, 1):
        if line.strip():
            print(json.dumps(batch_case(path, n, line, rules, cache)), flush=True)
    return 0


def batch_case(path: Path, n: int, line: str, rules: str | None, cache: dict[tuple, Level]) -> dict[str, Any]:
    where = f"{path}:{n}"
    try:
        case = json.loads(line)
        if not isinstance(case, dict) or "level" not in case or "plan" not in case:
            raise InputError("a case needs 'level' and 'plan'")
        level_path = Path(case["level"])
        if not level_path.is_absolute():
            level_path = path.parent / level_path
        orders = case.get("orders") or None
        key = (str(level_path), tuple(orders or ()))
        if key not in cache:
            cache[key] = load_level(level_path, orders)
        level = cache[key]
        plan = parse_plan(case["plan"], level.agent_names)
        return simulate(level, plan, case.get("rules") or rules or level.rules, record=False).to_dict()
    except json.JSONDecodeError as e:
        return {"done": False, "error": f"{where}: not valid JSON ({e.msg}, column {e.colno})"}
    except (LevelError, PlanError, InputError, ValueError, TypeError) as e:
        return {"done": False, "error": f"{where}: {e}"}
