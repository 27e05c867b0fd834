"""`report`: SR, progress (PR), pOCT, nOCT, pMD and AU of result files, grouped like the paper's tables."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from game.report.files import ResultError, load_runs
from game.report.metrics import FORMATS, GROUPINGS, report_rows

PLOT_EXTRA = 'pip install -e ".[plot]"'
NAME = "report"
HELP = "Score result files (SR, PR, pOCT, nOCT, pMD, AU with 95% intervals)."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", nargs="+", metavar="RESULT", help="result files (.json, .jsonl) or folders")
    p.add_argument("--by", choices=GROUPINGS, default="difficulty", help="how to group tasks")
    p.add_argument("--format", choices=sorted(FORMATS), default="md", help="table format")
    p.add_argument("--plot", metavar="OUT.png", help="also draw bar charts (needs matplotlib)")


def run(args: argparse.Namespace) -> int:
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print(f"report: --plot needs matplotlib: {PLOT_EXTRA}", file=sys.stderr)
        return 2
    try:
        runs, skipped = load_runs([Path(p) for p in args.results])
    except ResultError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if skipped:
        print(
            f"note: skipped {len(skipped)} JSON value(s) that are not results, e.g. {skipped[0]}",
            file=sys.stderr,
        )
    if not runs:
        print("error: no results found", file=sys.stderr)
        return 2
    rows = report_rows(runs, args.by)
    sys.stdout.write(FORMATS[args.format](rows))
    if args.plot:
        from game.report.plot import plot_rows

        plot_rows(rows, Path(args.plot))
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
