"""Shared fixtures: the benchmark data in ../shared/paracook (skips cleanly where absent)."""

from __future__ import annotations

import gc
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # not on Windows: the workers may then work an answer out twice
    fcntl = None

import pytest
from hypothesis import settings

# The same examples on every run and every machine: drawn from each test's own fixed seed (not
# from a random one, nor replayed from a local database of past failures), with no per-example
# deadline (a busy machine is slower, never wrong). Two profiles: "suite", the README's quick run,
# draws a third of each test's examples (`examples`); "thorough" (`--hypothesis-profile
# thorough`, run by CI after the README's command) draws them all. A profile's max_examples is
# that share in percent; a sweep over kitchens takes the same share of its cases (`sweep`).
_SAME_EXAMPLES = dict(derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("suite", max_examples=34, **_SAME_EXAMPLES)
settings.register_profile("thorough", max_examples=100, **_SAME_EXAMPLES)
settings.load_profile("suite")

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])


def _share(profile: str | None) -> int:
    """The loaded profile's (or the named one's) share of examples and cases, in percent."""
    return (settings.get_profile(profile) if profile else settings.default).max_examples


def examples(n: int, profile: str | None = None) -> int:
    """A property test's number of examples under the loaded profile (or the one named): `n` in
    a thorough run, a share of it otherwise, but at least two: Hypothesis draws the simplest
    case first (the smallest kitchen), so one example alone would check only that. Read when
    the test module is imported, after the command line's profile is loaded."""
    return max(min(n, 2), round(n * _share(profile) / 100))


def some_of(cases: Iterable[T], profile: str | None = None) -> list[T]:
    """The cases of a sweep (the same check on many kitchens) under the loaded profile: all of
    them in a thorough run; in the quick run every third (every k-th for a share of 100/k
    percent) counted back from the last, so the share is spread over the list's dishes and
    sizes and a test may reuse the last case's work, and never fewer than two (the first and
    the last)."""
    cases = list(cases)
    picked = cases[::-1][:: max(1, round(100 / _share(profile)))][::-1]
    return picked if len(picked) >= min(2, len(cases)) else [cases[0], cases[-1]]


def sweep(argnames: str, cases: Iterable[object], **kwargs: Any) -> Callable[[F], F]:
    """`pytest.mark.parametrize` over `some_of(cases)`, marked `sweep` so that CI's thorough run
    (`-m "hypothesis or sweep"`) takes every case. `ids`, if given, is a function of a case."""
    return lambda test: pytest.mark.sweep(pytest.mark.parametrize(argnames, some_of(cases), **kwargs)(test))


os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
# How long a test waits for a background process (a planner job, a partner) before calling it a
# hang: a bound on a hang, never a speed measurement. The planner's process runs at nice 10 so the
# window comes first, and on a machine under full load it gets a twentieth of a core: a job that
# takes 2 s on a quiet machine took over 120 s there.
HANG_S = 900.0
# PARACOOK_DIR points elsewhere when the repository is not next to the data (e.g. a second checkout)
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")
REFERENCE_FIELDS = (
    "done",
    "time",
    "finished_orders",
    "remaining_orders",
    "agent_progress",
    "agent_all_execution_time",
    "agent_waiting_time",
    "agent_moving_time",
    "agent_processing_time",
    "error",
)


MISSING_PARACOOK = "../shared/paracook is not here (it exists in CI, not in a user's clone)"


def need_paracook() -> Path:
    if not PARACOOK.is_dir():
        pytest.skip(MISSING_PARACOOK)
    return PARACOOK


# The files whose tests run the planner or work out bounds: they go first, so that under xdist
# the last tests to start are short ones and no worker waits long for another at the end.
SLOW_FILES = ("test_solver", "test_planner_progress", "test_scenarios", "test_report", "test_llm_evaluation")


# A test process keeps hundreds of thousands of objects alive from test to test (the collected
# modules, Hypothesis, kept bounds and levels), and the collector's default thresholds walked
# them all again and again: 8 to 11 s of processor time per run. Collections come rarer here;
# memory is no concern in a test run.
COLLECT_AFTER = 50_000  # allocations between young collections (Python's default: 700)


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])


