"""Per-level rows (`report --by level`): each task's row also shows the published human time of
that very task (matched by its content) and the built-in planner's time on it, where known."""

from __future__ import annotations

from dataclasses import replace

from game.report.metrics import ALL, Row, Run

PLANNER_LABELS = ("solver",)  # labels of the built-in planner's runs


def is_planner(label: str) -> bool:
    return label.split()[0] in PLANNER_LABELS if label else False


def with_level_times(rows: list[Row], runs: list[Run], published: dict[str, float]) -> list[Row]:
    """The rows with `human` and `planner` extras filled for each level row."""
    by_key: dict[str, list[Run]] = {}
    for r in runs:
        by_key.setdefault(r.level_key, []).append(r)
    out = []
    for row in rows:
        members = by_key.get(row.group, []) if row.by == "level" and row.group != ALL else []
        if not members:
            out.append(row)
            continue
        human = next((published[r.digest] for r in members if r.digest in published), None)
        planner = [r.time for r in members if r.done and is_planner(r.label)]
        extras = {**row.extras, "human": human, "planner": min(planner) if planner else None}
        out.append(replace(row, extras=extras))
    return out
