"""Solo and partner conditions in a study report: each condition's runs apart per level (the
same level rows as the study table: one sample per participant, Student-t intervals), and each
partner condition's difference from solo with a Welch interval. The condition is the one each
session recorded (its export's `source.study.condition`), never guessed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from game.report.metrics import Estimate, Run, poct_ceiling, welch

from .study_rows import SOLO, SummaryRow, _sample_values, _samples, _summary, condition_of

SHARED = "all (levels every condition played)"
COMPARED = ("SR", "pOCT", "planning_s")  # the differences given: a condition's mean minus solo's
COMPARED_HEAD = {"SR": "SR (points)", "pOCT": "pOCT (time)", "planning_s": "planning (s)"}


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
