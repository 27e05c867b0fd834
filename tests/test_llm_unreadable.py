"""An LLM plan with unreadable actions still runs up to the first one; the model hears of all."""

from __future__ import annotations

import asyncio
import json

from test_properties import LEVEL

from game.planners.llm.client import Reply
from game.planners.llm.methods import read_plan, solve_whole

PLAN = {
    "agent1": [{"action": "MoveTo", "target": [1, 1]}, {"action": "Chop", "target": "chopping_board1"}],
    "agent2": [{"action": "Wait", "duration": 3}, "Serve"],
}


class Scripted:
    """Answers every request with the same reply."""

    max_tokens = None  # the reply-length limit a truncation feedback names

    def __init__(self, text: str) -> None:
        self.text = text
        self.requests: list[list[dict]] = []

    async def complete(self, messages, tag=None) -> Reply:
        self.requests.append(list(messages))
        return Reply(self.text, 10, 10, 0.0)


def test_read_plan_returns_the_plan_and_lists_every_unreadable_action():
    plan, feedback = read_plan(LEVEL, json.dumps(PLAN))
    assert plan is not None and [a.name for a in plan["agent1"]] == ["MoveTo", "Unreadable"]
    assert "agent1 action 1 (Chop): field 'action' must be one of" in feedback
    assert 'agent2 action 1 ("Serve"): an action must be an object' in feedback


def test_whole_plan_method_keeps_the_partial_run_and_feeds_back_all_problems():
    client = Scripted(json.dumps(PLAN))
    out = asyncio.run(solve_whole(LEVEL, "io", client, 2, {}))
    assert out.status == "failed" and out.attempts == 2
    assert out.result.error_detail.kind == "invalid_action"
    assert out.result.error_detail.agent == "agent1" and out.result.time == 3  # MoveTo (1, 1) ran
    assert out.result.agent_progress == {"agent1": "1/2", "agent2": "1/2"}
    feedback = client.requests[1][-1]["content"]
    assert "agent1 action 1 (Chop)" in feedback and 'agent2 action 1 ("Serve")' in feedback
