"""Built-in planner benchmark: success, OCT and OCT / lower bound on the ParaCook tasks.

    python benchmarks/solver_bench.py                      # everything, 10 s per task, 2 jobs
    python benchmarks/solver_bench.py --only human --time-limit 5
    python benchmarks/solver_bench.py --only suite --out bench.json
    python benchmarks/solver_bench.py --only human --anytime 4     # also at 4 x the limit
    python benchmarks/solver_bench.py --only suite --orders 1 --routes   # the routing bound too
    python benchmarks/solver_bench.py --only suite --exact 20000   # the exact search too
    python benchmarks/solver_bench.py --only suite --every 18 --out after.json --same before.json

Parts:
- paracook: the 360 benchmark tasks of ../shared/paracook (6 categories x 5 seeds x 1-3 agents
  x 1-4 orders), under both rule sets; every order must be served.
- human: the 24 tasks of the human study; total OCT against the humans' 1,693 and the number of
  tasks where the planner is at most as slow as the human.
- suite: the project's level suite (levels/suite), under both rule sets.

Every part reports mean OCT / lower bound, over all tasks and over one-order tasks; `--anytime K`
solves each task again at K x the limit and counts the tasks where the longer run is worse (the
planner is anytime, so this must be 0); `--routes` adds the routing relaxation to the bound;
`--exact N` also runs the exact search (N expanded states, `solve --exact`): on one-agent tasks it
proves the optimum or raises the bound to the floor it reached, and replaces the plan when it
finds a faster one; on a team's tasks it plans each agent alone and keeps that plan when it is
faster than the team's. The summary then gives OCT / bound both ways.

Every row carries the bound's terms and a hash of the plan, so that a change meant to leave the
planner as it was can be proven to: `--same OLD.json` compares every task's OCT, bound, terms and
plan hash with an earlier `--out` file and fails on any difference (the search stops on a budget
of schedules, not on the clock, so the figures do not depend on the machine's load). `--every K`
keeps every K-th task of each suite part (a sample); the 24 human-study tasks are always all run.

Where the agents' time goes: each row also carries the plan's walking, processing and waiting
summed over the agents (the engine's own counts) and the least total walking that the bound's
hands program proves any plan needs (`least_walking`); the results page gives, per number of
orders, the share of the agents' time (agents x OCT) spent walking, processing and waiting, and
the plan's walking over that least walking.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")
RULES = ("paracook", "documented")
OVER = 1.2  # a run over this many times its limit is counted as over it

from figures import Results  # noqa: E402


def paracook_jobs(time_limit: float) -> list[tuple]:
    orders = json.loads((PARACOOK / "orders.json").read_text())
    jobs = []
    for key in sorted(orders):
        cat, seed, on = key.split("/")
        for k in (1, 2, 3):
            path = PARACOOK / "maps" / cat / seed / f"agent_num_{k}.json"
            for rules in RULES:
                jobs.append(
                    (
                        "paracook",
                        f"{cat}/{seed}/agent_num_{k}/{on}",
                        str(path),
                        orders[key],
                        rules,
                        time_limit,
                        None,
                    )
                )
    return jobs


def human_jobs(time_limit: float) -> list[tuple]:
    orders = json.loads((PARACOOK / "orders.json").read_text())
    jobs = []
    for f in sorted((PARACOOK / "human").glob("*/*/agent_num_*/orders_num_*.json")):
        cat, seed, agents, on = f.parts[-4], f.parts[-3], f.parts[-2], f.stem
        human = json.loads(f.read_text())["time"]
        path = PARACOOK / "maps" / cat / seed / f"{agents}.json"
        jobs.append(
            (
                "human",
                f"{cat}/{seed}/{agents}/{on}",
                str(path),
                orders[f"{cat}/{seed}/{on}"],
                "paracook",
                time_limit,
                human,
            )
        )
    return jobs


def suite_jobs(time_limit: float) -> list[tuple]:
    from game.levels.suite import suite_levels

    return [
        (
            "suite",
            str(p.relative_to(ROOT / "levels" / "suite").with_suffix("")),
            str(p),
            None,
            rules,
            time_limit,
            None,
        )
        for p in suite_levels("suite")
        for rules in RULES
    ]


def run_job(job: tuple) -> dict:
    from game.levels import load_level
    from game.planners.solver import lower_bound, solve

    part, task, path, orders, rules, time_limit, human, anytime, routes, exact = job
    level = load_level(path, orders)
    start = time.monotonic()
    sol = solve(level, rules, time_limit)
    seconds = round(time.monotonic() - start, 2)
    longer = solve(level, rules, time_limit * anytime).oct if anytime else None
    static, planner_oct, proof = sol.bound.value, (sol.oct if sol.done else None), None
    own = sol.extra.get("exact")  # the planner's own exact search (one agent, one order)
    if exact:
        from game.planners.solver.proven import Solo, with_exact

        sol, outcome = with_exact(sol, exact)
        if isinstance(outcome, Solo):
            proof = "alone" if outcome.used else "team"
        else:
            proof = outcome if isinstance(outcome, str) else outcome.status
    bound = sol.bound.value
    if routes:
        bound = max(bound, lower_bound(level, rules, routes=True).value)
    return {
        "part": part,
        "task": task,
        "rules": sol.rules,
        "done": sol.done,
        "oct": sol.oct if sol.done else None,
        "bound": bound,
        "orders": len(level.orders),
        "longer": longer,
        "human": human,
        "seconds": seconds,
        "evaluations": sol.evaluations,
        "note": sol.note,
        "static": static,
        "planner": planner_oct,
        "exact": proof,
        "own_exact": own.status if own is not None else None,
        "terms": dict(sol.bound.terms),
        "plan_hash": hashlib.sha256(json.dumps(sol.plan, sort_keys=True).encode()).hexdigest()[:16],
        **time_use(level, sol),
    }


def time_use(level, sol) -> dict:
    """The agents' walking, processing and waiting in the plan, summed (None where it failed)."""
    res = sol.result if sol.done else None
    return {
        "agents": len(level.agents),
        "moving": sum(res.agent_moving_time.values()) if res else None,
        "processing": sum(res.agent_processing_time.values()) if res else None,
        "waiting": sum(res.agent_waiting_time.values()) if res else None,
    }


