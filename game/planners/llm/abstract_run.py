"""Abstract scheduling tasks put to a model: prompt, answer checking with feedback, results."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.planners.abstract import AbstractTask, Schedule, Violation, check, optimum

from .client import ChatClient, Messages, Usage
from .parsing import ReplyParseError, extract_json
from .prompts import fill
from .runner import Tally, finished, run_jobs, write_json_atomic
from .tasks import file_stem

RESULTS = "abstract"


def subtasks_json(task: AbstractTask) -> str:
    rows = [json.dumps({"name": s.name, "time": s.time, "dependencies": dict(s.deps)}) for s in task.subtasks]
    return "[\n  " + ",\n  ".join(rows) + "\n]"


def abstract_messages(task: AbstractTask, method: str) -> Messages:
    text = fill(
        "abstract",
        agents=task.agents,
        names=", ".join(task.agent_names),
        subtasks=subtasks_json(task),
        instructions=fill(f"abstract_{method}"),
    )
    return [{"role": "user", "content": text}]


def looks_like_answer(data: Any) -> bool:
    if isinstance(data, dict) and isinstance(data.get("schedule"), dict):
        data = data["schedule"]
    return isinstance(data, dict) and any(isinstance(v, list) for v in data.values())


def read_answer(task: AbstractTask, text: str) -> tuple[Any, Schedule | None, str | None]:
    """(the answer's JSON, its schedule, None) or (JSON or None, None, what is wrong)."""
    try:
        data = extract_json(text, looks_like_answer, 'an answer like {"agent1": ["subtask1", ...]}')
    except ReplyParseError as e:
        return None, None, str(e)
    try:
        return data, check(task, data), None
    except Violation as e:
        return data, None, str(e)


@dataclass
class AbstractRun:
    client: ChatClient
    method: str
    out: Path
    attempts: int = 3
    concurrency: int = 4
    progress: bool = True
    time_limit_s: float = 10.0

    def result_path(self, task: AbstractTask) -> Path:
        return self.out / RESULTS / f"{file_stem(task.id)}.json"

    async def run(self, tasks: Sequence[AbstractTask]) -> Tally:
        return await run_jobs(
            tasks,
            self.one,
            lambda t: finished(self.result_path(t)),
            lambda t: t.id,
            self.concurrency,
            self.progress,
            f"{self.client.model} abstract {self.method}",
        )

    async def one(self, task: AbstractTask) -> bool:
        messages = abstract_messages(task, self.method)
        usage = Usage()
        answer, sched, problem, n = None, None, "no reply", 0
        for n in range(1, self.attempts + 1):
            reply = await self.client.complete(messages, {"task": task.id, "attempt": n})
            usage.add(reply)
            answer, sched, problem = read_answer(task, reply.text)
            if sched is not None:
                break
            messages += [
                {"role": "assistant", "content": reply.text},
                {"role": "user", "content": fill("abstract_feedback", problem=problem)},
            ]
        best = await asyncio.to_thread(optimum, task, self.time_limit_s)
        write_json_atomic(
            self.result_path(task),
            {
                "task": task.info(),
                "model": self.client.model,
                "method": self.method,
                "valid": sched is not None,
                "makespan": sched.makespan if sched else None,
                "optimum": best.makespan,
                "optimum_proven": best.proven,
                "t_max": task.upper_bound(),
                "violation": None if sched else problem,
                "answer": answer,
                "schedule": sched.to_dict() if sched else None,
                "attempts": n,
                "tokens_in": usage.tokens_in,
                "tokens_out": usage.tokens_out,
                "latency_s": round(usage.latency_s, 3),
            },
        )
        return sched is not None


def read_records(out: Path) -> list[dict[str, Any]]:
    """Every abstract result in a run folder (unreadable files are skipped)."""
    records = []
    for f in sorted((out / RESULTS).glob("*.json")):
        try:
            records.append(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            continue
    return records
