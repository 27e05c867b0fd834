"""The benchmark's metrics (docs/rules.md "Metrics") with 95% confidence intervals, and their tables.

Pure functions over `Run`s (one result of one task); reading result files is files.py.
SR = successes / tasks; PR = mean progress (share of the order's work done when the run stopped;
1 for a success); pOCT = mean over tasks of OCT (success) or T_max (failure); nOCT = mean over
successes of OCT / T_max; OCT/LB = mean over successes of OCT / the built-in planner's lower bound
on any plan's OCT (1 is provably optimal); pMD pools (task, agent) entries: moving time on success, D_max / M on
failure; AU pools the agents of successful tasks: (execution - waiting) / execution.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from statistics import NormalDist
from typing import Any

from game.engine.metrics import utilisation
from game.inputs import finite

from .talk import TALK, TALK_NOTE, TALK_UNITS

METRICS = ("SR", "PR", "pOCT", "nOCT", "OCT/LB", "pMD", "AU")
UNITS = {
    "SR": "%",
    "PR": "%",
    "pOCT": "time",
    "nOCT": "% of T_max",
    "OCT/LB": "x bound",
    "pMD": "tiles",
    "AU": "%",
}
# Where a run's progress came from: its result, a re-simulation of its plan, or neither (a success
# is counted as 1, which it is by definition; a failure is left out of PR).
PROGRESS_SOURCES = ("recorded", "simulated", "assumed", "unknown")
GROUPINGS = ("difficulty", "category", "agents", "orders", "level")
DEDUPE_MODES = ("best", "last", "all")
# The range each metric can take; no interval is drawn outside it.
METRIC_RANGE = {
    "SR": (0.0, 100.0),
    "PR": (0.0, 100.0),
    "pOCT": (0.0, math.inf),
    "nOCT": (0.0, math.inf),
    "pMD": (0.0, math.inf),
    "AU": (0.0, 100.0),
    "OCT/LB": (1.0, math.inf),  # no plan beats a lower bound
}
GROUP_ORDER = {
    "difficulty": ["easy", "medium", "hard"],
    "category": ["sashimi", "salad", "pasta", "burrito", "sushi", "burger"],
}
CONFIDENCE = 0.95
ALL = "all"


@dataclass(frozen=True)
class Run:
    """One result of one task, with what the metrics need."""

    label: str  # who or what produced it (human, a model and method, the solver)
    task: dict[str, Any]  # id, category, difficulty, agents, orders, seed
    done: bool
    time: float
    t_max: float
    d_max: float
    moving: dict[str, float] = field(default_factory=dict)
    execution: dict[str, float] = field(default_factory=dict)
    waiting: dict[str, float] = field(default_factory=dict)
    progress: float | None = None  # in [0, 1]; None when unknown
    progress_source: str = "recorded"  # one of PROGRESS_SOURCES
    digest: str | None = None  # the task's content (game.levels.paper.task_digest), when known
    order: float = 0.0  # when it was written (file time): "last" of duplicates is the latest
    where: str = ""  # the file (and line) it came from

    @property
    def level_key(self) -> str:
        """Which task this is: its id, qualified by its suite (a suite level and the paper's
        task of the same id are different kitchens)."""
        suite = self.task.get("suite")
        return f"{self.task.get('id', '?')} ({suite})" if suite else str(self.task.get("id", "?"))

    messages: float | None = None  # messages the agents sent (0 for one planner; None unknown)
    tokens: float | None = None  # an LLM run's prompt and reply tokens
    recorded_bound: float | None = None  # a lower bound on the task's OCT its result records
    # works the bound out for `bound` when none is recorded (see there); None: no way to
    # (given the run's served OCT, above which no kept bound is trusted)
    bound_source: Callable[[float | None], float | None] | None = field(
        default=None, repr=False, compare=False
    )
    source_run: str = ""  # the run folder it came from (empty for loose files)
    usage: dict[str, Any] | None = None  # an LLM run's calls (failures.usage_of_record)
    study: dict[str, Any] = field(default_factory=dict)  # a study run's status and process data
    rules: str = ""  # the rule set it ran under ("" when the result does not say)

    @cached_property
    def bound(self) -> float | None:
        """A lower bound on any plan's OCT for the task; None if unknown. Worked out on the first
        ask only: a kitchen's bound is a linear program (about a second), and most tables (the
        paper's layout, the failure tables) never show it."""
        if self.recorded_bound is not None or self.bound_source is None:
            return self.recorded_bound
        return self.bound_source(self.time if self.done else None)

    @property
    def agent_count(self) -> int:
        return int(self.task.get("agents") or len(self.moving) or 1)

    @property
    def progress_value(self) -> float | None:
        """The progress, a success counting 1 when none was recorded; None when unknown."""
        if self.progress is not None:
            return self.progress
        return 1.0 if self.done else None

    @property
    def progress_origin(self) -> str:
        if self.progress is not None:
            return self.progress_source
        return "assumed" if self.done else "unknown"


