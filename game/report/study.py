"""A human-study summary across participants, in the shape of the paper's human table.

Each label is one participant. For every level and every difficulty, each participant's metric
values are one sample: the table gives their mean with a 95% interval, and for pOCT also the
best participant and the spread (standard deviation) between participants.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
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
    bounded,
    mean_ci,
    metrics,
)

SUMMARY_METRICS = ("SR", "pOCT", "nOCT", "pMD", "AU")


@dataclass(frozen=True)
class SummaryRow:
    by: str  # "level" or "difficulty"
    group: str
    participants: int
    tasks: int
    metrics: dict[str, Estimate]  # mean over participants, interval across them
    best: float  # the lowest participant pOCT
    spread: float  # standard deviation of participant pOCT (NaN for one participant)

    def to_dict(self) -> dict[str, Any]:
        def r(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 4)

        return {
            "by": self.by,
            "group": self.group,
            "participants": self.participants,
            "tasks": self.tasks,
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "pOCT_best": r(self.best),
            "pOCT_spread": r(self.spread),
        }


def _summary(by: str, group: str, members: list[Run]) -> SummaryRow:
    per: dict[str, list[Run]] = {}
    for r in members:
        per.setdefault(r.label, []).append(r)
    values = {m: [] for m in SUMMARY_METRICS}
    for runs in per.values():
        m = metrics(runs)
        for name in SUMMARY_METRICS:
            if not math.isnan(m[name].value):
                values[name].append(m[name].value)
    ests = {name: bounded(mean_ci(v), name, len(v)) for name, v in values.items()}
    poct = values["pOCT"]
    return SummaryRow(
        by,
        group,
        len(per),
        len({r.level_key for r in members}),
        ests,
        min(poct) if poct else math.nan,
        stdev(poct) if len(poct) > 1 else math.nan,
    )


def _order(by: str, group: str) -> tuple:
    order = GROUP_ORDER.get(by, [])
    if group == ALL:
        return (2, 0, "")
    return (0, order.index(group), "") if group in order else (1, 0, group)


def study_summary(runs: list[Run]) -> list[SummaryRow]:
    """Per level, then per difficulty and overall, across the participants (labels)."""
    rows = []
    for by, key in (
        ("level", lambda r: r.level_key),
        ("difficulty", lambda r: str(r.task.get("difficulty"))),
    ):
        groups: dict[str, list[Run]] = {}
        for r in runs:
            groups.setdefault(key(r), []).append(r)
            if by == "difficulty":
                groups.setdefault(ALL, []).append(r)
        rows += [_summary(by, g, groups[g]) for g in sorted(groups, key=lambda g: _order(by, g))]
    return rows


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


def summary_markdown(rows: list[SummaryRow]) -> str:
    head = ["by", "group", "participants", "SR (%)", "pOCT (time)", "best", "spread (SD)"]
    head += ["nOCT (% of T_max)", "pMD (tiles)", "AU (%)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        m = row.metrics
        cells = [row.by, row.group, str(row.participants), _cell(m["SR"]), _cell(m["pOCT"])]
        cells += [_num(row.best), _num(row.spread), _cell(m["nOCT"]), _cell(m["pMD"]), _cell(m["AU"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Each participant's value is one sample; means with {CONFIDENCE:.0%} intervals across "
        "participants (none for a single participant); best and spread of pOCT between participants.",
    ]
    return "\n".join(lines) + "\n"


def summary_csv(rows: list[SummaryRow]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["by", "group", "participants", "tasks"]
        + [f"{m}{s}" for m in SUMMARY_METRICS for s in ("", "_low", "_high")]
        + ["pOCT_best", "pOCT_spread"]
    )
    for row in rows:
        d = row.to_dict()
        vals = [
            "" if d["metrics"][m][k] is None else d["metrics"][m][k]
            for m in SUMMARY_METRICS
            for k in ("value", "low", "high")
        ]
        w.writerow(
            [row.by, row.group, row.participants, row.tasks]
            + vals
            + [
                "" if d["pOCT_best"] is None else d["pOCT_best"],
                "" if d["pOCT_spread"] is None else d["pOCT_spread"],
            ]
        )
    return out.getvalue()


def summary_json(rows: list[SummaryRow]) -> str:
    return json.dumps(finite([r.to_dict() for r in rows]), indent=2, allow_nan=False) + "\n"


SUMMARY_FORMATS: dict[str, Callable[[list[SummaryRow]], str]] = {
    "md": summary_markdown,
    "csv": summary_csv,
    "json": summary_json,
}
