"""`report`: SR, progress (PR), pOCT, nOCT, pMD and AU of result files, grouped like the paper's tables."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

from game.report.failures import FAILURE_FORMATS, Prices, failures
from game.report.files import ResultError, load_runs
from game.report.metrics import (
    DEDUPE_MODES,
    FORMATS,
    GROUPINGS,
    Run,
    dedupe,
    keep_apart,
    report_rows,
    rules_apart,
)
from game.report.paper import PAPER_FORMATS, paper_table, parse_metrics, rows_to_latex
from game.storage import disk_message, write_through

PLOT_EXTRA = 'pip install "paracook-kitchen[plot]" (in a clone: pip install -e ".[plot]")'
PLOT_FORMATS = (".png", ".svg", ".pdf")  # what --plot writes (matplotlib picks by the name)
NAME = "report"
HELP = "Score result files (SR, PR, pOCT, nOCT, pMD, AU with 95% intervals)."
TABLE_FORMATS = (*sorted(FORMATS), "latex")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "results", nargs="+", metavar="RESULT", help="result files (.json, .jsonl), replays, or folders"
    )
    p.add_argument(
        "--by", choices=GROUPINGS, default="difficulty", help="how to group tasks (level: one row each)"
    )
    p.add_argument("--format", choices=TABLE_FORMATS, default="md", help="table format")
    p.add_argument(
        "--layout",
        choices=("rows", "paper"),
        default="rows",
        help="rows: one row per run and group (default); paper: one row per run, the difficulty "
        "groups as column groups (see --metrics)",
    )
    p.add_argument(
        "--metrics",
        default="SR,PR,nOCT",
        metavar="M,M",
        help="--layout paper: the metrics of each group (default SR,PR,nOCT)",
    )
    p.add_argument(
        "--failures",
        action="store_true",
        help="LLM runs: first-try and final success, fixes by feedback, truncations, tokens, "
        "latency, and calls by attempt and error kind",
    )
    p.add_argument(
        "--prices",
        metavar="IN,OUT",
        help="--failures: prices per million prompt and completion tokens, for a cost column",
    )
    p.add_argument(
        "--pool",
        action="store_true",
        help="pool runs of one label from different run folders (default: each folder its own row; "
        "pooled rows name their folders); runs under different rule sets are never pooled",
    )
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
    p.add_argument(
        "--html",
        metavar="OUT_DIR",
        help="also write OUT_DIR/index.html: every run, linking its replay's page",
    )


def run(args: argparse.Namespace) -> int:
    if args.plot and Path(args.plot).suffix.lower() not in PLOT_FORMATS:
        print(f"report: --plot {args.plot}: give a {', '.join(PLOT_FORMATS)} file name", file=sys.stderr)
        return 2
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print(f"report: --plot needs matplotlib: {PLOT_EXTRA}", file=sys.stderr)
        return 2
    try:
        prices = Prices.parse(args.prices) if args.prices else None
        metric_names = parse_metrics(args.metrics)
    except ValueError as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    if args.format == "latex" and (args.failures or args.study):
        print("report: --format latex is for the metrics tables, not --failures or --study", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="paracook-report-") as tmp:
        try:
            paths = [
                x for i, p in enumerate(args.results) for x in _sessions_read(Path(p), Path(tmp) / str(i))
            ]
            runs, skipped = load_runs(paths)
        except ResultError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        return _report(args, runs, skipped, paths, prices, metric_names)


def _sessions_read(path: Path, tmp: Path) -> list[Path]:
    """The path, with every study session in it (itself, or a folder of sessions such as the
    data folder's studies/) read as a fresh export."""
    from game.study.persist import SESSION_FILE

    if path.is_dir() and not (path / SESSION_FILE).is_file():
        sessions = sorted(f.parent for f in path.glob(f"*/{SESSION_FILE}"))
        if sessions:
            rest = [f for f in sorted(path.iterdir()) if f not in sessions]
            return [_exported(s, tmp / str(i)) for i, s in enumerate(sessions)] + rest
    return [_exported(path, tmp)]


def _exported(path: Path, tmp: Path) -> Path:
    """A study session's folder (finished or not) as a fresh export in tmp; other paths as given."""
    from game.study.persist import SESSION_FILE, SessionStore
    from game.study.session import SessionError

    if not (path / SESSION_FILE).is_file():
        return path
    from game.study.export import export_session

    try:
        _, problems = export_session(SessionStore.open(path), tmp)
    except SessionError as e:
        raise ResultError(str(e)) from None
    except OSError as e:
        raise ResultError(f"{tmp}: cannot export the session to read it ({e.strerror or e})") from None
    for p in problems:
        print(f"problem: {p}", file=sys.stderr)
    return tmp


def _report(
    args: argparse.Namespace,
    runs: list[Run],
    skipped: list[str],
    paths: list[Path],
    prices: Prices | None,
    metric_names: list[str],
) -> int:
    if skipped:
        print(
            f"note: skipped {len(skipped)} JSON value(s) that are not results, e.g. {skipped[0]}",
            file=sys.stderr,
        )
    if not runs:
        print("error: no results found", file=sys.stderr)
        return 2
    runs = rules_apart(runs)  # never pooled, even with --pool
    if not args.pool:
        runs = keep_apart(runs)
    runs = _deduped(runs, args.dedupe)
    if args.html:
        from game.html.site import report_site

        if report_site(runs, Path(args.html)):
            return 2
    if args.failures:
        found = failures(runs, prices)
        if not found.outcomes:  # tables with no rows would say nothing
            print(
                f"report --failures: none of the {len(runs)} result(s) records its LLM calls (human and "
                "planner results and older LLM runs do not); the failure tables are for LLM runs",
                file=sys.stderr,
            )
            return 2
        sys.stdout.write(FAILURE_FORMATS[args.format](found))
        return 0
    if args.layout == "paper":
        table = paper_table(report_rows(runs, "difficulty", metric_names), metric_names)
        sys.stdout.write(PAPER_FORMATS[args.format](table))
        return 0
    if args.study:
        return _study(args, runs, paths)
    rows = report_rows(runs, args.by)
    if args.by == "level":
        from game.report.levels import with_level_times

        rows = with_level_times(rows, runs, published_times())
    sys.stdout.write(rows_to_latex(rows) if args.format == "latex" else FORMATS[args.format](rows))
    if args.plot:
        from game.report.plot import plot_rows

        return _write_plot(args.plot, lambda tmp: plot_rows(rows, tmp))
    return 0


def _write_plot(path: str, draw) -> int:
    """The plot under a temporary name, renamed into place; a full disk said in one line."""
    try:
        write_through(Path(path), draw)
    except OSError as e:
        print(f"report: {disk_message(e, path, 'the table above is complete')}", file=sys.stderr)
        return 1
    print(f"plot written to {path}", file=sys.stderr)
    return 0


def _study(args: argparse.Namespace, runs: list[Run], paths: list[Path]) -> int:
    from game.report.study import REPORT_FORMATS, not_attempted_in, study_report

    report = study_report(runs, published_times(), not_attempted_in(paths))
    sys.stdout.write(REPORT_FORMATS[args.format](report))
    if args.plot:
        from game.report.study_plot import plot_study

        return _write_plot(args.plot, lambda tmp: plot_study(report.runs, tmp))
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