@dataclass(frozen=True)
class Estimate:
    value: float  # NaN when there is nothing to average
    low: float  # NaN when no interval can be given (fewer than two samples)
    high: float
    n: int

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float) -> float | None:
            return None if math.isnan(x) else round(x, digits)

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high), "n": self.n}


# -- statistics ---------------------------------------------------------------------------------


def _t_pdf(x: float, df: int) -> float:
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def _t_cdf_upper_half(x: float, df: int, steps: int = 400) -> float:
    """P(0 <= T <= x) by Simpson's rule (the density is smooth, so this is accurate to ~1e-8)."""
    h = x / steps
    total = _t_pdf(0, df) + _t_pdf(x, df)
    total += sum((4 if i % 2 else 2) * _t_pdf(i * h, df) for i in range(1, steps))
    return total * h / 3


@lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The p-quantile (p > 0.5) of Student's t with df degrees of freedom."""
    if df > 200:
        return NormalDist().inv_cdf(p)
    lo, hi = 0.0, 1.0
    while 0.5 + _t_cdf_upper_half(hi, df) < p:
        lo, hi = hi, hi * 2
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if 0.5 + _t_cdf_upper_half(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def mean_ci(values: list[float], confidence: float = CONFIDENCE) -> Estimate:
    """Mean with a Student-t interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def welch(a: list[float], b: list[float], confidence: float = CONFIDENCE) -> Estimate:
    """mean(b) - mean(a) with Welch's t interval (the two groups independent, their variances
    not assumed equal); the Welch-Satterthwaite degrees of freedom are rounded down, so the
    interval is never narrower than Welch's. None with fewer than two samples in a group."""
    n = len(a) + len(b)
    if not a or not b:
        return Estimate(math.nan, math.nan, math.nan, n)
    diff = sum(b) / len(b) - sum(a) / len(a)
    if len(a) < 2 or len(b) < 2:
        return Estimate(diff, math.nan, math.nan, n)
    va, vb = (_variance(x) / len(x) for x in (a, b))
    se2 = va + vb
    if se2 == 0:
        return Estimate(diff, diff, diff, n)
    df = se2 * se2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    half = t_quantile(0.5 + confidence / 2, max(1, math.floor(df))) * math.sqrt(se2)
    return Estimate(diff, diff - half, diff + half, n)


def _variance(xs: list[float]) -> float:
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A proportion (x 100) with its Wilson score interval, sound even at 0% and 100%."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if successes == 0 else 100 * (centre - half)
    high = 100.0 if successes == n else 100 * (centre + half)
    return Estimate(100 * p, low, high, n)


# -- the metrics --------------------------------------------------------------------------------


def success_rate(runs: list[Run]) -> Estimate:
    return wilson(sum(r.done for r in runs), len(runs))


def _clip_percent(e: Estimate) -> Estimate:
    return Estimate(e.value, max(0.0, e.low), min(100.0, e.high), e.n) if e.n > 1 else e


def progress_rate(runs: list[Run]) -> Estimate:
    """Mean progress (x 100) over the runs whose progress is known."""
    return _clip_percent(mean_ci([100 * p for r in runs if (p := r.progress_value) is not None]))


def penalised_oct(runs: list[Run]) -> Estimate:
    return mean_ci([r.time if r.done else r.t_max for r in runs])


def normalised_oct(runs: list[Run]) -> Estimate:
    return mean_ci([100 * r.time / r.t_max for r in runs if r.done and r.t_max > 0])


