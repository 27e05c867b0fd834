"""A whole run: many tasks against one model, concurrent, resumable, each task saved on finishing.

Run folder:  run.json (settings, no secrets) · results/<task>.json · replays/<task>.json ·
log.jsonl (every request and response, with usage; log-shard-K-of-N.jsonl for a shard)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from game import storage
from game.engine import plan_to_dict
from game.engine.diagnosis import Cause, Diagnosis
from game.inputs import MAX_FILE_BYTES, InputError, load_json
from game.levels.task import task_info
from game.replay import save_replay

from .client import ChatClient, LLMError
from .constraint import Fixed
from .decentralized import TalkOutcome, method_of_label, solve_talking, talk_fields
from .methods import Outcome, solve
from .settings import differences
from .tasks import LevelTask, file_stem, parse_shard, portable

RUN_FILE = "run.json"
RESULTS = "results"
REPLAYS = "replays"
MAX_NOTE_CHARS = 4000  # of the last problem kept in a replay's why box


class RunError(ValueError):
    """The run folder cannot be used as asked (made by another model or method, unreadable)."""


def write_json_atomic(path: Path, data: Any) -> None:
    """Write to a side file and rename: an interrupted write never leaves half a file."""
    storage.write_json_atomic(path, data)


def log_name(shard_spec: str | None) -> str:
    if not shard_spec:
        return "log.jsonl"
    k, n = parse_shard(shard_spec)
    return f"log-shard-{k}-of-{n}.jsonl"


def open_run_folder(root: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """Create the folder, or check that an existing one holds the same experiment: every locked
    setting equal (settings.LOCKED). Returns the run's settings (a resume keeps the first ones)."""
    path = root / RUN_FILE
    if path.exists():
        try:
            old = load_json(path)
        except InputError as e:
            raise RunError(f"cannot read it: {e}") from None
        if not isinstance(old, dict):
            raise RunError(f"{path}: not a run's settings; choose another --out folder")
        if "code_version" not in old:
            raise RunError(
                f"{root} holds a run started by an older version, which did not record every "
                f"setting; it is not resumed: choose another --out folder, or add --force-new NAME"
            )
        clash = differences(old, settings)
        if clash:
            raise RunError(
                f"{root} holds a run with other settings; it is not resumed:\n"
                + "".join(f"  {line}\n" for line in clash)
                + f"choose another --out folder, or add --force-new NAME to start a new run in "
                f"{root.parent / 'NAME'}"
            )
        return old
    try:
        write_json_atomic(path, settings)
    except OSError as e:
        raise RunError(storage.folder_message(root, e)) from None
    return settings


def finished(path: Path, only_done: bool = False) -> bool:
    """A task is finished once its result file exists and reads back as JSON (and, with
    `only_done`, says it served every order). One too large to read is kept and counted as
    finished (never run again silently, nor overwritten); a damaged one is set aside as
    .bad-<time> before the task runs again."""
    try:
        data = load_json(path)
    except InputError as e:
        return _unreadable_result(path, e)
    return isinstance(data, dict) and (not only_done or data.get("status") == "done")


def _unreadable_result(path: Path, e: InputError) -> bool:
    """Whether a result file that cannot be read counts as finished (see `finished`)."""
    if not path.is_file():
        return False
    if path.stat().st_size > MAX_FILE_BYTES:
        print(f"{e}; counted as finished, not run again (move it away to rerun the task)", file=sys.stderr)
        return True
    kept = path.with_name(f"{path.name}.bad-{int(time.time())}")
    try:
        os.replace(path, kept)
    except OSError as moved:
        print(f"{e}; cannot set it aside ({moved.strerror}), so the task is not run again", file=sys.stderr)
        return True
    print(f"{e}; kept as {kept.name}, the task runs again", file=sys.stderr)
    return False


