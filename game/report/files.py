"""Reading result files into report Runs: our runners' results, replays, and ParaCook human results.

A result is `result.to_dict()` plus "task" (task_info) and source fields (model, method, ...).
ParaCook's human results have neither: their task comes from the path
human/<category>/seed_<s>/agent_num_<k>/orders_num_<n>.json, and T_max / D_max from the matching
map and orders.json of the same data folder. A result without "progress" gets it by running its
plan again in its level (a replay's own, the ParaCook kitchen, or the file its "level" field names);
the lower bound beside OCT (OCT/LB) is the one a planner result records, else computed for that level.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from game.engine import MAX_TIME, Level, simulate
from game.engine.metrics import bound_fits, d_max, t_max
from game.engine.rules import RULESETS
from game.inputs import InputError, load_json, parse_json, read_text, short_repr
from game.levels import LevelError, load_level
from game.levels.paper import task_digest
from game.levels.task import DIFFICULTY, task_info
from game.replay.check import checked_level
from game.report.failures import usage_of_record
from game.report.metrics import Run
from game.report.talk import talk_of_record

REPLAY_FORMAT = "paracook-kitchen-replay"
PATH_TASK = re.compile(
    r"(?P<category>[a-z]+)/seed_(?P<seed>\d+)/agent_num_(?P<agents>\d+)/"
    r"orders_num_(?P<orders>\d+)\.json$"
)
NEEDED = ("done", "time")


class ResultError(ValueError):
    """A result file that cannot be read; the message names the file, line and field."""


def result_files(paths: list[Path]) -> list[Path]:
    """The .json and .jsonl files given, directories searched recursively, in a stable order."""
    out: list[Path] = []
    for p in paths:
        if (p / SESSION_MARK).is_file() and not (p / "export" / STUDY_MARK).is_file():
            raise ResultError(f"{p}: a study session not exported yet (paracook-kitchen study export {p})")
        if p.is_dir():
            out += sorted(
                f
                for f in p.rglob("*")
                if f.suffix in (".json", ".jsonl") and f.is_file() and not _run_extra(f, p)
            )
        elif p.is_file():
            out.append(p)
        elif p.exists():
            raise ResultError(f"{p}: not a regular file (a FIFO or device); give a result file or folder")
        else:
            raise ResultError(f"{p}: no such file or directory")
    return out


STUDY_MARK = "study.json"  # a study export: its replays are the runs (results/ repeats them)
SESSION_MARK = "session.json"  # a study session's folder: its export/ holds the runs


def _run_extra(f: Path, top: Path) -> bool:
    """In a runner's folder (one holding run.json) only results/ holds results; its replays and
    request log would count twice or are no results at all. In a study export only replays/."""
    for folder in [f.parent, *f.parent.parents]:
        if (folder / "run.json").is_file():
            return not f.is_relative_to(folder / "results")
        if (folder / STUDY_MARK).is_file():
            return not f.is_relative_to(folder / "replays")
        if (folder / SESSION_MARK).is_file():
            return not f.is_relative_to(folder / "export" / "replays")
        if folder == top:
            return False
    return False


def read_records(path: Path) -> list[tuple[str, Any]]:
    """(where, object) for each JSON value in the file (a list counts item by item)."""
    try:
        text = read_text(path)  # the input boundary: size, UTF-8, special files
    except InputError as e:
        raise ResultError(str(e)) from None
    if path.suffix == ".jsonl":
        chunks = [(f"{path}:{n}", line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    else:
        chunks = [(str(path), text)]
    records: list[tuple[str, Any]] = []
    for where, chunk in chunks:
        try:
            data = parse_json(chunk, where)  # depth, digits, NaN and Infinity refused
        except InputError as e:
            raise ResultError(str(e)) from None
        items = data if isinstance(data, list) else [data]
        records += [(f"{where}[{i}]" if isinstance(data, list) else where, d) for i, d in enumerate(items)]
    return records


def is_result(data: Any) -> bool:
    return isinstance(data, dict) and (data.get("format") == REPLAY_FORMAT or all(k in data for k in NEEDED))


def label_of(data: dict[str, Any], path: Path) -> str:
    """Who produced a result: its own label (`run --label`, a study's participant), its method
    and model, its source kind, or `human` for ParaCook's. A partner run adds what it was, so
    that no table passes it off as one planner's alone: which agents were fixed (`llm --fix`),
    or a study's partner condition."""
    source = data.get("source") if isinstance(data.get("source"), dict) else {}
    label = _own_label(data, source, path)
    fixed = data.get("fixed_agents", source.get("fixed_agents"))
    if isinstance(fixed, list) and fixed and all(isinstance(a, str) for a in fixed):
        label = f"{label} ({', '.join(a[:64] for a in fixed[:8])} fixed)"
    study = source.get("study") if isinstance(source.get("study"), dict) else {}
    condition = study.get("condition")
    if isinstance(condition, str) and condition.strip() not in ("", "solo"):
        label = f"{label} [{condition.strip()[:MAX_CONDITION_CHARS]}]"
    return label


def _own_label(data: dict[str, Any], source: dict[str, Any], path: Path) -> str:
    for label in (data.get("label"), source.get("label")):
        if isinstance(label, str) and label.strip():
            return label.strip()
    parts = [
        str(x)
        for x in (data.get("method") or source.get("method"), data.get("model") or source.get("model"))
        if x
    ]
    if parts:
        return " ".join(parts)
    if source.get("kind"):
        return str(source["kind"])
    return "human" if "human" in path.parts else "results"


def task_from_path(path: Path) -> dict[str, Any] | None:
    m = PATH_TASK.search(path.as_posix())
    if not m:
        return None
    cat, seed, agents, orders = m["category"], int(m["seed"]), int(m["agents"]), int(m["orders"])
    return {
        "id": f"{cat}/seed_{seed}/agent_num_{agents}/orders_num_{orders}",
        "category": cat,
        "difficulty": DIFFICULTY.get(cat, "other"),
        "agents": agents,
        "orders": orders,
        "seed": seed,
        "suite": "paracook",
    }


@lru_cache(maxsize=512)
def _paracook_level(root: Path, task_id: str) -> Level:
    cat, seed, agents, orders = task_id.split("/")
    orders_table = load_json(root / "orders.json")
    key = f"{cat}/{seed}/{orders}"
    if not isinstance(orders_table, dict) or key not in orders_table:
        raise ResultError(f"{root / 'orders.json'}: no entry {key!r}")
    return load_level(root / "maps" / cat / seed / f"{agents}.json", orders=orders_table[key])


def paracook_level_of(path: Path, task_id: str) -> Level | None:
    """The kitchen of a ParaCook result file, from the map and orders next to its human/ folder."""
    parts = path.resolve().parts
    if "human" not in parts:
        return None
    root = Path(*parts[: len(parts) - 1 - parts[::-1].index("human")])
    if not (root / "orders.json").is_file():
        return None
    try:
        return _paracook_level(root, task_id)
    except (LevelError, OSError, InputError, TypeError, ValueError) as e:
        raise ResultError(f"{path}: cannot load its kitchen ({e})") from None


def bounds_from_path(path: Path, task_id: str) -> tuple[int, int] | None:
    """T_max and D_max of a ParaCook result file, from the map and orders next to its folder."""
    level = paracook_level_of(path, task_id)
    return None if level is None else (t_max(level), d_max(level))


def _named_level(spec: Any) -> Level | None:
    """The level a result's "level" field names (a level file, or `map.json:dish,dish`), if it
    still loads; None otherwise (progress is then not re-simulated)."""
    if not isinstance(spec, str) or not spec:
        return None
    file, _, orders = spec.rpartition(":") if spec.rpartition(":")[0].endswith(".json") else (spec, "", "")
    try:
        if not Path(file).is_file():  # a FIFO or a device is not a level (and would block)
            return None
        return load_level(file, [o for o in orders.split(",") if o] or None)
    except (LevelError, OSError, ValueError):
        return None


def _recorded_progress(data: dict[str, Any], where: str) -> float | None:
    p = data.get("progress")
    if p is None:
        return None
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
        raise ResultError(f"{where}: field 'progress' must be a number from 0 to 1, not {p!r}")
    return float(p)


def _simulated_progress(data: dict[str, Any], level: Level | None) -> float | None:
    """Progress of the result's plan run again in its level; None when that cannot be done or
    the run does not end as the result says (not the same level or rules)."""
    plan = data.get("plan")
    if level is None or not isinstance(plan, dict):
        return None
    try:
        result = simulate(level, plan, rules=str(data.get("rules") or level.rules), record=False)
    except ValueError:  # a malformed plan or an unknown rule set
        return None
    if result.done != data["done"] or (not result.done and result.time != data["time"]):
        return None
    return result.progress


def progress_of(
    data: dict[str, Any], path: Path, where: str, task: dict[str, Any], level: Level | None = None
) -> tuple[float | None, str]:
    """(progress, source): recorded in the result, else re-simulated, else unknown (None)."""
    recorded = _recorded_progress(data, where)
    if recorded is not None:
        return recorded, "recorded"
    if level is None:
        level = paracook_level_of(path, str(task.get("id", ""))) or _named_level(data.get("level"))
    simulated = _simulated_progress(data, level)
    if simulated is not None:
        return simulated, "simulated"
    return None, "assumed" if data["done"] else "unknown"


TASK_COUNTS = ("agents", "orders", "seed")  # whole numbers a report groups or sorts by
TASK_TEXTS = ("id", "category", "difficulty", "suite")


def _task_problem(task: dict[str, Any]) -> str | None:
    """What is wrong with a result's task description (the report groups by it), or None."""
    for k in TASK_COUNTS:
        v = task.get(k)
        if v is not None and not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**9):
            return f"'{k}' must be a whole number, not {short_repr(v)}"
    for k in TASK_TEXTS:
        v = task.get(k)
        if v is not None and not isinstance(v, str):
            return f"'{k}' must be text, not {short_repr(v)}"
    return None