def bound_ratio(runs: list[Run]) -> Estimate:
    """Mean OCT / lower bound over the successes whose bound is known (1 = provably optimal)."""
    return mean_ci([r.time / r.bound for r in runs if r.done and r.bound])


def penalised_md(runs: list[Run]) -> Estimate:
    values: list[float] = []
    for r in runs:
        if r.done:
            values += list(r.moving.values())
        else:
            values += [r.d_max / r.agent_count] * r.agent_count
    return mean_ci(values)


def agent_utilisation(runs: list[Run]) -> Estimate:
    return _clip_percent(
        mean_ci(
            [
                100 * utilisation(r.execution.get(a, 0), r.waiting.get(a, 0))
                for r in runs
                if r.done
                for a in r.execution
            ]
        )
    )


METRIC_FUNCTIONS: dict[str, Callable[[list[Run]], Estimate]] = {
    "SR": success_rate,
    "PR": progress_rate,
    "pOCT": penalised_oct,
    "nOCT": normalised_oct,
    "OCT/LB": bound_ratio,
    "pMD": penalised_md,
    "AU": agent_utilisation,
}


def bounded(e: Estimate, name: str, tasks: int) -> Estimate:
    """The estimate with its interval kept inside the metric's range; none for one task
    (agents of one task are not independent samples)."""
    if tasks < 2 or math.isnan(e.low):
        return Estimate(e.value, math.nan, math.nan, e.n)
    low, high = METRIC_RANGE.get(name, (-math.inf, math.inf))
    return Estimate(e.value, max(low, e.low), min(high, e.high), e.n)


def at_least_zero(e: Estimate) -> Estimate:
    """A count's interval, never below 0 (a mean of counts cannot be negative)."""
    return e if math.isnan(e.low) else Estimate(e.value, max(0.0, e.low), e.high, e.n)


def talk_metrics(runs: list[Run]) -> dict[str, Estimate]:
    """Messages per task and tokens per agent over the runs that recorded them (TALK)."""
    return {
        "Msgs": at_least_zero(mean_ci([r.messages for r in runs if r.messages is not None])),
        "Tok/agent": at_least_zero(mean_ci([r.tokens / r.agent_count for r in runs if r.tokens is not None])),
    }


def metrics(runs: list[Run], names: Iterable[str] | None = None) -> dict[str, Estimate]:
    """The named metrics (all by default) of these runs; a table that shows no OCT/LB never
    works out a bound (`Run.bound`)."""
    wanted = set(METRIC_FUNCTIONS if names is None else names)
    out = {name: bounded(f(runs), name, len(runs)) for name, f in METRIC_FUNCTIONS.items() if name in wanted}
    if "pOCT" in out:
        out["pOCT"] = below(out["pOCT"], poct_ceiling(runs))
    return out


def poct_ceiling(runs: list[Run]) -> float:
    """The largest value a pOCT sample of these runs can take: a failure's T_max, or a success's
    OCT (a mean of them cannot lie above it)."""
    return max((max(r.t_max, r.time) if r.done else r.t_max for r in runs), default=math.inf)


def below(e: Estimate, ceiling: float) -> Estimate:
    """The estimate with its interval's upper end at most ceiling."""
    return e if math.isnan(e.high) else Estimate(e.value, e.low, min(e.high, ceiling), e.n)


# -- duplicates -----------------------------------------------------------------------------------


def _better(run: Run) -> tuple:
    """Sort key, best first: served, then sooner; else further along, then later."""
    return (0, run.time) if run.done else (1, -(run.progress_value or 0.0), -run.time)


def dedupe(runs: Iterable[Run], mode: str = "best") -> tuple[list[Run], dict[tuple[str, str], int]]:
    """One run per (label, task): the best, the last written, or all of them.
    Returns the runs kept and, for each (label, task) found more than once, how many times."""
    if mode not in DEDUPE_MODES:
        raise ValueError(f"--dedupe must be one of {', '.join(DEDUPE_MODES)}, not {mode!r}")
    groups: dict[tuple[str, str], list[Run]] = {}
    for r in runs:
        groups.setdefault((r.label, r.level_key), []).append(r)
    repeated = {k: len(v) for k, v in groups.items() if len(v) > 1}
    if mode == "all":
        return [r for v in groups.values() for r in v], repeated
    pick = (lambda v: min(v, key=_better)) if mode == "best" else (lambda v: max(v, key=lambda r: r.order))
    return [pick(v) for v in groups.values()], repeated