def least_walking_job(job: tuple) -> int | None:
    """The least walking the bound's hands program proves for the job's level (None: it cannot
    tell). Worked out after every solve, so that it does not share the processor with one."""
    from game.levels import load_level
    from game.planners.solver.bound.hand_bound import least_walking

    return least_walking(load_level(job[2], job[3]))


def time_share(rows: list[dict], key: str) -> str:
    """The mean over the rows of `key` (agent-steps) over the agents' time, agents x OCT."""
    return f"{100 * statistics.fmean(r[key] / (r['agents'] * r['oct']) for r in rows):.1f} %"


def time_use_table(rows: list[dict]) -> tuple[list[str], list[list]]:
    """Per part, rule set and number of orders: the mean share of the agents' time (agents x
    OCT) spent walking, processing and waiting (the rest: done before the last serve), and the
    mean of the plan's walking over the least walking the bound proves."""
    table = []
    timed = [r for r in rows if r["done"] and r.get("moving") is not None and r["oct"]]
    for part, rules in sorted({(r["part"], r["rules"]) for r in timed}):
        sel = [r for r in timed if r["part"] == part and r["rules"] == rules]
        for n in sorted({r["orders"] for r in sel}):
            group = [r for r in sel if r["orders"] == n]
            walks = [r["moving"] / r["least_walking"] for r in group if r.get("least_walking")]
            shares = [time_share(group, k) for k in ("moving", "processing", "waiting")]
            walked = statistics.fmean(walks) if walks else None
            table.append([f"{part} ({rules})", n, len(group), *shares, walked])
    columns = [
        "tasks (rules)",
        "orders",
        "plans",
        "walking",
        "processing",
        "waiting",
        "walking / the least proven",
    ]
    return columns, table


FINGERPRINT = ("done", "oct", "bound", "terms", "plan_hash", "evaluations")


