"""The built-in planner run in a background process, so the window keeps drawing and answering.

    job = PlannerJob(level, rules)      # starts at once (a spawned process: safe on every OS)
    job.poll() -> JobState              # each frame: running (elapsed, the search's progress), done
    job.cancel()                        # (the plan), failed

The planner is any top-level function (level, rules) -> plan JSON, so tests and other planners can
take its place; it must be importable by name in the child process. A planner with a `progress`
parameter is given a callback: it calls it with its reports (a mapping or an object with fields
best_oct, bound, fraction, evaluations, budget), which reach the window a few times a second as
("progress", {...}) messages before the final ("done", plan). The window trusts none of their
numbers: a value that is not a finite, sensible number is ignored."""

from __future__ import annotations

import importlib.util
import inspect
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from game.engine import Level, plan_to_dict

Planner = Callable[..., Any]  # (level, rules[, progress=callback]) -> plan JSON
Report = Callable[[Any], bool | None]  # the callback: False asks the planner to stop
TIME_LIMIT = 10.0  # the planner's default limit: the progress bar's length when it tells nothing
REPORT_EVERY_S = 0.25  # the child sends at most four progress reports a second
FIELDS = ("best_oct", "bound", "fraction", "evaluations", "budget")
# an OCT or bound outside these is no kitchen's (a run stops at t = 1,000,000): ignored
SMALLEST, LARGEST = 1e-3, 1e6
MAX_DRAIN = 256  # messages read in one poll at most, so a frame never waits on a flood


def solver_available() -> bool:
    """True when the built-in planner is installed (a bare namespace folder does not count)."""
    try:
        spec = importlib.util.find_spec("game.planners.solver")
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin is not None


def warm_bound(level: Level, rules: str | None) -> threading.Thread | None:
    """Start working out the level's lower bound in a background thread, so that a card or
    viewer shown later has it at once (`known_bound`); None when the planner is not installed."""
    try:
        from game.planners.solver.bound import warm_known_bound
    except ImportError:
        return None
    return warm_known_bound(level, rules)


def solver_plan(level: Level, rules: str, progress: Report | None = None) -> Any:
    from game.planners.solver import solve

    out = solve(level, rules=rules, time_limit=TIME_LIMIT, progress=progress)
    plan = getattr(out, "plan", out)
    return plan if isinstance(plan, dict) else plan_to_dict(plan)


def takes_progress(planner: Planner) -> bool:
    """True when the planner has a `progress` parameter to pass the callback by name."""
    try:
        params = inspect.signature(planner).parameters
    except (TypeError, ValueError):
        return False
    p = params.get("progress")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


def report_fields(report: Any) -> dict[str, Any]:
    """The plain numbers of one report (a mapping or an object such as the solver's Progress)."""
    out: dict[str, Any] = {}
    for key in FIELDS:
        try:
            value = report.get(key) if isinstance(report, Mapping) else getattr(report, key, None)
        except Exception:  # a planner's own report object may fail in any way: that field is left out
            continue
        if value is None or isinstance(value, (bool, int, float)):
            out[key] = value
    return out


class Reporter:
    """The child's end of the progress reports: forwards at most one every `every` seconds and
    keeps the latest held back for `flush`, so the pipe is never flooded and the last word before
    the plan is the planner's last report."""

    def __init__(self, conn: Any, every: float = REPORT_EVERY_S):
        self.conn, self.every = conn, every
        self.last = -math.inf
        self.held: dict[str, Any] | None = None
        self.gone = False

    def __call__(self, report: Any) -> bool | None:
        if self.gone:
            return False
        self.held = report_fields(report)
        if time.monotonic() - self.last >= self.every:
            self.flush()
        return False if self.gone else None  # False stops a planner whose window has gone

    def flush(self) -> None:
        if self.held is None or self.gone:
            return
        try:
            self.conn.send(("progress", self.held))
        except (OSError, ValueError):
            self.gone = True
        self.held, self.last = None, time.monotonic()


def _child(conn: Any, planner: Planner, level: Level, rules: str) -> None:
    if hasattr(os, "nice"):
        try:
            os.nice(10)  # the window that waits for it comes first
        except OSError:
            pass
    try:
        if takes_progress(planner):
            reporter = Reporter(conn)
            plan = planner(level, rules, progress=reporter)
            reporter.flush()
        else:
            plan = planner(level, rules)
        conn.send(("done", plan))
    except BaseException as e:  # the parent must hear of every failure, whatever it is
        try:
            conn.send(("failed", f"{type(e).__name__}: {e}"))
        except (OSError, ValueError):
            pass  # the window has gone: nobody to tell
    finally:
        conn.close()


