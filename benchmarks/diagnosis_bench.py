"""Diagnosis accuracy on the labelled corpus of broken plans (tests/data/diagnosis_corpus.yaml):
how often the labelled cause comes first (top-1) and among the first two (top-2), in all and by
error kind and by cause kind, and the time a diagnosis adds to a failed run.

python benchmarks/diagnosis_bench.py
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script
sys.path.insert(0, str(ROOT / "tests"))

from diagnosis_corpus import PARACOOK, build, load_cases, rank  # noqa: E402
from figures import Results  # noqa: E402

from game.engine import simulate  # noqa: E402
from game.engine.simulator import execute  # noqa: E402


def table(title: str, rows: dict[str, list[int | None]], out: Results) -> None:
    print(f"\n{title:<20} {'cases':>5} {'top-1':>6} {'top-2':>6}")
    kept = []
    for key, ranks in sorted(rows.items()):
        top1 = sum(1 for r in ranks if r == 1)
        top2 = sum(1 for r in ranks if r is not None and r <= 2)
        print(f"{key:<20} {len(ranks):>5} {top1:>6} {top2:>6}")
        kept.append([key, len(ranks), top1, top2])
    out.table(title.capitalize(), [title.split()[-2], "cases", "top-1", "top-2"], kept)


def main() -> int:
    with Results("diagnosis_bench", "Diagnosis of failed runs", "diagnosis.md") as out:
        return measure(out)


def measure(out: Results) -> int:
    cases = [c for c in load_cases() if not c.needs_paracook or PARACOOK.is_dir()]
    by_error: dict[str, list[int | None]] = defaultdict(list)
    by_cause: dict[str, list[int | None]] = defaultdict(list)
    missed, extra_s = [], 0.0
    for case in cases:
        level, plan = build(case)
        t0 = time.perf_counter()
        result = simulate(level, plan, case.rules)
        t1 = time.perf_counter()
        execute(level, plan, case.rules)
        extra_s += (t1 - t0) - (time.perf_counter() - t1)
        r = rank(case, result)
        by_error[case.expect["error"]].append(r)
        by_cause[case.expect["cause"]].append(r)
        if r is None or r > 2:
            missed.append((case.id, r))
    ranks = [r for rs in by_error.values() for r in rs]
    top1 = sum(1 for r in ranks if r == 1) / len(ranks)
    top2 = sum(1 for r in ranks if r is not None and r <= 2) / len(ranks)
    skipped = "" if PARACOOK.is_dir() else " (the human-plan cases skipped: no ../shared/paracook)"
    print(f"{len(cases)} cases{skipped}: top-1 {top1:.1%}, top-2 {top2:.1%}")
    print(f"diagnosis time per failed run: {1000 * extra_s / len(cases):.1f} ms on average")
    out.setting(f"the {len(cases)} labelled broken plans of tests/data/diagnosis_corpus.yaml{skipped}")
    out.figure("cases", len(cases))
    out.figure("labelled cause ranked first (top-1)", 100 * top1, "%")
    out.figure("labelled cause among the first two (top-2)", 100 * top2, "%")
    out.figure("time a diagnosis adds to a failed run, on average", 1000 * extra_s / len(cases), "ms")
    table("by error kind", by_error, out)
    table("by cause kind", by_cause, out)
    for case_id, r in missed:
        print(f"MISSED {case_id}: labelled cause at rank {r}")
    return 0 if not missed else 1


if __name__ == "__main__":
    raise SystemExit(main())
