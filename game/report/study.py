"""A human-study report across participants, in the shape of a paper's human table.

Each label is one participant; each of their runs is one level they were scored on (served,
failed, or abandoned: opened and never submitted, a failure). Levels never opened are not runs:
they are left out of SR, the means and the counts, and listed apart.

Rows per level, per participant, per difficulty and overall. In a level, difficulty or overall
row each participant is one sample (their mean over the row's levels), so the interval is across
participants; in a participant's row each level is one sample. Every interval is Student t at
95% (SR too, over the samples' success shares) and clipped to the metric's range; one sample
has none. OCT pools served runs only; pOCT counts a failure as T_max.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import stdev
from typing import Any

from game.inputs import finite
from game.report.metrics import (
    ALL,
    CONFIDENCE,
    GROUP_ORDER,
    Estimate,
    Run,
    _cell,
    below,
    bounded,
    mean_ci,
    metrics,
    poct_ceiling,
    welch,
)

SUMMARY_METRICS = ("SR", "pOCT", "nOCT", "OCT/LB", "pMD", "AU")
# The process data a session records, per run; their means per row (all in [0, inf)).
PROCESS = ("planning_s", "active_s", "idle_s", "paused_s", "edits", "undos", "previews", "error_runs")
PROCESS += ("replans",)
PROCESS_HEAD = {
    "planning_s": "planning (s)",
    "active_s": "active (s)",
    "idle_s": "idle (s)",
    "paused_s": "paused (s)",
    "edits": "edits",
    "undos": "undos",
    "previews": "previews",
    "error_runs": "error runs",
    "replans": "partner re-plans",
}
SCORED = ("served", "failed", "abandoned")
BYS = ("level", "participant", "difficulty")


def status_of(run: Run) -> str:
    """served / failed / abandoned; a run from outside a study is served or failed."""
    return str(run.study.get("status") or ("served" if run.done else "failed"))


@dataclass(frozen=True)
class SummaryRow:
    by: str  # "level", "participant" or "difficulty" (its "all" row is overall)
    group: str
    participants: int
    tasks: int
    metrics: dict[str, Estimate]  # mean over the row's samples, interval across them
    best: float  # the lowest sample pOCT
    spread: float  # standard deviation of the sample pOCTs (NaN for one sample)
    oct: Estimate = Estimate(math.nan, math.nan, math.nan, 0)  # served runs' OCT
    oct_best: float = math.nan
    oct_spread: float = math.nan
    statuses: dict[str, int] = field(default_factory=dict)  # SCORED -> runs
    human: float | None = None  # the paper's human time (mean over the row's tasks that have one)
    human_tasks: int = 0
    process: dict[str, Estimate] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return sum(self.statuses.values())

    def to_dict(self) -> dict[str, Any]:
        def r(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 4)

        return {
            "by": self.by,
            "group": self.group,
            "participants": self.participants,
            "tasks": self.tasks,
            "runs": self.runs,
            "statuses": {k: self.statuses.get(k, 0) for k in SCORED},
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "OCT": self.oct.to_dict(),
            "OCT_best": r(self.oct_best),
            "OCT_spread": r(self.oct_spread),
            "pOCT_best": r(self.best),
            "pOCT_spread": r(self.spread),
            "human_time": None if self.human is None else round(self.human, 4),
            "human_tasks": self.human_tasks,
            "process": {k: v.to_dict() for k, v in self.process.items()},
        }


def _samples(by: str, members: list[Run]) -> list[list[Run]]:
    """The row's samples: each level of a participant's row, else each participant."""
    if by == "participant":
        return [[r] for r in members]
    per: dict[str, list[Run]] = {}
    for r in members:
        per.setdefault(r.label, []).append(r)
    return list(per.values())


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _estimate(values: list[float], name: str) -> Estimate:
    return bounded(mean_ci(values), name, len(values))


def _sample_values(
    samples: list[list[Run]],
) -> tuple[dict[str, list[float]], list[float], dict[str, list[float]]]:
    """Each sample's value of every summary metric, its served OCT and its process means."""
    values: dict[str, list[float]] = {m: [] for m in SUMMARY_METRICS}
    octs: list[float] = []
    process: dict[str, list[float]] = {k: [] for k in PROCESS}
    for runs in samples:
        m = metrics(runs)
        for name in SUMMARY_METRICS:
            if not math.isnan(m[name].value):
                values[name].append(m[name].value)
        served = [r.time for r in runs if r.done]
        if served:
            octs.append(_mean(served))
        for k in PROCESS:
            known = [float(r.study[k]) for r in runs if k in r.study]
            if known:
                process[k].append(_mean(known))
    return values, octs, process


