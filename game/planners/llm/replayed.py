"""Offline re-runs: a recorded run's replies fed back in place of an endpoint.

Every method is deterministic given its replies, so the same tasks with the same replies give the
same outcomes: a reviewer reproduces a table without an API key, and a changed engine or scorer
is tested on real replies. Replies come from each result's `attempts` (in call order, per agent
for decentralized runs), the longest from the run's logs by their hash."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.inputs import InputError, load_json

from .attempts import reply_digest
from .client import ChatClient, LLMError, Messages, Reply, response_record
from .log import read_log

Key = tuple[str, str | None]  # (task id, agent for decentralized runs)


class ReplayError(ValueError):
    """A recorded run that cannot be replayed (no results, replies missing from results and log)."""


def logged_texts(run: Path) -> dict[str, str]:
    """Reply text by its hash, from every log of the run (shards included)."""
    texts: dict[str, str] = {}
    for f in sorted(run.glob("log*.jsonl")):
        for event in read_log(f):
            response = event.get("response") if event.get("event") == "call" else None
            text = response.get("text") if isinstance(response, dict) else None
            if isinstance(text, str):
                texts[reply_digest(text)] = text
    return texts


def _number(v: Any, kind: type = float) -> Any:
    ok = isinstance(v, int | float) and not isinstance(v, bool) and v == v and 0 <= v < 1e12
    return kind(v) if ok else kind(0)


def reply_of(entry: dict[str, Any], log: dict[str, str], where: str) -> Reply:
    """The Reply a recorded attempt stands for, its text checked against its hash."""
    text = entry.get("reply")
    digest = entry.get("reply_sha256")
    if not isinstance(text, str):
        text = log.get(str(digest))
        if text is None:
            raise ReplayError(f"{where}: the reply is neither in the result nor in the run's log")
    elif digest is not None and reply_digest(text) != digest:
        raise ReplayError(f"{where}: the reply does not match its recorded hash (the file was edited)")
    tokens = entry.get("tokens") if isinstance(entry.get("tokens"), dict) else {}
    finish = entry.get("finish_reason")
    model = entry.get("model")
    return Reply(
        text,
        _number(tokens.get("prompt"), int),
        _number(tokens.get("completion"), int),
        _number(entry.get("latency_s")),
        finish if isinstance(finish, str) else None,
        model if isinstance(model, str) else None,
    )


def recorded_replies(run: Path) -> dict[Key, deque[Reply]]:
    """Every recorded reply of the run's results, queued per task (and agent) in call order."""
    results = sorted((run / "results").glob("*.json"))
    if not results:
        raise ReplayError(f"{run}: no results/ to replay (is it an `llm` run folder?)")
    log = logged_texts(run)
    queues: dict[Key, deque[Reply]] = {}
    for f in results:
        try:
            data = load_json(f)
        except InputError as e:
            raise ReplayError(str(e)) from None
        task = data.get("task") if isinstance(data, dict) else None
        entries = data.get("attempts") if isinstance(data, dict) else None
        if not isinstance(task, dict) or not isinstance(entries, list):
            raise ReplayError(f"{f}: no 'task' and 'attempts' list (made by an older version?)")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise ReplayError(f"{f}: attempts[{i}] is not an object")
            agent = entry.get("agent") if isinstance(entry.get("agent"), str) else None
            reply = reply_of(entry, log, f"{f}: attempts[{i}]")
            queues.setdefault((str(task.get("id")), agent), deque()).append(reply)
    return queues


@dataclass
class ReplayClient(ChatClient):
    """A ChatClient that answers from a recorded run and never opens a connection."""

    replies: dict[Key, deque[Reply]] = field(default_factory=dict)

    def tasks(self) -> set[str]:
        return {task for task, _ in self.replies}

    async def complete(self, messages: Messages, tag: dict[str, Any] | None = None) -> Reply:
        tag = tag or {}
        key = (str(tag.get("task")), tag.get("agent"))
        queue = self.replies.get(key)
        if not queue:
            who = f" ({key[1]})" if key[1] else ""
            raise LLMError(
                f"the recorded run has no further reply for {key[0]}{who}: this run asked more than "
                "the recorded one (the engine, the prompts or the settings differ)"
            )
        reply = queue.popleft()
        self.log.write(
            {
                **tag,
                "event": "call",
                "replayed": True,
                "request": self.request(messages),
                "response": response_record(reply),
            }
        )
        return reply
