"""Environment steps per second: masked random actions on a two-agent tutorial kitchen, with the
structured observations and masks, with and without the text description.

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

from game.env import parallel_env  # noqa: E402


def rate(level: str, steps: int, text: bool) -> tuple[float, int]:
    env = parallel_env(level, text=text, max_wait=5)
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    episodes = 0
    start = time.perf_counter()
    for _ in range(steps):
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        _, _, _, _, infos = env.step(actions)
        if not env.agents:
            episodes += 1
            _, infos = env.reset()
    return steps / (time.perf_counter() - start), episodes


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--level", default=str(ROOT / "levels/tutorial/04_two_cooks.yaml"))
    args = p.parse_args()
    for text in (False, True):
        per_s, episodes = rate(args.level, args.steps, text)
        words = "with infos['text']" if text else "structured only"
        print(f"{per_s:8.0f} steps/s  ({words}; {args.steps} steps, {episodes} episodes ended)")


if __name__ == "__main__":
    main()
