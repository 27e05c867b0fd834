"""Every model call of a task on record: the reply, whether it parsed, what went wrong, and what
it cost. One entry per call, in call order; a result keeps them as `attempts: [...]`.

An error is {"stage", "kind", "detail"} (plus the engine's "diagnosis" when the engine ran the
plan): stage `reply` (truncated), `parse` (no JSON plan in the reply), `plan` (a plan of the
wrong shape), `engine` (the engine stopped it; kind is the engine's error kind), `unfinished`
(it ran to the end without serving every order), `refused` (numbers the engine cannot run)."""

from __future__ import annotations

import hashlib
from typing import Any

from game.engine import PlanError, Result

from .client import Reply
from .parsing import ReplyParseError

REPLY_KEEP = 100_000  # longer replies stay in the log only; the record keeps their length and hash
TRUNCATED = "length"  # the finish_reason of a reply cut at max_tokens


def reply_digest(text: str) -> str:
    """The reply's SHA-256 (lone surrogates, which some endpoints send, kept as they are)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def truncated(reply: Reply) -> bool:
    return reply.finish_reason == TRUNCATED


def error(stage: str, kind: str, detail: str, diagnosis: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"stage": stage, "kind": kind, "detail": detail[:2000]}
    if stage == "engine":
        out["diagnosis"] = diagnosis
    return out


def reading_error(e: Exception, reply: Reply) -> dict[str, Any]:
    """The error of a reply that gave no plan: cut off, unreadable, or of the wrong shape."""
    if truncated(reply):
        return error("reply", "truncated", f"cut off at the length limit ({e})")
    if isinstance(e, ReplyParseError):
        return error("parse", "unreadable", str(e))
    if isinstance(e, PlanError):
        return error("plan", "invalid", "; ".join(e.problems))
    return error("parse", type(e).__name__, str(e))


def result_error(result: Result) -> dict[str, Any] | None:
    """The engine's error for a run (kind, detail and its structured diagnosis), `unfinished`
    for a run that stopped with orders left, None for a success."""
    if result.done:
        return None
    d = result.error_detail
    if d is not None:
        return error("engine", d.kind, d.message(), result.to_dict().get("diagnosis"))
    if result.error is not None:
        return error("engine", "error", str(result.error), result.to_dict().get("diagnosis"))
    return error("unfinished", "unfinished", "orders left: " + ", ".join(result.remaining_orders))


def record(
    reply: Reply,
    tag: dict[str, Any],
    parsed: bool,
    err: dict[str, Any] | None,
    ignored: list[str] | None = None,
) -> dict[str, Any]:
    """One call's entry. `tag` says where it belongs (attempt, step, agent, round); `ignored`
    names the fixed agents whose queue the reply wrote (and that were ignored)."""
    text = reply.text
    kept = text if len(text) <= REPLY_KEEP else None
    return {
        **{k: v for k, v in tag.items() if k != "task"},
        "reply": kept,
        **({"reply_in_log": True} if kept is None else {}),
        "reply_chars": len(text),
        "reply_sha256": reply_digest(text),
        "parsed": parsed,
        "error": err,
        "finish_reason": reply.finish_reason,
        "tokens": {"prompt": reply.tokens_in, "completion": reply.tokens_out},
        "latency_s": round(reply.latency_s, 3),
        "model": reply.model,
        **({"ignored_fixed": list(ignored)} if ignored else {}),
    }
