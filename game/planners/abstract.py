"""Abstract scheduling tasks: subtasks with durations and dependency delays, shared by M agents.

An answer gives each agent an ordered list of subtask names, every subtask exactly once. An agent
starts its next subtask as soon as it is free and every dependency u of that subtask has ended at
least `delay(u)` time units earlier (the agent is free during a delay: that is a stove cooking).
The checker turns an answer into its schedule and makespan, or names the violation; CP-SAT finds
the optimum makespan to measure answers against."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.inputs import MAX_LEVEL_BYTES, InputError, load_json
from game.levels.task import DIFFICULTY

TASK_PATH = re.compile(r"(?P<cat>[a-z]+)/seed_(?P<seed>\d+)/orders_num_(?P<n>\d+)\.json$")


class AbstractError(ValueError):
    """A task file that cannot be used; the message names the file and the entry."""


class Violation(ValueError):
    """An answer that is not a valid schedule; the message says which agent, position and why."""


@dataclass(frozen=True)
class Subtask:
    name: str
    time: int
    deps: tuple[tuple[str, int], ...] = ()  # (subtask it waits for, minimum delay after its end)


@dataclass(frozen=True)
class AbstractTask:
    id: str
    subtasks: tuple[Subtask, ...]
    agents: int = 2
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def agent_names(self) -> tuple[str, ...]:
        return tuple(f"agent{k + 1}" for k in range(self.agents))

    @property
    def by_name(self) -> dict[str, Subtask]:
        return {s.name: s for s in self.subtasks}

    def upper_bound(self) -> int:
        """One agent doing everything in file order, waiting out each longest delay: always valid."""
        return sum(s.time + max((d for _, d in s.deps), default=0) for s in self.subtasks)

    def info(self) -> dict[str, Any]:
        cat = self.meta.get("category", "other")
        return {
            "id": self.id,
            "category": cat,
            "difficulty": DIFFICULTY.get(cat, "other"),
            "agents": self.agents,
            "orders": self.meta.get("orders"),
            "seed": self.meta.get("seed"),
            "subtasks": len(self.subtasks),
        }


# -- reading task files ----------------------------------------------------------------------


def _whole(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 and float(v).is_integer()


def parse_task(
    data: Any, task_id: str, agents: int = 2, meta: dict[str, Any] | None = None, source: str = "task"
) -> AbstractTask:
    if not isinstance(data, list) or not data:
        raise AbstractError(f"{source}: expected a non-empty list of subtasks")
    subtasks, problems = [], []
    for i, s in enumerate(data):
        where = f"{source}: subtask [{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            problems.append(f"{where}: needs a string 'name'")
            continue
        if not _whole(s.get("time")):
            problems.append(f"{where} ({s['name']}): 'time' must be a whole number >= 0")
            continue
        deps = s.get("dependencies", {}) or {}
        if not isinstance(deps, dict) or not all(_whole(d) for d in deps.values()):
            problems.append(f"{where} ({s['name']}): 'dependencies' must map names to delays >= 0")
            continue
        subtasks.append(Subtask(s["name"], int(s["time"]), tuple((u, int(d)) for u, d in deps.items())))
    names = [s.name for s in subtasks]
    problems += [
        f"{source}: subtask name {n!r} appears twice" for n in sorted(set(names)) if names.count(n) > 1
    ]
    problems += [
        f"{source}: {s.name} depends on {u!r}, which is not a subtask"
        for s in subtasks
        for u, _ in s.deps
        if u not in names
    ]
    if problems:
        raise AbstractError("; ".join(problems))
    task = AbstractTask(task_id, tuple(subtasks), agents, dict(meta or {}))
    cycle = find_cycle(task)
    if cycle:
        raise AbstractError(f"{source}: the dependencies form a cycle: {' -> '.join(cycle)}")
    return task


def find_cycle(task: AbstractTask) -> list[str] | None:
    deps = {s.name: [u for u, _ in s.deps] for s in task.subtasks}
    state: dict[str, int] = {}  # 1 = on the path, 2 = done

    def visit(v: str, path: list[str]) -> list[str] | None:
        state[v] = 1
        for u in deps[v]:
            if state.get(u) == 1:
                return path[path.index(u) :] + [v, u] if u in path else [v, u]
            if u not in state and (found := visit(u, path + [v])):
                return found
        state[v] = 2
        return None

    for v in deps:
        if v not in state and (found := visit(v, [])):
            return found
    return None


def task_id_from_path(path: Path) -> tuple[str, dict[str, Any]]:
    m = TASK_PATH.search(path.as_posix())
    if m is None:
        return path.stem, {}
    return (
        f"{m['cat']}/seed_{m['seed']}/orders_num_{m['n']}",
        {"category": m["cat"], "seed": int(m["seed"]), "orders": int(m["n"])},
    )


def load_task(path: str | Path, agents: int = 2) -> AbstractTask:
    path = Path(path)
    try:
        data = load_json(path, MAX_LEVEL_BYTES)  # a task is a level's size at most
    except InputError as e:
        raise AbstractError(str(e)) from None
    task_id, meta = task_id_from_path(path)
    return parse_task(data, task_id, agents, meta, str(path))


def find_task_files(specs: list[str]) -> list[Path]:
    """Files as given; a folder stands for every orders_num_*.json under it."""
    files: list[Path] = []
    for spec in specs:
        p = Path(spec)
        if p.is_dir():
            files += sorted(p.rglob("orders_num_*.json"))
        elif p.exists():
            files.append(p)
        else:
            raise AbstractError(f"{spec}: no such file or folder")
    return files


# -- checking answers ----------------------------------------------------------------------------


@dataclass
class Schedule:
    """When each subtask runs and on which agent."""

    agent_of: dict[str, str]
    start: dict[str, int]
    end: dict[str, int]

    @property
    def makespan(self) -> int:
        return max(self.end.values(), default=0)

    def to_dict(self) -> dict[str, list]:
        return {v: [self.agent_of[v], self.start[v], self.end[v]] for v in self.start}


def answer_lists(task: AbstractTask, answer: Any) -> dict[str, list[str]]:
    """The answer's per-agent lists, checked for form: known agents, known names, each once."""
    if isinstance(answer, dict) and isinstance(answer.get("schedule"), dict):
        answer = answer["schedule"]
    if not isinstance(answer, dict):
        raise Violation('the answer must be an object like {"agent1": ["subtask1", ...], ...}')
    lists: dict[str, list[str]] = {}
    for agent, items in answer.items():
        if agent not in task.agent_names:
            raise Violation(
                f"{agent!r} is not an agent (there are {task.agents}: {', '.join(task.agent_names)})"
            )
        if not isinstance(items, list):
            raise Violation(f"{agent}: expected a list of subtask names")
        lists[agent] = [_item_name(agent, i, x) for i, x in enumerate(items)]
    where: dict[str, str] = {}
    for agent, names in lists.items():
        for i, v in enumerate(names):
            if v not in task.by_name:
                raise Violation(f"{agent} position {i}: {v!r} is not a subtask")
            if v in where:
                raise Violation(f"{agent} position {i}: {v} is already given to {where[v]}")
            where[v] = f"{agent} position {i}"
    missing = [s.name for s in task.subtasks if s.name not in where]
    if missing:
        raise Violation(f"subtasks given to no agent: {', '.join(missing)}")
    return lists


