"""The built-in planner's plan, fed to the environment one decision at a time.

    python examples/planner_replay.py [LEVEL] [--time-limit S]

Each time an agent must choose, it takes the next action of its queue in the planner's plan
(keep going once the queue is done); the episode ends with the same result as the plan run by
the engine.
"""

from __future__ import annotations

import argparse

from game.engine import plan_to_dict, simulate
from game.env import parallel_env
from game.planners.solver.planner import solve


def replay(env, plan: dict) -> dict:
    obs, infos = env.reset()
    taken = {agent: 0 for agent in plan}
    while env.agents:
        actions = {}
        for agent in env.agents:
            queue = plan[agent]
            if infos[agent]["deciding"] and taken[agent] < len(queue):
                index = env.table.index(queue[taken[agent]])
                if index is None:
                    raise SystemExit(
                        f"{agent}: {queue[taken[agent]]} is not in the action table (raise --max-wait)"
                    )
                actions[agent] = index
                taken[agent] += 1
            else:
                actions[agent] = 0  # keep going
        obs, rewards, terms, truncs, infos = env.step(actions)
    return next(iter(infos.values()))["result"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("level", nargs="?", default="levels/tutorial/04_two_cooks.yaml")
    p.add_argument("--time-limit", type=float, default=2.0)
    p.add_argument("--max-wait", type=int, default=40)
    args = p.parse_args()
    env = parallel_env(args.level, max_wait=args.max_wait)
    solution = solve(env.level, time_limit=args.time_limit)
    plan = solution.plan if isinstance(solution.plan, dict) else plan_to_dict(solution.plan)
    plan = {a: [dict(x) for x in q] for a, q in plan.items()}
    through_env = replay(env, plan)
    direct = simulate(env.level, plan, env.rules).to_dict()
    print(f"planner's plan in the engine: done={direct['done']} time={direct['time']}")
    print(f"the same plan through the env: done={through_env['done']} time={through_env['time']}")


if __name__ == "__main__":
    main()
