"""What a run cost in talk: messages per task and tokens per agent, for putting centralized
and decentralized LLM runs side by side. Runs without the numbers (human or planner results)
are left out of them; the columns appear only when some run has them."""

from __future__ import annotations

from typing import Any

TALK = ("Msgs", "Tok/agent")
TALK_UNITS = {"Msgs": "per task", "Tok/agent": "tokens"}
TALK_NOTE = (
    "Msgs: messages the agents sent each other per task (0 when one model plans for all). "
    "Tok/agent: prompt and reply tokens per task divided by its agents."
)


def talk_of_record(data: dict[str, Any]) -> dict[str, float | None]:
    """The `Run` fields of a result record: its message count (when it says how it was planned)
    and its total tokens (when it counted them)."""
    messages = data.get("messages")
    count: float | None = None
    if isinstance(messages, list):
        count = float(len(messages))
    elif isinstance(data.get("method"), str) and isinstance(data.get("tokens_in"), int | float):
        count = 0.0  # planned by one model: nobody talks
    tokens = [data.get("tokens_in"), data.get("tokens_out")]
    total = float(sum(tokens)) if all(isinstance(t, int | float) for t in tokens) else None
    return {"messages": count, "tokens": total}
