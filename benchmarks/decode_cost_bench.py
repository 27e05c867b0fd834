"""How long one decode of the schedule search takes, against the planner's estimate.

The planner turns its time limit into a number of decodes with `decode_cost_s` (so that the same
level, seed and limit give the same plan on any machine); this measures the real cost per decode on
a sample of suite levels and prints the ratio measured / estimated (1 = the limit is used as
planned; above 1 the search overruns its share of the limit).

    python benchmarks/decode_cost_bench.py                # seeds 42 and 128: 144 levels, ~3 min
    python benchmarks/decode_cost_bench.py --seeds 256 --limit 2
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
from game.planners.solver.model import KitchenModel  # noqa: E402
from game.planners.solver.planner import DECODE_SPARE, decode_cost_s  # noqa: E402
from game.planners.solver.schedule.tasks import build_tasks  # noqa: E402

CATEGORIES = ("burger", "burrito", "pasta", "salad", "sashimi", "sushi")
FEW = 200  # a search that ends this soon proved its plan: its cost per decode says nothing


def measure(path: Path, limit: float) -> tuple[float, float] | None:
    """(measured, estimated) seconds per decode, or None when the search ended at once."""
    level = load_level(path)
    model = KitchenModel(level, level.rules)
    run = Planner(level, time_limit=limit, bound=lower_bound(level, level.rules), exact=False)
    start = time.perf_counter()
    for _ in run.steps():
        pass
    seconds = time.perf_counter() - start
    if run.used < FEW:
        return None
    return seconds / run.used, decode_cost_s(model, len(build_tasks(model))) / DECODE_SPARE


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, nargs="+", default=[42, 128])
    p.add_argument("--limit", type=float, default=1.0, help="time limit of each search (s)")
    args = p.parse_args()
    with Results("decode_cost_bench", "The cost of one schedule decode", "explanation/planner.md") as out:
        seeds = ", ".join(map(str, args.seeds))
        out.setting(
            f"the suite levels of seeds {seeds}, a {args.limit:g} s limit each (the search timed, not the bound)"
        )
        measure_all(args, out)


def measure_all(args: argparse.Namespace, out: Results) -> None:
    ratios: dict[str, list[float]] = {c: [] for c in CATEGORIES}
    for seed in args.seeds:
        for cat in CATEGORIES:
            for path in sorted((ROOT / "levels/suite" / cat / f"seed_{seed}").glob("agent_num_*/*.yaml")):
                got = measure(path, args.limit)
                if got:
                    ratios[cat].append(got[0] / got[1])
    every = sorted(r for rs in ratios.values() for r in rs)
    rows = []
    for cat, rs in ratios.items():
        if rs:
            print(
                f"{cat:8} {len(rs):3} levels  measured / fitted: median {statistics.median(rs):.2f}, max {max(rs):.2f}"
            )
            rows.append([cat, len(rs), statistics.median(rs), max(rs)])
    if every:
        tenth = every[len(every) // 10]
        ninth = every[len(every) * 9 // 10]
        print(
            f"all      {len(every):3} levels  median {statistics.median(every):.2f}, nine in ten between "
            f"{tenth:.2f} and {ninth:.2f}; the planner allows {DECODE_SPARE:.2f}"
        )
        rows.append(["all", len(every), statistics.median(every), max(every)])
        out.figure("measured / estimated cost per decode, median", statistics.median(every))
        out.figure("nine levels in ten between", f"{tenth:.2f} and {ninth:.2f}")
        out.figure("the spare the planner allows", DECODE_SPARE)
    out.table(
        "Measured / estimated cost per decode, by category", ["category", "levels", "median", "max"], rows
    )


if __name__ == "__main__":
    main()
