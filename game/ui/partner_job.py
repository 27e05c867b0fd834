"""The partner's background worker: one long-lived process that plans the partner's agents around
the person's queues, request after request, so that a re-plan never pays for starting a process.

    worker = PartnerWorker(level, rules, partner)   # starts the process in the background
    worker.submit(fixed)    # plan around these queues (agent -> queue in plan JSON); returns an id
    worker.poll()           # each frame, never blocking: the newest answer, if one came
    worker.cancel()         # the re-plan in flight is dropped (stopped, or its process ended)
    worker.close()

`partner` is any top-level function (level, rules, fixed[, progress=callback]) -> plan JSON,
importable by name in the child process (tests put a fast stand-in in its place). While it runs,
the child checks between progress reports whether the window has sent anything (a newer request,
a cancel) and then stops it; a partner that does not report for STOP_GRACE_S after being asked to
stop (an LLM waiting on its endpoint, a planner working out its bound) is ended with its process,
and a fresh one is started for the next request. Only the newest request's answer is ever given
to the window; the window sends at most one request and one stop at a time, so the pipe never
fills and a send never waits."""

from __future__ import annotations

import inspect
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine import Level, plan_to_dict

from .planner_job import MAX_DRAIN, takes_progress

Fixed = Mapping[str, Sequence[Mapping[str, Any]]]
Partner = Callable[..., Any]  # (level, rules, fixed[, progress=callback]) -> plan JSON
STOP_GRACE_S = 0.4  # a partner asked to stop that has not stopped by then is ended
PLANNER_BUDGET_S = 0.5  # the built-in partner's search after an edit (the solver's time limit)
PLANNER_CAP_S = 0.75  # ... and its answer by then on a machine too busy to finish that search
PATIENT_S = 8.0  # ... when asked to search longer (R), or while the partner has no plan yet
NICE = 2  # the partner process runs a little below the window (the Strong plan's runs at 10)
SAID_FOR_PEOPLE = ("Unsolvable", "PartnerError")  # their messages are written for the person


@dataclass(frozen=True)
class Answer:
    """What the worker said about one request: a plan, or why there is none."""

    request: int
    plan: Any = None  # plan JSON (done)
    error: str = ""  # (failed)
    elapsed: float = 0.0  # seconds from the request to the answer


BOUNDS_KEPT = threading.Event()  # the level's lower bounds are worked out (in this process)


def planner_partner(
    level: Level,
    rules: str,
    fixed: Fixed,
    progress: Any = None,
    patience: float | None = None,
    steady: bool = False,
    hint: Any = None,
) -> Any:
    """The built-in planner as a partner: plans the agents that are not fixed with a short search
    (PLANNER_BUDGET_S of it by the solver's own measure, a number of engine runs; `patience`
    seconds when asked for more). On a busy machine that takes longer: its best plan by
    PLANNER_CAP_S (twice that while it has none) is then its answer; and until the kitchen's lower
    bounds are worked out (`warm_partner`, in the background) it answers at its first plan (the
    search would stop right after it to work them out). `steady` (a study): the budget alone
    decides, never the clock, so the same queues get the same plan on any machine. `hint`, the
    partner's previous plan, is tried first (an edit that does not clash with it is answered at
    once), except in a study, where the plan must depend on the queues alone. Stopped at once
    when the window asks (the answer is then dropped). Returns {"plan", "found", "note"}: `found`
    False when no plan serves (the note says why)."""
    from game.planners.solver import solve

    start = time.monotonic()
    budget = patience or PLANNER_BUDGET_S
    cap = max(PLANNER_CAP_S, 1.5 * budget)
    seen: dict[str, Any] = {"best": None, "cut": False}

    def report(p: Any) -> bool | None:
        if progress is not None and progress(p) is False:
            return False
        if steady:
            return None
        seen["best"] = p.best_oct if p.best_oct is not None else seen["best"]
        late = time.monotonic() - start > (cap if seen["best"] is not None else 2 * cap)
        seen["cut"] = late or (seen["best"] is not None and not BOUNDS_KEPT.is_set())
        return False if seen["cut"] else None

    hint = None if steady else hint
    out = solve(level, rules=rules, time_limit=budget, progress=report, fixed=dict(fixed), hint=hint)
    plan = out.plan if isinstance(out.plan, dict) else plan_to_dict(out.plan)
    found = bool(out.done)
    note = "" if found else (out.note or "no plan found")
    if not found and seen["cut"]:  # (cut short: why none was found is not worked out)
        note = f"none found in {time.monotonic() - start:.1f} s; R searches longer"
    return {"plan": plan, "found": found, "note": note}


