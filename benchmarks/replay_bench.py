"""Replay viewer and export speed on a long replay (3 agents, 2,000+ actions, 1,000+ events).

    python benchmarks/replay_bench.py [--seeks 300] [--cycles 80] [--skip-export]

"seek" is what the viewer does when the time jumps: move the clock and look up the state the
kitchen shows. "seek + draw" also redraws the whole replay screen at that time (kitchen, Gantt
cursor, event log, panels). Goals:
- at 1440 x 900: every seek under 5 ms, and 95% of the redraws (the rest pay for first-time
  text rendering, cached afterwards);
- at 1600 x 1000, p95 of seek + full redraw under 16 ms, with the whole run in the Gantt chart
  and with the chart zoomed to 40 time units following the clock (it repaints its window);
- export of a 240-frame 720p run: MP4 and GIF each under 8 s.
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from figures import Results  # noqa: E402

from game.engine import level_from_map, parse_plan, simulate  # noqa: E402
from game.replay import load_replay, save_replay  # noqa: E402

LIMIT_MS = 5.0
FRAME_MS = 16.0
EXPORT_S = 8.0
ROWS = [
    "D.B..E..C#",
    ".........T",
    "D..#......",
    "..1....#..",
    "...2.....C",
    "K.....3...",
    ".........R",
    "W.O...F..X",
]
STATIONS = {
    "D": ("dispenser", "lettuce"),
    "E": ("dispenser", "tomato"),
    "F": ("dispenser", "fish"),
    "B": ("chopping_board", None),
    "C": ("chopping_board", None),
    "K": ("sink", None),
    "T": ("table", None),
    "R": ("plate_return", None),
    "W": ("serving_window", None),
    "O": ("stove", None),
    "X": ("trash", None),
}


def long_level():
    tiles, agents, seen = [], [], {}
    for y, row in enumerate(ROWS):
        for x, ch in enumerate(row):
            if ch == "#":
                tiles.append({"x": x, "y": y, "type": "obstacle", "name": "wall"})
            elif ch.isdigit():
                agents.append({"name": f"agent{ch}", "x": x, "y": y})
            elif ch != ".":
                kind, provides = STATIONS[ch]
                seen[kind] = seen.get(kind, 0) + 1
                tile = {"x": x, "y": y, "type": "station", "name": f"{kind}{seen[kind]}"}
                if provides:
                    tile["provides"] = provides
                tiles.append(tile)
    return level_from_map(
        {"name": "bench", "width": len(ROWS[0]), "height": len(ROWS), "agents": agents, "tiles": tiles}
    )


def cycle(dispenser, at_dispenser, board, at_board, trash, at_trash, offset):
    """Fetch, chop, pick up and trash one ingredient; the offset Wait keeps agents' events apart."""
    mv = lambda p: {"action": "MoveTo", "target": list(p)}  # noqa: E731
    it = lambda s: {"action": "Interact", "target": s}  # noqa: E731
    return [
        mv(at_dispenser),
        it(dispenser),
        mv(at_board),
        it(board),
        {"action": "Process", "target": board},
        it(board),
        mv(at_trash),
        it(trash),
        {"action": "Wait", "duration": offset},
    ]


def long_plan(cycles: int) -> dict:
    a1 = cycle("dispenser1", (1, 0), "chopping_board1", (2, 1), "trash1", (8, 7), 0.5)
    a2 = cycle("dispenser2", (5, 1), "chopping_board2", (8, 1), "trash1", (8, 7), 0.25)
    a3 = cycle("dispenser4", (6, 6), "chopping_board3", (8, 4), "trash1", (8, 7), 0.75)
    return {"agent1": a1 * cycles, "agent2": a2 * cycles, "agent3": a3 * cycles}


SCRATCH = tempfile.TemporaryDirectory(prefix="replay-bench-")  # removed when the benchmark ends
atexit.register(SCRATCH.cleanup)


def build(cycles: int):
    level = long_level()
    plan = parse_plan(long_plan(cycles), level.agent_names)
    result = simulate(level, plan)
    path = Path(SCRATCH.name) / "long.json"
    save_replay(path, level, plan, result, {"kind": "bench"})
    return load_replay(path), result


def p95(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95)]


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples):.3f} ms, p95 {p95(samples):.3f} ms, max {max(samples):.3f} ms"


