"""The research environment: PettingZoo's and Gymnasium's own conformance tests, masked random
rollouts that the engine never refuses, and episodes that `run` reproduces from env.plan()."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install '.[env]')")
pytest.importorskip("gymnasium", reason="the env extra is not installed (pip install '.[env]')")

import gymnasium  # noqa: E402
from conftest import examples
from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test  # noqa: E402

from game.cli import main  # noqa: E402
from game.engine import simulate  # noqa: E402
from game.env import ENV_ID, aec_env, parallel_env  # noqa: E402
from game.export import FrameRenderer  # noqa: E402
from game.replay import load_replay  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TWO_COOKS = str(ROOT / "levels/tutorial/04_two_cooks.yaml")
LEVELS = [
    *sorted(str(p) for p in (ROOT / "levels/tutorial").glob("*.yaml")),
    *sorted(str(p) for p in (ROOT / "levels/scenarios").glob("*.yaml")),
    str(ROOT / "levels/suite/burger/seed_42/agent_num_2/orders_num_2.yaml"),
    str(ROOT / "levels/suite/pasta/seed_84/agent_num_3/orders_num_2.yaml"),
    str(ROOT / "levels/suite/sushi/seed_126/agent_num_1/orders_num_1.yaml"),
]


def rollout(env, seed: int, steps: int = 400):
    """Masked random actions until the episode ends or `steps` run out; the last infos."""
    rng = np.random.default_rng(seed)
    _, infos = env.reset(seed=seed)
    for _ in range(steps):
        if not env.agents:
            break
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        _, _, _, _, infos = env.step(actions)
    return infos


def test_pettingzoo_parallel_api():
    parallel_api_test(parallel_env(TWO_COOKS), num_cycles=300)


def test_pettingzoo_seed_test():
    parallel_seed_test(lambda: parallel_env(TWO_COOKS), num_cycles=100)


def test_pettingzoo_aec_api_through_the_conversion():
    api_test(aec_env(TWO_COOKS), num_cycles=300)


def test_gymnasium_check_env_on_the_registered_environment():
    env = gymnasium.make(ENV_ID, level=TWO_COOKS)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and info["action_mask"].shape == (
        2,
        env.unwrapped.inner.table.size,
    )


@settings(max_examples=examples(25), deadline=None, derandomize=True)
@given(level=st.sampled_from(LEVELS), seed=st.integers(0, 10_000))
def test_masked_random_rollouts_are_never_refused_and_run_reproduces_them(level, seed):
    env = parallel_env(level, max_wait=5, max_time=120)
    infos = rollout(env, seed)
    if env.agents:  # still going: end it here and check what ran so far
        result = simulate(env.level, env.plan(), env.rules).to_dict()
    else:
        result = next(iter(infos.values()))["result"]
    assert result["error"] is None, result["error"]
    stepper = env.stepper
    assert [n for n, _ in stepper.sim.kitchen.served] == result["finished_orders"]


def test_an_episode_reproduces_through_the_command_line(tmp_path, capsys):
    env = parallel_env(TWO_COOKS, max_wait=5, max_time=400)
    infos = rollout(env, seed=7, steps=5000)
    assert not env.agents
    result = next(iter(infos.values()))["result"]
    (tmp_path / "plan.json").write_text(json.dumps(env.plan()))
    main(["run", TWO_COOKS, str(tmp_path / "plan.json"), "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert (printed["done"], printed["time"], printed["error"]) == (
        result["done"],
        result["time"],
        result["error"],
    )


def test_the_planner_s_plan_replays_through_the_env():
    plan = json.loads((ROOT / "tests/data/tutorial_plans/04_two_cooks.json").read_text())
    env = parallel_env(TWO_COOKS, max_wait=20)
    _, infos = env.reset()
    taken = {a: 0 for a in plan}
    while env.agents:
        actions = {}
        for a in env.agents:
            if infos[a]["deciding"]:
                queue = plan[a]
                actions[a] = env.table.index(queue[taken[a]]) if taken[a] < len(queue) else 0
                assert taken[a] >= len(queue) or infos[a]["action_mask"][actions[a]] == 1
                taken[a] += 1
        _, _, _, _, infos = env.step(actions)
    result = infos["agent1"]["result"]
    reference = simulate(env.level, plan).to_dict()
    assert (result["done"], result["time"]) == (reference["done"], reference["time"]) == (True, 40)


def test_the_rgb_array_is_the_exporter_s_frame(tmp_path):
    env = parallel_env(TWO_COOKS, render_mode="rgb_array")
    rollout(env, seed=3, steps=12)
    frame = env.render()
    (tmp_path / "plan.json").write_text(json.dumps(env.plan()))
    main(["run", TWO_COOKS, str(tmp_path / "plan.json"), "--replay", str(tmp_path / "r.json")])
    exported = FrameRenderer(load_replay(tmp_path / "r.json")).array(env.stepper.now)
    assert frame.shape == exported.shape and frame.dtype == np.uint8
    assert np.array_equal(frame, exported)


def test_busy_agents_may_only_keep_going_and_the_text_is_the_prompt_s():
    env = parallel_env(TWO_COOKS)
    _, infos = env.reset()
    deciding = [a for a in env.agents if infos[a]["deciding"]]
    assert deciding == ["agent1"]
    assert infos["agent2"]["action_mask"].sum() == 1 and infos["agent2"]["action_mask"][0] == 1
    assert "still to serve, in order: pasta_tomato" in infos["agent1"]["text"]
    assert "it is your turn" in infos["agent1"]["text"] and "keep going" in infos["agent2"]["text"]


def test_a_failed_episode_returns_minus_t_max():
    env = parallel_env(TWO_COOKS)
    _, infos = env.reset()
    total = 0.0
    illegal = int(np.flatnonzero(infos["agent1"]["action_mask"] == 0)[-1])  # an Interact out of reach
    _, rewards, terms, _, infos = env.step({"agent1": illegal, "agent2": 0})
    total += rewards["agent1"]
    assert terms["agent1"] and infos["agent1"]["result"]["error"] is not None
    assert total == -env.penalty_total


@pytest.mark.parametrize("bad", [-1, 37, 10**9, 1.5, float("nan"), "3", True, None])
def test_an_action_outside_the_space_is_refused_never_read_as_another(bad):
    """-1 once ran the last action (Python's negative index) and 1.5 ran action 1; an index the
    space does not hold is refused with the agent, the value and the range, and nothing runs."""
    env = parallel_env(TWO_COOKS)
    env.reset(seed=0)
    assert env.table.size == 37  # 0 keep going, 16 floor tiles, 5 stations twice, Wait 1-10
    with pytest.raises(ValueError, match=r"agent1's action must be a whole number from 0 to 36 .*, not "):
        env.step({"agent1": bad, "agent2": 0})
    assert env.stepper.now == 0 and env.plan() == {"agent1": [], "agent2": []}
    with pytest.raises(ValueError, match="no agent agent3 in this level"):
        env.step({"agent3": 0})
    team = gymnasium.make(ENV_ID, level=TWO_COOKS)
    team.reset(seed=0)
    for action in ([bad, 0], [0], [[0, 0]], [[0], 0]):
        with pytest.raises(ValueError, match="agent1's action must be|one index per agent"):
            team.step(action)


@pytest.mark.parametrize(
    "options, words",
    [
        ({"max_wait": 10**9}, "max_wait must be a whole number from 1 to 1,000"),  # once a hang
        ({"max_wait": -1}, "max_wait must be"),
        ({"max_wait": 1.5}, "max_wait must be"),
        ({"max_wait": True}, "max_wait must be"),
        ({"max_time": float("nan")}, "max_time must be a number above 0 and at most 1,000,000"),
        ({"max_time": float("inf")}, "max_time must be"),
        ({"max_time": -5}, "max_time must be"),
        ({"render_mode": "bogus"}, "render_mode must be None or one of rgb_array, human"),
    ],
)
def test_options_out_of_range_are_refused_before_anything_is_built(options, words):
    with pytest.raises(ValueError, match=words):
        parallel_env(TWO_COOKS, **options)
    with pytest.raises(ValueError, match=words):
        gymnasium.make(ENV_ID, level=TWO_COOKS, **options)


def _example(name: str):
    from scripts import load_script

    return load_script("examples", name)


def test_the_llm_agent_example_plays_the_first_legal_action_each_turn():
    import asyncio

    from game.planners.llm.client import Reply

    llm = _example("llm_agent")
    prompts: list[str] = []

    class Scripted:
        async def complete(self, messages, tag=None):
            prompts.append(messages[-1]["content"])
            legal = [line for line in messages[-1]["content"].splitlines() if line[:1].isdigit()]
            pick = next(line for line in legal if not line.startswith("0:"))  # the first real action
            return Reply(f"I choose {pick.split(':')[0]}.", 10, 2, 0.0)

    env = parallel_env(str(ROOT / "levels/tutorial/01_first_salad.yaml"), max_wait=3, max_time=30)
    result = asyncio.run(llm.play(Scripted(), env, max_steps=60))
    assert result["error"] is None and prompts
    assert "Legal actions:" in prompts[0] and "You are agent1; it is your turn" in prompts[0]
    assert llm.read_choice("no number here", np.array([1, 1], np.int8)) == 0
    assert llm.read_choice("take 7 or 1", np.array([1, 1, 0], np.int8)) == 1


def test_the_planner_replay_example_matches_the_engine():
    example = _example("planner_replay")
    plan = json.loads((ROOT / "tests/data/tutorial_plans/02_chopping.json").read_text())
    env = parallel_env(str(ROOT / "levels/tutorial/02_chopping.yaml"), max_wait=40)
    through_env = example.replay(env, plan)
    direct = simulate(env.level, plan).to_dict()
    assert (through_env["done"], through_env["time"]) == (direct["done"], direct["time"])


def test_human_render_mode_draws_the_frame_in_a_window():
    import pygame

    env = parallel_env(TWO_COOKS, render_mode="human")
    rollout(env, seed=5, steps=4)
    window = pygame.display.get_surface()
    assert window is not None and window.get_size() == env.frame().shape[1::-1]
    env.close()
    assert not pygame.display.get_init()
