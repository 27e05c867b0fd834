"""An LLM as a planning partner: some agents' queues are fixed (a person's), the model plans the
others through any OpenAI-compatible endpoint, with the method and the feedback of `llm`.

    plan = plan_around(level, None, {"agent1": queue}, {"model": "m", "endpoint": url})

`settings` is a plain mapping (picklable, so a spawned background process can take it), with the
names `llm`'s run.json uses:

    model        the model name as the endpoint knows it (required)
    endpoint     base URL of an OpenAI-compatible endpoint (default: OpenAI's)
    method       io | cot | plag | msreact (default io)
    api_key_env  environment variable holding the key (default OPENAI_API_KEY; a local
                 endpoint needs none)
    attempts     replies per re-plan, with feedback between them (default 3)
    max_steps    msreact: most steps (default 40)
    temperature, max_tokens, timeout_s (default 120), retries (default 2), backoff_s (default 1)
    log          a file to append every request and reply to (default: none)

`progress`, when given, hears of each call before it is made and of the end (a PartnerProgress);
answering False stops the partner before its next call (PartnerStopped).

The fixed queues come back byte-identical (under `json.dumps(..., sort_keys=True)`), whatever the
model answers: its queues for fixed agents are ignored and it is told so. An endpoint that fails,
or replies that never become a plan, raise `PartnerError` with a message for the person; their
queues are never touched (they are the caller's, and are copied)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine import RULESETS, Level, plan_to_dict
from game.inputs import InputError, short_repr

from . import METHODS
from .client import ChatClient, LLMError, Reply, RetryPolicy
from .constraint import Fixed
from .log import RunLog
from .methods import Outcome, solve

DEFAULTS: dict[str, Any] = {
    "endpoint": None,
    "method": "io",
    "api_key_env": "OPENAI_API_KEY",
    "attempts": 3,
    "max_steps": 40,
    "temperature": None,
    "max_tokens": None,
    "timeout_s": 120.0,
    "retries": 2,
    "backoff_s": 1.0,
    "log": None,
}


class PartnerError(ValueError):
    """The partner has no plan to offer: the message says why, for the person."""


class PartnerStopped(PartnerError):
    """`progress` answered False (the caller wants no more): no further call was made."""


@dataclass(frozen=True)
class PartnerProgress:
    """One report of a running LLM partner: which call of how many, and what happened."""

    call: int
    calls: int
    message: str
    best_oct: float | None = None
    done: bool = False

    @property
    def fraction(self) -> float:
        return 1.0 if self.done else min(1.0, (self.call - 1) / max(1, self.calls))

    def describe(self) -> str:
        return self.message


Progress = Callable[[PartnerProgress], "bool | None"]  # False: stop before the next call


@dataclass
class PartnerPlan:
    """A re-plan's outcome: the whole plan (fixed queues as given), how it ran, and the model's
    calls. `status` is done (every order served), failed (it ran, orders left or an error) or
    no_plan (no reply became a plan: `plan` is the fixed queues alone)."""

    plan: dict[str, list[dict[str, Any]]]
    status: str
    time: float
    done: bool
    error: str | None
    note: str | None  # the last problem the model was told of
    calls: int
    ignored: list[str] = field(default_factory=list)  # fixed agents whose queue a reply wrote

    def to_dict(self) -> dict[str, Any]:
        return {
            "plan": self.plan,
            "status": self.status,
            "time": self.time,
            "done": self.done,
            "error": self.error,
            "note": self.note,
            "calls": self.calls,
            "ignored_fixed": self.ignored,
        }


def read_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings with defaults filled in; PartnerError naming a field that cannot be used."""
    if not isinstance(settings, Mapping):
        raise PartnerError(f"the LLM partner's settings must be a mapping, not {short_repr(settings)}")
    unknown = sorted(str(k) for k in settings if k not in DEFAULTS and k != "model")
    if unknown:
        raise PartnerError(f"LLM partner settings: unknown field(s) {', '.join(unknown)}")
    out = {**DEFAULTS, **settings}
    if not isinstance(out.get("model"), str) or not out["model"].strip():
        raise PartnerError("LLM partner settings: field 'model' must name the model")
    if out["method"] not in METHODS:
        raise PartnerError(
            f"LLM partner settings: field 'method' must be one of {', '.join(METHODS)}, "
            f"not {short_repr(out['method'])}"
        )
    for key, low, high in (("attempts", 1, 100), ("max_steps", 1, 10_000), ("retries", 0, 100)):
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise PartnerError(f"LLM partner settings: field {key!r} must be a whole number {low}..{high}")
    for key in ("timeout_s", "backoff_s"):
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 86_400:
            raise PartnerError(f"LLM partner settings: field {key!r} must be seconds from 0 to 86400")
    t, m = out["temperature"], out["max_tokens"]
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= 2):
        raise PartnerError("LLM partner settings: field 'temperature' must be a number from 0 to 2, or None")
    if m is not None and (isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= 10_000_000):
        raise PartnerError(
            "LLM partner settings: field 'max_tokens' must be a whole number 1..10000000, or None"
        )
    for key in ("endpoint", "log"):
        if out[key] is not None and not isinstance(out[key], str | Path):
            raise PartnerError(f"LLM partner settings: field {key!r} must be text, or None")
    if not isinstance(out["api_key_env"], str) or not out["api_key_env"]:
        raise PartnerError("LLM partner settings: field 'api_key_env' must name an environment variable")
    return out


