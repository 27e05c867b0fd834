"""`solve`: the built-in planner for one level (plan, OCT, lower bound, gap) or a whole suite."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from game.commands.ranges import jobs, seconds
from game.engine import MAX_TIME, RULESETS
from game.engine.metrics import bound_fits
from game.engine.safe import is_number
from game.inputs import InputError, load_json, read_fixed
from game.levels import LevelError, load_level
from game.machine import cores
from game.planners.solver import DEFAULT_TIME_LIMIT, Progress, Solution, Unsolvable, lower_bound, solve
from game.storage import disk_message, failed_path, folder_message, write_json_atomic
from game.words import plural

NAME = "solve"
HELP = "Plan a level with the built-in planner; print OCT, its lower bound and the gap."
RUN_FILE, RESULTS, REPLAYS = "run.json", "results", "replays"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("level", nargs="?", help="a level file, or a ParaCook map JSON with --orders")
    p.add_argument("--orders", nargs="+", metavar="DISH", help="dishes in order, e.g. salad_basic")
    p.add_argument("--rules", choices=sorted(RULESETS), help="rule set (default: the level's)")
    p.add_argument(
        "--time-limit",
        type=seconds(),
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds per level, the lower bound included (default {DEFAULT_TIME_LIMIT:g}); "
        "the same limit always gives the same plan",
    )
    p.add_argument("--out", metavar="PATH", help="write the plan JSON here (with --suite: the run folder)")
    p.add_argument("--replay", metavar="OUT.json", help="also save a replay of the plan")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--bound", action="store_true", help="only compute and print the lower bound")
    p.add_argument(
        "--route-bound",
        action="store_true",
        help="tighten the bound with the agents' routes on levels with several orders too (a CP-SAT "
        "relaxation; about a second more per level, on levels small enough for it; one-order levels "
        "always have it)",
    )
    p.add_argument(
        "--suite",
        metavar="NAME",
        help="solve every level of a suite (or a folder of "
        "levels); needs --out; resumes where a previous run stopped",
    )
    p.add_argument(
        "--jobs",
        type=jobs,
        default=1,
        metavar="N",
        help="for one level, N searches with different seeds, in parallel processes (the best wins; "
        "the same N gives the same plan on any computer; more than its cores take longer); with "
        "--suite, N levels at once, at most the computer's cores",
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help="also run the exact search (up to a minute or so per agent): on one-agent levels it "
        "proves the optimum or a floor under it; on a team's it plans each agent alone; its plan is "
        "used when it is faster",
    )
    p.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="AGENT=PLAN.json",
        help="keep this agent's queue exactly as in PLAN.json (a plan, a result file with a plan, or "
        "the queue as a bare list) and plan the other agents around it; repeat for more agents",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress lines / progress bar")


def run(args: argparse.Namespace) -> int:
    if args.time_limit <= 0 or args.jobs < 1:
        print("solve: --time-limit must be positive and --jobs at least 1", file=sys.stderr)
        return 2
    if args.fix and (args.suite or getattr(args, "exact", False)):
        which = "--suite" if args.suite else "--exact (it plans every agent itself)"
        print(f"solve: --fix cannot be used with {which}", file=sys.stderr)
        return 2
    if args.suite:
        return run_suite(args)
    if not args.level:
        print("solve: give a LEVEL, or --suite NAME --out runs/NAME", file=sys.stderr)
        return 2
    try:
        level = load_level(args.level, args.orders, args.rules)
    except LevelError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        fixed = read_fixed(args.fix)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.bound:
        b = lower_bound(level, args.rules, args.route_bound or None)
        if fixed:
            from game.planners.solver.partner import Partner

            try:
                b = Partner(level, args.rules or level.rules, fixed, args.time_limit).bound_for(b)
            except ValueError as e:  # Unsolvable too
                print(f"error: --fix: {e}", file=sys.stderr)
                return 2
        if args.json:
            print(json.dumps({"lower_bound": b.value if b.finite else None, "terms": b.terms}))
        else:
            print(f"lower bound on OCT: {b.describe()}")
        return 0
    if args.jobs > (n := cores()):  # N searches decide the plan, so they all run: some in turn
        rounds = -(-args.jobs // n)
        print(
            f"note: {args.jobs} searches on {plural(n, 'core')} run in {rounds} rounds: "
            f"about {rounds} x the time limit",
            file=sys.stderr,
        )
    report = None if args.json or args.no_progress else progress_printer(bool(fixed))
    try:
        sol = solve(
            level,
            args.rules,
            args.time_limit,
            bool(args.replay),
            args.jobs,
            report,
            args.route_bound or None,
            fixed=fixed or None,
        )
    except Unsolvable as e:
        print(f"no plan can serve the orders with the fixed queues: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"error: --fix: {e}", file=sys.stderr)
        return 2
    outcome = None
    if getattr(args, "exact", False):
        from game.planners.solver.proven import with_exact

        sol, outcome = with_exact(sol)
    target = args.out
    try:
        if args.out and sol.done:
            write_json(Path(args.out), sol.plan)
        target = args.replay
        if args.replay and sol.done:
            from game.replay import save_replay

            save_replay(args.replay, level, _parsed(sol), sol.result, source(sol, args.time_limit))
    except OSError as e:
        where = failed_path(e, target)
        print(f"solve: {disk_message(e, where, 'the plan is printed below')}", file=sys.stderr)
        print(json.dumps(sol.plan))
        return 1
    if args.json:
        print(json.dumps({**sol.result.to_dict(), **sol.summary(), "plan": sol.plan}))
    else:
        print(describe(sol, args))
        outcome = outcome if outcome is not None else sol.extra.get("exact")
        if outcome is not None:
            from game.planners.solver.proven import describe_outcome

            print(describe_outcome(outcome))
    return 0 if sol.done else 1


def progress_printer(fixed: bool = False):
    """A progress callback printing a line to stderr whenever the best OCT improves (and one
    while the lower bound is worked out, which comes first and may take seconds; with fixed
    queues the search comes first and the bound after the first plan)."""
    last: list = [None]

    def report(p: Progress) -> None:
        if p.bound is None and p.best_oct is None and last[0] is None:
            last[0] = "bounding"
            doing = "planning around the fixed queues" if fixed else "working out the lower bound"
            print(f"  {doing} ...", file=sys.stderr, flush=True)
        if p.best_oct is not None and p.best_oct != last[0]:
            last[0] = p.best_oct
            print(f"  {p.describe()}", file=sys.stderr, flush=True)

    return report


def _parsed(sol: Solution):
    from game.engine import parse_plan

    return parse_plan(sol.plan, sol.level.agent_names)


def source(sol: Solution, time_limit: float) -> dict[str, Any]:
    return {
        "kind": "solver",
        "method": "solver",
        "rules": sol.rules,
        "time_limit": time_limit,
        "lower_bound": sol.bound.value if sol.bound.finite else None,
        "gap": None if sol.gap is None else round(sol.gap, 4),
        "evaluations": sol.evaluations,
        **sol.run_fields(),
    }


def _searched(sol: Solution) -> str:
    what = plural(sol.evaluations, "engine run" if sol.extra.get("partner") else "schedule")
    searches = sol.extra.get("searches", 1)
    return what + (f" ({searches} searches)" if searches > 1 else "")


def describe(sol: Solution, args: argparse.Namespace) -> str:
    r = sol.result
    orders = len(r.finished_orders) + len(r.remaining_orders)
    if not sol.done:
        return (
            f"no plan found ({sol.rules}): {sol.note or r.error}\n"
            f"  lower bound on OCT: {sol.bound.describe()}"
        )
    lines = [
        f"OCT {r.time:g} ({sol.rules}), {len(r.finished_orders)}/{orders} orders served",
        f"  lower bound {sol.bound.value}, gap {sol.gap:.1%}"
        if sol.gap is not None
        else f"  lower bound {sol.bound.value}",
        f"  searched {_searched(sol)} in {sol.seconds:.1f} s",
    ]
    for agent in r.agent_progress:
        lines.append(
            f"  {agent}: {r.agent_progress[agent]} actions, "
            f"moving {r.agent_moving_time[agent]:g}, processing {r.agent_processing_time[agent]:g}, "
            f"waiting {r.agent_waiting_time[agent]:g}"
        )
    if args.out:
        lines.append(f"  plan written to {args.out}")
    if args.replay:
        lines.append(f"  replay written to {args.replay}")
    return "\n".join(lines)


def write_json(path: Path, data: Any) -> None:
    write_json_atomic(path, data)


# -- suites -----------------------------------------------------------------------------------
def run_suite(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from game.planners.llm.tasks import TaskError, file_stem, resolve_levels

    if not args.out:
        print("solve: --suite needs --out runs/NAME (the folder for results and replays)", file=sys.stderr)
        return 2
    try:
        tasks = resolve_levels([args.suite])
    except TaskError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    settings = {
        "kind": "solver",
        "method": "solver",
        "suite": args.suite,
        "rules": args.rules,
        "time_limit": args.time_limit,
        "route_bound": args.route_bound,
    }
    clash = check_run_folder(out, settings)
    if clash:
        print(f"error: {clash}", file=sys.stderr)
        return 2
    todo = [t for t in tasks if not finished(out / RESULTS / f"{file_stem(t.id)}.json")]
    jobs = [
        (
            t.id,
            t.source,
            t.level.to_dict(),
            args.rules,
            args.time_limit,
            str(out),
            file_stem(t.id),
            args.route_bound or None,
        )
        for t in todo
    ]
    bar = tqdm(
        total=len(tasks),
        initial=len(tasks) - len(todo),
        desc=f"solve {args.suite}",
        unit="level",
        disable=args.no_progress,
        file=sys.stderr,
        dynamic_ncols=True,
    )
    failed = []
    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=min(args.jobs, cores())) as pool:
                for task_id, ok, line in pool.map(solve_one, jobs):
                    bar.update(1)
                    bar.set_postfix_str(line)
                    if not ok:
                        failed.append(task_id)
        else:
            for job in jobs:
                task_id, ok, line = solve_one(job)
                bar.update(1)
                bar.set_postfix_str(line)
                if not ok:
                    failed.append(task_id)
    except KeyboardInterrupt:
        bar.close()
        print(
            f"interrupted: finished levels are saved in {out}; run the same command to resume",
            file=sys.stderr,
        )
        return 130
    bar.close()
    print(suite_summary(out))
    for task_id in failed:
        print(f"  not solved: {task_id}")
    print(f"results in {out} (paracook-kitchen report {out})")
    return 1 if failed else 0


def check_run_folder(out: Path, settings: dict[str, Any]) -> str | None:
    path = out / RUN_FILE
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            return f"{path}: cannot read it ({e})"
        for key in ("kind", "suite", "rules", "time_limit"):
            if old.get(key) != settings.get(key):
                return (
                    f"{out} holds a run with {key} {old.get(key)!r}, not {settings.get(key)!r}; "
                    f"choose another --out folder"
                )
        return None
    try:
        write_json(path, settings)
    except OSError as e:
        return folder_message(out, e)
    return None


def finished(path: Path) -> bool:
    """Whether the level's result is saved whole: one missing or damaged is solved again."""
    return saved_result(path) is not None