def _item_name(agent: str, i: int, x: Any) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, dict):
        for key in ("name", "subtask", "task"):
            if isinstance(x.get(key), str):
                return x[key]
    raise Violation(f"{agent} position {i}: expected a subtask name, got {json.dumps(x)[:60]}")


def check(task: AbstractTask, answer: Any) -> Schedule:
    """The schedule an answer gives (each subtask as early as allowed), or a Violation."""
    lists = answer_lists(task, answer)
    book = task.by_name
    sched = Schedule({}, {}, {})
    nxt = {a: 0 for a in lists}
    free = {a: 0 for a in lists}
    progress = True
    while progress:
        progress = False
        for agent, names in lists.items():
            while nxt[agent] < len(names) and all(u in sched.end for u, _ in book[names[nxt[agent]]].deps):
                s = book[names[nxt[agent]]]
                start = max([free[agent]] + [sched.end[u] + d for u, d in s.deps])
                sched.agent_of[s.name], sched.start[s.name], sched.end[s.name] = agent, start, start + s.time
                free[agent] = start + s.time
                nxt[agent] += 1
                progress = True
    stuck = [(a, nxt[a]) for a, names in lists.items() if nxt[a] < len(names)]
    if stuck:
        raise Violation(deadlock_message(task, lists, stuck, sched))
    return sched


