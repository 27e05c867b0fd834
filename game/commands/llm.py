"""`llm`: plan levels with any OpenAI-compatible model; results, replays and a log per run."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from game.planners.llm import METHODS

from .endpoint import add_endpoint_arguments, make_client, missing_key

NAME = "llm"
HELP = "Plan levels with an LLM (any OpenAI-compatible endpoint); resumable."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", required=True, help="model name as the endpoint knows it")
    p.add_argument("--method", choices=METHODS, default="io", help="planning method (default io)")
    p.add_argument(
        "--levels",
        nargs="+",
        required=True,
        metavar="SUITE_OR_PATH",
        help="suite names (suite, human24, tutorial) or level files; a ParaCook map "
        "needs its orders: map.json:dish1,dish2",
    )
    add_endpoint_arguments(p)
    p.add_argument("--max-steps", type=int, default=40, help="msreact: most steps per task (default 40)")
    p.add_argument("--shard", metavar="K/N", help="run only shard K of N (e.g. 2/4)")
    p.add_argument(
        "--out",
        default=None,
        metavar="runs/NAME",
        help="run folder (default runs/<model>-<method>); re-running resumes it",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def default_out(model: str, method: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in model)
    return Path("runs") / f"{safe}-{method}"


def run(args: argparse.Namespace) -> int:
    # imported here so that `llm --help` does not load openai
    from game.planners.llm.runner import LevelRun, RunError, log_name, open_run_folder
    from game.planners.llm.tasks import TaskError, resolve_levels, shard

    if args.attempts < 1 or args.concurrency < 1:
        print("llm: --attempts and --concurrency must be at least 1", file=sys.stderr)
        return 2
    if (message := missing_key(args, "llm")) is not None:
        print(message, file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else default_out(args.model, args.method)
    try:
        tasks = shard(resolve_levels(args.levels), args.shard)
        open_run_folder(
            out,
            {
                "kind": "llm",
                "model": args.model,
                "method": args.method,
                "base_url": args.base_url,
                "temperature": args.temperature,
                "attempts": args.attempts,
                "levels": args.levels,
            },
        )
    except (TaskError, RunError) as e:
        print(f"llm: {e}", file=sys.stderr)
        return 2
    client = make_client(args, out / log_name(args.shard))
    runner = LevelRun(
        client, args.method, out, args.attempts, args.max_steps, args.concurrency, not args.no_progress
    )
    try:
        tally = asyncio.run(runner.run(tasks))
    except KeyboardInterrupt:
        print(
            f"interrupted: finished tasks are saved in {out}; run the same command to resume", file=sys.stderr
        )
        return 130
    print(tally.line())
    print(f"results in {out} (python main.py report {out})")
    return 1 if tally.api_errors else 0
