"""The messages a replay carries (decentralized LLM runs keep them in `source.messages`), as timed
lines a viewer can list beside its events. Plain data in, plain data out: an entry that is not a
well-formed message is skipped, never an error, so a hand-edited source cannot break a viewer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MessageLine:
    time: float  # simulated time the sender sent it at
    round: int
    sender: str
    receivers: tuple[str, ...]
    text: str

    def sentence(self) -> str:
        t = int(self.time) if float(self.time).is_integer() else self.time
        return f't = {t} {self.sender} to {", ".join(self.receivers)}: "{self.text}"'


def _line(m: Any) -> MessageLine | None:
    if not isinstance(m, dict):
        return None
    time, rnd, sender, receivers, text = (m.get(k) for k in ("time", "round", "sender", "receivers", "text"))
    if not isinstance(time, int | float) or isinstance(time, bool) or not isinstance(rnd, int):
        return None
    if not isinstance(sender, str) or not isinstance(text, str):
        return None
    if not isinstance(receivers, list) or not all(isinstance(r, str) for r in receivers):
        return None
    return MessageLine(float(time), rnd, sender, tuple(receivers), text)


def replay_messages(source: Any) -> list[MessageLine]:
    """The replay's messages in time order (ties: by round, then as recorded)."""
    raw = source.get("messages") if isinstance(source, dict) else None
    lines = [x for x in (_line(m) for m in raw) if x is not None] if isinstance(raw, list) else []
    return sorted(lines, key=lambda m: (m.time, m.round))


def messages_until(lines: list[MessageLine], t: float) -> list[MessageLine]:
    """The messages sent at or before t (what a viewer at time t has seen)."""
    return [m for m in lines if m.time <= t + 1e-9]