def differences(rows: list[dict], old_rows: list[dict]) -> list[str]:
    """Every task whose figures differ from an earlier run's (tasks in only one run included)."""
    old = {(r["part"], r["task"], r["rules"]): r for r in old_rows}
    new = {(r["part"], r["task"], r["rules"]): r for r in rows}
    lines = [f"  only in the earlier run: {k}" for k in sorted(old.keys() - new.keys())]
    lines += [f"  only in this run: {k}" for k in sorted(new.keys() - old.keys())]
    for k in sorted(old.keys() & new.keys()):
        for f in FINGERPRINT:
            if old[k].get(f) != new[k].get(f):
                lines.append(f"  {k} {f}: {old[k].get(f)} -> {new[k].get(f)}")
    return lines


def ratio(rows: list[dict], orders: int | None = None, key: str = "bound") -> str:
    vals = [r["oct"] / r[key] for r in rows if r["done"] and r.get(key) and orders in (None, r["orders"])]
    return f"{statistics.fmean(vals):.3f}" if vals else "-"


def by_orders(rows: list[dict]) -> str:
    """Mean OCT / lower bound per number of orders, with how many tasks each mean pools."""
    counts = sorted({r["orders"] for r in rows})
    parts = [f"{n}: {ratio(rows, n)} ({sum(1 for r in rows if r['orders'] == n)})" for n in counts]
    return "mean OCT / lower bound by orders (tasks): " + ", ".join(parts)


def binding(row: dict) -> str:
    """The bound's terms that reach its value (joined by +; "-" when it has none)."""
    terms = row.get("terms") or {}
    return "+".join(k for k, v in terms.items() if v == row["bound"] and k != "order") or "-"


def binding_lines(rows: list[dict]) -> list[str]:
    """Per number of orders, how many tasks each term (or tie of terms) binds the bound on."""
    lines = []
    for n in sorted({r["orders"] for r in rows}):
        tally: dict[str, int] = {}
        for r in rows:
            if r["orders"] == n and r.get("terms") is not None:
                tally[binding(r)] = tally.get(binding(r), 0) + 1
        ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append(f"    {n} orders, the term that binds: " + ", ".join(f"{k} {c}" for k, c in ranked))
    return lines


def by_orders_table(rows: list[dict]) -> tuple[list[str], list[list]]:
    """Per part, rule set and number of orders: tasks served, mean OCT / bound, and how many
    tasks each term (or tie of terms) binds the bound on."""
    table = []
    for part, rules in sorted({(r["part"], r["rules"]) for r in rows}):
        sel = [r for r in rows if r["part"] == part and r["rules"] == rules and r["done"]]
        for n in sorted({r["orders"] for r in sel}):
            tally: dict[str, int] = {}
            for r in sel:
                if r["orders"] == n and r.get("terms") is not None:
                    tally[binding(r)] = tally.get(binding(r), 0) + 1
            ranked = ", ".join(f"{k} {c}" for k, c in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))
            count = sum(1 for r in sel if r["orders"] == n)
            table.append([part, rules, n, count, ratio(sel, n), ranked])
    return ["tasks", "rules", "orders", "served", "mean OCT / bound", "the term that binds (tasks)"], table


def exact_line(rows: list[dict]) -> list[str]:
    ran = [r for r in rows if r.get("exact") in ("optimal", "budget")]
    if not ran and not any(r.get("exact") in ("alone", "team") for r in rows):
        return []
    proven = sum(1 for r in ran if r["exact"] == "optimal")
    better = sum(1 for r in ran if r["done"] and r["planner"] is not None and r["oct"] < r["planner"])
    teams = [r for r in rows if r.get("exact") in ("alone", "team")]
    alone = sum(1 for r in teams if r["exact"] == "alone")
    static = [dict(r, oct=r["planner"]) for r in rows if r["planner"] is not None]
    parts = []
    if ran:
        parts.append(f"on {len(ran)} one-agent tasks: optimum proven on {proven}, a faster plan on {better}")
    if teams:
        parts.append(f"one agent alone faster than the team on {alone}/{len(teams)} team tasks")
    return [
        f"  exact search: {'; '.join(parts)}; planner alone with the static bound: mean OCT / bound "
        f"{ratio(static, key='static')} (one-order {ratio(static, 1, key='static')})"
    ]


