"""Replay viewer speed: seeking to any time of a long (1,000+ event) replay, and redrawing there.

    python benchmarks/replay_bench.py [--seeks 300] [--cycles 60]

"seek" is what the viewer does when the time jumps: move the clock and look up the state the
kitchen shows. "seek + draw" also redraws the whole 1440 x 900 replay screen at that time
(kitchen, Gantt cursor, queues, panels). Seeks must all stay under 5 ms, and 95% of the
redraws too (the rest pay for first-time text rendering of queue rows, cached afterwards).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.engine import level_from_map, parse_plan, simulate  # noqa: E402
from game.replay import load_replay, save_replay  # noqa: E402

LIMIT_MS = 5.0
ROWS = [
    "D.B..E..CX",
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
    a1 = cycle("dispenser1", (1, 0), "chopping_board1", (2, 1), "trash2", (8, 7), 0.5)
    a2 = cycle("dispenser2", (5, 1), "chopping_board2", (8, 1), "trash2", (8, 7), 0.25)
    a3 = cycle("dispenser4", (6, 6), "chopping_board3", (8, 4), "trash2", (8, 7), 0.75)
    return {"agent1": a1 * cycles, "agent2": a2 * cycles, "agent3": a3 * cycles}


def build(cycles: int):
    level = long_level()
    plan = parse_plan(long_plan(cycles), level.agent_names)
    result = simulate(level, plan)
    path = Path(tempfile.mkdtemp()) / "long.json"
    save_replay(path, level, plan, result, {"kind": "bench"})
    return load_replay(path), result


def p95(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95)]


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples):.3f} ms, p95 {p95(samples):.3f} ms, max {max(samples):.3f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeks", type=int, default=300)
    ap.add_argument("--cycles", type=int, default=80)
    args = ap.parse_args()
    replay, result = build(args.cycles)
    tl = replay.timeline
    print(
        f"replay: {len(tl.times)} events, {len(tl.spans)} actions, t = 0..{tl.end:g}, "
        f"{'done' if result.done else 'error: ' + str(result.error)}"
    )
    pygame.init()
    surface = pygame.display.set_mode((1440, 900))
    from game.ui.screens.replay import ReplayScreen

    screen = ReplayScreen(replay)
    screen.draw(surface)  # warm the caches (icons, backgrounds, Gantt bars, metrics)
    rng = random.Random(1)
    times = [rng.uniform(0, tl.end) for _ in range(args.seeks)]
    seek, full = [], []
    for t in times:
        start = time.perf_counter()
        screen.transport.seek(t)
        screen.shown_state()
        seek.append((time.perf_counter() - start) * 1000)
    for t in times:
        start = time.perf_counter()
        screen.transport.seek(t)
        screen.draw(surface)
        full.append((time.perf_counter() - start) * 1000)
    print(f"seek:        {ms(seek)}")
    print(f"seek + draw: {ms(full)}")
    ok = len(tl.times) >= 1000 and max(seek) < LIMIT_MS and p95(full) < LIMIT_MS
    print(("PASS" if ok else "FAIL") + f": limit {LIMIT_MS} ms on a replay of {len(tl.times)} events")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
