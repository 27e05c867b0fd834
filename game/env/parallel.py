"""The kitchen as a PettingZoo ParallelEnv, one decision at a time on the engine's own clock.

Each step runs the engine to the next moment an agent has finished its queue and must choose.
That agent's action is the one that counts; every other agent is busy (or waits its turn at the
same instant, in the engine's order) and its mask allows only "keep going". For the deciding
agent, keep going means Wait 1. See docs/environment.md.

Reward: every agent gets minus the time the step took, and an episode that ends in an engine
error or is truncated gets the rest of the level's T_max as well, so an episode's return is minus
its pOCT share: OCT for a served level, T_max for a failed one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from game.engine import Action, Level, simulate
from game.engine.limits import MAX_TIME
from game.engine.metrics import t_max
from game.planners.llm.describe import state_text

from .actions import KEEP_GOING, ActionTable
from .observe import Observer
from .stepper import Stepper

WAIT_ONE = Action("Wait", duration=1)


MAX_WAIT_OPTION = 1_000  # the longest Wait an action space holds (each length is an action)


def _whole(value: Any) -> bool:
    """An int (numpy's too), not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _check_options(max_wait: Any, max_time: Any, render_mode: Any) -> None:
    """The options' ranges, checked before anything is built (a huge max_wait is a huge space)."""
    if not _whole(max_wait) or not 1 <= max_wait <= MAX_WAIT_OPTION:
        raise ValueError(
            f"max_wait must be a whole number from 1 to {MAX_WAIT_OPTION:,}, not {max_wait!r}"[:200]
        )
    number = isinstance(max_time, int | float | np.number) and not isinstance(max_time, bool | np.bool_)
    if max_time is not None and not (number and 0 < max_time <= MAX_TIME):
        raise ValueError(
            f"max_time must be a number above 0 and at most {MAX_TIME:,}, not {max_time!r}"[:200]
        )
    if render_mode not in (None, *KitchenParallelEnv.metadata["render_modes"]):
        modes = ", ".join(KitchenParallelEnv.metadata["render_modes"])
        raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}"[:200])


def load(level: Level | str | Path, rules: str | None) -> tuple[Level, str]:
    if not isinstance(level, Level):
        from game.levels import load_level

        level = load_level(level)
    return level, rules or level.rules


