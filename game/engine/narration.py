"""Every state change of a run as a sentence, derived from its Timeline in one place.

    story = narrate(level, timeline, rules="paracook", error=result.error_detail)
    story.events                      # Event(time, agent, station, item, kind, text, ...), run order
    story.events[0].sentence()        # 't = 21 agent1 picks up the pan (empty) from stove1'
    story.for_action("agent1", 4)     # what that action did (a list: usually one event)
    story.label("agent1", 4)          # a few words for a Gantt bar: 'picks up pan'
    held_track(timeline, "agent1")    # [(t0, t1, item or None), ...]: what the agent held
    station_track(timeline, "stove1") # the same for what sat on a station

A snapshot holds the kitchen after *every* event of an instant, so two actions at one instant (a
hand-over across a table) would blur together. Each instant is therefore re-enacted from the
previous snapshot with the engine's own Kitchen, in the engine's order: cooking and returned
plates first, then each acting agent (the order the simulator registered them: by the start of
the action ending now, then map order), each agent's completed action before its zero-length
ones. The next instant starts again from the recorded snapshot, so nothing drifts.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ActionFailed, ErrorDetail
from .items import Item, item_from_dict
from .kitchen import AgentState, Kitchen
from .level import Level
from .rules import RuleSet, get_rules
from .timeline import ActionSpan, State, Timeline

# Event kinds. Agent actions: dispense, take, put, combine, serve, trash, chop, wash, move,
# finish, failed (an effect that errored), rejected (an action refused at its start).
# Kitchen by itself: cooked, burnt, plate_back.
AGENT_KINDS = ("dispense", "take", "put", "combine", "serve", "trash", "chop", "wash", "move", "finish")
ERROR_KINDS = ("failed", "rejected")
KITCHEN_KINDS = ("cooked", "burnt", "plate_back")


@dataclass(frozen=True)
class Event:
    """One state change. `text` has no time; `sentence()` adds it. `hand` is what the agent held
    afterwards and `on` what sat on the station afterwards (item dicts; None is empty)."""

    time: float
    kind: str
    text: str
    short: str
    agent: str | None = None
    station: str | None = None
    item: str | None = None
    action_index: int | None = None
    hand: dict[str, Any] | None = None
    on: dict[str, Any] | None = None
    seq: int = 0

    def sentence(self) -> str:
        return f"t = {num(self.time)} {self.text}"

    @property
    def is_error(self) -> bool:
        return self.kind in ERROR_KINDS


@dataclass
class Narration:
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.times = [e.time for e in self.events]
        self._by_action: dict[tuple[str, int], list[Event]] = {}
        for e in self.events:
            if e.agent is not None and e.action_index is not None:
                self._by_action.setdefault((e.agent, e.action_index), []).append(e)

    def for_action(self, agent: str, index: int) -> list[Event]:
        return self._by_action.get((agent, index), [])

    def label(self, agent: str, index: int) -> str:
        """A few words for the action's bar ('' when it changed nothing)."""
        events = [e for e in self.for_action(agent, index) if e.kind != "move"]
        return events[0].short if events else ""

    def count_until(self, t: float) -> int:
        """How many events happened at or before t."""
        return bisect_right(self.times, t + 1e-9)

    def filtered(self, agent: str | None = None, station: str | None = None) -> list[Event]:
        return [
            e
            for e in self.events
            if (agent is None or e.agent == agent) and (station is None or e.station == station)
        ]


def num(x: Any) -> str:
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    return f"{f:g}" if f.is_integer() else f"{f:.2f}".rstrip("0").rstrip(".")


# -- item words ---------------------------------------------------------------------------------
def item_words(item: Mapping[str, Any] | None) -> str:
    """'the raw meat', 'the pan (empty)', 'the plate (chopped lettuce, cooked meat)', 'nothing'."""
    if item is None:
        return "nothing"
    kind = item.get("kind")
    if kind == "ingredient":
        return f"the {item.get('state')} {item.get('name')}"
    if kind == "dirty_plate":
        return "a dirty plate"
    return f"the {kind} ({contents_words(item)})"


def contents_words(item: Mapping[str, Any]) -> str:
    inside = [f"{i.get('state')} {i.get('name')}" for i in item.get("contents", ())]
    return ", ".join(inside) or "empty"


def item_key(item: Mapping[str, Any] | None) -> str | None:
    """A short name for filters and bars: 'meat', 'pan', 'dirty plate'."""
    if item is None:
        return None
    if item.get("kind") == "ingredient":
        return str(item.get("name"))
    return "dirty plate" if item.get("kind") == "dirty_plate" else str(item.get("kind"))


