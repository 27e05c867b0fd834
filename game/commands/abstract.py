"""`abstract`: abstract scheduling tasks for an LLM, checked and scored against the CP-SAT optimum."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from game.planners.abstract import AbstractError, find_task_files, load_task, optimum, table
from game.planners.llm import ABSTRACT_METHODS

from .endpoint import add_endpoint_arguments, make_client, missing_key
from .ranges import seconds, whole

NAME = "abstract"
HELP = "Abstract scheduling tasks: an LLM's answers scored (SR, pOCT, nOCT) against the optimum."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "tasks",
        nargs="+",
        metavar="TASK",
        help="task files (abstract/<cat>/seed_<s>/orders_num_<n>.json) or folders of them",
    )
    p.add_argument("--model", help="model name as the endpoint knows it")
    p.add_argument("--optimum", action="store_true", help="only print each task's optimum (no model)")
    p.add_argument("--method", choices=ABSTRACT_METHODS, default="io", help="io or cot (default io)")
    p.add_argument("--agents", type=whole(1, 100), default=2, help="number of agents (default 2)")
    add_endpoint_arguments(p)
    p.add_argument(
        "--time-limit",
        type=seconds(),
        default=10.0,
        metavar="S",
        help="CP-SAT time per task; an optimum not proven by then is marked (default 10)",
    )
    p.add_argument("--out", metavar="runs/NAME", help="run folder (default runs/abstract-<model>-<method>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def abstract_settings(args: argparse.Namespace, task_ids: list[str]) -> dict:
    """run.json of an abstract run: what the model sees and how it is scored, locked for a resume."""
    from game.planners.llm.settings import code_version, endpoint, prompts_hash

    return {
        "kind": "abstract",
        "model": args.model,
        "method": args.method,
        "agents": args.agents,
        "endpoint": endpoint(args.base_url),
        "temperature": args.temperature,
        "attempts": args.attempts,
        "tasks": task_ids,
        "prompts_hash": prompts_hash(),
        "code_version": code_version(),
    }


def run(args: argparse.Namespace) -> int:
    # imported here so that `abstract --help` does not load openai
    from game.planners.llm.abstract_run import AbstractRun, read_records
    from game.planners.llm.runner import RunError, open_run_folder

    if args.agents < 1 or args.attempts < 1 or args.concurrency < 1:
        print("abstract: --agents, --attempts and --concurrency must be at least 1", file=sys.stderr)
        return 2
    try:
        tasks = [load_task(f, args.agents) for f in find_task_files(args.tasks)]
    except AbstractError as e:
        print(f"abstract: {e}", file=sys.stderr)
        return 2
    if args.optimum:
        return print_optima(tasks, args.time_limit)
    if not args.model:
        print("abstract: give --model (or --optimum to only solve the tasks)", file=sys.stderr)
        return 2
    if (message := missing_key(args, "abstract")) is not None:
        print(message, file=sys.stderr)
        return 2
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in args.model)
    out = Path(args.out or f"runs/abstract-{safe}-{args.method}")
    try:
        open_run_folder(out, abstract_settings(args, [t.id for t in tasks]))
    except RunError as e:
        print(f"abstract: {e}", file=sys.stderr)
        return 2
    client = make_client(args, out / "log.jsonl")
    runner = AbstractRun(
        client, args.method, out, args.attempts, args.concurrency, not args.no_progress, args.time_limit
    )
    try:
        tally = asyncio.run(runner.run(tasks))
    except KeyboardInterrupt:
        print(
            f"interrupted: finished tasks are saved in {out}; run the same command to resume", file=sys.stderr
        )
        return 130
    print(tally.line())
    wanted = {t.id for t in tasks}
    print(table([r for r in read_records(out) if r["task"]["id"] in wanted]))
    print("SR in %; pOCT counts a failure as its upper bound; nOCT = OCT / optimum x 100 (successes)")
    return 1 if tally.api_errors else 0


def print_optima(tasks: list, time_limit: float) -> int:
    print(f"{'task':36} {'agents':>6} {'optimum':>8} {'upper bound':>11}")
    for task in tasks:
        best = optimum(task, time_limit)
        mark = "" if best.proven else "  (best found, not proven)"
        print(f"{task.id:36} {task.agents:6d} {best.makespan:8d} {task.upper_bound():11d}{mark}")
    print("upper bound: one agent doing every subtask in file order (what a failure counts as in pOCT)")
    return 0