def saved_result(path: Path) -> dict[str, Any] | None:
    """A suite level's saved result, if it is one (read as any file: it may be damaged)."""
    try:
        rec = load_json(path)
    except (InputError, OSError):
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("done"), bool):
        return None
    time, bound = rec.get("time"), rec.get("lower_bound")
    if not (is_number(time) and 0 <= time <= MAX_TIME):
        return None
    if bound is not None and not (is_number(bound) and math.isfinite(bound)):
        return None
    return rec


def solve_one(job: tuple) -> tuple[str, bool, str]:
    """Solve one suite level and save it; a failure to save is reported, and retried next run."""
    try:
        return save_solution(job)
    except OSError as e:
        return (
            job[0],
            False,
            f"{job[0]}: not saved ({disk_message(e, failed_path(e, out_of(job)))}; run again to retry)",
        )
    except ValueError as e:
        return job[0], False, f"{job[0]}: not saved ({e})"


def out_of(job: tuple) -> str:
    return str(job[5])


def save_solution(job: tuple) -> tuple[str, bool, str]:
    """Solve one suite level and save its replay, then its result (a result means all saved)."""
    from game.engine import Level
    from game.levels.task import task_info
    from game.replay import save_replay

    task_id, src, level_data, rules, time_limit, out, stem, routes = job
    level = Level.from_dict(level_data)
    sol = solve(level, rules, time_limit, record=True, routes=routes)
    out_dir = Path(out)
    replay = save_replay(
        out_dir / REPLAYS / f"{stem}.json", level, _parsed(sol), sol.result, source(sol, time_limit)
    )
    record = sol.result.to_dict()
    record.update(
        task=task_info(level, task_id),
        plan=sol.plan,
        method="solver",
        level=src,
        replay=os.path.relpath(replay, out_dir),
        **sol.summary(),
    )
    write_json(out_dir / RESULTS / f"{stem}.json", record)
    line = f"{task_id}: OCT {sol.oct:g}, bound {sol.bound.value}" if sol.done else f"{task_id}: failed"
    return task_id, sol.done, line


def suite_summary(out: Path) -> str:
    octs, ratios, solved, total = [], [], 0, 0
    for f in sorted((out / RESULTS).glob("*.json")):
        rec = saved_result(f)
        if rec is None:
            continue
        total += 1
        if rec["done"]:
            solved += 1
            octs.append(rec["time"])
            bound = rec.get("lower_bound")
            if bound is not None and bound > 0 and bound_fits(bound, True, rec["time"]):
                ratios.append(rec["time"] / bound)
    if not total:
        return "no results"
    parts = [f"{solved}/{total} levels solved"]
    if octs:
        parts.append(f"mean OCT {sum(octs) / len(octs):.2f}")
    if ratios:
        parts.append(f"mean OCT / lower bound {sum(ratios) / len(ratios):.3f}")
    return ", ".join(parts)