def _time_ok(x: Any) -> bool:
    """A time a result may hold: a number (not true/false) from 0 to the engine's limit."""
    return isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= MAX_TIME


def _numbers(data: dict[str, Any], key: str, where: str) -> dict[str, float]:
    v = data.get(key, {})
    if not isinstance(v, dict) or not all(_time_ok(x) for x in v.values()):
        raise ResultError(f"{where}: field {key!r} must map each agent to a number from 0 to {MAX_TIME:,}")
    return {str(a): float(x) for a, x in v.items()}


def run_from_record(data: dict[str, Any], path: Path, where: str) -> Run:
    """One Run from a result or a replay; raises ResultError naming the field at fault."""
    label = label_of(data, path)
    study = study_of(data, where)
    level: Level | None = None
    if data.get("format") == REPLAY_FORMAT:
        try:
            level = checked_level(data.get("level"))  # as strictly as a level file (size, orders)
            result = dict(data["result"])
        except (KeyError, TypeError, ValueError) as e:
            raise ResultError(f"{where}: a damaged replay ({e})") from None
        result.setdefault("task", task_info(level))
        result.setdefault("t_max", t_max(level))
        result.setdefault("d_max", d_max(level))
        result.setdefault("plan", data.get("plan"))
        result.setdefault("rules", data.get("rules"))
        data = result
    task = data.get("task") if isinstance(data.get("task"), dict) else task_from_path(path)
    if task is None:
        raise ResultError(
            f"{where}: no 'task' field and the path does not name one "
            "(<category>/seed_<s>/agent_num_<k>/orders_num_<n>.json)"
        )
    bad = _task_problem(task)
    if bad:
        raise ResultError(f"{where}: task field {bad}")
    if not isinstance(data.get("done"), bool) or not _time_ok(data.get("time")):
        raise ResultError(f"{where}: 'done' must be true/false and 'time' a number from 0 to {MAX_TIME:,}")
    bounds = (data.get("t_max"), data.get("d_max"))
    if not all(_time_ok(b) for b in bounds):
        bounds = bounds_from_path(path, str(task.get("id", "")))
        if bounds is None:
            raise ResultError(f"{where}: no 't_max'/'d_max' and no ParaCook kitchen to compute them from")
    if level is None:
        level = paracook_level_of(path, str(task.get("id", "")))
    trusted = level is not None  # a replay's own kitchen, or the ParaCook map of a human result
    level = level or _named_level(data.get("level"))
    progress, source = progress_of(data, path, where, task, level)
    # a named level file is the run's kitchen only if the plan runs there as the result says
    known = level is not None and (
        trusted or source == "simulated" or _simulated_progress(data, level) is not None
    )
    return Run(
        label=label,
        task=dict(task),
        done=data["done"] and study.get("status") != "abandoned",
        time=float(data["time"]),
        t_max=float(bounds[0]),
        d_max=float(bounds[1]),
        moving=_numbers(data, "agent_moving_time", where),
        execution=_numbers(data, "agent_all_execution_time", where),
        waiting=_numbers(data, "agent_waiting_time", where),
        progress=progress,
        progress_source=source,
        digest=task_digest(level) if known and level is not None else None,
        order=_mtime(path),
        where=where,
        **talk_of_record(data),
        recorded_bound=recorded_bound(data, where),
        bound_source=bound_source(level, data.get("rules")),
        source_run=run_folder_of(path),
        usage=usage_of_record(data),
        study=study,
        rules=data["rules"] if data.get("rules") in RULESETS else "",
    )