def warm_partner(partner: Partner, level: Level, rules: str) -> None:
    """What the built-in partner's answers would wait for, worked out in a background thread of
    its process: the kitchen's lower bounds (kept by the solver; seconds on a new kitchen). Not
    for a steady partner: the same work at once in two threads would only slow its first answer."""
    if partner is not planner_partner:
        return
    threading.Thread(target=_work_out_bounds, args=(level, rules), daemon=True).start()


def _work_out_bounds(level: Level, rules: str) -> None:
    try:
        from game.planners.solver import lower_bound

        lower_bound(level, rules, None)
        for count in range(1, len(level.orders)):  # why no plan was found is said from these
            lower_bound(level.with_orders(level.orders[:count]), rules, False)
    except Exception:  # a bound that cannot be worked out: the search goes without it
        pass
    BOUNDS_KEPT.set()


def llm_partner(
    level: Level, rules: str, fixed: Fixed, settings: Mapping[str, Any], progress: Any = None
) -> Any:
    """An LLM as a partner: the chosen method through the endpoint, told which agents are fixed."""
    from game.planners.llm.partner import plan_around

    return plan_around(level, rules, dict(fixed), settings, progress=progress)


def _plan_of(answer: Any) -> Any:
    """The plan in a partner's answer (a plan, or {"plan", "found", ...}), if it served."""
    if isinstance(answer, dict) and "plan" in answer:
        return answer["plan"] if answer.get("found") else None
    return answer if isinstance(answer, dict) else None


def _parameters(fn: Any) -> Any:
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


def failure_text(e: BaseException) -> str:
    """A partner's failure for the person: the message alone when it is written for them (an
    impossible order, an LLM partner without a plan), else with the kind of error."""
    if type(e).__name__ in SAID_FOR_PEOPLE and str(e):
        return str(e)
    return f"{type(e).__name__}: {e}"


class _Stopper:
    """The child's progress callback: False (stop) as soon as the window has sent anything."""

    def __init__(self, conn: Any):
        self.conn = conn

    def __call__(self, _report: Any) -> bool | None:
        try:
            return False if self.conn.poll() else None
        except (OSError, ValueError):
            return False


def _child(conn: Any, partner: Partner, level: Level, rules: str) -> None:
    if hasattr(os, "nice"):
        try:  # the window comes first; a person waits for this too
            os.nice(NICE)
        except OSError:
            pass
    warm_partner(partner, level, rules)
    stopper = _Stopper(conn)
    progress = takes_progress(partner)
    takes_patience = "patience" in _parameters(partner)
    takes_hint = "hint" in _parameters(partner)
    last: Any = None  # the partner's previous plan, its hint for the next request
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the window has gone
        if not (isinstance(message, tuple) and len(message) == 4 and message[0] == "plan"):
            continue  # a stop for a request already answered
        _, request, fixed, patience = message
        more: dict[str, Any] = {"progress": stopper} if progress else {}
        if patience is not None and takes_patience:
            more["patience"] = patience
        if last is not None and takes_hint:
            more["hint"] = last
        try:
            plan = partner(level, rules, fixed, **more)
            answer: tuple = ("done", request, plan)
            last = _plan_of(plan) or last
        except BaseException as e:  # the window must hear of every failure
            answer = ("failed", request, failure_text(e))
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class _Process:
    """One worker process and its end of the pipe; the process is started off the window's thread
    (starting a spawned process takes tens of milliseconds)."""

    def __init__(self, partner: Partner, level: Level, rules: str):
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_child, args=(child, partner, level, rules), daemon=True)
        self.error = ""
        self.starter = threading.Thread(target=self._start, args=(child,), daemon=True)
        self.starter.start()

    def _start(self, child: Any) -> None:
        try:
            self.process.start()
        except (OSError, ValueError) as e:
            self.error = f"the partner's process could not start: {e}"
        finally:
            child.close()

    @property
    def started(self) -> bool:
        return not self.starter.is_alive()

    def end(self) -> None:
        """Stop the process without waiting for it (multiprocessing reaps it later)."""
        self.starter.join()
        if not self.error:  # a process that never started has nothing to stop
            if self.process.is_alive():
                self.process.terminate()
            self.process.join(timeout=0)
        self.conn.close()
        multiprocessing.active_children()


