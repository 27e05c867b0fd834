"""Level files speed: loading and checking the whole suite, writing it, and a report of 24 runs.

python benchmarks/levels_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

from game.levels import load_level  # noqa: E402
from game.levels.generator import write_suite  # noqa: E402
from game.levels.suite import suite_levels  # noqa: E402
from game.report.files import load_runs  # noqa: E402
from game.report.metrics import report_rows  # noqa: E402

HUMAN = ROOT.parent / "shared" / "paracook" / "human"


def best_of(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with Results("levels_bench", "Level loading and validation", "reference/level-format.md") as out:
        out.setting(f"the best of {args.repeat} runs of each")
        paths = suite_levels("suite")
        load = best_of(args.repeat, lambda: [load_level(p) for p in paths])
        print(
            f"load + check {len(paths)} suite levels: {load:.3f} s ({1000 * load / len(paths):.2f} ms each)"
        )
        out.figure(f"load and check the {len(paths)} suite levels", load, "s")
        out.figure("one suite level, loaded and checked", 1000 * load / len(paths), "ms")
        with tempfile.TemporaryDirectory() as tmp:
            write = best_of(args.repeat, lambda: write_suite(Path(tmp)))
        print(f"generate and write the suite: {write:.3f} s")
        out.figure("generate and write the suite", write, "s")
        if HUMAN.is_dir():
            rep = best_of(args.repeat, lambda: report_rows(load_runs([HUMAN])[0], "category"))
            print(f"report of the 24 human results by category: {rep:.3f} s")
            out.figure("report of the 24 human results by category", rep, "s")


if __name__ == "__main__":
    main()