def deadlock_message(
    task: AbstractTask, lists: dict[str, list[str]], stuck: list[tuple[str, int]], sched: Schedule
) -> str:
    place = {v: (a, i) for a, names in lists.items() for i, v in enumerate(names)}
    parts = []
    for agent, i in stuck:
        v = lists[agent][i]
        waits = [u for u, _ in task.by_name[v].deps if u not in sched.end]
        u = waits[0]
        ua, ui = place[u]
        parts.append(f"{agent} position {i} ({v}) needs {u}, which {ua} only reaches at position {ui}")
    return "the order deadlocks: " + "; ".join(parts)


# -- the optimum ---------------------------------------------------------------------------------


@dataclass
class Optimum:
    makespan: int
    proven: bool
    answer: dict[str, list[str]]


def optimum(task: AbstractTask, time_limit_s: float = 10.0, workers: int = 2) -> Optimum:
    """The least makespan (CP-SAT): an agent does one subtask at a time; delays are free time."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    horizon = task.upper_bound()
    start = {s.name: model.NewIntVar(0, horizon, f"s_{s.name}") for s in task.subtasks}
    on: dict[tuple[str, str], Any] = {}
    per_agent: dict[str, list] = {a: [] for a in task.agent_names}
    for s in task.subtasks:
        for a in task.agent_names:
            on[s.name, a] = model.NewBoolVar(f"{s.name}_on_{a}")
            per_agent[a].append(
                model.NewOptionalFixedSizeIntervalVar(start[s.name], s.time, on[s.name, a], f"i_{s.name}_{a}")
            )
        model.AddExactlyOne(on[s.name, a] for a in task.agent_names)
        for u, d in s.deps:
            model.Add(start[s.name] >= start[u] + task.by_name[u].time + d)
    for intervals in per_agent.values():
        model.AddNoOverlap(intervals)
    # Redundant, but it lets the solver prove optima: at most M subtasks run at any instant.
    model.AddCumulative(
        [model.NewFixedSizeIntervalVar(start[s.name], s.time, f"c_{s.name}") for s in task.subtasks],
        [1] * len(task.subtasks),
        task.agents,
    )
    model.Add(on[task.subtasks[0].name, task.agent_names[0]] == 1)  # agents are alike
    makespan = model.NewIntVar(0, horizon, "makespan")
    for s in task.subtasks:
        model.Add(makespan >= start[s.name] + s.time)
    model.Add(makespan * task.agents >= sum(s.time for s in task.subtasks))  # work bound
    model.Minimize(makespan)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit_s
    solver.parameters.num_workers = workers
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"{task.id}: CP-SAT found no schedule in {time_limit_s} s")
    answer = {
        a: sorted(
            (s.name for s in task.subtasks if solver.Value(on[s.name, a])),
            key=lambda v: (solver.Value(start[v]), v),
        )
        for a in task.agent_names
    }
    return Optimum(int(solver.Value(makespan)), status == cp_model.OPTIMAL, answer)


# -- scores --------------------------------------------------------------------------------------


def scores(records: list[dict[str, Any]]) -> dict[str, float]:
    """SR, pOCT (a failure counts its upper bound) and nOCT = OCT / optimum x 100 over successes."""
    if not records:
        return {"tasks": 0, "sr": 0.0, "poct": 0.0, "noct": 0.0, "opt": 0.0}
    ok = [r for r in records if r["valid"]]
    poct = sum(r["makespan"] if r["valid"] else r["t_max"] for r in records) / len(records)
    ratios = [100 * r["makespan"] / r["optimum"] if r["optimum"] else 100.0 for r in ok]
    noct = sum(ratios) / len(ratios) if ratios else 0.0
    return {
        "tasks": len(records),
        "sr": 100 * len(ok) / len(records),
        "poct": poct,
        "noct": noct,
        "opt": sum(r["optimum"] for r in records) / len(records),
    }


def table(records: list[dict[str, Any]]) -> str:
    """Per difficulty and overall: SR, pOCT, nOCT, next to the optimum's mean OCT."""
    groups = [("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")]
    rows = [(label, [r for r in records if r["task"]["difficulty"] == key]) for key, label in groups]
    rows = [(label, rs) for label, rs in rows if rs] + [("All", records)]
    lines = [f"{'':8} {'tasks':>5} {'SR':>6} {'pOCT':>8} {'nOCT':>7} {'opt OCT':>8}"]
    for label, rs in rows:
        s = scores(rs)
        lines.append(
            f"{label:8} {s['tasks']:5d} {s['sr']:6.1f} {s['poct']:8.2f} {s['noct']:7.1f} {s['opt']:8.2f}"
        )
    return "\n".join(lines)
