"""A random agent that only picks actions the mask allows, on a tutorial kitchen.

    python examples/random_agent.py [LEVEL] [--seed N]

Prints the episode's result and writes the plan the environment ran (plan.json), which
`paracook-kitchen run LEVEL plan.json` reproduces exactly.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from game.env import parallel_env


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("level", nargs="?", default="levels/tutorial/04_two_cooks.yaml")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="plan.json")
    args = p.parse_args()
    env = parallel_env(args.level, max_wait=5)
    rng = np.random.default_rng(args.seed)
    obs, infos = env.reset(seed=args.seed)
    steps, total = 0, 0.0
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        total += next(iter(rewards.values()))
        steps += 1
    result = next(iter(infos.values()))["result"]
    with open(args.out, "w") as f:
        json.dump(env.plan(), f)
    print(
        f"{steps} steps, return {total:g}: done={result['done']} time={result['time']} error={result['error']}"
    )
    print(f"plan written to {args.out}")


if __name__ == "__main__":
    main()