def measure(
    screen, surface, times: list[float], zoom: float | None = None
) -> tuple[list[float], list[float]]:
    if zoom is not None:
        screen.gantt.set_view(0, zoom)
    screen.draw(surface)  # warm the caches (icons, backgrounds, Gantt bars, metrics)
    seek, full = [], []
    for t in times:
        start = time.perf_counter()
        screen.transport.seek(t)
        screen.shown_state()
        seek.append((time.perf_counter() - start) * 1000)
    for t in times:
        start = time.perf_counter()
        screen.seek(t)  # the viewer's own seek: panels and a zoomed chart follow the clock
        screen.draw(surface)
        full.append((time.perf_counter() - start) * 1000)
    return seek, full


def export_times(replay) -> dict[str, float]:
    from game.export import export_replay

    speed = replay.timeline.end * 10 / 239  # 240 frames at 10 fps
    out = {}
    folder = Path(SCRATCH.name)
    for ext in ("mp4", "gif"):
        start = time.perf_counter()
        n = export_replay(replay, folder / f"run.{ext}", fps=10, speed=speed, hold=0, progress=False)
        out[ext] = time.perf_counter() - start
        assert n == 240, n
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeks", type=int, default=300)
    ap.add_argument("--cycles", type=int, default=80)
    ap.add_argument("--skip-export", action="store_true")
    args = ap.parse_args()
    with Results("replay_bench", "Replay viewer and video export", "how-to/replays.md") as out:
        return run(args, out)


def run(args: argparse.Namespace, out: Results) -> int:
    replay, result = build(args.cycles)
    tl = replay.timeline
    out.setting(
        f"a replay of {len(tl.times):,} events and {len(tl.spans):,} actions (3 agents, {args.cycles} cycles), "
        f"{args.seeks} seeks to random times"
    )
    print(
        f"replay: {len(tl.times)} events, {len(tl.spans)} actions, t = 0..{tl.end:g}, "
        f"{'done' if result.done else 'error: ' + str(result.error)}"
    )
    pygame.init()
    from game.ui.screens.replay import ReplayScreen

    rng = random.Random(1)
    times = [rng.uniform(0, tl.end) for _ in range(args.seeks)]
    ok = len(tl.times) >= 1000 and len(tl.spans) >= 2000

    surface = pygame.display.set_mode((1440, 900))
    start = time.perf_counter()
    screen = ReplayScreen(replay)
    opened = (time.perf_counter() - start) * 1000
    print(f"open (event sentences, layout): {opened:.0f} ms")
    out.figure("open the replay (event sentences, layout)", round(opened), "ms")
    seek, full = measure(screen, surface, times)
    print(f"1440x900  seek:        {ms(seek)}")
    print(f"1440x900  seek + draw: {ms(full)}")
    out.figure("seek at 1440x900, the slowest", max(seek), "ms", f"under {LIMIT_MS} ms")
    out.figure("seek + full redraw at 1440x900, p95", p95(full), "ms", f"under {LIMIT_MS} ms")
    ok &= max(seek) < LIMIT_MS and p95(full) < LIMIT_MS

    surface = pygame.display.set_mode((1600, 1000))
    for label, zoom in (("whole run", None), ("zoomed 40", 40.0)):
        screen = ReplayScreen(replay)
        screen.resize((1600, 1000))
        _, full = measure(screen, surface, times, zoom)
        print(f"1600x1000 seek + draw, {label}: {ms(full)}")
        out.figure(f"seek + full redraw at 1600x1000, {label}, p95", p95(full), "ms", f"under {FRAME_MS} ms")
        ok &= p95(full) < FRAME_MS

    if not args.skip_export:
        for ext, secs in export_times(replay).items():
            print(f"export 240 frames 1280x720 {ext}: {secs:.2f} s")
            out.figure(f"export of 240 frames at 1280x720, {ext.upper()}", secs, "s", f"under {EXPORT_S} s")
            ok &= secs < EXPORT_S
    print(
        ("PASS" if ok else "FAIL")
        + f": seek {LIMIT_MS} ms and redraw p95 {LIMIT_MS} ms at 1440x900, {FRAME_MS} ms at 1600x1000, "
        f"export {EXPORT_S} s, on a replay of {len(tl.times)} events and {len(tl.spans)} actions"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
