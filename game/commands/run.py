"""`run`: simulate a plan in a level and print the result (or a batch of cases)."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from game.engine import RULESETS, Level, PlanError, Result, parse_plan, simulate
from game.engine.narration import num
from game.inputs import MAX_BATCH_BYTES, InputError, decode, load_json, parse_json, read_bytes
from game.levels import LevelError, load_level
from game.replay import save_replay

MAX_LINE_BYTES = 16 * 1024 * 1024

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
    result = simulate(level, plan, rules)
    if args.replay:
        label = {"label": args.label} if args.label else {}
        try:
            save_replay(args.replay, level, plan, result, {"kind": "cli", "plan_file": args.plan, **label})
        except OSError as e:
            print(f"error: {args.replay}: cannot write the replay ({e.strerror or e})", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(result.to_dict() | ({"label": args.label} if args.label else {})))
    else:
        print(summary(result))
    return 0 if result.done else 1


def read_json(path: Path) -> Any:
    return load_json(path)


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
    lines += why_lines(r.diagnosis)
    for agent in r.agent_progress:
        lines.append(
            f"  {agent}: {r.agent_progress[agent]} actions, moving {r.agent_moving_time[agent]}, "
            f"processing {r.agent_processing_time[agent]}, waiting {r.agent_waiting_time[agent]}, "
            f"utilisation {r.au[agent]:.0%}"
        )
    lines.append(f"  progress {r.progress:.0%}, T_max {r.t_max}, D_max {r.d_max}")
    return "\n".join(lines)


def why_lines(diagnosis: dict[str, Any] | None) -> list[str]:
    """The diagnosis as the terminal shows it: the summary, then the causes, likeliest first."""
    if not diagnosis:
        return []
    lines = [f"  why: {diagnosis['summary']}", f"  needed: {diagnosis['need']}"]
    for n, c in enumerate(diagnosis["causes"], 1):
        lines.append(f"  cause {n} ({c['kind']}, t = {num(c['t'])}): {c['text']}")
    return lines


def run_batch(path: Path, rules: str | None) -> int:
    """One result line per case; a case that cannot run gets an error line and the batch goes on."""
    try:
        raw_lines = list(io.BytesIO(read_bytes(path, MAX_BATCH_BYTES)))  # lines as a file gives them
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not any(raw.strip() for raw in raw_lines):
        print(f"error: {path}: no cases (one JSON object a line)", file=sys.stderr)
        return 2
    cache: dict[tuple, Level] = {}
    for n, raw in enumerate(raw_lines, 1):
        if raw.strip():
            print(json.dumps(safe_case(path, n, raw, rules, cache), allow_nan=False), flush=True)
    return 0


def safe_case(path: Path, n: int, raw: bytes, rules: str | None, cache: dict[tuple, Level]) -> dict[str, Any]:
    """batch_case, with anything unforeseen turned into this line's error (never the batch's end)."""
    where = f"{path}:{n}"
    try:
        line = decode(raw, where)
        if len(raw) > MAX_LINE_BYTES:
            raise InputError(f"{where}: longer than {MAX_LINE_BYTES:,} bytes")
        out = batch_case(path, n, line, rules, cache)
        json.dumps(out, allow_nan=False)  # what cannot be written as JSON is this line's error too
        return out
    except InputError as e:
        return {"done": False, "error": str(e)}
    except Exception as e:  # noqa: BLE001 - one bad case must never stop the others
        return {"done": False, "error": f"{where}: cannot run this case ({type(e).__name__}: {e})"}


def batch_case(path: Path, n: int, line: str, rules: str | None, cache: dict[tuple, Level]) -> dict[str, Any]:
    where = f"{path}:{n}"
    try:
        case = parse_json(line, where)
        if not isinstance(case, dict) or "level" not in case or "plan" not in case:
            raise InputError("a case needs 'level' and 'plan'")
        if not isinstance(case["level"], str):
            raise InputError("'level' must be a file path")
        orders = case.get("orders") or None
        if orders is not None and not (isinstance(orders, list) and all(isinstance(o, str) for o in orders)):
            raise InputError("'orders' must be a list of dish names")
        if case.get("rules") is not None and (
            not isinstance(case["rules"], str) or case["rules"] not in RULESETS
        ):
            raise InputError(f"'rules' must be one of {', '.join(sorted(RULESETS))}")
        level_path = Path(case["level"])
        if not level_path.is_absolute():
            level_path = path.parent / level_path
        key = (str(level_path), tuple(orders or ()))
        if key not in cache:
            cache[key] = load_level(level_path, orders)
        level = cache[key]
        plan = parse_plan(case["plan"], level.agent_names)
        return simulate(level, plan, case.get("rules") or rules or level.rules).to_dict()
    except InputError as e:
        message = str(e)
        return {"done": False, "error": message if message.startswith(where) else f"{where}: {message}"}
    except (LevelError, PlanError, ValueError, TypeError) as e:
        return {"done": False, "error": f"{where}: {e}"}
