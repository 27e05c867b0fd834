"""The kitchen as a research environment: PettingZoo and Gymnasium over the same engine.

    from game.env import parallel_env, aec_env
    env = parallel_env("levels/tutorial/04_two_cooks.yaml")
    obs, infos = env.reset()
    infos["agent1"]["action_mask"]          # int8: what the engine accepts from agent1 now
    infos["agent1"]["text"]                 # the kitchen in the LLM prompts' words
    obs, rewards, terms, truncs, infos = env.step({"agent1": 3, "agent2": 0})
    env.plan()                              # the queues so far, a plan file `run` reproduces

    import gymnasium
    env = gymnasium.make("ParaCookKitchen-v0", level="levels/tutorial/04_two_cooks.yaml")

Needs the `env` extra (pettingzoo, gymnasium). See docs/environment.md.
"""

from __future__ import annotations

import gymnasium

from .central import CentralKitchenEnv
from .parallel import KitchenParallelEnv, aec_env, parallel_env

ENV_ID = "ParaCookKitchen-v0"


def register_envs() -> None:
    """Register ParaCookKitchen-v0 with Gymnasium (also run by Gymnasium's plugin entry point)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="game.env.central:CentralKitchenEnv")


register_envs()

__all__ = ["ENV_ID", "CentralKitchenEnv", "KitchenParallelEnv", "aec_env", "parallel_env", "register_envs"]
