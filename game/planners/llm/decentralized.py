"""Decentralized planning: one conversation per agent, planning in rounds and talking through
messages. Each round every agent still at work sees the kitchen at the instant its own queue runs
dry and the messages sent to it, and answers with its next actions and messages; the joint plan
then runs from t = 0. An engine error goes back to the agent at fault, which may repair its batch
up to `attempts` times. The run stops when every order is served, at an error not repaired, when
a round brings neither an action nor a message, or after `rounds` rounds."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, Plan, PlanError, Result, parse_plan

from . import KNOWLEDGE
from .client import ChatClient, Messages, Usage
from .describe import state_text
from .feedback import engine_feedback, plan_feedback, result_feedback
from .messages import Message, Turn, inbox_text, read_turn
from .methods import Outcome, empty_plan, queued_text, run_plan
from .parsing import ReplyParseError
from .prompts import compact, example_text, fill, options_text, orders_text, recipes_text


@dataclass
class Agent:
    """One agent's side of the run: its conversation and what it cost."""

    name: str
    chat: Messages
    usage: Usage = field(default_factory=Usage)
    inbox: list[Message] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # undelivered messages, told next round


@dataclass
class TalkOutcome(Outcome):
    """An Outcome plus the conversation: every message, each round's queue lengths, usage per agent."""

    messages: list[Message] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    agent_usage: dict[str, Usage] = field(default_factory=dict)


def role_text(level: Level, agent: str) -> str:
    kinds = (level.options.get("can_use") or {}).get(agent)
    if kinds is None:
        return fill("dec_role_free")
    return fill("dec_role_limited", kinds=", ".join(kinds) or "nothing")


def knows_recipes(level: Level, agent: str, knowledge: str) -> bool:
    return knowledge == "shared" or agent == level.agent_names[0]


def system_text(level: Level, agent: str) -> str:
    return fill(
        "dec_system",
        agent=agent,
        agents=", ".join(level.agent_names),
        role=role_text(level, agent),
        rules=fill("rules"),
    )


def task_text(level: Level, agent: str, knowledge: str, first_round: str) -> str:
    chef = level.agent_names[0]
    recipes = (
        recipes_text(level) if knows_recipes(level, agent, knowledge) else fill("dec_no_recipes", chef=chef)
    )
    return fill(
        "dec_task",
        agent=agent,
        map=compact(level.to_paracook_map()),
        recipes=recipes,
        orders=orders_text(level),
        agents=", ".join(level.agent_names),
        options=options_text(level),
        round=first_round,
    )


def dry_time(plan: Plan, result: Result, agent: str) -> float:
    assert result.timeline is not None
    spans = [s for s in result.timeline.spans_of(agent) if s.status != "rejected"]
    return spans[-1].end if spans else 0


def finished(plan: Plan, agent: str) -> bool:
    return bool(plan[agent]) and plan[agent][-1].name == "Finish"


def round_text(level: Level, plan: Plan, result: Result, agent: Agent, n: int) -> str:
    assert result.timeline is not None
    t = dry_time(plan, result, agent.name)
    notes = "".join(f"\n(Your {p})" for p in agent.notes)
    return fill(
        "dec_round",
        round=n,
        time=t,
        state=state_text(level, result.timeline.state_at(t), t=t),
        queued=queued_text(result.timeline, level.agent_names, t),
        inbox=inbox_text(agent.inbox),
        notes=notes + ("\n" if notes else ""),
    )


def read_batch(level: Level, agent: str, text: str) -> tuple[Turn | None, tuple | None, str | None]:
    """The turn and its checked actions, or the feedback saying why there are none."""
    try:
        turn = read_turn(text, agent, level.agent_names)
    except ReplyParseError as e:
        return None, None, fill("dec_parse", error=str(e))
    try:
        plan = parse_plan({agent: turn.actions}, level.agent_names)
    except PlanError as e:
        return turn, None, plan_feedback(e)
    return turn, plan[agent], None


