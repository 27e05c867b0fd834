"""Play window speed: one edit's re-simulation plus one redraw, on a 4-order, 3-agent suite level
with a long plan (~150 actions). The budget is one frame at 60 fps: 16 ms (checked on the 95th
percentile of CPU time; the wall clock is printed too).

    python benchmarks/play_bench.py [--edits 200] [--level PATH]
"""

from __future__ import annotations

import argparse
import os
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

from game.levels import load_level  # noqa: E402
from game.ui import store  # noqa: E402
from game.ui.editor import PlanEditor  # noqa: E402
from game.ui.screens.play import PlayScreen  # noqa: E402

DEFAULT_LEVEL = ROOT / "levels" / "suite" / "burger" / "seed_42" / "agent_num_3" / "orders_num_4.yaml"
BUDGET_MS = 16.0


def long_plan(editor: PlanEditor, loops: int = 12) -> None:
    """Each agent takes an ingredient, then walks away and back to its own free counter to put it
    down and pick it up again: a long plan that runs without error."""
    level = editor.level
    dispensers = [s.name for s in level.stations if s.kind == "dispenser"]
    counters = [s.name for s in level.stations if s.kind in ("table", "chopping_board") and s.item is None]
    floor = [(x, y) for y in range(level.height) for x in range(level.width) if level.is_floor((x, y))]
    for k, agent in enumerate(level.agent_names):
        editor.select_agent(agent)
        editor.queue_station(dispensers[k % len(dispensers)])
        own = counters[k]
        for i in range(loops):
            editor.queue_move(floor[(k * 7 + i * 11) % len(floor)])
            editor.queue_station(own)
            editor.queue_station(own)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--level", type=Path, default=DEFAULT_LEVEL)
    args = ap.parse_args()
    os.environ[store.ENV_DATA] = tempfile.mkdtemp(prefix="play-bench-")
    pygame.init()
    surface = pygame.display.set_mode((1440, 900))
    level = load_level(args.level)
    screen = PlayScreen(level, size=(1440, 900), restore=False)
    long_plan(screen.editor)
    ed = screen.editor
    assert ed.error is None, ed.error
    print(
        f"level {args.level.relative_to(ROOT)}: {len(level.agents)} agents, {len(level.orders)} orders, "
        f"{ed.action_count} actions, plan ends at t = {ed.result.time:g}"
    )
    ed.select_agent(level.agent_names[-1])
    screen.draw(surface)
    wall, cpu = [], []
    for i in range(args.edits):
        start, start_cpu = time.perf_counter(), time.process_time()
        if i % 2 == 0:
            screen.edit(ed.queue_wait, 1)
        else:
            screen.undo()
        screen.draw(surface)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    for name, times in (("wall clock", wall), ("CPU time", cpu)):
        times.sort()
        median, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
        print(
            f"edit + re-simulation + autosave + redraw, {name}: median {median:.2f} ms, p95 {p95:.2f} ms, "
            f"max {times[-1]:.2f} ms over {len(times)} edits (budget {BUDGET_MS:g} ms)"
        )
    # On a shared machine the wall clock includes other processes' turns; CPU time is this work.
    ok = cpu[int(0.95 * (len(cpu) - 1))] < BUDGET_MS
    print("OK: within one 60 fps frame" if ok else "SLOW: over one 60 fps frame")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
