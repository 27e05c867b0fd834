"""What an action did, in a few words for the timeline's hover ("picks up chopped tomato from
chopping_board2"), read from the engine's frames before and after it. Pure Python."""

from __future__ import annotations

from typing import Any

from game.engine import ActionSpan, Timeline


def _item(item: Any) -> str:
    if not isinstance(item, dict):
        return "nothing"
    kind = item.get("kind")
    if kind == "ingredient":
        return f"{item.get('state', 'raw')} {item.get('name', '?')}"
    if kind == "dirty_plate":
        return "a dirty plate"
    contents = [_item(i) for i in item.get("contents", ())]
    return f"a {kind}" + (f" with {', '.join(contents)}" if contents else "")


def _held(timeline: Timeline, agent: str, frame: int) -> Any:
    if not timeline.states:
        return None
    frame = min(max(0, frame), len(timeline.states) - 1)
    return timeline.states[frame]["agents"].get(agent, {}).get("held")


def sentence(timeline: Timeline, span: ActionSpan) -> str:
    a = span.action
    name, target = a.get("action"), a.get("target")
    if span.status == "rejected":
        return "was refused before it started"
    if name == "MoveTo":
        x, y = target if isinstance(target, (list, tuple)) and len(target) == 2 else ("?", "?")
        return f"walks to ({x}, {y})"
    if name == "Wait":
        return f"waits {a.get('duration', 1):g}" if isinstance(a.get("duration"), (int, float)) else "waits"
    if name == "Finish":
        return "stops for good"
    if name == "Process":
        kind = (
            "washes at" if "sink" in str(target) else "chops at" if "board" in str(target) else "processes at"
        )
        return f"{kind} {target}"
    if name != "Interact":
        return str(name)
    end = timeline.frame_index(span.end)
    before = _held(timeline, span.agent, end - 1 if timeline.times[end] == span.end and end else end)
    after = _held(timeline, span.agent, end)
    if span.status in ("failed", "cut"):
        return f"tries to use {target} holding {_item(before)}"
    if before is None and after is not None:
        return f"picks up {_item(after)} from {target}"
    if before is not None and after is None:
        verb = "serves" if "serving" in str(target) else "throws away" if "trash" in str(target) else "puts"
        return f"{verb} {_item(before)}" + ("" if verb != "puts" else f" on {target}")
    if before != after:
        return f"at {target}: now holds {_item(after)}"
    return f"uses {target}"
