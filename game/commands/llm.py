"""`llm`: plan levels with any OpenAI-compatible model; results, replays and a log per run."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from game.planners.llm import KNOWLEDGE, METHODS

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
    p.add_argument(
        "--mode",
        choices=("centralized", "decentralized"),
        default="centralized",
        help="centralized: one model writes every agent's plan (default); decentralized: one "
        "conversation per agent, planning in rounds and sending messages",
    )
    p.add_argument(
        "--knowledge",
        choices=KNOWLEDGE,
        default="shared",
        help="decentralized: shared (every agent sees the recipes, default) or split (only the first)",
    )
    p.add_argument("--rounds", type=int, default=20, help="decentralized: most rounds per task (default 20)")
    p.add_argument("--max-steps", type=int, default=40, help="msreact: most steps per task (default 40)")
    p.add_argument("--shard", metavar="K/N", help="run only shard K of N (e.g. 2/4)")
    p.add_argument(
        "--out",
        default=None,
        metavar="runs/NAME",
        help="run folder (default runs/<model>-<method>); re-running resumes it",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def method_label(args: argparse.Namespace) -> str:
    """What results call the method: the --method, or `decentralized` (plus `-split`)."""
    if args.mode != "decentralized":
        return args.method
    return "decentralized" + ("-split" if args.knowledge == "split" else "")


def default_out(model: str, method: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in model)
    return Path("runs") / f"{safe}-{method}"


def run(args: argparse.Namespace) -> int:
    # imported here so that `llm --help` does not load openai
    from game.planners.llm.runner import LevelRun, RunError, log_name, open_run_folder
    from game.planners.llm.tasks import TaskError, resolve_levels, shard

    if args.attempts < 1 or args.concurrency < 1 or args.rounds < 1:
        print("llm: --attempts, --concurrency and --rounds must be at least 1", file=sys.stderr)
        return 2
    if (message := missing_key(args, "llm")) is not None:
        print(message, file=sys.stderr)
        return 2
    method = method_label(args)
    out = Path(args.out) if args.out else default_out(args.model, method)
    try:
        tasks = shard(resolve_levels(args.levels), args.shard)
        open_run_folder(
            out,
            {
                "kind": "llm",
                "model": args.model,
                "method": method,
                "mode": args.mode,
                "knowledge": args.knowledge if args.mode == "decentralized" else None,
                "rounds": args.rounds if args.mode == "decentralized" else None,
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
        client,
        method,
        out,
        args.attempts,
        args.max_steps,
        args.concurrency,
        not args.no_progress,
        args.mode,
        args.rounds,
        args.knowledge,
    )
    try:
        tally = asyncio.run(runner.run(tasks))
    except KeyboardInterrupt:
        print(
            f"interrupted: finished tasks are saved in {out}; run the same command to resume", file=sys.stderr
        )
        return 130
    print(tally.line())
    print(f"results in {out} (paracook-kitchen report {out})")
    return 1 if tally.api_errors else 0
