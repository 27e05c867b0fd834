"""The failing action, the event it produced, and look-ups of what happened before it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..level import Level
from ..narration import Event, Narration, action_words, item_words, num
from ..timeline import ActionSpan, Timeline
from .model import Cause

HAND_KINDS = ("dispense", "take", "put", "combine", "serve", "trash")
STATION_KINDS = ("take", "put", "combine", "chop", "wash", "cooked", "burnt", "plate_back")


class Context:
    """What the handlers of one error kind ask about the run."""

    def __init__(
        self,
        level: Level,
        story: Narration,
        err: Mapping[str, Any],
        timeline: Timeline | None,
        rules: str = "paracook",
    ):
        self.level, self.story, self.err, self.timeline, self.rules = level, story, err, timeline, rules
        self.agent = "" if err.get("agent") is None else str(err.get("agent"))
        index = err.get("action_index")
        self.index = index if isinstance(index, int) and not isinstance(index, bool) else None
        self.time = _float(err.get("time"))
        action = err.get("action")
        self.action: dict[str, Any] = action if isinstance(action, dict) else {}
        self.reason = str(err.get("reason", ""))
        target = self.action.get("target")
        self.station = target if isinstance(target, str) and target in level.station_by_name else None
        mine = (
            [e for e in story.for_action(self.agent, self.index) if e.is_error]
            if self.index is not None
            else []
        )
        self.failed: Event | None = mine[-1] if mine else None
        self.seq = self.failed.seq if self.failed else len(story.events)
        self.before = [e for e in story.events if e.seq < self.seq]

    @property
    def kind(self) -> str:
        return str(self.err.get("kind", ""))

    def last(self, test: Callable[[Event], bool]) -> Event | None:
        for e in reversed(self.before):
            if test(e):
                return e
        return None

    def hand(self) -> dict | None:
        return self.failed.hand if self.failed else None

    def top(self) -> dict | None:
        return self.failed.on if self.failed else None

    def station_kind(self, name: str | None) -> str | None:
        station = self.level.station_by_name.get(name) if name else None
        return station.kind if station else None

    # -- causes every handler may give ---------------------------------------------------------
    def hand_cause(self, agent: str | None = None) -> Cause:
        agent = agent or self.agent
        e = self.last(lambda e: e.agent == agent and e.kind in HAND_KINDS)
        if e is None:
            return Cause("holding", f"{agent} has held nothing since the start", 0.0, agent)
        verb = "held nothing" if e.hand is None else f"held {item_words(e.hand)}"
        text = f"{agent} has {verb} since t = {num(e.time)}: {e.text}"
        return Cause("holding", text, e.time, e.agent, e.action_index)

    def station_cause(self, station: str) -> Cause:
        """What the station held, and the event that left it so; 'moved_away' when that event
        took something off it (by another agent, or by the failing agent earlier)."""
        e = self.last(lambda e: e.station == station and e.kind in STATION_KINDS)
        if e is None:
            start = self.level.station_by_name[station].item
            state = "been empty" if not start else f"held the {start} it started with"
            return Cause("station_state", f"{station} has {state} since the start", 0.0)
        if e.kind == "plate_back":
            text = f"the last dirty plate came back to {station} at t = {num(e.time)}"
            return Cause("station_state", text, e.time)
        state = "been empty" if e.on is None else f"held {item_words(e.on)}"
        text = f"{station} has {state} since t = {num(e.time)}: {e.text}"
        took = e.kind == "take" or (e.kind == "combine" and e.on is None)
        kind = "moved_away" if took and e.agent is not None else "station_state"
        fields = {"station": station} if kind == "moved_away" else {}
        return Cause(kind, text, e.time, e.agent, e.action_index, fields)

    def position_cause(self) -> Cause:
        e = self.last(lambda e: e.agent == self.agent and e.kind == "move")
        start = next((a for a in self.level.agents if a.name == self.agent), None)
        if e is None:
            where = f"({start.x}, {start.y})" if start else "its start"
            return Cause(
                "position", f"{self.agent} has stood at its start {where} since t = 0", 0.0, self.agent
            )
        text = f"{self.agent} has stood there since t = {num(e.time)}: {e.text} (action {e.action_index})"
        return Cause("position", text, e.time, e.agent, e.action_index)

    def plan_cause(self) -> Cause:
        text = f"the plan itself: {self.agent} action {self.index} is {action_words(self.action)}"
        return Cause("plan_error", text, self.time, self.agent, self.index)

    # -- spans and states -----------------------------------------------------------------------
    def spans(self) -> list[ActionSpan]:
        return self.timeline.spans if self.timeline is not None else []

    def held_at(self, agent: str) -> str:
        """What the agent held when the run stopped, in words ('' for nothing or unknown)."""
        if self.timeline is None:
            return ""
        held = self.timeline.state_at(self.time).get("agents", {}).get(agent, {}).get("held")
        return held_words(self.level, held) if held else ""


def plate_keys(item: Mapping[str, Any] | None) -> list[str]:
    contents = item.get("contents", ()) if item else ()
    return sorted(f"{i.get('name')}:{i.get('state')}" for i in contents if isinstance(i, Mapping))


def dish_of(level: Level, item: Mapping[str, Any] | None) -> str | None:
    """The order's dish a plate would serve as, if its contents match one."""
    if not item or item.get("kind") != "plate":
        return None
    keys = plate_keys(item)
    for name in dict.fromkeys(level.orders):
        recipe = level.recipe_book.get(name)
        if recipe is not None and sorted(recipe.signature()) == keys:
            return name
    return None


def held_words(level: Level, item: Mapping[str, Any] | None) -> str:
    """'the plate (raw bread, cooked meat): a burger_basic' for a finished dish."""
    dish = dish_of(level, item)
    return f"{item_words(item)}: a {dish}" if dish else item_words(item)


def _float(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        return 0.0