def earlier_runs(path: Path) -> list[dict[str, Any]]:
    """What a task's previous result said, kept when --retry-failed runs it again."""
    try:
        old = load_json(path)
    except InputError:
        return []
    if not isinstance(old, dict):
        return []
    past = old.get("earlier_runs") if isinstance(old.get("earlier_runs"), list) else []
    keep = ("status", "done", "time", "error", "calls", "attempts")
    return [*past, {k: old.get(k) for k in keep}]


@dataclass
class Tally:
    total: int = 0
    skipped: int = 0
    ran: int = 0
    succeeded: int = 0
    api_errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        rate = f" ({self.succeeded / self.ran:.0%})" if self.ran else ""
        parts = [f"{self.total} tasks: {self.ran} run now, {self.succeeded} succeeded{rate}"]
        if self.skipped:
            parts.append(f"{self.skipped} already finished (skipped)")
        if self.api_errors:
            parts.append(f"{len(self.api_errors)} not finished (errors above; run again to retry)")
        return ", ".join(parts)


Job = Callable[[Any], Awaitable[bool]]  # runs one task, saves its files, says if it succeeded


async def run_jobs(
    items: Sequence[Any],
    job: Job,
    is_finished: Callable[[Any], bool],
    name: Callable[[Any], str],
    concurrency: int = 4,
    progress: bool = True,
    label: str = "",
) -> Tally:
    """Every unfinished item through `job`, at most `concurrency` at once, with a progress bar."""
    tally = Tally(total=len(items))
    todo = [it for it in items if not is_finished(it)]
    tally.skipped = len(items) - len(todo)
    bar = tqdm(
        total=len(todo), desc=label, unit="task", disable=not progress, file=sys.stderr, dynamic_ncols=True
    )
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(item: Any) -> None:
        async with gate:
            try:
                ok = await job(item)
            except LLMError as e:
                tally.api_errors.append(f"{name(item)}: {e}")
                bar.write(f"{name(item)}: {e}", file=sys.stderr)
            except (OSError, ValueError, TypeError, ArithmeticError, RecursionError, KeyError) as e:
                # one task's failure (an unwritable file, an answer nothing foresaw) is that
                # task's alone: it stays unfinished, to be retried by running again
                why = (
                    storage.disk_message(e, e.filename)
                    if isinstance(e, OSError)
                    else f"{type(e).__name__}: {e}"
                )
                tally.api_errors.append(f"{name(item)}: {why}")
                bar.write(f"{name(item)}: not finished ({why}; run again to retry)", file=sys.stderr)
            else:
                tally.ran += 1
                tally.succeeded += ok
            bar.update(1)
            bar.set_postfix_str(
                f"success {tally.succeeded}/{tally.ran}"
                + (f" ({tally.succeeded / tally.ran:.0%})" if tally.ran else "")
            )

    try:
        await asyncio.gather(*(one(it) for it in todo))
    finally:
        bar.close()
    return tally


