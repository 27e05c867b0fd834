"""A run folder as a small site: index.html (every result, sortable and filterable) and one page
per task's replay under runs/. A result written by a runner finds its replay in the runner's
replays/ folder under the same name; a replay file is its own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.replay import ReplayError, load_replay

from .data import run_data
from .page import HtmlError, write_page, written_here

REPLAY_FORMAT = "paracook-kitchen-replay"
COLUMNS = [
    ("task", "task"),
    ("label", "label"),
    ("category", "category"),
    ("agents", "agents"),
    ("orders", "orders"),
    ("outcome", "outcome"),
    ("error", "error kind"),
    ("oct", "OCT"),
    ("progress", "progress %"),
    ("why", "why"),
]
FILTERS = ["outcome", "error", "category", "agents", "orders", "label"]


def record_file(where: str) -> Path:
    """The file a report Run came from ('f.json', 'f.json[3]', 'f.jsonl:12')."""
    where = re.sub(r"\[\d+\]$", "", where)
    m = re.match(r"^(.*\.jsonl):\d+$", where)
    return Path(m.group(1) if m else where)


def replay_of(path: Path, record: dict[str, Any]) -> Path | None:
    """The replay that goes with a result: the file itself, or the runner's replays/ twin."""
    if record.get("format") == REPLAY_FORMAT:
        return path
    for folder in path.parents:
        if folder.name == "results":
            twin = folder.parent / "replays" / path.relative_to(folder)
            return twin if twin.is_file() else None
    return None


def _record(where: str, cache: dict[Path, dict[str, Any]]) -> dict[str, Any]:
    from game.report.files import ResultError, read_records

    path = record_file(where)
    if path not in cache:
        try:
            cache[path] = {w: d for w, d in read_records(path)}
        except ResultError:
            cache[path] = {}
    data = cache[path].get(where)
    return data if isinstance(data, dict) else {}


def _outcome(result: dict[str, Any]) -> tuple[str, str]:
    """('success' | 'failed' | 'unfinished', the error kind or '')."""
    if result.get("done"):
        return "success", ""
    detail = result.get("error_detail") if isinstance(result.get("error_detail"), dict) else {}
    diagnosis = result.get("diagnosis") if isinstance(result.get("diagnosis"), dict) else {}
    if result.get("error"):
        return "failed", str(detail.get("kind") or diagnosis.get("error") or "error")
    return "unfinished", str(diagnosis.get("error") or "")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:80] or "run"


def _refuse_others(out: Path) -> None:
    """A site is written over an earlier one, never over someone's own files of the same names."""
    ours = [out / "index.html", *sorted((out / "runs").glob("*.html"))]
    theirs = [p for p in ours if p.exists() and not written_here(p)]
    if theirs:
        raise HtmlError(
            f"{theirs[0]}: already there and not written by paracook-kitchen; nothing was written "
            "(give --html a new folder, or one an earlier report wrote)"
        )


def write_index(runs: Sequence[Any], out_dir: str | Path, title: str = "") -> tuple[Path, list[str]]:
    """Write out_dir/index.html and a page per run that has a replay; returns the index's path
    and the problems met (a replay that would not open: its row says so and has no link)."""
    out = Path(out_dir)
    _refuse_others(out)
    cache: dict[Path, dict[str, Any]] = {}
    rows, problems = [], []
    for k, run in enumerate(runs):
        record = _record(run.where, cache)
        path = record_file(run.where)
        result = record.get("result") if record.get("format") == REPLAY_FORMAT else record
        result = result if isinstance(result, dict) else {}
        outcome, error = _outcome(result)
        row: dict[str, Any] = {"href": None, "note": ""}
        why = (
            (result.get("diagnosis") or {}).get("summary", "")
            if isinstance(result.get("diagnosis"), dict)
            else ""
        )
        replay_path = replay_of(path, record)
        if replay_path is not None:
            try:
                replay = load_replay(replay_path)
                name = f"runs/{k + 1:04d}-{_slug(str(run.task.get('id', path.stem)))}.html"
                write_page(out / name, run_data(replay, replay_path.name))
                diagnosis = replay.result.get("diagnosis") or {}
                why = diagnosis.get("summary", why)
                # a failed or unfinished run opens at its likeliest cause: one click to the why
                row["href"] = name + ("#cause" if diagnosis.get("causes") else "")
            except ReplayError as e:
                problems.append(str(e))
                row["note"] = str(e)
        else:
            row["note"] = "no replay for this result"
        progress = run.progress_value
        row["cells"] = [
            str(run.task.get("id", path.stem)),
            run.label,
            str(run.task.get("category", "")),
            run.agent_count,
            int(run.task.get("orders") or 0),
            outcome,
            error,
            run.time,
            None if progress is None else round(100 * progress, 1),
            why,
        ]
        rows.append(row)
    n_pages = sum(1 for r in rows if r["href"])
    counts = {o: sum(1 for r in rows if r["cells"][5] == o) for o in ("success", "failed", "unfinished")}
    summary = f"{len(rows)} runs: {counts['success']} served, {counts['failed']} failed, {counts['unfinished']} unfinished; {n_pages} with a replay page"
    data = {
        "kind": "index",
        "title": title or f"Runs: {out.name or out.resolve().name}",
        "summary": summary,
        "columns": COLUMNS,
        "filters": FILTERS,
        "rows": rows,
    }
    return write_page(out / "index.html", data), problems
