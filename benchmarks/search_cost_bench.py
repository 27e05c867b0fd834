"""What one unit of the schedule search's work costs, against the planner's estimate.

The planner turns its time limit into a budget of work (`budget_for`: units of `Decoder.best_way`,
one way of doing a task weighed), so that the same level, seed and limit give the same plan on
any machine; this measures the real seconds per unit on a sample of suite levels and prints the
ratio measured / estimated (1 = the limit is used as planned; above 1 the search overruns its
share of the limit, by the spare `WORK_SPARE` at most before the limit itself is overrun).

    python benchmarks/search_cost_bench.py                # seeds 42 and 128: 144 levels, ~4 min
    python benchmarks/search_cost_bench.py --seeds 256 --limit 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

from game.levels import load_level  # noqa: E402
from game.planners.solver import Planner, lower_bound  # noqa: E402
from game.planners.solver.planner import WORK_S, WORK_SPARE  # noqa: E402

CATEGORIES = ("burger", "burrito", "pasta", "salad", "sashimi", "sushi")
FEW = 200  # a search that ends this soon proved its plan: its cost per decode says nothing


def measure(path: Path, limit: float) -> float | None:
    """Measured / estimated seconds per unit of work, or None when the search ended at once."""
    level = load_level(path)
    run = Planner(level, time_limit=limit, bound=lower_bound(level, level.rules), exact=False)
    start = time.process_time()
    for _ in run.steps():
        pass
    seconds = time.process_time() - start
    if run.used < FEW or not run.work:
        return None
    return seconds / run.work / WORK_S


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, nargs="+", default=[42, 128])
    p.add_argument("--limit", type=float, default=1.0, help="time limit of each search (s)")
    args = p.parse_args()
    title = "The cost of the schedule search's work"
    with Results("search_cost_bench", title, "explanation/planner.md") as out:
        seeds = ", ".join(map(str, args.seeds))
        out.setting(
            f"the suite levels of seeds {seeds}, a {args.limit:g} s limit each; the search's processor "
            "time (the engine's runs of its plans included, the bound not)"
        )
        measure_all(args, out)


def measure_all(args: argparse.Namespace, out: Results) -> None:
    ratios: dict[str, list[float]] = {c: [] for c in CATEGORIES}
    for seed in args.seeds:
        for cat in CATEGORIES:
            for path in sorted((ROOT / "levels/suite" / cat / f"seed_{seed}").glob("agent_num_*/*.yaml")):
                got = measure(path, args.limit)
                if got:
                    ratios[cat].append(got)
    every = sorted(r for rs in ratios.values() for r in rs)
    rows = []
    for cat, rs in ratios.items():
        if rs:
            print(
                f"{cat:8} {len(rs):3} levels  measured / estimated: median {statistics.median(rs):.2f}, max {max(rs):.2f}"
            )
            rows.append([cat, len(rs), statistics.median(rs), max(rs)])
    if every:
        tenth, ninth = every[len(every) // 10], every[len(every) * 9 // 10]
        print(
            f"all      {len(every):3} levels  median {statistics.median(every):.2f}, nine in ten between "
            f"{tenth:.2f} and {ninth:.2f}; the planner allows {WORK_SPARE:.2f}"
        )
        rows.append(["all", len(every), statistics.median(every), max(every)])
        out.figure("measured / estimated cost per unit of work, median", statistics.median(every))
        out.figure("nine levels in ten between", f"{tenth:.2f} and {ninth:.2f}")
        out.figure("the spare the planner allows", WORK_SPARE)
    out.table(
        "Measured / estimated cost per unit of work, by category",
        ["category", "levels", "median", "max"],
        rows,
    )


if __name__ == "__main__":
    main()
