"""Exact optimum beside the built-in planner and the lower bound, on one-agent one-order tasks.

    python benchmarks/exact_bench.py                          # the 30 suite levels, paracook
    python benchmarks/exact_bench.py --rules documented --budget 60 --states 400000
    python benchmarks/exact_bench.py --paracook               # the ParaCook tasks as well
    python benchmarks/exact_bench.py --only pasta/seed_126 --out exact.json

Per task: the planner's OCT (at its default 10 s), the proven optimum (or, when the state or
time budget runs out, ">=L": the optimum is unknown but at least L, the larger of the lower
bound and the floor the search proved), the lower bound, states expanded, states per second
and seconds. The summary gives mean planner / optimum and mean optimum / bound over the tasks whose
optimum is known, and how many were solved within the budget.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")

from figures import Results  # noqa: E402


def suite_tasks() -> list[tuple[str, str, list[str] | None]]:
    paths = sorted((ROOT / "levels" / "suite").glob("*/seed_*/agent_num_1/orders_num_1.yaml"))
    return [(str(p.relative_to(ROOT / "levels" / "suite").with_suffix("")), str(p), None) for p in paths]


def paracook_tasks() -> list[tuple[str, str, list[str] | None]]:
    orders = json.loads((PARACOOK / "orders.json").read_text())
    out = []
    for key in sorted(orders):
        cat, seed, on = key.split("/")
        if on == "orders_num_1":
            path = PARACOOK / "maps" / cat / seed / "agent_num_1.json"
            out.append((f"paracook:{cat}/{seed}/agent_num_1/{on}", str(path), orders[key]))
    return out


def run_task(
    task: str, path: str, orders, rules: str, planner_limit: float, states: int, budget: float
) -> dict:
    from game.levels import load_level
    from game.planners.solver import lower_bound, solve
    from game.planners.solver.exact import exact_search

    level = load_level(path, orders)
    planned = solve(level, rules, time_limit=planner_limit)
    start = time.monotonic()
    outcome = exact_search(level, rules, max_states=states, time_limit=budget)
    seconds = time.monotonic() - start
    return {
        "task": task,
        "rules": rules,
        "planner": planned.oct if planned.done else None,
        "optimum": outcome.exact.oct if outcome.exact else None,
        "status": outcome.status,
        "lower": outcome.lower,
        "bound": lower_bound(level, rules).value,
        "states": outcome.states,
        "seconds": round(seconds, 2),
        "rate": round(outcome.states / seconds) if seconds > 0 else 0,
    }


def line(r: dict) -> str:
    opt = r["optimum"] if r["optimum"] is not None else r["status"]
    if r["status"] == "budget":
        opt = f">={max(r['lower'], r['bound']):g}"
    return (
        f"{r['task']:<44} planner {str(r['planner']):>4}  optimum {str(opt):>8}  bound {r['bound']:>4}  "
        f"{r['states']:>7} states  {r['rate']:>5}/s  {r['seconds']:>6.1f} s"
    )


def summary(rows: list[dict]) -> list[str]:
    known = [r for r in rows if r["optimum"] is not None]
    out = [f"solved {len(known)}/{len(rows)} within the budget"]
    if known:
        planner = [r["planner"] / r["optimum"] for r in known if r["planner"]]
        bound = [r["optimum"] / r["bound"] for r in known if r["bound"]]
        out.append(f"mean planner / optimum {statistics.fmean(planner):.3f} over {len(planner)} tasks")
        out.append(f"mean optimum / bound {statistics.fmean(bound):.3f} over {len(bound)} tasks")
        out.append(f"planner optimal on {sum(1 for r in known if r['planner'] == r['optimum'])}/{len(known)}")
        times = [r["seconds"] for r in known]
        out.append(f"time per solved task: mean {statistics.fmean(times):.1f} s, max {max(times):.1f} s")
    open_ = [r for r in rows if r["status"] == "budget" and r["planner"]]
    if open_:
        gaps = [r["planner"] / max(r["lower"], r["bound"]) for r in open_]
        out.append(
            f"unknown: {len(open_)}, each optimum proven in [max(bound, search floor), planner]; "
            f"mean planner / that floor {statistics.fmean(gaps):.3f}"
        )
    rates = [r["rate"] for r in rows if r["rate"]]
    if rates:
        out.append(f"states per second: mean {statistics.fmean(rates):.0f}")
    return out


def record(rows: list[dict], out: Results) -> None:
    """The summary's figures and every task's row, for the results page."""
    known = [r for r in rows if r["optimum"] is not None]
    out.figure("optimum proven within the budget", f"{len(known)} of {len(rows)}")
    if known:
        planner = [r["planner"] / r["optimum"] for r in known if r["planner"]]
        bound = [r["optimum"] / r["bound"] for r in known if r["bound"]]
        out.figure("where proven: mean planner OCT / optimum", statistics.fmean(planner))
        out.figure(
            "where proven: planner OCT equal to the optimum",
            f"{sum(1 for r in known if r['planner'] == r['optimum'])} of {len(known)}",
        )
        out.figure("where proven: mean optimum / lower bound", statistics.fmean(bound))
    open_ = [r for r in rows if r["status"] == "budget" and r["planner"]]
    if open_:
        gaps = [r["planner"] / max(r["lower"], r["bound"]) for r in open_]
        out.figure("where not proven: mean planner OCT / the floor proven", statistics.fmean(gaps))
    columns = ["task", "rules", "planner OCT", "optimum", "lower bound", "states", "seconds"]
    table = []
    for r in rows:
        opt = r["optimum"] if r["optimum"] is not None else f">={max(r['lower'], r['bound']):g}"
        table.append([r["task"], r["rules"], r["planner"], opt, r["bound"], r["states"], r["seconds"]])
    out.table("Every task", columns, table)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", choices=("paracook", "documented"), default="paracook")
    p.add_argument("--states", type=int, default=400_000, help="expanded states per task (default 400000)")
    p.add_argument("--budget", type=float, default=60.0, help="seconds per task (default 60)")
    p.add_argument("--planner-limit", type=float, default=10.0, help="the planner's time limit (default 10)")
    p.add_argument("--paracook", action="store_true", help="also the ParaCook one-agent one-order tasks")
    p.add_argument("--only", help="only tasks whose name contains this (several: comma-separated)")
    p.add_argument("--out", help="also write every row as JSON")
    args = p.parse_args()
    tasks = suite_tasks()
    if args.paracook:
        if PARACOOK.is_dir():
            tasks += paracook_tasks()
        else:
            print(f"note: {PARACOOK} is missing; skipping the ParaCook tasks", file=sys.stderr)
    if args.only:
        wanted = args.only.split(",")
        tasks = [t for t in tasks if any(w in t[0] for w in wanted)]
    rows = []
    with Results("exact_bench", "The planner against the exact optimum", "explanation/planner.md") as out:
        out.setting(
            f"{len(tasks)} one-agent, one-order tasks under `{args.rules}`; the planner at a {args.planner_limit:g} s "
            f"limit; the exact search up to {args.states:,} states or {args.budget:g} s a task"
        )
        for task, path, orders in tasks:
            row = run_task(task, path, orders, args.rules, args.planner_limit, args.states, args.budget)
            rows.append(row)
            print(line(row), flush=True)
        print(f"[{args.rules}] " + "\n".join(summary(rows)))
        record(rows, out)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