def _summary(by: str, group: str, members: list[Run], human: dict[str, float]) -> SummaryRow:
    values, octs, process = _sample_values(_samples(by, members))
    ests = {name: _estimate(v, name) for name, v in values.items()}
    ests["pOCT"] = below(ests["pOCT"], poct_ceiling(members))
    poct = values["pOCT"]
    tasks = {r.level_key: r.digest for r in members}
    times = [human[d] for d in tasks.values() if d in human]
    statuses = {s: sum(status_of(r) == s for r in members) for s in SCORED}
    return SummaryRow(
        by,
        group,
        len({r.label for r in members}),
        len(tasks),
        ests,
        min(poct) if poct else math.nan,
        stdev(poct) if len(poct) > 1 else math.nan,
        _estimate(octs, "pOCT"),
        min(octs) if octs else math.nan,
        stdev(octs) if len(octs) > 1 else math.nan,
        statuses,
        _mean(times) if times else None,
        len(times),
        {k: _estimate(v, "pOCT") for k, v in process.items()},  # pOCT's range: [0, inf)
    )


def _order(by: str, group: str) -> tuple:
    order = GROUP_ORDER.get(by, [])
    if group == ALL:
        return (2, 0, "")
    return (0, order.index(group), "") if group in order else (1, 0, group)


def _key(by: str) -> Callable[[Run], str]:
    if by == "level":
        return lambda r: r.level_key
    if by == "participant":
        return lambda r: r.label
    return lambda r: str(r.task.get("difficulty"))


def study_summary(runs: list[Run], human: dict[str, float] | None = None) -> list[SummaryRow]:
    """Per level, per participant, then per difficulty and overall (human: task digest -> the
    paper's human time)."""
    human = human or {}
    rows = []
    for by in BYS:
        groups: dict[str, list[Run]] = {}
        for r in runs:
            groups.setdefault(_key(by)(r), []).append(r)
            if by == "difficulty":
                groups.setdefault(ALL, []).append(r)
        rows += [_summary(by, g, groups[g], human) for g in sorted(groups, key=lambda g: _order(by, g))]
    return rows


# -- one row per run --------------------------------------------------------------------------------


def run_rows(runs: list[Run], human: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """Each participant's each level: status, OCT, OCT / bound, the paper's time, the process."""
    human = human or {}
    out = []
    for r in sorted(runs, key=lambda r: (r.label, r.level_key)):
        out.append(
            {
                "participant": r.label,
                "level": r.level_key,
                "difficulty": r.task.get("difficulty"),
                "status": status_of(r),
                "OCT": r.time if r.done else None,
                "pOCT": r.time if r.done else r.t_max,
                "OCT/LB": round(r.time / r.bound, 4) if r.done and r.bound else None,
                "lower_bound": r.bound,
                "human_time": human.get(r.digest) if r.digest else None,
                "condition": condition_of(r),
                **{k: r.study.get(k) for k in PROCESS},
            }
        )
    return out


# -- solo and partner conditions ----------------------------------------------------------------------

SOLO = "solo"  # the condition without a partner (every run from before partner conditions)
SHARED = "all (levels every condition played)"
COMPARED = ("SR", "pOCT", "planning_s")  # the differences given: a condition's mean minus solo's
COMPARED_HEAD = {"SR": "SR (points)", "pOCT": "pOCT (time)", "planning_s": "planning (s)"}


def condition_of(run: Run) -> str:
    """The run's study condition, as its export recorded it (never guessed from a label)."""
    return str(run.study.get("condition") or SOLO)


@dataclass(frozen=True)
class ConditionRow:
    """One condition's runs on one level (or on the levels every condition played), summed up
    as a level row: one sample per participant."""

    level: str
    condition: str
    row: SummaryRow

    def to_dict(self) -> dict[str, Any]:
        return {**self.row.to_dict(), "by": "condition", "group": self.level, "condition": self.condition}


@dataclass(frozen=True)
class Difference:
    """A condition's mean minus solo's on one level (or the shared levels), Welch interval."""

    level: str
    condition: str
    metric: str
    estimate: Estimate
    solo_n: int  # samples (participants) on each side
    other_n: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "condition": self.condition,
            "against": SOLO,
            "metric": self.metric,
            **self.estimate.to_dict(),
            "n_solo": self.solo_n,
            "n_condition": self.other_n,
        }