# -- grouping and tables ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    label: str
    by: str
    group: str
    tasks: int
    metrics: dict[str, Estimate]
    progress_sources: dict[str, int] = field(default_factory=dict)  # PROGRESS_SOURCES -> runs
    extras: dict[str, Any] = field(default_factory=dict)  # EXTRA_COLUMNS name -> value
    talk: dict[str, Estimate] = field(default_factory=dict)  # TALK -> estimate

    @property
    def progress_assumed(self) -> int:
        return self.progress_sources.get("assumed", 0)

    @property
    def progress_missing(self) -> int:
        return self.progress_sources.get("unknown", 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.label,
            "by": self.by,
            "group": self.group,
            "tasks": self.tasks,
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "progress_sources": dict(self.progress_sources),
            **({"extras": dict(self.extras)} if self.extras else {}),
            "talk": {k: v.to_dict() for k, v in self.talk.items()},
        }


def _group_key(by: str, group: str) -> tuple:
    order = GROUP_ORDER.get(by, [])
    if group == ALL:
        return (2, 0, "")
    if group in order:
        return (0, order.index(group), "")
    return (1, int(group) if group.isdigit() else 0, group)


def group_of(run: Run, by: str) -> str:
    return run.level_key if by == "level" else str(run.task.get(by, "other"))


def report_rows(runs: Iterable[Run], by: str = "difficulty", names: Iterable[str] | None = None) -> list[Row]:
    """One row per (label, group), plus an `all` row per label, in a stable order, with the
    named metrics (all by default)."""
    if by not in GROUPINGS:
        raise ValueError(f"cannot group by {by!r} (choose {', '.join(GROUPINGS)})")
    buckets: dict[str, dict[str, list[Run]]] = {}
    for r in runs:
        groups = buckets.setdefault(r.label, {})
        groups.setdefault(group_of(r, by), []).append(r)
        groups.setdefault(ALL, []).append(r)
    rows = []
    for label in sorted(buckets):
        for group in sorted(buckets[label], key=lambda g: _group_key(by, g)):
            members = buckets[label][group]
            sources = Counter(r.progress_origin for r in members)
            pooled = sorted({r.source_run for r in members if r.source_run})
            rows.append(
                Row(
                    label,
                    by,
                    group,
                    len(members),
                    metrics(members, names),
                    {k: sources[k] for k in PROGRESS_SOURCES if sources[k]},
                    {"runs": " + ".join(pooled)} if len(pooled) > 1 else {},
                    talk=talk_metrics(members),
                )
            )
    return rows


def _cell(e: Estimate) -> str:
    if math.isnan(e.value):
        return "-"
    if math.isnan(e.low):
        return f"{e.value:.2f}"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"


def _progress_cell(row: Row) -> str:
    marks = " (a)" * bool(row.progress_assumed) + " (b)" * bool(row.progress_missing)
    return _cell(row.metrics["PR"]) + marks


def progress_notes(rows: list[Row]) -> list[str]:
    """Footnotes for the PR column: runs whose progress was not recorded nor re-simulated."""
    whole = [r for r in rows if r.group == ALL] or rows
    assumed = sum(r.progress_assumed for r in whole)
    missing = sum(r.progress_missing for r in whole)
    notes = []
    if assumed:
        notes.append(
            f"(a) PR: {assumed} successful run(s) had no recorded progress and no plan and "
            "level to re-simulate; each success is counted as 1 (it serves every order)."
        )
    if missing:
        notes.append(
            f"(b) PR: {missing} failed run(s) had no recorded progress and no plan and level "
            "to re-simulate; they are left out of PR (its n is smaller than the tasks)."
        )
    return notes


# Columns some rows carry besides the metrics (name -> heading), in table order; other parts of
# the report add theirs here (per-level rows: the published human time, the planner's time).
EXTRA_COLUMNS: dict[str, str] = {
    "runs": "runs pooled",
    "human": "human time",
    "planner": "planner time",
}