def _number(value: Any, positive: bool = True) -> float | None:
    """A finite float from a report's field, or None for anything else (bool, text, NaN, 1e400)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        x = float(value)
    except OverflowError:
        return None
    if not math.isfinite(x) or (positive and not SMALLEST <= x <= LARGEST):
        return None
    return x


@dataclass(frozen=True)
class SearchProgress:
    """The latest the planner told of its search: best OCT so far, lower bound, how far along."""

    best_oct: float | None = None
    bound: float | None = None
    fraction: float | None = None
    reports: int = 0

    @property
    def gap(self) -> float | None:
        """How far the best OCT is above the bound (0.5 = 50%); None until both are known."""
        if self.best_oct is None or self.bound is None or self.best_oct < self.bound:
            return None
        return self.best_oct / self.bound - 1

    def merged(self, payload: Any) -> SearchProgress:
        """This progress updated by one message's payload; a field that is missing or not a
        sensible number keeps its last good value."""
        data = payload if isinstance(payload, dict) else {}
        fraction = _number(data.get("fraction"), positive=False)
        if fraction is None:
            done, budget = _number(data.get("evaluations"), False), _number(data.get("budget"))
            fraction = None if done is None or budget is None else done / budget
        return SearchProgress(
            _number(data.get("best_oct")) or self.best_oct,
            _number(data.get("bound")) or self.bound,
            self.fraction if fraction is None else min(1.0, max(0.0, fraction)),
            self.reports + 1,
        )


@dataclass
class JobState:
    status: str  # running, done, failed, cancelled
    elapsed: float
    plan: Any = None
    error: str = ""
    progress: SearchProgress = SearchProgress()

    @property
    def fraction(self) -> float:
        """How far along the search is, by the planner's own reports when it gives them, by its
        time budget otherwise (it often finishes well before)."""
        if self.progress.fraction is not None:
            return self.progress.fraction
        return min(1.0, self.elapsed / TIME_LIMIT)

    @property
    def best_oct(self) -> float | None:
        return self.progress.best_oct

    @property
    def bound(self) -> float | None:
        return self.progress.bound

    @property
    def gap(self) -> float | None:
        return self.progress.gap


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
        """Read every message waiting (never blocking): progress reports update the state, the
        last word ends the job."""
        if self.state.status != "running":
            return self.state
        elapsed = time.monotonic() - self.started
        progress = self.state.progress
        if self._starter.is_alive():
            self.state = JobState("running", elapsed, progress=progress)
            return self.state
        if self.start_error:
            self._end(JobState("failed", elapsed, error=self.start_error))
            return self.state
        alive = self.process.is_alive()  # before the poll: a child that answered and left is heard
        for _ in range(MAX_DRAIN):
            if not self._conn.poll():
                break
            status, payload = self._read()
            if status == "progress":
                progress = progress.merged(payload)
            elif status == "ignored":
                continue
            elif status == "done":
                return self._end(JobState("done", elapsed, plan=payload, progress=progress))
            else:
                return self._end(JobState("failed", elapsed, error=str(payload), progress=progress))
        else:  # more waiting than one frame reads: the rest next frame
            alive = True
        if not alive:
            code = self.process.exitcode
            error = f"the planner process stopped (exit code {code})"
            return self._end(JobState("failed", elapsed, error=error, progress=progress))
        self.state = JobState("running", elapsed, progress=progress)
        return self.state

    def _read(self) -> tuple[str, Any]:
        try:
            message = self._conn.recv()
        except (EOFError, OSError) as e:
            return "failed", f"the planner process ended without an answer ({e})"
        except Exception as e:  # a message that cannot be unpickled here
            return "failed", f"the planner sent a message that cannot be read ({type(e).__name__}: {e})"
        if isinstance(message, tuple) and len(message) == 2 and message[0] in ("progress", "done", "failed"):
            return message
        return "ignored", None  # not a message this window knows

    def _end(self, state: JobState) -> JobState:
        self.state = state
        self._reap()
        return state

    def cancel(self) -> None:
        self._starter.join()
        if self.process.is_alive():
            self.process.terminate()
        self.state = replace(self.state, status="cancelled", elapsed=time.monotonic() - self.started)
        self._reap()

    def _reap(self) -> None:
        # no waiting on the frame: a child that answered is on its way out, a terminated one exits
        # at once; multiprocessing reaps it later (active_children)
        self.process.join(timeout=0)
        self._conn.close()
        multiprocessing.active_children()