class KitchenParallelEnv(ParallelEnv):
    metadata = {"name": "paracook_kitchen_v0", "render_modes": ["rgb_array", "human"], "render_fps": 4}

    def __init__(
        self,
        level: Level | str | Path,
        rules: str | None = None,
        max_wait: int = 10,
        max_time: float | None = None,
        render_mode: str | None = None,
        text: bool = True,
    ):
        _check_options(max_wait, max_time, render_mode)
        self.level, self.rules = load(level, rules)
        self.max_time = float(max_time) if max_time is not None else float(t_max(self.level))
        self.render_mode = render_mode
        self.text = text
        self.table = ActionTable(self.level, max_wait)
        self.observer = Observer(self.level)
        self.possible_agents = list(self.level.agent_names)
        self.agents: list[str] = []
        self.penalty_total = float(t_max(self.level))
        self.stepper = Stepper(self.level, self.rules)
        self.result: dict[str, Any] | None = None
        self._window: Any = None

    @functools.cache  # noqa: B019 - one space per agent for the env's life
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observer.space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(self.table.size)

    # -- the episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        self.stepper = Stepper(self.level, self.rules)
        self.agents = list(self.possible_agents)
        self.result = None
        self.deciding = self.stepper.decider()
        obs, infos = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, infos

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        start = self.stepper.now
        if not isinstance(actions, Mapping):
            raise TypeError(f"actions must map agent names to action indices, not {type(actions).__name__}")
        unknown = sorted(str(a) for a in actions if a not in self.possible_agents)
        if unknown:
            raise ValueError(
                f"no agent {', '.join(unknown)} in this level (agents: {', '.join(self.possible_agents)})"
            )
        chosen = {agent: self._index(agent, value) for agent, value in actions.items()}  # all checked
        if self.deciding is not None:
            index = chosen.get(self.deciding.name, KEEP_GOING)
            self.stepper.give(self.table.action(index) or WAIT_ONE)
            self.deciding = self.stepper.decider()
        elapsed = self.stepper.now - start
        over, cut = self.stepper.over, self.stepper.now >= self.max_time and not self.stepper.over
        failed = self.stepper.error is not None or cut or (over and not self.stepper.served_all)
        reward = -elapsed - (max(0.0, self.penalty_total - self.stepper.now) if failed else 0.0)
        obs, infos = self._observe()
        if over or cut:
            self.result = simulate(self.level, self.plan(), self.rules, record=False).to_dict()
            for agent in self.agents:
                infos[agent]["result"] = self.result
        rewards = {a: reward for a in self.agents}
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def _index(self, agent: str, value: Any) -> int:
        """An agent's action as an index of its space: a whole number (numpy's too) in range; a
        negative, fractional or other value is refused, never read as another action."""
        if not _whole(value) or not 0 <= value < self.table.size:
            raise ValueError(
                f"{agent}'s action must be a whole number from 0 to {self.table.size - 1} "
                f"(an index of its action space), not {value!r}"[:300]
            )
        return int(value)

    def plan(self) -> dict[str, list[dict[str, Any]]]:
        """The queues run so far, as a plan file: `main.py run LEVEL plan.json` gives this run."""
        return {name: [a.to_dict() for a in queue] for name, queue in self.stepper.queues().items()}

    # -- what the agents see -------------------------------------------------------------------
    def _observe(self) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        k, now = self.stepper.sim.kitchen, self.stepper.now
        shared = self.observer.shared(k, now)
        words = state_text(self.level, _light_snapshot(k), t=now) if self.text else ""
        obs, infos = {}, {}
        for agent in self.possible_agents:
            mine = self.deciding is not None and self.deciding.name == agent
            obs[agent] = self.observer.for_agent(shared, k, agent)
            mask = self.table.mask(k, self.deciding, now) if mine else self.table.keep_going()
            mask[KEEP_GOING] = 1
            info: dict[str, Any] = {"action_mask": mask, "deciding": mine, "time": now}
            if self.text:
                info["text"] = _text(words, agent, mine, now)
            infos[agent] = info
        return obs, infos

    # -- pictures ------------------------------------------------------------------------------
    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            return None
        frame = self.frame()
        if self.render_mode == "human":
            self._show(frame)
            return None
        return frame

    def frame(self) -> np.ndarray:
        """The exporter's frame of the run so far at the current instant (H x W x 3 uint8)."""
        from game.export import FrameRenderer
        from game.replay.file import Replay

        plan = self.plan()
        result = simulate(self.level, plan, self.rules)
        assert result.timeline is not None
        replay = Replay(self.level, plan, result.to_dict(), result.timeline, self.rules, {"kind": "env"})
        return FrameRenderer(replay).array(self.stepper.now)

    def _show(self, frame: np.ndarray) -> None:
        import pygame

        if self._window is None:
            pygame.display.init()
            self._window = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            pygame.display.set_caption(f"ParaCook Kitchen: {self.level.title or self.level.name}")
        pygame.surfarray.blit_array(self._window, frame.swapaxes(0, 1))
        pygame.event.pump()
        pygame.display.flip()

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None


def _light_snapshot(k) -> dict[str, Any]:
    """What state_text reads of the kitchen (the snapshot without its progress share)."""
    return {
        "agents": {
            a.name: {
                "pos": a.pos,
                "held": None if a.held is None else a.held.to_dict(),
                "finished": a.finished,
            }
            for a in k.agents
        },
        "stations": {n: (None if i is None else i.to_dict()) for n, i in k.surface.items()},
        "dirty_plates": k.dirty_plates,
        "pending_returns": k.pending_returns,
        "served": k.served,
    }


def _text(words: str, agent: str, deciding: bool, now: float) -> str:
    turn = "it is your turn to choose an action" if deciding else "you are busy: keep going"
    return f"t = {now:g}. You are {agent}; {turn}.\n{words}"


def parallel_env(level: Level | str | Path, **options: Any) -> KitchenParallelEnv:
    """A PettingZoo ParallelEnv over a level (a Level, a level file, or a bundled level's path)."""
    return KitchenParallelEnv(level, **options)


def aec_env(level: Level | str | Path, **options: Any):
    """The same environment in PettingZoo's AEC form (by PettingZoo's own conversion)."""
    from pettingzoo.utils.conversions import parallel_to_aec

    return parallel_to_aec(parallel_env(level, **options))
