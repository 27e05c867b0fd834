"""A closed-loop LLM agent: at each decision the model reads the kitchen (infos["text"], the
words the LLM planners' prompts use) and the legal actions, and answers with one of them.

    OPENAI_API_KEY=... python examples/llm_agent.py [LEVEL] --model MODEL [--base-url URL]

Works with any OpenAI-compatible endpoint through the project's client (retries, backoff,
timeouts). A reply that names no legal action counts as "keep going" (Wait 1).
"""

from __future__ import annotations

import argparse
import asyncio
import re

import numpy as np

from game.env import parallel_env
from game.planners.llm.client import ChatClient

SYSTEM = (
    "You control one cook in a grid kitchen. Orders must be served in the order given, as fast "
    "as possible. Answer with the number of exactly one of the legal actions listed, nothing else."
)


def legal_lines(env, mask: np.ndarray) -> list[str]:
    out = []
    for i in np.flatnonzero(mask):
        action = env.table.action(int(i))
        out.append(f"{i}: {'keep going (Wait 1)' if action is None else action}")
    return out


def read_choice(reply: str, mask: np.ndarray) -> int:
    """The first number in the reply that is a legal action; 0 (keep going) when there is none."""
    for token in re.findall(r"\d+", reply):
        i = int(token)
        if i < len(mask) and mask[i]:
            return i
    return 0


async def choose(client: ChatClient, env, text: str, mask: np.ndarray) -> int:
    prompt = f"{text}\n\nLegal actions:\n" + "\n".join(legal_lines(env, mask))
    reply = await client.complete(
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
    )
    return read_choice(reply.text, mask)


async def play(client: ChatClient, env, max_steps: int) -> dict:
    obs, infos = env.reset()
    for _ in range(max_steps):
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            info = infos[agent]
            deciding = info["deciding"]
            actions[agent] = await choose(client, env, info["text"], info["action_mask"]) if deciding else 0
        obs, rewards, terms, truncs, infos = env.step(actions)
    if env.agents:
        from game.engine import simulate

        return simulate(env.level, env.plan(), env.rules).to_dict()
    return next(iter(infos.values()))["result"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("level", nargs="?", default="levels/tutorial/01_first_salad.yaml")
    p.add_argument("--model", required=True)
    p.add_argument("--base-url")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY")
    p.add_argument("--max-steps", type=int, default=200)
    args = p.parse_args()
    client = ChatClient(args.model, args.base_url, args.api_key_env)
    result = asyncio.run(play(client, parallel_env(args.level, max_wait=5), args.max_steps))
    print(f"done={result['done']} time={result['time']} error={result['error']}")


if __name__ == "__main__":
    main()
