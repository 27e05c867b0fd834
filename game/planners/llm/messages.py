"""The message channel of decentralized planning: what an agent's reply holds (its next actions
and its messages to named agents), read as forgivingly as plans are, and the messages as records.

An agent answers with one JSON object:
    {"actions": [...], "messages": [{"to": "agent2", "text": "..."}]}
Also accepted: "plan" for "actions", `{"agent1": [...]}` keyed by the agent's own name, a bare
list of actions, "message"/"say" for "messages", one message object instead of a list, a
mapping {"agent2": "text"}, a receiver list in "to", "all" for every other agent, and "content"
or "message" for "text". A message that still cannot be read is dropped with a reason for its
sender; it never costs the actions beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from game.inputs import short_repr

from .parsing import ReplyParseError, extract_json

ACTION_KEYS = ("actions", "plan", "queue")
MESSAGE_KEYS = ("messages", "message", "say")
MAX_MESSAGES = 8  # messages one agent may send in one round; the rest are not sent
MAX_MESSAGE_CHARS = 2000  # a longer text is cut, with a note to its sender
TEXT_KEYS = ("text", "content", "message", "body")
TO_KEYS = ("to", "receivers", "receiver", "recipient", "recipients")
EVERYONE = ("all", "everyone", "everybody", "team")


@dataclass(frozen=True)
class Message:
    """One message as sent: the round, who to whom, the words, and the simulated time."""

    round: int
    sender: str
    receivers: tuple[str, ...]
    text: str
    time: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "sender": self.sender,
            "receivers": list(self.receivers),
            "text": self.text,
            "time": self.time,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Message:
        return cls(int(d["round"]), str(d["sender"]), tuple(d["receivers"]), str(d["text"]), d["time"])


@dataclass
class Turn:
    """One agent's reply, read: its raw actions, its messages (receivers, text) and the
    problems with messages that could not be sent."""

    actions: list[Any]
    messages: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def looks_like_turn(data: Any, agent: str) -> bool:
    if isinstance(data, list):
        return True
    if not isinstance(data, dict):
        return False
    return any(k in data for k in (*ACTION_KEYS, *MESSAGE_KEYS, agent))


def _actions_of(data: Any, agent: str) -> list[Any]:
    if isinstance(data, list):
        return data
    for key in (*ACTION_KEYS, agent):
        value = data.get(key)
        if isinstance(value, dict) and isinstance(value.get(agent), list):
            return value[agent]  # {"plan": {"agent1": [...]}}
        if isinstance(value, list):
            return value
        if value is not None:
            raise ReplyParseError(f"'{key}' must be a list of actions, not {type(value).__name__}")
    return []


def read_turn(text: str, agent: str, agents: tuple[str, ...]) -> Turn:
    """The reply's actions and messages; ReplyParseError when no such object can be read."""
    data = extract_json(
        text,
        lambda d: looks_like_turn(d, agent),
        '{"actions": [...], "messages": [{"to": "agent2", "text": "..."}]}',
    )
    turn = Turn(_actions_of(data, agent))
    raw = next((data[k] for k in MESSAGE_KEYS if isinstance(data, dict) and k in data), None)
    items = _message_items(raw)
    for n, item in enumerate(items[:MAX_MESSAGES], 1):
        try:
            to, said = _read_message(item, agent, agents)
        except ValueError as e:
            turn.problems.append(f"message {n} was not sent: {e}")
            continue
        if len(said) > MAX_MESSAGE_CHARS:
            said = said[: MAX_MESSAGE_CHARS - 1] + "\u2026"
            turn.problems.append(f"message {n} was cut to {MAX_MESSAGE_CHARS:,} characters")
        turn.messages.append((to, said))
    if len(items) > MAX_MESSAGES:
        turn.problems.append(
            f"only {MAX_MESSAGES} messages a round are sent; {len(items) - MAX_MESSAGES} were not"
        )
    return turn


def _message_items(raw: Any) -> list[Any]:
    if raw is None:
        return []
    if isinstance(raw, list):
        return raw
    if isinstance(raw, dict) and not any(k in raw for k in (*TO_KEYS, *TEXT_KEYS)):
        return [{"to": k, "text": v} for k, v in raw.items()]  # {"agent2": "text"}
    return [raw]


def _read_message(item: Any, sender: str, agents: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    if not isinstance(item, dict):
        raise ValueError(f'expected {{"to": AGENT, "text": TEXT}}, got {_short(item)}')
    to = next((item[k] for k in TO_KEYS if k in item), None)
    text = next((item[k] for k in TEXT_KEYS if k in item), None)
    if to is None:
        raise ValueError('it names no receiver (give "to": an agent name)')
    if not isinstance(text, str) or not text.strip():
        raise ValueError('it has no text (give "text": what to say)')
    return _receivers(to, sender, agents), text.strip()


def _receivers(to: Any, sender: str, agents: tuple[str, ...]) -> tuple[str, ...]:
    names = [to] if isinstance(to, str) else to
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f'"to" must be an agent name or a list of names, not {_short(to)}')
    out: list[str] = []
    for name in names:
        key = name.strip()
        if key.lower() in EVERYONE:
            out += [a for a in agents if a != sender]
        elif key in agents and key != sender:
            out.append(key)
        elif key == sender:
            raise ValueError(f"{sender} cannot send a message to itself")
        else:
            raise ValueError(f"no agent called {key!r} (agents: {', '.join(agents)})")
    return tuple(dict.fromkeys(out))


def _short(value: Any, n: int = 60) -> str:
    return short_repr(value, n)


def inbox_text(messages: list[Message]) -> str:
    if not messages:
        return "(no messages)"
    # the words as a JSON string: quoted and escaped, so no message can forge a line of the inbox
    return "\n".join(
        f"- from {m.sender} (sent at t = {m.time:g}): {json.dumps(m.text, ensure_ascii=False)}"
        for m in messages
    )