class PartnerWorker:
    def __init__(self, level: Level, rules: str, partner: Partner):
        self.level, self.rules, self.partner = level, rules, partner
        self._proc: _Process | None = _Process(partner, level, rules)
        self._next_id = 0
        self.in_flight: int | None = None  # the request the child is working on
        self.sent_at = 0.0
        self.stop_asked_at: float | None = None
        self.wanted: tuple[int, dict, float | None] | None = None  # the newest request, not yet sent
        self.asked_at: dict[int, float] = {}
        self.closed = False

    @property
    def busy(self) -> bool:
        """A request is being worked on or waits to be sent."""
        return self.wanted is not None or self.in_flight is not None

    @property
    def latest(self) -> int:
        return self._next_id

    def submit(self, fixed: Fixed, patience: float | None = None) -> int:
        """Plan around `fixed` (searching up to `patience` seconds for a plan, when the partner
        takes it); any earlier request is dropped. Returns this request's id."""
        self._next_id += 1
        plain = {a: [dict(x) for x in q] for a, q in fixed.items()}
        self.wanted = (self._next_id, plain, patience)
        self.asked_at[self._next_id] = time.monotonic()
        self._ask_stop()
        self._send()
        return self._next_id

    def cancel(self) -> None:
        """Drop every request: the one in flight is stopped, the waiting one forgotten."""
        self.wanted = None
        self._next_id += 1  # nothing asked so far is the newest any more
        self._ask_stop()

    def _ask_stop(self) -> None:
        if self.in_flight is None or self.stop_asked_at is not None or self._proc is None:
            return
        self.stop_asked_at = time.monotonic()
        try:
            self._proc.conn.send(("stop", self.in_flight, None, None))
        except (OSError, ValueError):
            self._restart()

    def _send(self) -> None:
        """The waiting request goes to the child once it is free (and started)."""
        if self.wanted is None or self.in_flight is not None or self.closed:
            return
        if self._proc is None:
            self._proc = _Process(self.partner, self.level, self.rules)
        if not self._proc.started:
            return
        request, fixed, patience = self.wanted
        try:
            self._proc.conn.send(("plan", request, fixed, patience))
        except (OSError, ValueError):
            self._restart()
            return
        self.wanted, self.in_flight, self.sent_at, self.stop_asked_at = None, request, time.monotonic(), None

    def _restart(self) -> None:
        """End the process (a stuck or dead partner); the next request starts a fresh one."""
        if self._proc is not None:
            self._proc.end()
        self._proc = None
        self.in_flight, self.stop_asked_at = None, None
        if self.wanted is not None:
            self._proc = _Process(self.partner, self.level, self.rules)

    def poll(self) -> Answer | None:
        """Read what the child said (never blocking); the newest request's answer, if it came."""
        if self.closed or self._proc is None:
            return None
        proc = self._proc
        if not proc.started:
            return None
        if proc.error:
            return self._fail(proc.error)
        answer = None
        alive = proc.process.is_alive()  # before reading: a child that answered and left is heard
        for _ in range(MAX_DRAIN):
            try:
                if not proc.conn.poll():
                    break
                message = proc.conn.recv()
            except (EOFError, OSError):
                alive = False
                break
            except Exception as e:  # a message that cannot be unpickled here
                answer = self._finish(self.in_flight, error=f"the partner sent an unreadable answer ({e})")
                continue
            if isinstance(message, tuple) and len(message) == 3 and message[0] in ("done", "failed"):
                status, request, payload = message
                if status == "done":
                    answer = self._finish(request, plan=payload) or answer
                else:
                    answer = self._finish(request, error=str(payload)) or answer
        if self.in_flight is not None and not alive:
            code = proc.process.exitcode
            return self._fail(f"the partner's process stopped (exit code {code})")
        if self.stop_asked_at is not None and time.monotonic() - self.stop_asked_at > STOP_GRACE_S:
            self._restart()  # the partner did not stop when asked: its process goes
        self._send()
        return answer

    def _finish(self, request: Any, plan: Any = None, error: str = "") -> Answer | None:
        """The child is free again; its answer counts only for the newest request."""
        if request == self.in_flight:
            self.in_flight, self.stop_asked_at = None, None
        if request != self._next_id or self.wanted is not None:
            return None
        asked = self.asked_at.pop(request, math.nan)
        self.asked_at = {}
        return Answer(request, plan, error, time.monotonic() - asked)

    def _fail(self, error: str) -> Answer | None:
        """The process failed (did not start, or died): the newest request is answered with why."""
        request = self.in_flight if self.in_flight is not None else (self.wanted or (None,))[0]
        self.wanted = None  # not retried on its own: the next change asks again
        self._restart()
        if request is None or request != self._next_id:
            return None
        return Answer(request, error=error, elapsed=time.monotonic() - self.asked_at.pop(request, math.nan))

    def close(self) -> None:
        self.closed = True
        self.wanted = None
        if self._proc is not None:
            self._proc.end()
            self._proc = None
