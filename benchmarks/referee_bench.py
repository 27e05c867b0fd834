"""How much of the planner's gap to the lower bound is the plan's and how much the bound's, with
the exact search as the referee, per number of orders.

    python benchmarks/referee_bench.py                         # one-agent suite levels, paracook
    python benchmarks/referee_bench.py --states 50000 --time-limit 2 --jobs 2
    python benchmarks/referee_bench.py --orders 2 --every 3 --out referee.json

The exact search (`game.planners.solver.exact`) proves the least OCT of a one-agent level when
its budget of expanded states lets it; it is for one agent only, so the referee covers the
one-agent levels of the suite (30 per number of orders) and none of the human-study tasks (all
played by two agents). Per level: the planner's OCT at the limit, the lower bound the planner
publishes, and the exact search's verdict, searching only plans faster than the planner's
(`proven.with_exact`): the optimum, proven; or, when the budget runs out, the floor it proved.

Where the optimum is proven, OCT / bound = (OCT / optimum) x (optimum / bound): the first factor
is the plan's share of the gap, the second the bound's. In steps, the plan's share is
(OCT - optimum) / (OCT - bound) summed over the levels. The levels the search settles are the
easy ones, so the table says how many it settled and the mean OCT / bound over all of them
beside the mean over the settled ones: the split holds for those levels only. Where it did not
settle, the optimum lies between the floor and the OCT, so the plan's share there is at most
(OCT - floor) / (OCT - bound).

Walking: the bound's hands program proves a least total walking (`least_walking`). Beside the
plan's walking over it (all levels) stands the optimal plan's walking over it (settled levels):
how far the program's walking lies under the walking of a plan no plan beats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

RULES = ("paracook", "documented")
TITLE = "The planner's gap: the plan's share and the bound's"


def suite_tasks() -> list[tuple[str, str]]:
    """(name, path) of every one-agent level of the suite, 1-4 orders."""
    suite = ROOT / "levels" / "suite"
    paths = sorted(suite.glob("*/seed_*/agent_num_1/orders_num_*.yaml"))
    return [(str(p.relative_to(suite).with_suffix("")), str(p)) for p in paths]


def by_orders(tasks: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    return [t for t in tasks if t[0].endswith(f"orders_num_{n}")]


def referee(level, rules: str, time_limit: float, states: int) -> dict:
    """The planner's OCT and bound on a one-agent level, and the exact search's verdict."""
    from game.planners.solver import solve
    from game.planners.solver.bound.hand_bound import least_walking
    from game.planners.solver.proven import with_exact

    sol = solve(level, rules, time_limit)
    row = {"orders": len(level.orders), "planner": sol.oct if sol.done else None, "bound": sol.bound.value}
    row["walking"] = walking(sol)
    proven, outcome = with_exact(sol, states)
    status = "n/a" if isinstance(outcome, str) else outcome.status  # a string: why it was not searched
    optimal = status == "optimal" and proven.done
    row.update(
        status=status,
        optimum=proven.oct if optimal else None,
        # the least OCT any plan can reach, as far as proven: the optimum itself when settled
        floor=max(row["bound"], proven.bound.value),
        states=getattr(outcome, "states", 0),
        optimum_walking=walking(proven) if optimal else None,
        least_walking=least_walking(level),
    )
    return row


def walking(sol) -> float | None:
    """The steps the plan walks, as the engine counts them (None for a failed plan)."""
    return sum(sol.result.agent_moving_time.values()) if sol.done and sol.result is not None else None


def walk_ratio(rows: list[dict], key: str) -> float | None:
    """Mean of a plan's walking (`key`) over the least walking the bound proves, where both are known."""
    return _mean(
        [r[key] / r["least_walking"] for r in rows if r.get(key) is not None and r.get("least_walking")]
    )


def run_task(job: tuple) -> dict:
    from game.levels import load_level

    task, path, rules, time_limit, states = job
    return {"task": task, "rules": rules, **referee(load_level(path), rules, time_limit, states)}


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def split(rows: list[dict]) -> dict:
    """Per group of levels: how many, how many settled, and the gap's split over the settled."""
    served = [r for r in rows if r["planner"] is not None and r["bound"]]
    settled = [r for r in served if r["optimum"] is not None]
    open_ = [r for r in served if r["optimum"] is None]
    gap = sum(r["planner"] - r["bound"] for r in settled)
    plan = sum(r["planner"] - r["optimum"] for r in settled)
    open_gap = sum(r["planner"] - r["bound"] for r in open_)
    return {
        "levels": len(rows),
        "served": len(served),
        "settled": len(settled),
        "all_ratio": _mean([r["planner"] / r["bound"] for r in served]),
        "settled_ratio": _mean([r["planner"] / r["bound"] for r in settled]),
        "plan_ratio": _mean([r["planner"] / r["optimum"] for r in settled]),
        "bound_ratio": _mean([r["optimum"] / r["bound"] for r in settled]),
        "plan_share": plan / gap if gap else None,  # None: no gap at all on the settled levels
        "open_plan_share_at_most": sum(r["planner"] - r["floor"] for r in open_) / open_gap
        if open_gap
        else None,
        "faster": sum(1 for r in settled if r["optimum"] < r["planner"]),
        "plan_walk": walk_ratio(served, "walking"),
        "optimum_walk": walk_ratio(settled, "optimum_walking"),
    }


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


