"""A human-study report across participants, in the shape of a paper's human table: the report
and its formats (Markdown, CSV, JSON). The rows are study_rows.py's (per level, participant,
difficulty and overall, and one per run); with more than one condition (solo, a partner),
study_conditions.py's comparison follows them."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.inputs import InputError, finite, load_json
from game.report.metrics import CONFIDENCE, Run, _cell

from .study_conditions import COMPARED, COMPARED_HEAD, SHARED, ConditionRow, Difference, compare_conditions
from .study_rows import PROCESS, PROCESS_HEAD, SOLO, SummaryRow, condition_of, run_rows, study_summary

__all__ = [
    "SHARED",
    "SOLO",
    "compare_conditions",
    "condition_of",
    "run_rows",
    "study_report",
    "study_summary",
    "summary_markdown",
]


@dataclass(frozen=True)
class StudyReport:
    runs: list[dict[str, Any]]
    summary: list[SummaryRow]
    not_attempted: list[tuple[str, str]]  # (participant, task) never opened: left out
    conditions: list[ConditionRow] = field(default_factory=list)  # with two conditions or more
    differences: list[Difference] = field(default_factory=list)


def study_report(
    runs: list[Run], human: dict[str, float] | None = None, not_attempted: list[tuple[str, str]] | None = None
) -> StudyReport:
    rows, diffs = compare_conditions(runs, human)
    return StudyReport(
        run_rows(runs, human), study_summary(runs, human), list(not_attempted or []), rows, diffs
    )


# -- formats ------------------------------------------------------------------------------------------


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def _plain(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:g}" if isinstance(x, float) else str(x)


def _statuses(row: SummaryRow) -> str:
    s = row.statuses
    return f"{s.get('served', 0)}/{s.get('failed', 0)}/{s.get('abandoned', 0)}"


OUTCOME_HEAD = ["by", "group", "participants", "SR (%)", "tasks", "runs (served/failed/abandoned)"]
OUTCOME_HEAD += ["OCT (time, served)", "OCT best", "OCT spread (SD)", "OCT/LB (x bound)"]
OUTCOME_HEAD += ["pOCT (time)", "pOCT best", "pOCT spread (SD)", "human time (paper)"]


def _outcome_cells(row: SummaryRow) -> list[str]:
    m = row.metrics
    return [
        row.by,
        row.group,
        str(row.participants),
        _cell(m["SR"]),
        str(row.tasks),
        _statuses(row),
        _cell(row.oct),
        _num(row.oct_best),
        _num(row.oct_spread),
        _cell(m["OCT/LB"]),
        _cell(m["pOCT"]),
        _num(row.best),
        _num(row.spread),
        "-" if row.human is None else f"{row.human:.1f} ({row.human_tasks})",
    ]


def _table(head: list[str], body: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
        "| " + " | ".join(cells) + " |" for cells in body
    ]


def summary_markdown(rows: list[SummaryRow]) -> str:
    lines = ["### Outcomes", ""]
    lines += _table(OUTCOME_HEAD, [_outcome_cells(r) for r in rows])
    lines += ["", "### Planning process (mean per level)", ""]
    head = ["by", "group", "participants"] + [PROCESS_HEAD[k] for k in PROCESS]
    lines += _table(
        head, [[r.by, r.group, str(r.participants)] + [_cell(r.process[k]) for k in PROCESS] for r in rows]
    )
    lines += ["", NOTE]
    return "\n".join(lines) + "\n"


NOTE = (
    f"Means with {CONFIDENCE:.0%} Student-t intervals, clipped to each metric's range (none for one "
    "sample). Level, difficulty and `all` rows: one sample per participant (their mean over the "
    "row's levels); participant rows: one sample per level. SR counts an abandoned level (opened, "
    "never submitted) as a failure; OCT pools served levels only; pOCT counts a failure as T_max; "
    "OCT/LB is OCT over the built-in planner's lower bound (1 = provably optimal). Human time: the "
    "paper's published time for the task (mean over the row's tasks that have one, how many in "
    "brackets). Planning = active + idle (no input for the session's idle threshold); paused time "
    "is apart."
)


CONDITIONS_NOTE = (
    "Each condition's runs apart, summed up as level rows (one sample per participant, their mean "
    "over the row's levels; Student-t intervals as above). The condition is the one each session "
    "recorded: solo, or which partner planned beside the person and which agents were the "
    "person's. `all (levels every condition played)` pools only the levels every condition has "
    "runs on. A difference is a condition's mean minus solo's, with a Welch interval (the two "
    "groups of participants taken as independent; degrees of freedom rounded down), clipped to "
    "the range a difference can take; none with fewer than two participants on a side. A "
    "participant who planned in both conditions is not paired."
)


def _cell_text(text: str) -> str:
    """A table cell's text: a `|` in a name never splits the row."""
    return text.replace("|", "\\|")


def _condition_cells(c: ConditionRow) -> list[str]:
    r = c.row
    return [
        _cell_text(c.level),
        _cell_text(c.condition),
        str(r.participants),
        _statuses(r),
        _cell(r.metrics["SR"]),
        _cell(r.oct),
        _cell(r.metrics["pOCT"]),
        _cell(r.metrics["OCT/LB"]),
        _cell(r.process["planning_s"]),
        _cell(r.process["replans"]),
    ]


