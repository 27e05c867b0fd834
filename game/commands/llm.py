"""`llm`: plan levels with any OpenAI-compatible model; results, replays and a log per run."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.planners.llm import KNOWLEDGE, METHODS

from .endpoint import add_endpoint_arguments, make_client, missing_key
from .ranges import whole

if TYPE_CHECKING:
    from game.planners.llm.client import ChatClient

NAME = "llm"
HELP = "Plan levels with an LLM (any OpenAI-compatible endpoint); resumable."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model", help="model name as the endpoint knows it (required, except with --replay-from)"
    )
    p.add_argument("--method", choices=METHODS, default="io", help="planning method (default io)")
    p.add_argument(
        "--levels",
        nargs="+",
        metavar="SUITE_OR_PATH",
        help="suite names (suite, human24 (the paper's, once imported), suite24, tutorial) or level "
        "files; a ParaCook map "
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
    p.add_argument(
        "--rounds", type=whole(1, 1000), default=20, help="decentralized: most rounds per task (default 20)"
    )
    p.add_argument(
        "--max-steps", type=whole(1, 10_000), default=40, help="msreact: most steps per task (default 40)"
    )
    p.add_argument("--shard", metavar="K/N", help="run only shard K of N (e.g. 2/4)")
    p.add_argument(
        "--out",
        default=None,
        metavar="runs/NAME",
        help="run folder (default runs/<model>-<method>); re-running resumes it",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--label", help="a name for this run, shown by `report` instead of method and model")
    p.add_argument(
        "--force-new",
        metavar="NAME",
        help="start a new run in NAME beside the --out folder (for a run with other settings)",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="run the folder's failed and unparsed tasks again (same settings); the earlier "
        "outcome is kept in each result's earlier_runs",
    )
    p.add_argument(
        "--fix",
        action="append",
        metavar="AGENT=PLAN.json",
        help="keep this agent's queue exactly as in PLAN.json (a plan, a result file with a plan, "
        "or a bare list of actions) and let the model plan the others around it; repeatable; "
        "one level only (results say what was fixed)",
    )
    p.add_argument(
        "--replay-from",
        metavar="RUN_DIR",
        help="re-run a recorded run's tasks offline, feeding its recorded replies back instead "
        "of calling an endpoint (its settings are used; give --out)",
    )


def method_label(args: argparse.Namespace) -> str:
    """What results call the method: the --method, or `decentralized-<method>` (plus `-split`)."""
    if args.mode != "decentralized":
        return args.method
    from game.planners.llm.decentralized import talk_label

    return talk_label(args.method, args.knowledge)


def default_out(model: str, method: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in model)
    return Path("runs") / f"{safe}-{method}"


def chosen_settings(args: argparse.Namespace, method: str) -> dict:
    """The run's settings as chosen on the command line (settings.run_settings adds the rest)."""
    decentralized = args.mode == "decentralized"
    return {
        "kind": "llm",
        "label": args.label,
        "model": args.model,
        "method": method,
        "mode": args.mode,
        "knowledge": args.knowledge if decentralized else None,
        "rounds": args.rounds if decentralized else None,
        "max_steps": args.max_steps if args.method == "msreact" and not decentralized else None,
        "endpoint": args.base_url,
        "temperature": args.temperature,
        "max_tokens": args.max_tokens,
        "attempts": args.attempts,
        "timeout_s": args.timeout,
        "retries": args.retries,
        "levels": args.levels,
        "fixed": getattr(args, "fixed", None),
    }


def out_folder(args: argparse.Namespace, method: str) -> Path:
    out = Path(args.out) if args.out else default_out(args.model, method)
    return out.parent / args.force_new if args.force_new else out


def run(args: argparse.Namespace) -> int:
    if args.attempts < 1 or args.concurrency < 1 or args.rounds < 1:
        print("llm: --attempts, --concurrency and --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.replay_from:
        from .llm_replay import run_replay

        return run_replay(args)
    if not args.model or not args.levels:
        print("llm: --model and --levels are required (unless --replay-from)", file=sys.stderr)
        return 2
    if args.mode == "decentralized" and args.method == "msreact":
        print(
            "llm: --mode decentralized plans with io, cot or plag: its rounds already plan step by "
            "step as msreact does (use msreact with --mode centralized)",
            file=sys.stderr,
        )
        return 2
    if (message := missing_key(args, "llm")) is not None:
        print(message, file=sys.stderr)
        return 2
    # imported here so that `llm --help` does not load openai
    from game.planners.llm.runner import RunError, log_name, open_run_folder
    from game.planners.llm.settings import run_settings
    from game.planners.llm.tasks import TaskError, resolve_levels, shard

    method = method_label(args)
    out = out_folder(args, method)
    if args.force_new and (out / "run.json").exists():
        print(
            f"llm: --force-new {args.force_new}: {out} already holds a run; pick a new name", file=sys.stderr
        )
        return 2
    try:
        every = resolve_levels(args.levels)
        tasks = shard(every, args.shard)
        if args.fix and (problem := fix_queues(args, every)):
            print(f"llm: {problem}", file=sys.stderr)
            return 2
        settings = open_run_folder(out, run_settings(chosen_settings(args, method), every))
    except (TaskError, RunError) as e:
        print(f"llm: {e}", file=sys.stderr)
        return 2
    client = make_client(args, out / log_name(args.shard))
    return execute(args, settings, client, tasks, out)


def fix_queues(args: argparse.Namespace, tasks: list) -> str | None:
    """Read the --fix files into args.fixed (the queues as given); the problem, if any."""
    from game.fixed import read_fixed
    from game.inputs import InputError

    if args.mode == "decentralized":
        return "--fix plans around fixed queues with --mode centralized (one model plans the others)"
    if len(tasks) != 1:
        return (
            f"--fix: a fixed queue belongs to one kitchen; give exactly one level (these name {len(tasks)})"
        )
    level = tasks[0].level
    try:
        args.fixed = read_fixed(args.fix, level.agent_names)
    except InputError as e:
        return str(e)
    if all(a in args.fixed for a in level.agent_names):
        return (
            f"--fix fixes every agent of {tasks[0].id}: leave the model at least one to plan "
            "(run the plan as it is with `paracook-kitchen run`)"
        )
    return None


def checked_fixed(settings: dict, tasks: list) -> str | None:
    """The run's fixed queues (run.json, which a resume or a replay reads back) checked against
    its levels; the problem, if any."""
    from game.planners.llm.constraint import Fixed

    fixed = settings.get("fixed")
    for task in tasks if fixed is not None else []:
        try:
            Fixed.of(fixed, task.level)
        except ValueError as e:
            return f"run.json field 'fixed': {e}"
    return None


def execute(args: argparse.Namespace, settings: dict, client: ChatClient, tasks: list, out: Path) -> int:
    """Run the tasks into `out` with the run's settings; the summary line; the exit code."""
    from game.planners.llm.runner import LevelRun

    if problem := checked_fixed(settings, tasks):
        print(f"llm: {problem}", file=sys.stderr)
        return 2

    runner = LevelRun(
        client,
        settings["method"],
        out,
        settings["attempts"],
        settings.get("max_steps") or args.max_steps,
        args.concurrency,
        not args.no_progress,
        settings["mode"],
        settings.get("rounds") or args.rounds,
        settings.get("knowledge") or args.knowledge,
        settings.get("label"),
        args.retry_failed,
        settings.get("fixed"),
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