def pytest_unconfigure(config: pytest.Config) -> None:
    """pytest then collects the whole process five times over, to report what a finalizer of the
    last garbage raised (half a second each, at the end of every worker); once finds it, and
    what is alive after it is set aside so the other four walks are short."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """Under `-n`, a worker that runs out of tests takes some of another's (the planner's tests take
    from a second to a minute each), rather than xdist's default fixed shares; an explicit
    `--dist` other than `load` is kept."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import WorkStealingScheduling

    return WorkStealingScheduling(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first (the same order on every worker), and tests parametrized over the
    benchmark data say why they skip, not just 'empty parameter set'."""
    items.sort(key=lambda item: not item.path.name.startswith(SLOW_FILES))  # a stable sort
    if PARACOOK.is_dir():
        return
    for item in items:
        mark = item.get_closest_marker("skip")
        if mark and str(mark.kwargs.get("reason", "")).startswith("got empty parameter set"):
            item.add_marker(pytest.mark.skip(reason=MISSING_PARACOOK), append=False)


def human_cases() -> list[tuple[Path, Path, list[str]]]:
    """(human result file, map file, orders) for the 24 recorded human plans."""
    if not PARACOOK.is_dir():
        return []
    orders = json.loads((PARACOOK / "orders.json").read_text())
    cases = []
    for f in sorted((PARACOOK / "human").glob("*/*/agent_num_*/orders_num_*.json")):
        cat, seed, agents, on = f.parts[-4], f.parts[-3], f.parts[-2], f.stem
        cases.append((f, PARACOOK / "maps" / cat / seed / f"{agents}.json", orders[f"{cat}/{seed}/{on}"]))
    return cases


@pytest.fixture(scope="session", autouse=True)
def a_data_folder_of_the_runs_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A test that names no data folder (PARACOOK_KITCHEN_DATA) writes into one of this run's
    (the bounds a report keeps, a window's autosave), never into the user's, and reads nothing
    an earlier run left there."""
    from game.paths import ENV_DATA

    before = os.environ.get(ENV_DATA)
    os.environ[ENV_DATA] = str(tmp_path_factory.mktemp("data"))
    yield
    if before is None:
        os.environ.pop(ENV_DATA, None)
    else:
        os.environ[ENV_DATA] = before


@pytest.fixture(autouse=True)
def nothing_frozen_outlives_its_test() -> Iterator[None]:
    """A window sets what lives aside from the collector when it opens (`settle_memory`); in a
    test run that is the previous tests' garbage too. Handing it back after each test lets the
    collector free it (in a program, one window opens once)."""
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def screens_switch_without_walking_the_test_run(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window collects the whole program when it shows a new screen (`settle_memory`): in a
    program that walks one screen's leftovers, in a test process every earlier test's too, a
    tenth of a second or more per switch. Here a switch only sets what lives aside, as a window
    does when it opens; the tests of the collection itself (test_app_memory) keep it."""
    if request.node.path.name != "test_app_memory.py":
        import game.ui.app as app

        monkeypatch.setattr(app, "settle_memory", lambda let_go=True: gc.freeze())


@pytest.fixture
def paracook_dir() -> Path:
    return need_paracook()


_SHARED: dict[str, Path] = {}  # "folder": this run's folder shared by the workers (xdist only)
_KEPT: dict[str, object] = {}  # answers this process has worked out or read


def run_shared(name: str, key: object, work_out: Callable[[], object]) -> object:
    """`work_out()`'s answer (plain JSON data), worked out once per run: under xdist the first
    worker to need it works it out and writes it to the run's shared folder, holding that
    answer's lock, and another worker that needs it meanwhile waits for it there."""
    text = json.dumps([name, key], sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if digest not in _KEPT:
        folder = _SHARED.get("folder")
        _KEPT[digest] = _from_folder(folder / f"{digest}.json", work_out) if folder else work_out()
    return _KEPT[digest]


def _from_folder(path: Path, work_out: Callable[[], object]) -> object:
    with open(path.with_suffix(".lock"), "w") as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            value = work_out()
            part = path.with_suffix(f".{os.getpid()}.part")
            part.write_text(json.dumps(value))
            os.replace(part, path)  # whole or not at all
            return value


def shared_solve(level, rules: str, time_limit: float) -> SimpleNamespace:
    """The planner's `done`, `oct`, `plan` and `note` for this level, rule set and limit, planned
    once per run for every test that asks the same (the planner is deterministic: the limit
    sets its budget of schedules, never the clock)."""

    def work_out() -> dict:
        from game.planners.solver import solve

        sol = solve(level, rules, time_limit=time_limit)
        return {"done": sol.done, "oct": sol.oct, "plan": sol.plan, "note": sol.note}

    return SimpleNamespace(**run_shared("solve", [level.to_dict(), rules, time_limit], work_out))


def _shared(work_out: Callable, encode: Callable, decode: Callable) -> Callable:
    """`work_out(level, *rest)`, its answers shared by this run's workers (`run_shared`)."""

    def shared(level, *rest):
        key = [level.to_dict(), *rest]
        return decode(run_shared(work_out.__name__, key, lambda: encode(work_out(level, *rest))))

    return shared


@pytest.fixture(scope="session", autouse=True)
def bounds_shared_by_the_workers(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[None]:
    """Under xdist each worker is a process with its own kept bounds, so a level's lower bound (a
    linear program and a CP-SAT solve: most of what a planner test costs) would be worked out once
    per worker. Here the first worker to need it works it out, with the product's code, in this
    run, and the other reads it from the run's shared folder. One process keeps its own."""
    worker_id = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1", ... under xdist only
    if not worker_id:
        yield
        return
    from game.planners.solver.bound import lower as bound

    _SHARED["folder"] = tmp_path_factory.getbasetemp().parent / "shared"  # one per run
    _SHARED["folder"].mkdir(exist_ok=True)
    plain, routes = bound._work_out, bound.route_bound_spent
    bound._work_out = _shared(
        plain, lambda b: [b.value, b.terms, b.cost], lambda d: bound.Bound(d[0], dict(d[1]), d[2])
    )
    bound.route_bound_spent = _shared(routes, list, tuple)
    if any("human" in item.nodeid for item in request.session.items):  # a run that needs them
        share_out_the_human_bounds(worker_id)
    yield
    bound._work_out, bound.route_bound_spent = plain, routes


def share_out_the_human_bounds(worker_id: str) -> None:
    """The 24 human-study levels' bounds, which many tests and every report of the human results
    need: each worker works out its share of them first, so that no two wait on one another
    (read at once from the shipped table, `bound/recorded.py`, where the code is the one that
    recorded it; worked out where it is not)."""
    from game.levels import load_level
    from game.planners.solver import lower_bound

    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(worker_id.removeprefix("gw")) if worker_id.startswith("gw") else 0
    for k, (_, map_file, orders) in enumerate(human_cases()):
        if k % count == index:
            lower_bound(load_level(map_file, orders))