def make_client(s: dict[str, Any]) -> ChatClient:
    return ChatClient(
        s["model"].strip(),
        s["endpoint"] or None,
        s["api_key_env"],
        s["temperature"],
        s["max_tokens"],
        float(s["timeout_s"]) or 120.0,
        RetryPolicy(s["retries"], float(s["backoff_s"])),
        RunLog(Path(s["log"]) if s["log"] else None),
    )


class _Reporting:
    """The client, telling `progress` of each call before it is made (the methods use only
    `complete` and `max_tokens`)."""

    def __init__(self, client: ChatClient, progress: Progress | None, calls: int):
        self.client, self.progress, self.calls, self.made = client, progress, calls, 0
        self.max_tokens = client.max_tokens

    async def complete(self, messages: Any, tag: dict[str, Any]) -> Reply:
        if self.progress is not None:
            said = f"asking {self.client.model} (call {self.made + 1})"
            if self.progress(PartnerProgress(self.made + 1, max(self.calls, self.made + 1), said)) is False:
                raise PartnerStopped(f"the LLM partner was stopped after {self.made} call(s)")
        self.made += 1
        return await self.client.complete(messages, tag)


def partner_plan(
    level: Level,
    rules: str | None,
    fixed: Mapping[str, Sequence[Mapping[str, Any]]],
    settings: Mapping[str, Any],
    progress: Progress | None = None,
) -> PartnerPlan:
    """Plan the agents not in `fixed` with the model (see the module's note for `settings`).
    Raises ValueError (InputError) for fixed queues that cannot run, naming agent and action
    index; PartnerError when the endpoint fails or the settings cannot be used."""
    s = read_settings(settings)
    if rules is not None:
        if rules not in RULESETS:
            raise PartnerError(
                f"no rule set called {short_repr(rules)} (rule sets: {', '.join(sorted(RULESETS))})"
            )
        level = level.with_rules(rules)
    constraint = Fixed.of(fixed, level)
    if constraint is not None and not constraint.free(level):
        return _all_fixed(level, constraint)
    calls = s["attempts"] if s["method"] != "msreact" else s["max_steps"]
    try:
        client = _Reporting(make_client(s), progress, calls)
        outcome = _run(
            solve(level, s["method"], client, s["attempts"], {"task": "partner"}, s["max_steps"], constraint)
        )  # type: ignore[arg-type]
    except LLMError as e:
        raise PartnerError(f"the LLM partner ({s['model']}) could not be reached: {e}") from None
    except OSError as e:  # the log file could not be written
        raise PartnerError(f"the LLM partner's log cannot be written: {e.strerror or e}") from None
    out = _outcome(outcome)
    if progress is not None:
        what = f"{s['model']}: " + (f"OCT {out.time:g}" if out.done else out.status.replace("_", " "))
        progress(PartnerProgress(client.made, client.made, what, out.time if out.done else None, True))
    return out


def _run(job: Coroutine[Any, Any, Outcome]) -> Outcome:
    """The job to its end: here, or, when this thread already runs an event loop (a caller of
    its own asyncio), in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(job)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, job).result()


def _outcome(o: Outcome) -> PartnerPlan:
    ignored = sorted({a for r in o.records for a in r.get("ignored_fixed", ())})
    plan = plan_to_dict(o.plan)
    if o.fixed is not None:  # as given, not as the engine writes them back
        plan.update(o.fixed.to_dict())
    return PartnerPlan(
        plan, o.status, o.result.time, o.result.done, o.result.error, o.note, o.attempts, ignored
    )


def _all_fixed(level: Level, fixed: Fixed) -> PartnerPlan:
    """Nothing left to plan: the fixed plan, run."""
    from .methods import run_plan

    result = run_plan(level, fixed.empty_plan(level))
    status = "done" if result.done else "failed"
    return PartnerPlan(fixed.to_dict(), status, result.time, result.done, result.error, None, 0)


def plan_around(
    level: Level,
    rules: str | None,
    fixed: Mapping[str, Sequence[Mapping[str, Any]]],
    settings: Mapping[str, Any],
    progress: Progress | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The whole plan: the fixed queues as given, the model's for the other agents. A plan that
    runs but fails or leaves orders is returned (the caller runs it and shows why); PartnerError
    when no reply became a plan, saying why."""
    try:
        out = partner_plan(level, rules, fixed, settings, progress)
    except InputError as e:
        raise PartnerError(f"the fixed queues cannot run: {e}") from None
    if out.status == "no_plan":
        first = (out.note or "no reply").strip().splitlines()[0]
        raise PartnerError(f"the LLM partner gave no usable plan in {out.calls} call(s): {first}")
    return out.plan