def own_exact_line(rows: list[dict]) -> list[str]:
    ran = [r for r in rows if r.get("own_exact")]
    if not ran:
        return []
    proven = sum(1 for r in ran if r["own_exact"] == "optimal")
    return [f"  the planner's exact search (one agent, one order): optimum proven on {proven}/{len(ran)}"]


def anytime_line(rows: list[dict]) -> list[str]:
    pairs = [r for r in rows if r.get("longer") is not None and r["done"]]
    if not pairs:
        return []
    worse = [r for r in pairs if r["longer"] > r["oct"]]
    better = [r for r in pairs if r["longer"] < r["oct"]]
    return [
        f"  anytime: {len(worse)}/{len(pairs)} tasks worse with the longer limit, {len(better)} better; "
        f"total OCT {sum(r['oct'] for r in pairs)} -> {sum(r['longer'] for r in pairs)}"
    ] + [f"    WORSE: {r['task']} [{r['rules']}] {r['oct']} -> {r['longer']}" for r in worse]


def summarise(rows: list[dict]) -> list[str]:
    lines = []
    for part in ("paracook", "suite"):
        for rules in sorted({r["rules"] for r in rows if r["part"] == part}):
            sel = [r for r in rows if r["part"] == part and r["rules"] == rules]
            ok = [r for r in sel if r["done"]]
            lines.append(
                f"{part} [{rules}]: {len(ok)}/{len(sel)} tasks served in full; "
                f"mean OCT {statistics.fmean(r['oct'] for r in ok):.2f}; "
                f"mean OCT / lower bound {ratio(ok)} (one-order tasks {ratio(ok, 1)}); "
                f"mean time {statistics.fmean(r['seconds'] for r in sel):.1f} s, "
                f"max {max(r['seconds'] for r in sel):.1f} s"
                if ok
                else f"{part} [{rules}]: 0/{len(sel)} served"
            )
            lines.append("  " + by_orders(ok))
            lines += binding_lines(ok)
            for r in sel:
                if not r["done"]:
                    lines.append(f"  NOT SERVED: {r['task']} ({r['note']})")
            lines += anytime_line(sel) + own_exact_line(sel) + exact_line(sel)
    hum = [r for r in rows if r["part"] == "human"]
    if hum:
        ok = [r for r in hum if r["done"]]
        total = sum(r["oct"] for r in ok)
        wins = sum(1 for r in ok if r["oct"] <= r["human"])
        lines.append(
            f"human study: {len(ok)}/{len(hum)} served; planner total OCT {total} "
            f"(mean {total / max(1, len(ok)):.1f}) vs humans {sum(r['human'] for r in hum)}; "
            f"at most the human OCT on {wins}/{len(hum)}; "
            f"mean OCT / lower bound {ratio(ok)}"
        )
        lines.append("  " + by_orders(ok))
        lines += binding_lines(ok)
        lines += anytime_line(hum) + exact_line(hum)
        for r in hum:
            lines.append(
                f"  {r['task']}: planner {r['oct']} human {r['human']} bound {r['bound']} ({binding(r)})"
            )
    return lines


