"""Environment steps per second: masked random actions on a two-agent tutorial kitchen, with the
structured observations and masks, with and without the text description. The rate per CPU
second is the one to compare on a busy machine; the wall-clock rate is what an idle one gives.

python benchmarks/env_bench.py [--steps 20000] [--level LEVEL]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

from game.env import parallel_env  # noqa: E402


def rate(level: str, steps: int, text: bool) -> tuple[float, float, int]:
    """(steps per wall-clock second, steps per CPU second, episodes ended)."""
    env = parallel_env(level, text=text, max_wait=5)
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        _, _, _, _, infos = env.step(actions)
        if not env.agents:
            episodes += 1
            _, infos = env.reset()
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu), episodes


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--level", default=str(ROOT / "levels/tutorial/04_two_cooks.yaml"))
    args = p.parse_args()
    level = Path(args.level).resolve()
    shown = level.relative_to(ROOT) if level.is_relative_to(ROOT) else level
    with Results("env_bench", "The environment's speed", "environment.md") as out:
        out.setting(f"{args.steps:,} steps with masked random actions on `{shown}`")
        for text in (False, True):
            wall, cpu, episodes = rate(args.level, args.steps, text)
            words = "with infos['text']" if text else "structured only"
            print(
                f"{wall:8.0f} steps/s, {cpu:8.0f} per CPU second  ({words}; {args.steps} steps, {episodes} episodes)"
            )
            out.figure(f"steps per second, {words}", round(wall), "steps/s")
            out.figure(f"steps per CPU second, {words}", round(cpu), "steps/s")


if __name__ == "__main__":
    main()