def _d(item: Item | None) -> dict[str, Any] | None:
    return None if item is None else item.to_dict()


# -- re-enacting an instant ---------------------------------------------------------------------
class _Stage:
    """A Kitchen loaded from a snapshot, on which one instant's actions are replayed."""

    def __init__(self, level: Level, rules: RuleSet):
        self.level = level
        self.k = Kitchen(level, rules, {})
        self.agents: dict[str, AgentState] = {a.name: a for a in self.k.agents}

    def load(self, state: State) -> None:
        k = self.k
        for name, a in state.get("agents", {}).items():
            agent = self.agents.get(name)
            if agent is not None:
                agent.pos = (int(a["pos"][0]), int(a["pos"][1]))
                agent.held = item_from_dict(a.get("held"))
                agent.finished = bool(a.get("finished"))
        for name, item in state.get("stations", {}).items():
            k.surface[name] = item_from_dict(item)
        k.dirty_plates = dict(state.get("dirty_plates", k.dirty_plates))
        k.pending_returns = list(state.get("pending_returns", ()))
        served = [(str(n), float(t)) for n, t in state.get("served", ())]
        k.served = served
        k.remaining = list(self.level.orders[len(served) :])


def _acting_order(spans: Sequence[ActionSpan], t: float, agent_rank: Mapping[str, int]) -> list[ActionSpan]:
    """The spans whose effect lands at t, in the order the simulator applied them."""
    by_agent: dict[str, list[ActionSpan]] = {}
    for s in spans:
        by_agent.setdefault(s.agent, []).append(s)
    keys = {}
    for agent, own in by_agent.items():
        own.sort(key=lambda s: s.index)
        long = [s for s in own if s.start < s.end]
        first = long[0].start if long and t > 0 else -1.0
        keys[agent] = (first, agent_rank.get(agent, 99))
    out: list[ActionSpan] = []
    for agent in sorted(by_agent, key=lambda a: keys[a]):
        out += by_agent[agent]
    return out


def narrate(
    level: Level,
    timeline: Timeline,
    rules: str | RuleSet = "paracook",
    error: ErrorDetail | Mapping[str, Any] | None = None,
) -> Narration:
    """Every state change of the recorded run, in the order the engine made them. Read-only: the
    last one is kept and given again for the same level and timeline objects (a failed run's
    diagnosis and the window showing the run narrate it one after the other, on every edit)."""
    global _LAST
    rule_set = get_rules(rules)
    err = error.to_dict() if isinstance(error, ErrorDetail) else dict(error or {})
    last = _LAST
    if (
        last is not None
        and last[0] is level
        and last[1] is timeline
        and last[2] is rule_set
        and last[3] == err
    ):
        return last[4]
    story = _narrated(level, timeline, rule_set, err)
    _LAST = (level, timeline, rule_set, err, story)
    return story


# the last narration: its level, timeline, rule set and error, and itself (see `narrate`)
_LAST: tuple[Level, Timeline, RuleSet, dict[str, Any], Narration] | None = None


def _narrated(level: Level, timeline: Timeline, rules: RuleSet, err: dict[str, Any]) -> Narration:
    stage = _Stage(level, rules)
    rank = {name: i for i, name in enumerate(level.agent_names)}
    effects: dict[float, list[ActionSpan]] = {}
    for s in timeline.spans:
        if s.status in ("done", "failed") or s.status == "rejected":
            effects.setdefault(float(s.start if s.status == "rejected" else s.end), []).append(s)
    events: list[Event] = []
    for i, t in enumerate(timeline.times):
        if i > 0:
            stage.load(timeline.states[i - 1])
        # before the first snapshot the stage is the level's starting kitchen
        events += _kitchen_events(stage, t)
        for span in _acting_order(effects.get(float(t), []), t, rank):
            events += _action_events(stage, span, t, err)
    return Narration([_with_seq(e, n) for n, e in enumerate(events)])


def _with_seq(e: Event, n: int) -> Event:
    return Event(e.time, e.kind, e.text, e.short, e.agent, e.station, e.item, e.action_index, e.hand, e.on, n)


def _cooked_since(before: dict[str, Any] | None, t: float) -> str:
    """' (done since t = 41, recorded at this event)' when cooking finished between events: the
    kitchen counts cooking only at its events, so the log's instant can be later than the food."""
    if not before:
        return ""
    done_at = float(before.get("stamp") or 0) + float(before.get("required") or 0)
    done_at -= float(before.get("processed") or 0)
    return f" (done since t = {num(done_at)}, recorded at this event)" if done_at < t else ""