def record(rows: list[dict], out: Results, time_limit: float) -> None:
    """The summary's figures for the results page: one row per part and rule set, and the runs'
    seconds against the limit (the planner's limit includes its bound)."""
    table, seconds_table = [], []
    for part in ("human", "paracook", "suite"):
        for rules in sorted({r["rules"] for r in rows if r["part"] == part}):
            sel = [r for r in rows if r["part"] == part and r["rules"] == rules]
            ok = [r for r in sel if r["done"]]
            mean_oct = statistics.fmean(r["oct"] for r in ok) if ok else None
            table.append([part, rules, f"{len(ok)}/{len(sel)}", mean_oct, ratio(ok), ratio(ok, 1)])
            seconds = [r["seconds"] for r in sel]
            over = sum(1 for t in seconds if t > OVER * time_limit)
            seconds_table.append([part, rules, statistics.fmean(seconds), max(seconds), over])
    out.table(
        "By part", ["tasks", "rules", "served", "mean OCT", "mean OCT / bound", "one-order tasks"], table
    )
    columns = ["tasks", "rules", "mean s", "max s", f"runs over {OVER:g} x the limit"]
    out.table(f"Seconds per run, at a {time_limit:g} s limit", columns, seconds_table)
    out.table("By number of orders: OCT over the bound, and the term that binds", *by_orders_table(rows))
    out.table(
        "By number of orders: where the agents' time goes (shares of agents x OCT)", *time_use_table(rows)
    )
    hum = [r for r in rows if r["part"] == "human" and r["done"]]
    if hum:
        total = sum(r["oct"] for r in hum)
        out.figure("human study: the planner's total OCT", total)
        out.figure("human study: the humans' total OCT", sum(r["human"] for r in hum))
        out.figure(
            "human study: tasks where the planner is at most the human OCT",
            sum(1 for r in hum if r["oct"] <= r["human"]),
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", choices=("paracook", "human", "suite"), action="append")
    p.add_argument("--out", help="also write every row as JSON")
    p.add_argument("--anytime", type=float, default=0, metavar="K", help="also solve at K x the limit")
    p.add_argument("--routes", action="store_true", help="add the routing relaxation to the bound")
    p.add_argument(
        "--exact", type=int, default=0, metavar="N", help="the exact search too, N states (per agent)"
    )
    p.add_argument("--orders", type=int, help="only tasks with this many orders")
    p.add_argument("--agents", type=int, help="only tasks with this many agents")
    p.add_argument("--rules", choices=RULES, help="only this rule set")
    p.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th task of each part")
    p.add_argument("--same", metavar="OLD.json", help="fail unless every task's figures match this run")
    args = p.parse_args()
    parts = args.only or ["human", "paracook", "suite"]
    jobs: list[tuple] = []
    if ("paracook" in parts or "human" in parts) and not PARACOOK.is_dir():
        print(f"note: {PARACOOK} is missing; skipping the ParaCook parts", file=sys.stderr)
        parts = [x for x in parts if x == "suite"]
    if "human" in parts:
        jobs += human_jobs(args.time_limit)
    if "paracook" in parts:
        jobs += paracook_jobs(args.time_limit)
    if "suite" in parts:
        try:
            jobs += suite_jobs(args.time_limit)
        except ImportError:
            print("note: no level suite in this version; skipping it", file=sys.stderr)
    jobs = [j + (args.anytime, args.routes, args.exact) for j in jobs]
    if args.orders:
        jobs = [j for j in jobs if j[1].endswith(f"orders_num_{args.orders}")]
    if args.agents:
        jobs = [j for j in jobs if f"agent_num_{args.agents}/" in j[1]]
    if args.rules:
        jobs = [j for j in jobs if j[4] == args.rules]
    if args.every > 1:  # the 24 human-study tasks stay whole: their total is the figure
        jobs = [
            j
            for part in parts
            for j in [j for j in jobs if j[0] == part][:: 1 if part == "human" else args.every]
        ]
    from tqdm import tqdm

    rows = []
    start = time.monotonic()
    with Results("solver_bench", "The built-in planner", "explanation/planner.md") as out:
        out.setting(
            f"{len(jobs)} solves ({', '.join(parts)}), a {args.time_limit:g} s limit each, {args.jobs} jobs"
        )
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for row in tqdm(pool.map(run_job, jobs, chunksize=1), total=len(jobs), unit="task"):
                rows.append(row)
            for row, walk in zip(rows, pool.map(least_walking_job, jobs), strict=True):
                row["least_walking"] = walk
        print(
            f"{len(rows)} solves in {time.monotonic() - start:.0f} s "
            f"(time limit {args.time_limit:g} s, {args.jobs} jobs)"
        )
        print("\n".join(summarise(rows)))
        record(rows, out, args.time_limit)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    if args.same:
        diff = differences(rows, json.loads(Path(args.same).read_text()))
        print(f"against {args.same}: {len(rows)} tasks, {len(diff)} differences")
        print("\n".join(diff))
        if diff:
            return 1
    return 0 if all(r["done"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