def _conditions(runs: list[Run]) -> list[str]:
    return sorted({condition_of(r) for r in runs}, key=lambda c: (c != SOLO, c))


def _compared_values(runs: list[Run]) -> dict[str, list[float]]:
    """Per participant (their mean over the runs), the values the differences compare."""
    values, _, process = _sample_values(_samples("level", runs))
    return {"SR": values["SR"], "pOCT": values["pOCT"], "planning_s": process["planning_s"]}


def _difference_range(metric: str, runs: list[Run]) -> tuple[float, float]:
    """Where a difference of two means can lie: SR within +/-100 points; pOCT within the
    largest value a sample can take; planning time unbounded."""
    if metric == "SR":
        return -100.0, 100.0
    if metric == "pOCT":
        top = poct_ceiling(runs)
        return -top, top
    return -math.inf, math.inf


def _differences(level: str, by: dict[str, list[Run]], conditions: list[str]) -> list[Difference]:
    solo = by.get(SOLO)
    if not solo:
        return []
    out = []
    base = _compared_values(solo)
    for c in conditions:
        if c == SOLO or not by.get(c):
            continue
        other = _compared_values(by[c])
        for metric in COMPARED:
            e = welch(base[metric], other[metric])
            low, high = _difference_range(metric, solo + by[c])
            if not math.isnan(e.low):
                e = Estimate(e.value, max(low, e.low), min(high, e.high), e.n)
            out.append(Difference(level, c, metric, e, len(base[metric]), len(other[metric])))
    return out


def compare_conditions(
    runs: list[Run], human: dict[str, float] | None = None
) -> tuple[list[ConditionRow], list[Difference]]:
    """Per level, each condition's row and each partner condition's difference from solo; then
    the same over the levels every condition played (each participant's mean over them). Empty
    when the runs hold one condition only."""
    conditions = _conditions(runs)
    if len(conditions) < 2:
        return [], []
    per_level: dict[str, dict[str, list[Run]]] = {}
    for r in runs:
        per_level.setdefault(r.level_key, {}).setdefault(condition_of(r), []).append(r)
    groups = [(level, per_level[level]) for level in sorted(per_level)]
    shared = {level for level, by in per_level.items() if all(c in by for c in conditions)}
    if shared:
        pooled: dict[str, list[Run]] = {}
        for r in runs:
            if r.level_key in shared:
                pooled.setdefault(condition_of(r), []).append(r)
        groups.append((SHARED, pooled))
    rows, diffs = [], []
    for level, by in groups:
        rows += [
            ConditionRow(level, c, _summary("level", level, by[c], human or {}))
            for c in conditions
            if by.get(c)
        ]
        diffs += _differences(level, by, conditions)
    return rows, diffs


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
                data = json.loads(mark.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            levels = data.get("levels") if isinstance(data, dict) else None
            who = str(data.get("label") or data.get("participant") or "?") if isinstance(data, dict) else "?"
            for entry in levels if isinstance(levels, list) else []:
                if isinstance(entry, dict) and entry.get("status") == "not_attempted":
                    out.append((who, str(entry.get("task"))))
    return out