def _kitchen_events(stage: _Stage, t: float) -> list[Event]:
    """Cooking finished, food burnt, dirty plates back: the tick at the start of an instant."""
    k = stage.k
    before = {name: _d(k.surface[name]) for name in k.stoves}
    plates = dict(k.dirty_plates)
    k.tick(t)
    out = []
    for name in k.stoves:
        old, new = before[name], _d(k.surface[name])
        if old == new or new is None:
            continue
        states_old = [i.get("state") for i in old.get("contents", ())] if old else []
        states_new = [i.get("state") for i in new.get("contents", ())]
        what = " and ".join(str(i.get("name")) for i in new.get("contents", ())) or "food"
        cw = new.get("kind")
        if "burnt" in states_new and "burnt" not in states_old:
            out.append(
                Event(t, "burnt", f"the {what} in the {cw} on {name} burns", "burns", None, name, cw, on=new)
            )
        elif states_new.count("cooked") > states_old.count("cooked"):
            out.append(
                Event(
                    t,
                    "cooked",
                    f"the {what} in the {cw} on {name} is cooked{_cooked_since(old, t)}",
                    "cooked",
                    None,
                    name,
                    cw,
                    on=new,
                )
            )
    for name, count in k.dirty_plates.items():
        if count > plates.get(name, 0):
            out.append(
                Event(
                    t,
                    "plate_back",
                    f"a dirty plate comes back to {name}",
                    "plate back",
                    None,
                    name,
                    "dirty plate",
                )
            )
    return out


def _action_events(stage: _Stage, span: ActionSpan, t: float, err: Mapping[str, Any]) -> list[Event]:
    k, agent = stage.k, stage.agents.get(span.agent)
    if agent is None:
        return []
    action = span.action
    name = action.get("action")
    target = action.get("target")
    if span.status == "rejected":
        reason = (
            err.get("reason")
            if (err.get("agent"), err.get("action_index")) == (span.agent, span.index)
            else None
        )
        text = f"{span.agent} cannot start {action_words(action)}: {reason or 'refused'}"
        station = target if isinstance(target, str) else None
        return [Event(t, "rejected", text, "refused", span.agent, station, None, span.index, _d(agent.held))]
    if name == "MoveTo":
        if isinstance(target, (list, tuple)) and len(target) == 2:
            agent.pos = (int(target[0]), int(target[1]))
        text = f"{span.agent} arrives at ({agent.pos[0]}, {agent.pos[1]})"
        return [Event(t, "move", text, "arrives", span.agent, None, None, span.index, _d(agent.held))]
    if name == "Finish":
        agent.finished = True
        return [
            Event(
                t, "finish", f"{span.agent} finishes its plan", "finish", span.agent, None, None, span.index
            )
        ]
    if name not in ("Interact", "Process"):
        return []
    station = stage.level.station_by_name.get(target) if isinstance(target, str) else None
    held_before = _d(agent.held)
    top_before = _d(k.surface.get(station.name)) if station is not None else None
    served_before = len(k.served)
    try:
        target_tile = stage.level.target_named(target) if isinstance(target, str) else None
        if target_tile is None:  # the engine refused it at its start; nothing to re-enact
            raise ActionFailed("", f"{target!r} is not a station")
        if name == "Interact":
            k.interact(agent, target_tile, t)
        else:
            k.process(agent, target_tile, t)
    except ActionFailed as exc:
        text = f"{span.agent} fails to {name} {target}: {exc.reason}"
        sname = station.name if station is not None else None
        return [
            Event(t, "failed", text, "fails", span.agent, sname, None, span.index, held_before, top_before)
        ]
    if station is None:
        return []
    after_hand, after_top = _d(agent.held), _d(k.surface.get(station.name))
    served = k.served[-1][0] if len(k.served) > served_before else None
    kind, text, short, item = _describe(
        span.agent,
        station.name,
        station.kind or "",
        name,
        held_before,
        top_before,
        after_hand,
        after_top,
        served,
    )
    return [Event(t, kind, text, short, span.agent, station.name, item, span.index, after_hand, after_top)]


def action_words(action: Mapping[str, Any]) -> str:
    name = action.get("action")
    if name == "MoveTo":
        target = action.get("target")
        if isinstance(target, (list, tuple)) and len(target) == 2:
            return f"MoveTo ({target[0]}, {target[1]})"
    if name == "Wait":
        return f"Wait {num(action.get('duration'))}"
    if name in ("Interact", "Process"):
        return f"{name} {action.get('target')}"
    return str(name)


