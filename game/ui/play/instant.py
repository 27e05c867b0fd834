"""Same-instant order, as the engine applies it (RULES.md, "Time and order of events"): at one
event time the agents whose actions end then are handled one by one, first the one whose running
action began earliest, ties (and t = 0) in map order. An earlier agent's effect is seen by the
later ones, so this order decides hand-overs and who gets a station first. Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.engine import Timeline
from game.engine.diagnosis import rule_words
from game.engine.errors import ErrorDetail
from game.engine.narration import num


@dataclass(frozen=True)
class Turn:
    agent: str
    began: float  # when the action that ends at this instant began (the instant itself at t = 0)
    rank: int  # map order


@dataclass(frozen=True)
class Meeting:
    """Two or more agents using one station at one instant, in the order the engine handles them."""

    t: float
    station: str
    turns: tuple[Turn, ...]

    @property
    def agents(self) -> list[str]:
        return [turn.agent for turn in self.turns]


def _index(
    timeline: Timeline, agents: Sequence[str]
) -> tuple[dict[float, list[Turn]], dict[tuple[str, float], set[str]]]:
    """instant -> the agents handled then (engine order); (agent, instant) -> stations it used then."""
    rank = {a: i for i, a in enumerate(agents)}
    turns: dict[float, list[Turn]] = {}
    used: dict[tuple[str, float], set[str]] = {}
    started: set[str] = set()
    for s in timeline.spans:
        if s.agent not in rank:
            continue
        if s.start == 0 and s.agent not in started:
            started.add(s.agent)
            turns.setdefault(0.0, []).append(Turn(s.agent, 0.0, rank[s.agent]))
        if s.end > s.start and s.status != "rejected":
            turns.setdefault(s.end, []).append(Turn(s.agent, s.start, rank[s.agent]))
        if s.action.get("action") in ("Interact", "Process"):
            for t in (s.start, s.end):
                used.setdefault((s.agent, t), set()).add(str(s.action.get("target")))
    for group in turns.values():
        group.sort(key=lambda turn: (turn.began, turn.rank))
    return turns, used


def turns_at(timeline: Timeline, agents: Sequence[str], t: float) -> list[Turn]:
    """The agents handled at instant t, in the engine's order."""
    return _index(timeline, agents)[0].get(t, [])


def meetings(timeline: Timeline, agents: Sequence[str]) -> list[Meeting]:
    """Every instant where agents handled one after another use the same station."""
    turns, used = _index(timeline, agents)
    out = []
    for t in sorted(turns):
        group = turns[t]
        if len(group) < 2:
            continue
        users: dict[str, list[Turn]] = {}
        for turn in group:
            for station in used.get((turn.agent, t), ()):
                users.setdefault(station, []).append(turn)
        out += [Meeting(t, st, tuple(ts)) for st, ts in sorted(users.items()) if len(ts) > 1]
    return out


def order_sentence(first: Turn, second: Turn, t: float) -> str:
    """'at t = 15 agent2 is handled before agent1: ...' with the reason that applies."""
    why = rule_words(t, first.agent, first.began, second.agent, second.began)
    return f"at t = {num(t)} {first.agent} is handled before {second.agent}: {why}"


def explain_error(timeline: Timeline, agents: Sequence[str], err: ErrorDetail) -> str | None:
    """Why the order at the error's instant mattered, when another agent used the same station then."""
    target = err.action.get("target")
    if err.action.get("action") not in ("Interact", "Process") or not isinstance(target, str):
        return None
    for meeting in meetings(timeline, agents):
        if meeting.t == err.time and meeting.station == target and err.agent in meeting.agents:
            mine = next(turn for turn in meeting.turns if turn.agent == err.agent)
            other = next(turn for turn in meeting.turns if turn.agent != err.agent)
            first, second = sorted((mine, other), key=lambda turn: (turn.began, turn.rank))
            return order_sentence(first, second, err.time)
    return None
