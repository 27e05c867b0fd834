"""`report`: SR, progress (PR), pOCT, nOCT, pMD and AU of result files, grouped like the paper's tables."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from game.report.files import ResultError, load_runs
from game.report.metrics import DEDUPE_MODES, FORMATS, GROUPINGS, Run, dedupe, report_rows
from game.storage import disk_message, write_through

PLOT_EXTRA = 'pip install -e ".[plot]"'
NAME = "report"
HELP = "Score result files (SR, PR, pOCT, nOCT, pMD, AU with 95% intervals)."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "results", nargs="+", metavar="RESULT", help="result files (.json, .jsonl), replays, or folders"
    )
    p.add_argument(
        "--by", choices=GROUPINGS, default="difficulty", help="how to group tasks (level: one row each)"
    )
    p.add_argument("--format", choices=sorted(FORMATS), default="md", help="table format")
    p.add_argument(
        "--dedupe",
        choices=DEDUPE_MODES,
        default="best",
        help="a task found more than once under one label: keep the best run, the last written, or all",
    )
    p.add_argument(
        "--study",
        action="store_true",
        help="summarise across participants (each label one participant): mean, best, spread",
    )
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
    runs = _deduped(runs, args.dedupe)
    if args.study:
        from game.report.study import SUMMARY_FORMATS, study_summary

        sys.stdout.write(SUMMARY_FORMATS[args.format](study_summary(runs)))
        return 0
    rows = report_rows(runs, args.by)
    if args.by == "level":
        from game.report.levels import with_level_times

        rows = with_level_times(rows, runs, published_times())
    sys.stdout.write(FORMATS[args.format](rows))
    if args.plot:
        from game.report.plot import plot_rows

        try:
            write_through(Path(args.plot), lambda tmp: plot_rows(rows, tmp))
        except OSError as e:
            print(f"report: {disk_message(e, args.plot, 'the table above is complete')}", file=sys.stderr)
            return 1
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def _deduped(runs: list[Run], mode: str) -> list[Run]:
    kept, repeated = dedupe(runs, mode)
    if repeated:
        label, task = next(iter(repeated))
        extra = sum(n - 1 for n in repeated.values())
        action = "all kept (--dedupe all)" if mode == "all" else f"kept the {mode} of each (--dedupe {mode})"
        print(
            f"warning: {len(repeated)} task(s) appear more than once under one label "
            f"({extra} extra run(s), e.g. {task} under {label!r}); {action}",
            file=sys.stderr,
        )
    return kept


def published_times() -> dict[str, float]:
    """Task digest -> the paper's human time, from the ParaCook data and the installed tasks."""
    from game.levels.paper import known_times
    from game.ui.store import paper_sources

    return {d: h.time for d, h in known_times(paper_sources()).items()}
