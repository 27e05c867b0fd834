"""Planning around fixed queues on the two-agent human-study kitchens (issue 43).

    python benchmarks/partner_bench.py                    # both parts, 10 s limit
    python benchmarks/partner_bench.py --time-limit 2 --only latency
    python benchmarks/partner_bench.py --out partner.json

Parts:
- humans: salad 42, burger 42, sushi 84 and pasta 126 (2 orders each); agent1 is fixed to the
  recorded human agent1 queue and the planner plans agent2. Per kitchen: the human pair's OCT,
  the planner's, the bound for the same constraint; the count of kitchens where the plan is at
  least as fast as the human pair.
- latency: seconds from the call to the first served plan (the first progress report with an
  OCT), over the four kitchens and several fixed queues (either human agent's queue, with and
  without a trailing Wait of 5, and the first three quarters of agent1's: a person mid-edit).
  Reports p50, p95 and max over the calls that found a plan, and names the calls that found none
  within the limit (they are not in the percentiles: the count says how many).

Timings are wall-clock on this machine, so they vary with its load; the engine runs to the first
plan (printed beside them) do not: the search is a fixed sequence of runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from figures import Results

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")
KITCHENS = (("salad", 42), ("burger", 42), ("sushi", 84), ("pasta", 126))


def kitchen(category: str, seed: int):
    from game.levels import load_level

    orders = json.loads((PARACOOK / "orders.json").read_text())[f"{category}/seed_{seed}/orders_num_2"]
    level = load_level(PARACOOK / "maps" / category / f"seed_{seed}" / "agent_num_2.json", orders)
    human = json.loads(
        (PARACOOK / "human" / category / f"seed_{seed}" / "agent_num_2" / "orders_num_2.json").read_text()
    )
    return level, human


def variants(human: dict) -> list[tuple[str, dict]]:
    a1, a2 = human["plan"]["agent1"], human["plan"]["agent2"]
    wait = [{"action": "Wait", "duration": 5}]
    return [
        ("agent1 human", {"agent1": a1}),
        ("agent2 human", {"agent2": a2}),
        ("agent1 human + Wait 5", {"agent1": a1 + wait}),
        ("agent2 human + Wait 5", {"agent2": a2 + wait}),
        ("agent1 first 3/4", {"agent1": a1[: 3 * len(a1) // 4]}),
    ]


def timed_solve(level, fixed: dict, time_limit: float) -> tuple[object, float | None, float, int | None]:
    """The solution, seconds to the first served plan, seconds in all, and engine runs to the
    first plan (the same on any machine)."""
    from game.planners.solver import solve

    start = time.perf_counter()
    first: list[tuple[float, int]] = []

    def progress(p) -> None:
        if p.best_oct is not None and not first:
            first.append((time.perf_counter() - start, p.evaluations))

    sol = solve(level, "paracook", time_limit, fixed=fixed, progress=progress)
    seconds, runs = first[0] if first else (None, None)
    return sol, seconds, time.perf_counter() - start, runs


def humans(time_limit: float) -> list[dict]:
    rows = []
    for category, seed in KITCHENS:
        level, human = kitchen(category, seed)
        sol, first, total, _ = timed_solve(level, {"agent1": human["plan"]["agent1"]}, time_limit)
        rows.append(
            {
                "kitchen": f"{category} {seed}",
                "human_pair": human["time"],
                "planner": sol.oct if sol.done else None,
                "bound": sol.bound.value if sol.bound.finite else None,
                "first_plan_s": first,
                "seconds": round(total, 2),
            }
        )
        r = rows[-1]
        print(
            f"{r['kitchen']:<12} human pair {r['human_pair']:>3}  planner {r['planner']}  "
            f"bound {r['bound']}  ({r['seconds']} s)",
            flush=True,
        )
    wins = sum(1 for r in rows if r["planner"] is not None and r["planner"] <= r["human_pair"])
    print(f"at least as fast as the human pair on {wins} of {len(rows)} kitchens")
    return rows


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def latency(time_limit: float) -> dict:
    times, misses, rows = [], [], []
    for category, seed in KITCHENS:
        level, human = kitchen(category, seed)
        for name, fixed in variants(human):
            sol, first, _, runs = timed_solve(level, fixed, time_limit)
            label = f"{category} {seed}, {name}"
            if first is None:
                misses.append(label)
                print(f"{label:<40} no plan within the limit ({sol.note})", flush=True)
            else:
                times.append(first)
                print(f"{label:<40} first plan {first:.3f} s ({runs} runs), OCT {sol.oct:g}", flush=True)
            rows.append(
                [label, runs, None if first is None else round(first, 3), sol.oct if sol.done else None]
            )
    out = {"calls": len(times) + len(misses), "found": len(times), "misses": misses, "rows": rows}
    if times:
        out.update(
            p50=round(statistics.median(times), 3),
            p95=round(percentile(times, 0.95), 3),
            max=round(max(times), 3),
        )
        print(
            f"first served plan: p50 {out['p50']} s, p95 {out['p95']} s, max {out['max']} s over "
            f"{len(times)} calls; {len(misses)} of {out['calls']} calls found no plan"
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--time-limit", type=float, default=10.0, help="the planner's limit per call (default 10)"
    )
    ap.add_argument("--only", choices=("humans", "latency"), help="one part only")
    ap.add_argument("--out", help="write the figures as JSON here")
    args = ap.parse_args()
    if not PARACOOK.is_dir():
        print(f"no ParaCook data at {PARACOOK} (set PARACOOK_DIR)", file=sys.stderr)
        return 2
    report: dict = {"time_limit": args.time_limit}
    with Results("partner_bench", "Planning around fixed queues", "partner-planning.md") as out:
        if args.only in (None, "humans"):
            report["humans"] = humans(args.time_limit)
        if args.only in (None, "latency"):
            report["latency"] = latency(args.time_limit)
        record(report, out)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def record(report: dict, out: Results) -> None:
    """The figures for the results page (`benchmarks/results/partner_bench.json`)."""
    out.setting(f"the planner's limit {report['time_limit']:g} s per call")
    if "humans" in report:
        rows = report["humans"]
        out.setting("humans: agent1 fixed to the recorded human agent1 queue, the planner plans agent2")
        columns = ["kitchen (2 orders)", "human pair OCT", "planner OCT", "bound, same constraint"]
        out.table(
            "Around the human agent1",
            columns,
            [[r["kitchen"], r["human_pair"], r["planner"], r["bound"]] for r in rows],
        )
        wins = sum(1 for r in rows if r["planner"] is not None and r["planner"] <= r["human_pair"])
        out.figure(
            "kitchens where the plan is at least as fast as the human pair",
            wins,
            f"of {len(rows)}",
            "3 of 4",
        )
    lat = report.get("latency")
    if lat:
        out.setting(
            "latency: five fixed queues per kitchen (either human agent's, with and without a trailing "
            "Wait 5, three quarters of agent1's), seconds from the call to the first served plan"
        )
        out.figure("calls that found a plan", lat["found"], f"of {lat['calls']}")
        if "rows" in lat:
            out.table(
                "First served plan, per call (engine runs: the same on any machine)",
                ["kitchen, fixed queue", "engine runs", "seconds", f"OCT after {report['time_limit']:g} s"],
                lat["rows"],
            )
        for q in ("p50", "p95", "max"):
            if q in lat:
                out.figure(f"first served plan, {q}", lat[q], "s", "p95 1 s" if q == "p95" else "")


if __name__ == "__main__":
    raise SystemExit(main())