def run_folder_of(path: Path) -> str:
    """The `llm`/`run` folder (one holding run.json) a result file lies in; empty if none."""
    for folder in path.parents:
        if (folder / "run.json").is_file():
            return str(folder)
    return ""


STUDY_NUMBERS = ("planning_s", "active_s", "idle_s", "paused_s", "edits", "undos", "redos", "previews")
STUDY_NUMBERS += ("error_runs", "replans")
MAX_CONDITION_CHARS = 400  # a study condition's name (`partner llm <model> <method> (person: ...)`)


def study_of(data: dict[str, Any], where: str) -> dict[str, Any]:
    """A study replay's status and process data (planning time, edits, ...); {} for other runs.
    An abandoned level counts as a failure whatever its unsubmitted plan serves."""
    source = data.get("source") if isinstance(data.get("source"), dict) else {}
    study = source.get("study")
    if not isinstance(study, dict):
        return {}
    out: dict[str, Any] = {}
    for k in STUDY_NUMBERS:
        v = study.get(k)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v < float("inf"):
            raise ResultError(f"{where}: field 'source.study.{k}' must be a number of 0 or more, not {v!r}")
        out[k] = float(v)
    status = study.get("status")
    if status is not None:
        if status not in ("served", "failed", "abandoned"):
            raise ResultError(f"{where}: field 'source.study.status' is {status!r}, not a scored status")
        out["status"] = status
    condition = study.get("condition", "solo")  # exports before partner conditions were solo
    if not isinstance(condition, str) or not condition.strip() or len(condition) > MAX_CONDITION_CHARS:
        raise ResultError(
            f"{where}: field 'source.study.condition' must be a condition's name, not {short_repr(condition)}"
        )
    if not condition.isprintable():
        raise ResultError(f"{where}: field 'source.study.condition' holds a control character")
    out["condition"] = condition.strip()
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def recorded_bound(data: dict[str, Any], where: str) -> float | None:
    """The lower bound on the task's OCT that a planner result records, if a usable one. One
    above the result's own served OCT cannot be (no plan beats a lower bound): one of the two
    fields is damaged, and no figure is made of either."""
    recorded = data.get("lower_bound")
    if not (
        isinstance(recorded, int | float) and not isinstance(recorded, bool) and 0 < recorded < float("inf")
    ):
        return None
    if not bound_fits(recorded, data["done"], data["time"]):
        raise ResultError(
            f"{where}: field 'lower_bound' is {recorded:g}, above the served OCT {data['time']:g} in field "
            "'time': no plan beats a lower bound, so one of them is damaged"
        )
    return float(recorded)


def bound_source(level: Level | None, rules: Any) -> Callable[[], float | None] | None:
    """How to work out the task's lower bound from its kitchen (a replay's own, the ParaCook
    kitchen, or the file its "level" field names), when a table asks for it; None without one."""
    if level is None:
        return None
    rules = rules if rules in ("paracook", "documented") else None

    def work_out(at_most: float | None) -> float | None:
        from .bound_cache import cached_bound

        # kept: a report asks once per task, the next not at all
        bound = cached_bound(level, rules, at_most)
        return float(bound) if bound else None

    return work_out


def load_runs(paths: list[Path]) -> tuple[list[Run], list[str]]:
    """The runs in the given files and folders, and the files skipped as not being results."""
    runs: list[Run] = []
    skipped: list[str] = []
    for f in result_files(paths):
        for where, data in read_records(f):
            if is_result(data):
                runs.append(run_from_record(data, f, where))
            else:
                skipped.append(where)
    return runs, skipped