def extra_columns(rows: list[Row]) -> list[str]:
    present = {k for r in rows for k in r.extras}
    return [k for k in EXTRA_COLUMNS if k in present] + sorted(present - set(EXTRA_COLUMNS))


def _extra_cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _talked(rows: list[Row]) -> tuple[str, ...]:
    """The TALK columns, when some row has them."""
    return TALK if any(e.n for r in rows for e in r.talk.values()) else ()


def to_markdown(rows: list[Row]) -> str:
    by = rows[0].by if rows else "group"
    extras = extra_columns(rows)
    talk = _talked(rows)
    head = (
        ["run", by, "tasks"]
        + [f"{m} ({UNITS[m]})" for m in METRICS]
        + [EXTRA_COLUMNS.get(k, k) for k in extras]
        + [f"{m} ({TALK_UNITS[m]})" for m in talk]
    )
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row.label, row.group, str(row.tasks)] + [
            _progress_cell(row) if m == "PR" else _cell(row.metrics[m]) for m in METRICS
        ]
        cells += [_extra_cell(row.extras.get(k)) for k in extras]
        cells += [_cell(row.talk[m]) for m in talk]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"Values with {CONFIDENCE:.0%} confidence intervals (Wilson for SR, Student t otherwise). "
        "PR: mean share of the order's work done when the run stopped (100 for a success)."
    )
    if talk:
        lines += ["", TALK_NOTE]
    for note in progress_notes(rows):
        lines += ["", note]
    return "\n".join(lines) + "\n"


def to_csv(rows: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    extras = extra_columns(rows)
    talk = _talked(rows)
    writer.writerow(
        ["run", "by", "group", "tasks"]
        + [f"{m}{s}" for m in METRICS for s in ("", "_low", "_high", "_n")]
        + ["PR_assumed", "PR_missing"]
        + extras
        + [f"{m}{s}" for m in talk for s in ("", "_low", "_high", "_n")]
    )
    for row in rows:
        values: list[Any] = []
        for e in [row.metrics[m] for m in METRICS]:
            d = e.to_dict()
            values += ["" if d[k] is None else d[k] for k in ("value", "low", "high", "n")]
        extra: list[Any] = []
        for e in [row.talk[m] for m in talk]:
            d = e.to_dict()
            extra += ["" if d[k] is None else d[k] for k in ("value", "low", "high", "n")]
        writer.writerow(
            [row.label, row.by, row.group, row.tasks]
            + values
            + [row.progress_assumed, row.progress_missing]
            + ["" if row.extras.get(k) is None else row.extras[k] for k in extras]
            + extra
        )
    return out.getvalue()


def to_json(rows: list[Row]) -> str:
    return json.dumps(finite([r.to_dict() for r in rows]), indent=2, allow_nan=False) + "\n"


FORMATS: dict[str, Callable[[list[Row]], str]] = {"md": to_markdown, "csv": to_csv, "json": to_json}


# -- runs kept apart ------------------------------------------------------------------------------


def keep_apart(runs: list[Run]) -> list[Run]:
    """Runs of one label from different run folders as different labels (`io gpt [run-a]`):
    two experiments are never pooled unless asked (`report --pool`)."""
    folders: dict[str, set[str]] = {}
    for r in runs:
        folders.setdefault(r.label, set()).add(r.source_run)
    out = []
    for r in runs:
        mine = folders[r.label]
        if len(mine) > 1:
            names = [Path(f).name for f in mine if f]
            short = Path(r.source_run).name
            name = (short if names.count(short) == 1 else r.source_run) if r.source_run else "loose files"
            r = replace(r, label=f"{r.label} [{name}]")
        out.append(r)
    return out


def rules_apart(runs: list[Run]) -> list[Run]:
    """Runs of one label under different rule sets as different labels (`alice (documented
    rules)`): their times are not comparable, so they are never pooled, nor taken for repeats
    of one task. A run whose result names no rule set keeps its label."""
    named: dict[str, set[str]] = {}
    for r in runs:
        if r.rules:
            named.setdefault(r.label, set()).add(r.rules)
    return [
        replace(r, label=f"{r.label} ({r.rules} rules)") if len(named.get(r.label, ())) > 1 and r.rules else r
        for r in runs
    ]