@dataclass
class LevelRun:
    """Settings of one `llm` run; `run` does it."""

    client: ChatClient
    method: str
    out: Path
    attempts: int = 3
    max_steps: int = 40
    concurrency: int = 4
    progress: bool = True
    mode: str = "centralized"  # or decentralized: one conversation per agent, with messages
    rounds: int = 20
    knowledge: str = "shared"
    label: str | None = None
    retry_failed: bool = False  # failed and unparsed tasks count as unfinished and run again
    fixed: dict[str, Any] | None = None  # agent -> queue kept as given (llm --fix); the model plans the rest

    def result_path(self, task: LevelTask) -> Path:
        return self.out / RESULTS / f"{file_stem(task.id)}.json"

    def replay_path(self, task: LevelTask) -> Path:
        return self.out / REPLAYS / f"{file_stem(task.id)}.json"

    async def run(self, tasks: Sequence[LevelTask]) -> Tally:
        return await run_jobs(
            tasks,
            self.one,
            lambda t: finished(self.result_path(t), self.retry_failed),
            lambda t: t.id,
            self.concurrency,
            self.progress,
            f"{self.client.model} {self.method}",
        )

    async def one(self, task: LevelTask) -> bool:
        tag = {"task": task.id}
        self.client.log.write({**tag, "event": "start", "method": self.method})
        if self.mode == "decentralized":
            outcome: Outcome = await solve_talking(
                task.level,
                self.client,
                self.attempts,
                self.rounds,
                self.knowledge,
                tag,
                method_of_label(self.method),
            )
        else:
            fixed = Fixed.of(self.fixed, task.level)
            outcome = await solve(
                task.level, self.method, self.client, self.attempts, tag, self.max_steps, fixed
            )
        self.save(task, outcome)
        self.client.log.write(
            {
                **tag,
                "event": "end",
                "status": outcome.status,
                "time": outcome.result.time,
                "attempts": outcome.attempts,
            }
        )
        return outcome.status == "done"

    def save(self, task: LevelTask, outcome: Outcome) -> None:
        """Replay first, result last: a result file means the task is wholly saved."""
        source = {"kind": "llm", "model": self.client.model, "method": self.method, "task": task.id}
        if isinstance(outcome, TalkOutcome):
            source.update(mode=self.mode, knowledge=self.knowledge, messages=talk_fields(outcome)["messages"])
        if outcome.status == "no_plan":
            source["failure"] = no_plan_diagnosis(outcome).to_dict()
        if self.label:
            source["label"] = self.label
        if outcome.fixed is not None:
            source["fixed_agents"] = list(outcome.fixed.queues)
        replay = save_replay(self.replay_path(task), task.level, outcome.plan, outcome.result, source)
        record = self.record(task, outcome, replay)
        if self.retry_failed and self.result_path(task).exists():
            record["earlier_runs"] = earlier_runs(self.result_path(task))
        write_json_atomic(self.result_path(task), record)

    def record(self, task: LevelTask, o: Outcome, replay: Path) -> dict[str, Any]:
        rec = o.result.to_dict()
        if o.status == "no_plan":
            rec["error"] = f"no usable plan in {o.attempts} attempt(s): {first_line(o.note)}"
            rec["diagnosis"] = no_plan_diagnosis(o).to_dict()
        rec.update(
            task=task_info(task.level, task.id),
            plan=plan_to_dict(o.plan),
            model=self.client.model,
            method=self.method,
            status=o.status,
            calls=o.attempts,
            attempts=o.records,
            models_answered=sorted({str(r["model"]) for r in o.records if r.get("model")}),
            truncated=sum(bool(r.get("finish_reason") == "length") for r in o.records),
            tokens_in=o.usage.tokens_in,
            tokens_out=o.usage.tokens_out,
            latency_s=round(o.usage.latency_s, 3),
            level=portable(task.source),
            replay=os.path.relpath(replay, self.out),
        )
        if self.label:
            rec["label"] = self.label
        if o.fixed is not None:  # a partner run: what was fixed, so that its numbers say so
            rec["fixed_agents"] = list(o.fixed.queues)
            rec["fixed"] = o.fixed.to_dict()
            rec["plan"].update(o.fixed.to_dict())  # the fixed queues as given
        if self.method == "msreact":
            rec["steps"] = o.steps
        if isinstance(o, TalkOutcome):
            rec.update(mode=self.mode, knowledge=self.knowledge, **talk_fields(o))
        if o.note:
            rec["last_feedback"] = o.note
        return rec


def no_plan_diagnosis(o: Outcome) -> Diagnosis:
    """Why a task has no plan to show: the last reply's problem, as the viewer's why box says it."""
    problem = (o.note or "the model gave no reply").strip()[:MAX_NOTE_CHARS]
    summary = f"The model's reply never became a plan in {o.attempts} attempt(s): {first_line(o.note)}"
    cause = Cause("no_plan", f"the last attempt's problem, as the model was told: {problem}", 0.0)
    return Diagnosis("no_plan", "a reply that reads as a plan", [cause], summary)


def first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else "no reply"
