"""`study export`: a session as files for papers and for the reference engine.

    OUT/study.json               who, when, the order, and per level its status and planning
                                 statistics (a level never opened, or a warm-up, has no files)
    OUT/results/<task>.json      the plan and the reference result fields, as ParaCook's human
                                 result files have them (nothing else)
    OUT/replays/<task>.json      our replay of the same run, labelled with the participant
    OUT/log.jsonl                the session's timed events (every edit with its plan)

`report OUT` reads the replays as one run labelled with the participant.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from game.engine import parse_plan, simulate
from game.engine.result import REFERENCE_FIELDS
from game.inputs import short_repr
from game.levels import LevelError, load_level
from game.levels.paper import task_digest
from game.replay import save_replay
from game.storage import write_atomic, write_json_atomic

from .partner import SOLO
from .persist import LOG_FILE, SessionStore
from .session import LevelRecord

UNSCORED = ("not_attempted", "warmup")

EXPORT_FORMAT = "paracook-kitchen-study-export"
EXPORT_MARK = "study.json"


def reference_result(result_dict: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ParaCook human result file, in its order: the result, retries, the plan."""
    out = {k: result_dict[k] for k in REFERENCE_FIELDS}
    out["retry_count"] = 0
    out["plan"] = plan
    return out


def _file_stem(task_id: str) -> str:
    return task_id.strip("/").replace("..", "_") or "level"


def export_level(
    record: LevelRecord, participant: str, out: Path, condition: str = SOLO
) -> tuple[dict[str, Any], str | None]:
    """Write one level's result and replay; returns its study.json entry and a problem, if any.
    The replay says the study condition (solo, or which partner) for `report --study`."""
    entry: dict[str, Any] = {
        "task": record.task_id,
        "title": record.title,
        "level": record.path,
        **record.stats(),
    }
    if record.status in UNSCORED:  # never opened, or practice: no result to score
        return entry, None
    try:
        level = load_level(record.path)
    except LevelError as e:
        return entry, f"{record.task_id}: the level no longer loads ({e}); its plan is in session.json"
    if task_digest(level) != record.digest:
        return (
            entry,
            f"{record.path}: the level file changed since the session; {record.task_id} not exported",
        )
    plan = parse_plan(record.plan or {}, level.agent_names)
    result = simulate(level, plan, level.rules, record=True)
    stem = _file_stem(record.task_id)
    result_path = out / "results" / f"{stem}.json"
    result_path.parent.mkdir(parents=True, exist_ok=True)
    plan_json = {a: [x.to_dict() for x in q] for a, q in plan.items()}
    write_atomic(result_path, json.dumps(reference_result(result.to_dict(), plan_json), indent=4) + "\n")
    source = {"kind": "human", "method": "study", "participant": participant, "label": participant}
    study = {**record.stats(), "condition": condition}
    save_replay(out / "replays" / f"{stem}.json", level, plan, result, {**source, "study": study})
    entry.update(done=result.done, time=result.time, error=result.error)
    if record.status == "abandoned":  # its plan was never submitted: a failure, whatever it serves
        entry["done"] = False
    return entry, None


def export_session(store: SessionStore, out: Path) -> tuple[list[Path], list[str]]:
    """Write the export folder; returns the result files written and the problems met."""
    session = store.session
    out.mkdir(parents=True, exist_ok=True)
    entries, problems, written = [], [], []
    for record in session.levels:
        try:
            entry, problem = export_level(record, session.participant, out, session.condition_name)
        except (ValueError, TypeError, KeyError, ArithmeticError, RecursionError) as e:
            # a plan edited by hand (or damaged) is that level's problem, not the export's
            entry = {"task_id": record.task_id, "title": record.title}
            problem = f"{record.task_id}: its plan cannot be used ({short_repr(str(e), 200)})"
        entries.append(entry)
        if problem:
            problems.append(problem)
        elif record.status not in UNSCORED:
            written.append(out / "results" / f"{_file_stem(record.task_id)}.json")
    summary = {
        "format": EXPORT_FORMAT,
        "participant": session.participant,
        "label": session.participant,
        "started": session.started,
        "order": session.order,
        "seed": session.seed,
        "finished": session.finished,
        "idle_after_s": session.idle_after,
        "protocol": session.protocol,
        "condition": session.condition,
        "time_limit_s": session.time_limit,
        "partner": session.partner,
        "study_condition": session.condition_name,
        "levels": entries,
    }
    write_json_atomic(out / EXPORT_MARK, summary)
    log = store.folder / LOG_FILE
    if log.is_file() and log.resolve() != (out / LOG_FILE).resolve():
        shutil.copyfile(log, out / LOG_FILE)
    return written, problems
