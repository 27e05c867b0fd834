"""`report --failures`: how LLM runs failed and what they cost, from each result's `attempts`.

Outcomes per run: tasks served on the first try (every reply used as given) and in the end,
tasks the feedback fixed (served after at least one failed call), truncated replies, calls,
tokens, latency and, with prices, cost per task. Errors per run and attempt: how many calls at
each attempt number failed, by error kind (`stage: kind`, see game/planners/llm/attempts.py).
Only results that recorded their calls count here; the table says how many."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .metrics import Estimate, Run, at_least_zero, mean_ci, wilson

OK = "ok"


def _count(v: Any) -> float:
    """A recorded count or duration; anything not a finite number >= 0 counts 0."""
    # compared before any conversion: a 400-digit int is no float, and NaN fails every comparison
    ok = isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < 1e15
    return float(v) if ok else 0.0


def _kind(error: Any) -> str:
    if not isinstance(error, dict):
        return OK
    stage, kind = str(error.get("stage") or "error")[:40], str(error.get("kind") or "")[:60]
    return stage if kind in ("", stage) or stage in ("parse", "plan") else f"{stage}: {kind}"


def usage_of_record(data: dict[str, Any]) -> dict[str, Any] | None:
    """The calls of an LLM result (attempt, error kind, truncated, tokens, latency), or None for a
    result that did not record them."""
    entries = data.get("attempts")
    if not isinstance(entries, list):
        return None
    calls = []
    for e in entries:
        if not isinstance(e, dict):
            continue
        tokens = e.get("tokens") if isinstance(e.get("tokens"), dict) else {}
        attempt = e.get("attempt")
        calls.append(
            {
                "attempt": attempt if isinstance(attempt, int) and 0 < attempt < 10**6 else 1,
                "kind": _kind(e.get("error")),
                "truncated": e.get("finish_reason") == "length",
                "prompt": _count(tokens.get("prompt")),
                "completion": _count(tokens.get("completion")),
                "latency": _count(e.get("latency_s")),
            }
        )
    return {"calls": calls}


@dataclass(frozen=True)
class Prices:
    """Dollars (or any currency) per million prompt and completion tokens."""

    prompt: float
    completion: float

    @staticmethod
    def parse(text: str) -> Prices:
        parts = text.split(",")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            values = []
        if len(values) != 2 or not all(math.isfinite(v) and v >= 0 for v in values):
            raise ValueError(f"--prices {text!r}: expected IN,OUT (per million tokens), e.g. 2.5,10")
        return Prices(values[0], values[1])

    def cost(self, prompt: float, completion: float) -> float:
        return (prompt * self.prompt + completion * self.completion) / 1e6


@dataclass
class Outcomes:
    label: str
    tasks: int
    first_try: Estimate
    final: Estimate
    fixed: int  # served after at least one failed call
    failed_first: int  # tasks whose first call failed
    truncated_calls: int
    calls: Estimate  # per task
    prompt: Estimate  # tokens per task
    completion: Estimate
    latency: Estimate  # seconds per task (the calls' sum)
    cost: Estimate | None = None  # per task
    total_cost: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "run": self.label,
            "tasks": self.tasks,
            "first_try_SR": self.first_try.to_dict(),
            "final_SR": self.final.to_dict(),
            "fixed_by_feedback": self.fixed,
            "first_try_failed": self.failed_first,
            "truncated_calls": self.truncated_calls,
            "calls_per_task": self.calls.to_dict(),
            "prompt_tokens_per_task": self.prompt.to_dict(),
            "completion_tokens_per_task": self.completion.to_dict(),
            "latency_s_per_task": self.latency.to_dict(),
        }
        if self.cost is not None:
            d["cost_per_task"] = self.cost.to_dict(6)
            d["total_cost"] = None if self.total_cost is None else round(self.total_cost, 6)
        return d


@dataclass
class ErrorRow:
    label: str
    attempt: int
    calls: int
    kinds: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.label, "attempt": self.attempt, "calls": self.calls, "kinds": dict(self.kinds)}


@dataclass
class Failures:
    outcomes: list[Outcomes]
    errors: list[ErrorRow]
    left_out: int  # results without recorded calls (human, planner, older LLM runs)
    prices: Prices | None = None


def _nonnegative(values: list[float]) -> Estimate:
    return at_least_zero(mean_ci(values))


def outcomes_of(label: str, runs: list[Run], prices: Prices | None) -> Outcomes:
    calls = [r.usage["calls"] for r in runs if r.usage is not None]
    clean = [all(c["kind"] == OK for c in cs) for cs in calls]
    first_failed = [bool(cs) and cs[0]["kind"] != OK for cs in calls]
    prompt = [sum(c["prompt"] for c in cs) for cs in calls]
    completion = [sum(c["completion"] for c in cs) for cs in calls]
    out = Outcomes(
        label=label,
        tasks=len(runs),
        first_try=wilson(sum(r.done and ok for r, ok in zip(runs, clean, strict=True)), len(runs)),
        final=wilson(sum(r.done for r in runs), len(runs)),
        fixed=sum(r.done and not ok for r, ok in zip(runs, clean, strict=True)),
        failed_first=sum(first_failed),
        truncated_calls=sum(c["truncated"] for cs in calls for c in cs),
        calls=_nonnegative([float(len(cs)) for cs in calls]),
        prompt=_nonnegative(prompt),
        completion=_nonnegative(completion),
        latency=_nonnegative([sum(c["latency"] for c in cs) for cs in calls]),
    )
    if prices is not None:
        costs = [prices.cost(p, c) for p, c in zip(prompt, completion, strict=True)]
        out.cost, out.total_cost = _nonnegative(costs), sum(costs)
    return out


def errors_of(label: str, runs: list[Run]) -> list[ErrorRow]:
    by_attempt: dict[int, Counter[str]] = {}
    for r in runs:
        for c in r.usage["calls"] if r.usage else []:
            by_attempt.setdefault(c["attempt"], Counter())[c["kind"]] += 1
    return [
        ErrorRow(label, n, sum(kinds.values()), dict(sorted(kinds.items())))
        for n, kinds in sorted(by_attempt.items())
    ]


def failures(runs: list[Run], prices: Prices | None = None) -> Failures:
    recorded = [r for r in runs if r.usage is not None]
    labels = sorted({r.label for r in recorded})
    mine = {label: [r for r in recorded if r.label == label] for label in labels}
    return Failures(
        [outcomes_of(label, mine[label], prices) for label in labels],
        [row for label in labels for row in errors_of(label, mine[label])],
        len(runs) - len(recorded),
        prices,
    )


# -- tables ----------------------------------------------------------------------------------------


def _cell(e: Estimate, digits: int = 2) -> str:
    if math.isnan(e.value):
        return "-"
    if math.isnan(e.low):
        return f"{e.value:.{digits}f}"
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def _kinds(f: Failures) -> list[str]:
    present = {k for row in f.errors for k in row.kinds}
    return ([OK] if OK in present else []) + sorted(present - {OK})


def notes(f: Failures) -> list[str]:
    lines = [
        "First try: served with every reply used as given. Final: served in the end. Fixed: served "
        "after at least one failed call (error feedback helped). Truncated: replies cut at the "
        "length limit (finish_reason length). Tokens, latency and cost: per task, summed over its "
        "calls, mean with 95% interval (Wilson for the rates, Student t otherwise; never below 0)."
    ]
    if f.prices is not None:
        lines.append(
            f"Cost at {f.prices.prompt:g} per million prompt tokens and {f.prices.completion:g} "
            "per million completion tokens."
        )
    if f.left_out:
        lines.append(f"{f.left_out} result(s) without recorded calls (human, planner, older runs) left out.")
    return lines


def to_markdown(f: Failures) -> str:
    priced = f.prices is not None
    head = ["run", "tasks", "first try SR (%)", "final SR (%)", "fixed by feedback", "truncated replies"]
    head += ["calls/task", "prompt tokens/task", "completion tokens/task", "latency/task (s)"]
    head += ["cost/task", "total cost"] if priced else []
    lines = ["Outcomes", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for o in f.outcomes:
        cells = [o.label, str(o.tasks), _cell(o.first_try), _cell(o.final)]
        cells += [f"{o.fixed} of {o.failed_first}", str(o.truncated_calls)]
        cells += [_cell(o.calls), _cell(o.prompt, 0), _cell(o.completion, 0), _cell(o.latency)]
        if priced and o.cost is not None:
            cells += [_cell(o.cost, 4), f"{o.total_cost:.4f}"]
        lines.append("| " + " | ".join(cells) + " |")
    kinds = _kinds(f)
    head = ["run", "attempt", "calls", *kinds]
    lines += [
        "",
        "Calls by attempt and error kind",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for row in f.errors:
        cells = [row.label, str(row.attempt), str(row.calls), *(str(row.kinds.get(k, 0)) for k in kinds)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Fixed by feedback: tasks served after a failed call, of the tasks whose first call failed.")
    for note in notes(f):
        lines += ["", note]
    return "\n".join(lines) + "\n"


def to_json(f: Failures) -> str:
    data = {
        "outcomes": [o.to_dict() for o in f.outcomes],
        "errors": [e.to_dict() for e in f.errors],
        "left_out": f.left_out,
        "prices": None
        if f.prices is None
        else {"prompt": f.prices.prompt, "completion": f.prices.completion},
    }
    return json.dumps(data, indent=2) + "\n"


def to_csv(f: Failures) -> str:
    """Long form, one number a row: run, table, attempt, measure, value, low, high, n."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["run", "table", "attempt", "measure", "value", "low", "high", "n"])
    for o in f.outcomes:
        for measure, value in o.to_dict().items():
            if measure == "run":
                continue
            if isinstance(value, dict):
                w.writerow(
                    [
                        o.label,
                        "outcomes",
                        "",
                        measure,
                        *("" if value[k] is None else value[k] for k in ("value", "low", "high", "n")),
                    ]
                )
            else:
                w.writerow([o.label, "outcomes", "", measure, "" if value is None else value, "", "", ""])
    for row in f.errors:
        w.writerow([row.label, "errors", row.attempt, "calls", row.calls, "", "", ""])
        for kind, n in row.kinds.items():
            w.writerow([row.label, "errors", row.attempt, kind, n, "", "", ""])
    return out.getvalue()


FAILURE_FORMATS: dict[str, Callable[[Failures], str]] = {"md": to_markdown, "json": to_json, "csv": to_csv}
