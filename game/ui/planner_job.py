"""The built-in planner run in a background process, so the window keeps drawing and answering.

    job = PlannerJob(level, rules)      # starts at once (a spawned process: safe on every OS)
    job.poll() -> JobState              # each frame: running (with elapsed), done (the plan), failed
    job.cancel()

The planner is any top-level function (level, rules) -> plan JSON, so tests and other planners can
take its place; it must be importable by name in the child process."""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.engine import Level, plan_to_dict

Planner = Callable[[Level, str], Any]
TIME_LIMIT = 10.0  # the planner's default limit: the progress bar's full length


def solver_available() -> bool:
    """True when the built-in planner is installed (a bare namespace folder does not count)."""
    try:
        spec = importlib.util.find_spec("game.planners.solver")
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin is not None


def solver_plan(level: Level, rules: str) -> Any:
    from game.planners.solver import solve

    out = solve(level, rules=rules, time_limit=TIME_LIMIT)
    plan = getattr(out, "plan", out)
    return plan if isinstance(plan, dict) else plan_to_dict(plan)


def _child(conn: Any, planner: Planner, level: Level, rules: str) -> None:
    if hasattr(os, "nice"):
        try:
            os.nice(10)  # the window that waits for it comes first
        except OSError:
            pass
    try:
        conn.send(("done", planner(level, rules)))
    except BaseException as e:  # the parent must hear of every failure, whatever it is
        conn.send(("failed", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


@dataclass
class JobState:
    status: str  # running, done, failed, cancelled
    elapsed: float
    plan: Any = None
    error: str = ""

    @property
    def fraction(self) -> float:
        """How far along the planner's time budget (it often finishes well before)."""
        return min(1.0, self.elapsed / TIME_LIMIT)


class PlannerJob:
    def __init__(self, level: Level, rules: str, planner: Planner = solver_plan):
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_child, args=(child, planner, level, rules), daemon=True)
        self.started = time.monotonic()
        self.state = JobState("running", 0.0)
        # starting a spawned process takes tens of ms: not on the window's frame
        self._starter = threading.Thread(target=self._start, args=(child,), daemon=True)
        self._starter.start()

    def _start(self, child: Any) -> None:
        try:
            self.process.start()
        except (OSError, ValueError) as e:
            self.start_error = f"the planner process could not start: {e}"
        finally:
            child.close()

    start_error = ""

    def wait_started(self, timeout: float | None = None) -> bool:
        """Block until the process has been started (for scripts and tests; the window polls)."""
        self._starter.join(timeout)
        return not self._starter.is_alive()

    def poll(self) -> JobState:
        if self.state.status != "running":
            return self.state
        elapsed = time.monotonic() - self.started
        if self._starter.is_alive():
            self.state = JobState("running", elapsed)
            return self.state
        if self.start_error:
            self.state = JobState("failed", elapsed, error=self.start_error)
            self._conn.close()
            return self.state
        alive = self.process.is_alive()  # before the poll: a child that answered and left is heard
        if self._conn.poll():
            try:
                status, payload = self._conn.recv()
            except (EOFError, OSError) as e:
                status, payload = "failed", f"the planner process ended without an answer ({e})"
            self.state = (
                JobState("done", elapsed, plan=payload)
                if status == "done"
                else JobState("failed", elapsed, error=str(payload))
            )
            self._reap()
        elif not alive:
            code = self.process.exitcode
            self.state = JobState("failed", elapsed, error=f"the planner process stopped (exit code {code})")
            self._reap()
        else:
            self.state = JobState("running", elapsed)
        return self.state

    def cancel(self) -> None:
        self._starter.join()
        if self.process.is_alive():
            self.process.terminate()
        self.state = JobState("cancelled", time.monotonic() - self.started)
        self._reap()

    def _reap(self) -> None:
        # no waiting on the frame: a child that answered is on its way out, a terminated one exits
        # at once; multiprocessing reaps it later (active_children)
        self.process.join(timeout=0)
        self._conn.close()
        multiprocessing.active_children()
