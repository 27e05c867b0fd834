"""The whole team as one Gymnasium environment (`ParaCookKitchen-v0`), for single-agent libraries.

The action is one index per agent (MultiDiscrete, map order), read as in the parallel
environment: only the deciding agent's counts. The observation is the parallel environment's
without the 'this agent' channel; `info["action_mask"]` stacks the agents' masks (agents x
actions) and `info["deciding"]` names the agent whose choice counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from game.engine import Level

from .parallel import KitchenParallelEnv


class CentralKitchenEnv(gym.Env):
    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 4}

    def __init__(self, level: Level | str | Path, render_mode: str | None = None, **options: Any):
        self.inner = KitchenParallelEnv(level, render_mode=render_mode, **options)
        self.render_mode = render_mode
        names = self.inner.possible_agents
        self.agent_names = names
        self.action_space = spaces.MultiDiscrete([self.inner.table.size] * len(names))
        self.observation_space = self.inner.observer.space
        self._last_obs: dict[str, Any] | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, infos = self.inner.reset(seed=seed, options=options)
        return self._team(obs), self._info(infos)

    def step(self, action):
        if _ndim(action) != 1 or len(action) != len(self.agent_names):
            raise ValueError(
                f"the action must hold one index per agent ({len(self.agent_names)}), not {action!r}"[:300]
            )
        values = action.tolist() if isinstance(action, np.ndarray) else list(action)  # each as given
        actions = dict(zip(self.agent_names, values, strict=True))
        obs, rewards, terms, truncs, infos = self.inner.step(actions)
        reward = float(next(iter(rewards.values()), 0.0))
        terminated = any(terms.values())
        truncated = any(truncs.values())
        return self._team(obs), reward, terminated, truncated, self._info(infos)

    def plan(self) -> dict[str, list[dict[str, Any]]]:
        return self.inner.plan()

    def render(self):
        return self.inner.render()

    def close(self) -> None:
        self.inner.close()

    def _team(self, obs: dict[str, Any]) -> dict[str, Any]:
        first = obs[self.agent_names[0]]
        grid = first["grid"].copy()
        grid[-1] = 0  # no 'this agent' for the team
        return {**first, "grid": grid}

    def _info(self, infos: dict[str, dict[str, Any]]) -> dict[str, Any]:
        names = self.agent_names
        mask = np.stack([infos[a]["action_mask"] for a in names])
        deciding = next((a for a in names if infos[a]["deciding"]), None)
        info: dict[str, Any] = {"action_mask": mask, "deciding": deciding, "time": infos[names[0]]["time"]}
        if "text" in infos[names[0]]:
            info["text"] = infos[deciding or names[0]]["text"]
        if "result" in infos[names[0]]:
            info["result"] = infos[names[0]]["result"]
        return info


def _ndim(value: Any) -> int:
    try:
        return int(np.ndim(value))
    except ValueError:  # a ragged list: not one index per agent
        return -1
