"""CLI start-up: wall time of `main.py [COMMAND] --help` in a fresh interpreter, per command.

python benchmarks/cli_bench.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

from game.cli import COMMANDS  # noqa: E402


def start_time(args: list[str]) -> float:
    begin = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "main.py"), *args, "--help"], capture_output=True, check=True)
    return time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    runs = parser.parse_args().runs
    rows = []
    with Results("cli_bench", "Each command's start-up time", "how-to/develop.md") as out:
        out.setting(f"`main.py [COMMAND] --help` in a fresh interpreter, {runs} runs per command")
        print(f"{'command':<10} {'median s':>9} {'max s':>7}")
        for args in [[]] + [[path.rsplit(".", 1)[1]] for path in COMMANDS]:
            times = [start_time(args) for _ in range(runs)]
            name = (args or ["(none)"])[0]
            print(f"{name:<10} {statistics.median(times):>9.3f} {max(times):>7.3f}")
            rows.append([name, statistics.median(times), max(times)])
        out.table("Start-up time by command", ["command", "median s", "max s"], rows)


if __name__ == "__main__":
    main()