CONDITION_HEAD = ["level", "condition", "participants", "runs (served/failed/abandoned)", "SR (%)"]
CONDITION_HEAD += [
    "OCT (time, served)",
    "pOCT (time)",
    "OCT/LB (x bound)",
    "planning (s)",
    "partner re-plans",
]


def conditions_markdown(report: StudyReport) -> str:
    """The conditions side by side per level, then each partner condition's difference from solo."""
    if not report.conditions:
        return ""
    names = ", ".join(dict.fromkeys(c.condition for c in report.conditions))
    lines = ["", "### Conditions, per level", ""]
    lines.append(f"The tables above pool every condition ({_cell_text(names)}); here they are apart.")
    lines += [""] + _table(CONDITION_HEAD, [_condition_cells(c) for c in report.conditions])
    if report.differences:
        lines += ["", "### Differences from solo (condition minus solo)", ""]
        head = [
            "level",
            "condition",
            *(COMPARED_HEAD[m] for m in COMPARED),
            "participants (solo / condition)",
        ]
        per: dict[tuple[str, str], dict[str, Difference]] = {}
        for d in report.differences:
            per.setdefault((d.level, d.condition), {})[d.metric] = d
        body = []
        for (level, condition), ds in per.items():
            first = next(iter(ds.values()))
            cells = [_cell_text(level), _cell_text(condition)]
            cells += [_cell(ds[m].estimate) if m in ds else "-" for m in COMPARED]
            body.append(cells + [f"{first.solo_n} / {first.other_n}"])
        lines += _table(head, body)
    lines += ["", CONDITIONS_NOTE]
    return "\n".join(lines) + "\n"


def report_markdown(report: StudyReport) -> str:
    text = summary_markdown(report.summary) + conditions_markdown(report)
    several = bool(report.conditions)
    head = [
        "participant",
        "level",
        *(["condition"] if several else []),
        "status",
        "OCT",
        "OCT/LB",
        "human time",
    ]
    head += [PROCESS_HEAD[k] for k in PROCESS]
    body = [
        [
            r["participant"],
            r["level"],
            *([_cell_text(r["condition"])] if several else []),
            r["status"],
            _plain(r["OCT"]),
            _plain(r["OCT/LB"]),
            _plain(r["human_time"]),
        ]
        + [_num(r[k], 1) if k.endswith("_s") and r[k] is not None else _plain(r[k]) for k in PROCESS]
        for r in report.runs
    ]
    text += "\n### Per participant and level\n\n" + "\n".join(_table(head, body)) + "\n"
    return text + _not_attempted_note(report)


def _not_attempted_note(report: StudyReport) -> str:
    if not report.not_attempted:
        return ""
    per: dict[str, int] = {}
    for who, _ in report.not_attempted:
        per[who] = per.get(who, 0) + 1
    said = ", ".join(f"{who}: {n}" for who, n in sorted(per.items()))
    return (
        f"\nNot attempted (never opened; left out of SR, the means and the counts): "
        f"{len(report.not_attempted)} level(s) ({said}).\n"
    )


def _flat(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, name + "_"))
        else:
            out[name] = v
    return out


def report_csv(report: StudyReport) -> str:
    """One table: the summary rows, with two conditions or more each condition's rows (by =
    condition) and differences from solo (by = difference), then one row per participant and
    level (by = run)."""
    summary = [_flat(r.to_dict()) for r in report.summary]
    summary += [_flat(c.to_dict()) for c in report.conditions]
    summary += [{"by": "difference", **d.to_dict()} for d in report.differences]
    runs = [{"by": "run", **r} for r in report.runs]
    columns = list(dict.fromkeys(k for row in summary + runs for k in row))
    out = io.StringIO()
    w = csv.DictWriter(out, columns, lineterminator="\n", restval="")
    w.writeheader()
    for row in summary + runs:
        w.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def report_json(report: StudyReport) -> str:
    body = {
        "note": NOTE,
        "summary": [r.to_dict() for r in report.summary],
        **(
            {
                "conditions_note": CONDITIONS_NOTE,
                "conditions": [c.to_dict() for c in report.conditions],
                "differences": [d.to_dict() for d in report.differences],
            }
            if report.conditions
            else {}
        ),
        "runs": report.runs,
        "not_attempted": [{"participant": p, "task": t} for p, t in report.not_attempted],
    }
    return json.dumps(finite(body), indent=2, allow_nan=False) + "\n"


REPORT_FORMATS: dict[str, Callable[[StudyReport], str]] = {
    "md": report_markdown,
    "csv": report_csv,
    "json": report_json,
}


def not_attempted_in(paths: list[Path]) -> list[tuple[str, str]]:
    """(participant, task) of the levels a study export lists as never opened, from every
    study.json among the paths (a file that cannot be read names no level)."""
    out = []
    for top in paths:
        marks = [top] if top.name == "study.json" else sorted(top.rglob("study.json")) if top.is_dir() else []
        for mark in marks:
            try:
                data = load_json(mark)
            except InputError:
                continue
            levels = data.get("levels") if isinstance(data, dict) else None
            who = str(data.get("label") or data.get("participant") or "?") if isinstance(data, dict) else "?"
            for entry in levels if isinstance(levels, list) else []:
                if isinstance(entry, dict) and entry.get("status") == "not_attempted":
                    out.append((who, str(entry.get("task"))))
    return out