@dataclass
class Talk:
    """One task planned by talking agents."""

    level: Level
    client: ChatClient
    attempts: int = 3
    rounds: int = 20
    knowledge: str = "shared"
    tag: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.knowledge not in KNOWLEDGE:
            raise ValueError(f"unknown knowledge {self.knowledge!r} (choose {' or '.join(KNOWLEDGE)})")
        self.agents = {
            a: Agent(a, [{"role": "system", "content": system_text(self.level, a)}])
            for a in self.level.agent_names
        }
        empty = empty_plan(self.level)
        self.out = TalkOutcome(empty, run_plan(self.level, empty), "no_plan")

    async def ask(self, agent: Agent, prompt: str, n: int, attempt: int) -> str:
        agent.chat.append({"role": "user", "content": prompt})
        tag = {**self.tag, "agent": agent.name, "round": n, "attempt": attempt}
        reply = await self.client.complete(agent.chat, tag)
        agent.usage.add(reply)
        self.out.usage.add(reply)
        self.out.attempts += 1
        agent.chat.append({"role": "assistant", "content": reply.text})
        return reply.text

    async def turn(self, agent: Agent, prompt: str, n: int) -> tuple[Turn | None, tuple, str | None]:
        """The agent's batch for this round, asking again after an unreadable reply."""
        feedback = None
        for attempt in range(1, self.attempts + 1):
            text = await self.ask(agent, prompt if feedback is None else feedback, n, attempt)
            turn, batch, feedback = read_batch(self.level, agent.name, text)
            if batch is not None:
                return turn, batch, None
        return None, (), feedback

    def first_prompt(self, agent: Agent, n: int) -> str:
        text = round_text(self.level, self.out.plan, self.out.result, agent, n)
        if n > 1:
            return text
        return "\n\n".join([example_text(), task_text(self.level, agent.name, self.knowledge, text)])

    async def play_round(self, n: int) -> bool:
        """One round; False when the run should stop."""
        active = [a for a in self.level.agent_names if not finished(self.out.plan, a)]
        if not active:
            self.out.note = result_feedback(self.level, self.out.result)
            return False
        times = {a: dry_time(self.out.plan, self.out.result, a) for a in active}
        prompts = {a: self.first_prompt(self.agents[a], n) for a in active}
        for a in active:
            self.agents[a].inbox, self.agents[a].notes = [], []
        answers = await asyncio.gather(*(self.turn(self.agents[a], prompts[a], n) for a in active))
        turns = dict(zip(active, answers, strict=True))
        unreadable = next((a for a in active if turns[a][0] is None), None)
        if unreadable is not None:
            self.out.note = turns[unreadable][2]
            return False
        batches = {a: turns[a][1] for a in active}
        sent = self.post(n, {a: turns[a][0] for a in active}, times)
        result = await self.repair(n, batches, times)
        self.out.rounds.append(
            {
                "round": n,
                "times": times,
                "actions": {a: len(self.out.plan[a]) for a in self.level.agent_names},
            }
        )
        if result.error is not None:
            return False
        if result.done:
            return False
        if not sent and not any(batches.values()):
            self.out.note = f"no agent acted or spoke in round {n}: " + (
                result_feedback(self.level, result) or ""
            )
            return False
        return True

    def post(self, n: int, turns: dict[str, Turn | None], times: dict[str, float]) -> list[Message]:
        """Record this round's messages and put them in their receivers' inboxes."""
        sent = []
        for a, turn in turns.items():
            if turn is None:
                continue
            for receivers, text in turn.messages:
                m = Message(n, a, receivers, text, times[a])
                sent.append(m)
                for r in receivers:
                    self.agents[r].inbox.append(m)
                gone = [r for r in receivers if finished(self.out.plan, r)]
                if gone:
                    self.agents[a].notes.append(
                        f"message to {', '.join(gone)} will not be read: {' and '.join(gone)} finished"
                    )
            self.agents[a].notes += turn.problems
        self.out.messages += sent
        return sent

    async def repair(self, n: int, batches: dict[str, tuple], times: dict[str, float]) -> Result:
        """Run the joint plan; the agent at fault fixes its batch while it has attempts left."""
        tries = {a: 0 for a in batches}
        while True:
            plan = {a: self.out.plan[a] + batches.get(a, ()) for a in self.level.agent_names}
            result = run_plan(self.level, plan)
            fault = result.error_detail.agent if result.error_detail is not None else None
            if result.error is None or fault not in batches or tries[fault] + 1 >= self.attempts:
                break
            tries[fault] += 1
            agent = self.agents[fault]
            turn, batch, feedback = await self.turn(
                agent, engine_feedback(self.level, result, "dec_error"), n
            )
            if turn is None:
                break
            batches[fault] = batch
            self.post(n, {fault: turn}, times)
        self.out.plan, self.out.result = plan, result
        self.out.steps = n
        if result.error is not None:
            self.out.status = "failed"
            self.out.note = engine_feedback(self.level, result, "dec_error")
        else:
            self.out.status = "done" if result.done else "failed"
            self.out.note = None
        return result

    async def run(self) -> TalkOutcome:
        n = 0
        for n in range(1, self.rounds + 1):
            if not await self.play_round(n):
                break
        else:
            self.out.note = f"stopped after {self.rounds} round(s): " + (
                result_feedback(self.level, self.out.result) or "every order served"
            )
        if self.out.status == "done":
            self.out.note = None
        self.out.agent_usage = {a: ag.usage for a, ag in self.agents.items()}
        return self.out


async def solve_talking(
    level: Level,
    client: ChatClient,
    attempts: int = 3,
    rounds: int = 20,
    knowledge: str = "shared",
    tag: dict[str, Any] | None = None,
) -> TalkOutcome:
    return await Talk(level, client, attempts, rounds, knowledge, tag or {}).run()


def talk_fields(o: TalkOutcome) -> dict[str, Any]:
    """What a result record adds for a decentralized run: messages, rounds, usage per agent."""
    return {
        "messages": [m.to_dict() for m in o.messages],
        "rounds": o.rounds,
        "tokens_per_agent": {
            a: {"calls": u.calls, "tokens_in": u.tokens_in, "tokens_out": u.tokens_out}
            for a, u in o.agent_usage.items()
        },
    }
