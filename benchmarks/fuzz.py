"""Long fuzzing of every place untrusted input enters; the test suite runs the same checks small.

    python benchmarks/fuzz.py                 # every surface, default counts (about 10 minutes)
    python benchmarks/fuzz.py --scale 0.1     # a quick pass
    python benchmarks/fuzz.py --only levels replies

Surfaces: level files, edited replays (checksum recomputed), batch lines, LLM replies (hypothesis,
cases from tests/hostile.py), event storms through the app's loop (browser, play, replay viewer,
play with an unusable data folder), a misbehaving endpoint on 127.0.0.1 (every mode through
the real `llm` command, the key planted in every field it controls and in the base URL), result
and replay files through `report` and `collab`, and two real processes writing one data folder
(scoreboard, study log, LLM log). Prints, per surface, the cases tried, how they ended, the
tracebacks (any exception the program let out), the hangs (cases slower than --slow seconds),
the cases that lost work or leaked part of the key, and the slowest case.
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import hostile  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

COUNTS = {
    "levels": 1500,
    "replays": 1500,
    "batch": 1500,
    "replies": 5000,
    "storms": 24,
    "endpoint": 3,
    "results": 600,
    "writers": 4,
}


# how many --slow a case may take: a storm is 1,500 events, a writers case 4,200 writes by two
# processes, a result file runs through five commands
CASE_SIZE = {"storms": 60, "writers": 60, "results": 5}


class Tally:
    def __init__(self, name: str, slow: float):
        self.name, self.slow = name, slow
        self.outcomes: Counter[str] = Counter()
        self.failures: list[str] = []
        self.kinds: Counter[str] = Counter()  # tracebacks, hangs, lost (work lost or a key leaked)
        self.worst = 0.0

    def run(self, fn, *args) -> None:
        start = time.perf_counter()
        try:
            self.outcomes[fn(*args)] += 1
        except Exception as e:  # noqa: BLE001 - every escape is a finding
            self.outcomes["FAILED"] += 1
            lost = isinstance(e, AssertionError) and any(
                w in str(e) for w in ("lost", "leaked", "left behind")
            )
            self.kinds["lost" if lost else "tracebacks"] += 1
            lines = traceback.format_exception(e)
            self.failures.append(f"{type(e).__name__}: {str(e)[:200]}\n    at {lines[-2].strip()[:300]}")
        took = time.perf_counter() - start
        self.worst = max(self.worst, took)
        if took > self.slow:
            self.kinds["hangs"] += 1
            self.failures.append(f"slow case: {took:.1f} s")

    def line(self) -> str:
        tried = sum(self.outcomes.values())
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        k = self.kinds
        return (
            f"{self.name:10} {tried:6} cases  {k['tracebacks']:3} tracebacks  {k['hangs']:3} hangs  "
            f"{k['lost']:3} lost  slowest {self.worst:6.2f} s  ({ends})"
        )


def by_hypothesis(tally: Tally, strategy, check, n: int) -> None:
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def go(case):
        with tempfile.TemporaryDirectory() as d:
            tally.run(check, case, Path(d))

    go()


def fuzz_levels(t: Tally, n: int) -> None:
    by_hypothesis(t, hostile.level_bytes(), hostile.check_level_bytes, n)


def fuzz_replays(t: Tally, n: int) -> None:
    by_hypothesis(t, hostile.edited_replays(), hostile.check_replay, n)


def fuzz_batch(t: Tally, n: int) -> None:
    by_hypothesis(t, st.lists(hostile.batch_lines(), min_size=1, max_size=3), hostile.check_batch_lines, n)


def fuzz_replies(t: Tally, n: int) -> None:
    by_hypothesis(t, hostile.replies, lambda text, _d: hostile.check_reply(text), n)


def fuzz_storms(t: Tally, n: int) -> None:
    import pygame

    from game.ui import store

    def storm(kind: str, seed: int) -> str:
        # a window's autosave thread may still be writing when the folder is removed under it
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as d:
            os.environ[store.ENV_DATA] = str(Path(d) / "data")
            os.environ[store.ENV_REPLAYS] = str(Path(d) / "replays")
            if kind == "play-no-folder":
                (Path(d) / "blocker").write_text("")
                os.environ[store.ENV_DATA] = str(Path(d) / "blocker")
            app = make_app(kind, Path(d))
            events = hostile.storm_events(random.Random(seed), (1440, 900), 1500)
            hostile.run_storm(app, events)
            pygame.event.clear()
            getattr(app.screen, "close", lambda: None)()  # as the window closing would
            return kind

    kinds = ["browser", "play", "replay", "play-no-folder"]
    for i in range(n):
        t.run(storm, kinds[i % len(kinds)], i)


def make_app(kind: str, folder: Path):
    import json

    import pygame

    from game.levels import load_level
    from game.ui.app import App
    from game.ui.screens.browser import BrowserScreen
    from game.ui.screens.play import PlayScreen
    from game.ui.screens.replay import ReplayScreen

    pygame.init()
    surface = pygame.display.set_mode((1440, 900))
    if kind == "browser":
        return App(BrowserScreen(size=(1440, 900)), surface)
    if kind == "replay":
        path = folder / "r.json"
        path.write_text(json.dumps(hostile.base_replay()))
        return App(ReplayScreen.from_file(path), surface)
    return App(PlayScreen(load_level(hostile.LEVEL_FILE), size=(1440, 900)), surface)


def fuzz_endpoint(t: Tally, n: int) -> None:
    import contextlib
    import io
    import json

    from game.cli import main
    from game.planners.llm.prompts import example

    os.environ["HOSTILE_KEY"] = hostile.SECRET
    good = "```json\n" + json.dumps(example()["plan"]) + "\n```"
    modes = [
        "invalid_json",
        "null_message",
        "no_choices",
        "deep",
        "huge_int",
        "big_int",
        "echo_key",
        "echo_key_deep",
        "key_everywhere",
        "surrogate",
        "html",
        "trickle",
    ]

    def one(mode: str) -> str:
        with tempfile.TemporaryDirectory() as d, hostile.HostileLLM([mode, "ok"], good) as server:
            level = Path(d) / "k.json"
            level.write_text(json.dumps(example()["map"]))
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                port = server.url.split(":")[2].split("/")[0]
                url = f"http://u:{hostile.SECRET}@127.0.0.1:{port}/v1"  # a key in the base URL too
                main(
                    ["llm", "--model", "m", "--levels", f"{level}:pasta_tomato", "--base-url", url,
                     "--api-key-env", "HOSTILE_KEY", "--out", f"{d}/run", "--no-progress", "--backoff", "0.01",
                     "--timeout", "2"]
                )  # fmt: skip
            shown = out.getvalue() + err.getvalue()
            files = "".join(f.read_text() for f in Path(d, "run").rglob("*") if f.is_file())
            assert hostile.leaked_part(shown + files) is None, (
                f"part of the key leaked: {hostile.leaked_part(shown + files)}"
            )
            done = (
                json.loads(next(Path(d, "run", "results").glob("*.json")).read_text())["done"]
                if mode not in ("echo_key", "key_everywhere")
                else None
            )
            assert mode in ("echo_key", "key_everywhere") or done, (
                f"{mode}: the retry after it did not finish the task"
            )
            return mode

    for _ in range(n):
        for mode in modes:
            t.run(one, mode)


def fuzz_results(t: Tally, n: int) -> None:
    by_hypothesis(t, hostile.result_files(), hostile.check_result_file, n)


def fuzz_writers(t: Tally, n: int) -> None:
    """Two real processes writing one data folder (scoreboard, study log, LLM log): the updates
    lost are counted as failures."""
    import json

    def two_writers(seed: int) -> str:
        with tempfile.TemporaryDirectory() as d:
            env = {**os.environ, "PARACOOK_KITCHEN_DATA": str(Path(d) / "data")}
            scores, lines = 100, 1000
            procs = [
                hostile.python(hostile.WRITER, str(scores), str(lines), tag, env=env) for tag in ("a", "b")
            ]
            for p in procs:
                _, err = p.communicate(timeout=900)
                assert p.returncode == 0, err[-500:]
            data = Path(d) / "data"
            (slot,) = json.loads((data / "scores.json").read_text())["levels"].values()
            lost = 2 * scores - len(slot["runs"])
            for name in ("study.jsonl", "log.jsonl"):
                got = {(r["tag"], r["i"]) for r in map(json.loads, (data / name).read_text().splitlines())}
                lost += 2 * lines - len(got)
            assert lost == 0, f"{lost} updates lost"
            assert not list(data.glob(".*.part")), "a temporary file was left behind"
            return f"{2 * scores + 4 * lines} writes"

    for i in range(n):
        t.run(two_writers, i)


SURFACES = {
    "levels": fuzz_levels,
    "replays": fuzz_replays,
    "batch": fuzz_batch,
    "replies": fuzz_replies,
    "storms": fuzz_storms,
    "endpoint": fuzz_endpoint,
    "results": fuzz_results,
    "writers": fuzz_writers,
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", nargs="+", choices=sorted(SURFACES), help="surfaces to fuzz (default: all)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every count (default 1)")
    p.add_argument(
        "--slow", type=float, default=5.0, help="a case slower than this is a failure (s; x60 for a storm)"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="print every failure")
    args = p.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="fuzz-data-")  # removed when the run ends
    atexit.register(scratch.cleanup)
    os.environ.setdefault("PARACOOK_KITCHEN_DATA", scratch.name)
    tallies = []
    for name in args.only or SURFACES:
        tally = Tally(name, args.slow * CASE_SIZE.get(name, 1))
        n = max(1, round(COUNTS[name] * args.scale))
        start = time.perf_counter()
        SURFACES[name](tally, n)
        print(f"{tally.line()}  [{time.perf_counter() - start:.0f} s]", flush=True)
        for f in tally.failures[: None if args.verbose else 5]:
            print(f"    {f}")
        tallies.append(tally)
    return 1 if any(t.failures for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
