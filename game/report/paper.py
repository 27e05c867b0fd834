"""`report --layout paper`: methods as rows, difficulty groups as column groups, each cell a mean
and its 95% interval; in Markdown, CSV, JSON or LaTeX (booktabs). Also `--format latex` for the
ordinary layout."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .metrics import ALL, CONFIDENCE, UNITS, Estimate, Row, _group_key

PAPER_METRICS = ("SR", "PR", "nOCT")
DIGITS = {"OCT/LB": 2}  # decimals shown; 1 for the others (percentages, times, tiles)
LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(LATEX_SPECIAL.get(c, c) for c in text)


def parse_metrics(text: str) -> tuple[str, ...]:
    from .metrics import METRICS

    names = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in names if m not in METRICS]
    if unknown or not names:
        raise ValueError(f"--metrics {text!r}: choose from {', '.join(METRICS)} (comma-separated)")
    return names


@dataclass
class PaperTable:
    metrics: tuple[str, ...]
    groups: list[str]  # difficulty groups, in order, `all` last
    labels: list[str]
    cells: dict[tuple[str, str], Row]  # (label, group) -> row

    def tasks(self, group: str) -> str:
        """How many tasks each method has in the group: `5`, or `4-5` when they differ."""
        ns = sorted(
            {self.cells[(label, group)].tasks for label in self.labels if (label, group) in self.cells}
        )
        return "-" if not ns else str(ns[0]) if len(ns) == 1 else f"{ns[0]}-{ns[-1]}"


def paper_table(rows: list[Row], metrics: tuple[str, ...] = PAPER_METRICS) -> PaperTable:
    """The rows of `report_rows(runs, "difficulty")` rearranged: one row per label."""
    groups = sorted({r.group for r in rows}, key=lambda g: _group_key("difficulty", g))
    labels = sorted({r.label for r in rows})
    return PaperTable(metrics, groups, labels, {(r.label, r.group): r for r in rows})


def cell(e: Estimate | None, digits: int = 1, latex: bool = False) -> str:
    """'61.2 [55.0, 67.4]'; in LaTeX the interval in small type, and '--' for no value."""
    if e is None or math.isnan(e.value):
        return "--" if latex else "-"
    if math.isnan(e.low):
        return f"{e.value:.{digits}f}"
    interval = f"[{e.low:.{digits}f}, {e.high:.{digits}f}]"
    return f"{e.value:.{digits}f} " + (f"{{\\scriptsize {interval}}}" if latex else interval)


def _estimate(t: PaperTable, label: str, group: str, metric: str) -> Estimate | None:
    row = t.cells.get((label, group))
    return None if row is None else row.metrics.get(metric)


def note(t: PaperTable) -> str:
    units = ", ".join(f"{m} in {UNITS[m]}" for m in t.metrics)
    return (
        f"Mean [{CONFIDENCE:.0%} interval] over the tasks of each group (Wilson for SR, Student t "
        f"otherwise; none for a single task); {units}. Tasks per group: "
        + ", ".join(f"{g} {t.tasks(g)}" for g in t.groups)
        + "."
    )


def to_markdown(t: PaperTable) -> str:
    head = ["method"] + [f"{g}: {m}" for g in t.groups for m in t.metrics]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label in t.labels:
        cells = [label] + [
            cell(_estimate(t, label, g, m), DIGITS.get(m, 1)) for g in t.groups for m in t.metrics
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", note(t)]) + "\n"


def to_csv(t: PaperTable) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["method"] + [f"{g} {m}{s}" for g in t.groups for m in t.metrics for s in ("", "_low", "_high", "_n")]
    )
    for label in t.labels:
        values: list[Any] = [label]
        for g in t.groups:
            for m in t.metrics:
                e = _estimate(t, label, g, m)
                d = e.to_dict() if e is not None else {"value": None, "low": None, "high": None, "n": 0}
                values += ["" if d[k] is None else d[k] for k in ("value", "low", "high", "n")]
        w.writerow(values)
    return out.getvalue()


def to_json(t: PaperTable) -> str:
    data = [
        {
            "method": label,
            "groups": {
                g: {
                    "tasks": t.cells[(label, g)].tasks,
                    "metrics": {m: t.cells[(label, g)].metrics[m].to_dict() for m in t.metrics},
                }
                for g in t.groups
                if (label, g) in t.cells
            },
        }
        for label in t.labels
    ]
    return json.dumps(data, indent=2) + "\n"


def to_latex(t: PaperTable) -> str:
    k = len(t.metrics)
    spec = "l" + "c" * k * len(t.groups)
    groups = " & ".join(
        f"\\multicolumn{{{k}}}{{c}}{{{latex_escape(g if g != ALL else 'all')} ($n={t.tasks(g)}$)}}"
        for g in t.groups
    )
    rules = " ".join(f"\\cmidrule(lr){{{2 + i * k}-{1 + (i + 1) * k}}}" for i in range(len(t.groups)))
    names = " & ".join(latex_escape(f"{m} ({UNITS[m]})") for _ in t.groups for m in t.metrics)
    lines = [
        f"% {latex_escape(note(t))}".replace("\n", " "),
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        f" & {groups} \\\\",
        rules,
        f"Method & {names} \\\\",
        "\\midrule",
    ]
    for label in t.labels:
        cells = [
            cell(_estimate(t, label, g, m), DIGITS.get(m, 1), latex=True) for g in t.groups for m in t.metrics
        ]
        lines.append(" & ".join([latex_escape(label), *cells]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


PAPER_FORMATS: dict[str, Callable[[PaperTable], str]] = {
    "md": to_markdown,
    "csv": to_csv,
    "json": to_json,
    "latex": to_latex,
}


def rows_to_latex(rows: list[Row]) -> str:
    """The ordinary layout (one row per label and group) as a booktabs table."""
    from .metrics import METRICS

    head = ["run", rows[0].by if rows else "group", "tasks"] + [f"{m} ({UNITS[m]})" for m in METRICS]
    lines = [
        f"% Values with {CONFIDENCE:.0%} confidence intervals (Wilson for SR, Student t otherwise).",
        f"\\begin{{tabular}}{{ll r{'c' * len(METRICS)}}}",
        "\\toprule",
        " & ".join(latex_escape(h) for h in head) + " \\\\",
        "\\midrule",
    ]
    for r in rows:
        cells = [latex_escape(r.label), latex_escape(r.group), str(r.tasks)]
        cells += [cell(r.metrics[m], DIGITS.get(m, 1), latex=True) for m in METRICS]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"