COLUMNS = [
    "rules",
    "orders",
    "optimum proven",
    "mean OCT / bound, all",
    "mean OCT / bound, proven",
    "mean OCT / optimum (plan)",
    "mean optimum / bound (bound)",
    "plan's share of the gap in steps, proven",
    "plan's share at most, not proven",
]
WALK_TITLE = "Per number of orders (one agent): walking over the least walking the bound proves"
WALK_COLUMNS = ["rules", "orders", "plans", "the planner's", "optimal plans", "the optimal plans'"]


def table(rows: list[dict]) -> list[list]:
    out = []
    for rules in sorted({r["rules"] for r in rows}):
        for n in sorted({r["orders"] for r in rows if r["rules"] == rules}):
            s = split([r for r in rows if r["rules"] == rules and r["orders"] == n])
            out.append(
                [
                    rules,
                    n,
                    _pct(s["settled"], s["levels"]),
                    s["all_ratio"],
                    s["settled_ratio"],
                    s["plan_ratio"],
                    s["bound_ratio"],
                    s["plan_share"],
                    s["open_plan_share_at_most"],
                ]
            )
    return out


def walk_table(rows: list[dict]) -> list[list]:
    """Per rule set and number of orders: the mean of the planner's walking over the least
    walking the bound proves, and the same for the optimal plans where the optimum is proven."""
    out = []
    for rules in sorted({r["rules"] for r in rows}):
        for n in sorted({r["orders"] for r in rows if r["rules"] == rules}):
            s = split([r for r in rows if r["rules"] == rules and r["orders"] == n])
            out.append([rules, n, s["served"], s["plan_walk"], s["settled"], s["optimum_walk"]])
    return out


def _fmt(v) -> str:
    if v is None:
        return "-"
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def line(r: dict) -> str:
    verdict = f"optimum {r['optimum']:g}" if r["optimum"] is not None else f"{r['status']}, >= {r['floor']:g}"
    return (
        f"{r['task']:<44} [{r['rules']}] planner {_fmt(r['planner']):>4}  bound {r['bound']:>4g}  {verdict}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--states", type=int, default=50_000, help="expanded states per level (default 50000)")
    p.add_argument("--time-limit", type=float, default=10.0, help="the planner's limit (default 10)")
    p.add_argument("--rules", choices=RULES, action="append", help="rule set(s) (default paracook)")
    p.add_argument("--orders", type=int, help="only levels with this many orders")
    p.add_argument(
        "--every", type=int, default=1, metavar="K", help="only every K-th level of each number of orders"
    )
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", help="also write every row as JSON")
    args = p.parse_args()
    rules = args.rules or ["paracook"]
    tasks = [t for n in (1, 2, 3, 4) for t in by_orders(suite_tasks(), n)[:: args.every]]
    tasks = [t for t in tasks if args.orders is None or t[0].endswith(f"orders_num_{args.orders}")]
    jobs = [(task, path, r, args.time_limit, args.states) for r in rules for task, path in tasks]
    rows = []
    with Results("referee_bench", TITLE, "explanation/planner.md") as out:
        out.setting(
            f"{len(jobs)} one-agent suite levels ({', '.join(rules)}); the planner at a {args.time_limit:g} s limit; "
            f"the exact search up to {args.states:,} expanded states a level, searching only plans faster "
            f"than the planner's"
        )
        out.setting(
            "the exact search is for one agent: the 24 human-study tasks (two agents) and the team levels "
            "have no referee"
        )
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for done in as_completed([pool.submit(run_task, job) for job in jobs]):
                rows.append(done.result())
                print(line(rows[-1]), flush=True)
        rows.sort(key=lambda r: (r["rules"], r["orders"], r["task"]))
        body = table(rows)
        print(" | ".join(COLUMNS))
        print("\n".join(" | ".join(_fmt(v) for v in row) for row in body))
        out.table(
            "Per number of orders (one agent): the gap's split where the optimum is proven", COLUMNS, body
        )
        out.table(WALK_TITLE, WALK_COLUMNS, walk_table(rows))
        whole = split(rows)
        out.figure("levels whose optimum the exact search proves", _pct(whole["settled"], whole["levels"]))
        out.figure("where proven, a plan faster than the planner's", whole["faster"])
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if all(r["planner"] is not None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