def _describe(
    who: str,
    where: str,
    kind: str,
    action: str,
    hand0: dict | None,
    top0: dict | None,
    hand1: dict | None,
    top1: dict | None,
    served: str | None,
) -> tuple[str, str, str, str | None]:
    """(kind, sentence, bar label, item) for one Interact or Process that worked."""
    if action == "Process":
        if kind == "sink":
            return "wash", f"{who} washes a dirty plate in {where}", "washes plate", "plate"
        what = top0.get("name") if top0 else "?"
        return "chop", f"{who} chops {item_words(top0)} on {where}", f"chops {what}", what
    if served is not None:
        return "serve", f"{who} serves {served}: {item_words(hand0)}", f"serves {served}", "plate"
    if kind == "trash":
        if hand0 and hand0.get("kind") in ("plate", "pan", "pot"):
            text = f"{who} empties {item_words(hand0)} at {where}"
            return "trash", text, f"empties {hand0.get('kind')}", item_key(hand0)
        return "trash", f"{who} throws away {item_words(hand0)} at {where}", "throws away", item_key(hand0)
    if kind == "dispenser" and hand0 is None and top0 is None:
        return (
            "dispense",
            f"{who} takes {item_words(hand1)} from {where}",
            f"takes {item_key(hand1)}",
            item_key(hand1),
        )
    if hand0 is None and hand1 is not None:
        text = f"{who} picks up {item_words(hand1)} from {where}"
        return "take", text, f"picks up {item_key(hand1)}", item_key(hand1)
    if hand0 is not None and hand1 is None and top0 is None:
        return "put", f"{who} puts {item_words(hand0)} on {where}", f"puts {item_key(hand0)}", item_key(hand0)
    return _combine(who, where, hand0, top0, hand1, top1)


def _combine(
    who: str, where: str, hand0: dict | None, top0: dict | None, hand1: dict | None, top1: dict | None
) -> tuple[str, str, str, str | None]:
    """Something moved between the hand and the station, or between two containers."""
    if hand0 and hand0.get("kind") == "ingredient" and hand1 is None and top1:
        text = f"{who} puts {item_words(hand0)} into the {top1.get('kind')} on {where}"
        return "combine", text, f"adds {hand0.get('name')}", str(hand0.get("name"))
    if top0 and top0.get("kind") == "ingredient" and top1 is None and hand1:
        text = f"{who} puts {item_words(top0)} from {where} into the {hand1.get('kind')} it holds"
        return "combine", text, f"adds {top0.get('name')}", str(top0.get("name"))
    if hand0 and top0 and hand1 and top1:
        moved_in_hand = len(hand1.get("contents", ())) > len(hand0.get("contents", ()))
        src, dst = (top0, hand1) if moved_in_hand else (hand0, top1)
        moved = contents_words(src)
        if moved_in_hand:
            ends = f"the {src.get('kind')} on {where} into the {dst.get('kind')} it holds"
        else:
            ends = f"the {src.get('kind')} it holds into the {dst.get('kind')} on {where}"
        text = (
            f"{who} moves the {moved} from {ends}"
            if moved != "empty"
            else f"{who} moves nothing: {ends} (empty)"
        )
        return "combine", text, f"plates {moved.split(', ')[0].split(' ')[-1]}", str(src.get("kind"))
    text = f"{who} uses {where}: hand {item_words(hand0)} -> {item_words(hand1)}"
    return "combine", text, "uses", item_key(hand0 or hand1)


# -- tracks -------------------------------------------------------------------------------------
Segment = tuple[float, float, dict[str, Any] | None]


def _track(timeline: Timeline, pick) -> list[Segment]:
    out: list[Segment] = []
    for i, (t, state) in enumerate(zip(timeline.times, timeline.states, strict=True)):
        value = pick(state)
        if out and out[-1][2] == value:
            continue
        if out:
            out[-1] = (out[-1][0], t, out[-1][2])
        out.append((t if i else 0.0, timeline.end, value))
    return out


def held_track(timeline: Timeline, agent: str) -> list[Segment]:
    """What the agent held over the run: (from, to, item dict or None), one per change."""
    return _track(timeline, lambda s: s.get("agents", {}).get(agent, {}).get("held"))


def station_track(timeline: Timeline, station: str) -> list[Segment]:
    """What sat on the station over the run, in the same form."""
    return _track(timeline, lambda s: s.get("stations", {}).get(station))
