"""The rows of a human-study report, in the shape of a paper's human table.

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

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import stdev
from typing import Any

from game.report.metrics import (
    ALL,
    GROUP_ORDER,
    Estimate,
    Run,
    below,
    bounded,
    mean_ci,
    metrics,
    poct_ceiling,
)

SOLO = "solo"  # the condition without a partner (every run from before partner conditions)
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


def condition_of(run: Run) -> str:
    """The run's study condition, as its export recorded it (never guessed from a label)."""
    return str(run.study.get("condition") or SOLO)
