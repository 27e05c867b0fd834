"""Why a run failed: the unmet precondition and the earlier events that made it so.

    why = explain(level, story, error)        # story: narrate(...); error: ErrorDetail or dict
    why.need                                  # 'something on stove1 to pick up, or something in hand'
    why.causes[0].text                        # 'stove1 has been empty since t = 21: agent1 picks up ...'
    why.causes[0].time                        # where a "jump" button seeks to

The error says what broke at its instant; a cause names the state that broke it and the event
that left the kitchen in that state, which may be in another agent's queue. Every error kind
has an explanation; a kind this module does not know gets the failing agent's last event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import errors as E
from .errors import ErrorDetail
from .level import Level
from .narration import Event, Narration, action_words, item_words, num
from .timeline import Timeline

HAND_KINDS = ("dispense", "take", "put", "combine", "serve", "trash")
STATION_KINDS = ("take", "put", "combine", "chop", "wash", "cooked", "burnt", "plate_back")
PLAN_KINDS = (
    E.UNKNOWN_TARGET,
    E.NOT_A_STATION,
    E.BAD_DURATION,
    E.SERVE_TOO_EARLY,
    E.INVALID_ACTION,
    E.TIME_LIMIT,
)


@dataclass(frozen=True)
class Cause:
    text: str
    time: float
    agent: str | None = None
    action_index: int | None = None


@dataclass
class Diagnosis:
    kind: str
    need: str
    causes: list[Cause] = field(default_factory=list)

    @property
    def jump(self) -> float | None:
        return self.causes[0].time if self.causes else None

    def lines(self) -> list[str]:
        return [f"Needed: {self.need}"] + [c.text for c in self.causes]


def explain(
    level: Level,
    story: Narration,
    error: ErrorDetail | Mapping[str, Any] | None,
    timeline: Timeline | None = None,
) -> Diagnosis | None:
    """The explanation of a failed run's error (None for a run without one)."""
    if error is None:
        return None
    err = error.to_dict() if isinstance(error, ErrorDetail) else dict(error)
    if not err:
        return None
    ctx = _Context(level, story, err, timeline)
    kind = str(err.get("kind", ""))
    handler = _HANDLERS.get(kind, _fallback)
    diagnosis = handler(ctx)
    if not diagnosis.causes:
        diagnosis.causes.append(ctx.plan_cause())
    return diagnosis


class _Context:
    """The failing action, the event it produced, and look-ups of earlier events."""

    def __init__(self, level: Level, story: Narration, err: Mapping[str, Any], timeline: Timeline | None):
        self.level, self.story, self.err, self.timeline = level, story, err, timeline
        self.agent = str(err.get("agent"))
        self.index = err.get("action_index")
        self.time = float(err.get("time", 0))
        self.action = err.get("action") or {}
        self.reason = str(err.get("reason", ""))
        target = self.action.get("target")
        self.station = target if isinstance(target, str) and target in level.station_by_name else None
        mine = [e for e in story.for_action(self.agent, self.index) if e.is_error]
        self.failed: Event | None = mine[-1] if mine else None
        self.seq = self.failed.seq if self.failed else len(story.events)
        self.before = [e for e in story.events if e.seq < self.seq]

    def last(self, test) -> Event | None:
        for e in reversed(self.before):
            if test(e):
                return e
        return None

    def hand(self) -> dict | None:
        return self.failed.hand if self.failed else None

    def top(self) -> dict | None:
        return self.failed.on if self.failed else None

    def hand_cause(self, agent: str | None = None) -> Cause:
        agent = agent or self.agent
        e = self.last(lambda e: e.agent == agent and e.kind in HAND_KINDS)
        held = e.hand if e is not None else None
        what = item_words(held)
        verb = "held nothing" if held is None else f"held {what}"
        if e is None:
            return Cause(f"{agent} has held nothing since the start", 0.0, agent)
        return Cause(f"{agent} has {verb} since t = {num(e.time)}: {e.text}", e.time, e.agent, e.action_index)

    def station_cause(self, station: str) -> Cause:
        e = self.last(lambda e: e.station == station and e.kind in STATION_KINDS)
        if e is None:
            start = self.level.station_by_name[station].item
            what = "empty" if not start else f"held the {start} it started with"
            verb = "been empty" if not start else what
            return Cause(f"{station} has {verb} since the start", 0.0)
        on = e.on
        if e.kind == "plate_back":
            return Cause(f"the last dirty plate came back to {station} at t = {num(e.time)}", e.time)
        state = "been empty" if on is None else f"held {item_words(on)}"
        return Cause(
            f"{station} has {state} since t = {num(e.time)}: {e.text}", e.time, e.agent, e.action_index
        )

    def position_cause(self) -> Cause:
        e = self.last(lambda e: e.agent == self.agent and e.kind == "move")
        start = next((a for a in self.level.agents if a.name == self.agent), None)
        if e is None:
            where = f"({start.x}, {start.y})" if start else "its start"
            return Cause(f"{self.agent} has stood at its start {where} since t = 0", 0.0, self.agent)
        return Cause(
            f"{self.agent} has stood there since t = {num(e.time)}: {e.text} (action {e.action_index})",
            e.time,
            e.agent,
            e.action_index,
        )

    def plan_cause(self) -> Cause:
        return Cause(
            f"the plan itself: {self.agent} action {self.index} is {action_words(self.action)}",
            self.time,
            self.agent,
            self.index if isinstance(self.index, int) else None,
        )


# -- one explanation per error kind ------------------------------------------------------------
def _bad_interact(ctx: _Context) -> Diagnosis:
    hand, top = ctx.hand(), ctx.top()
    if ctx.station is None:
        return Diagnosis(ctx.err.get("kind", ""), "a station to interact with", [ctx.plan_cause()])
    kind = ctx.level.station_by_name[ctx.station].kind
    if kind == "plate_return":
        if hand is not None:
            need = f"an empty hand to take a dirty plate from {ctx.station}"
            return Diagnosis(E.BAD_INTERACT, need, [ctx.hand_cause()])
        return Diagnosis(E.BAD_INTERACT, f"a dirty plate waiting at {ctx.station}", [_plate_back_cause(ctx)])
    station = ctx.station_cause(ctx.station)
    own = ctx.hand_cause()
    if hand is None and top is None:
        need = f"something on {ctx.station} to pick up, or something in {ctx.agent}'s hand"
        return Diagnosis(E.BAD_INTERACT, need, [station, own])
    need = f"what {ctx.agent} holds and what {ctx.station} holds must combine ({ctx.reason})"
    return Diagnosis(E.BAD_INTERACT, need, [own, station] if hand is not None else [station, own])


def _plate_back_cause(ctx: _Context) -> Cause:
    e = ctx.last(lambda e: e.kind == "take" and e.station == ctx.station)
    if e is not None:
        return Cause(
            f"the last dirty plate was taken at t = {num(e.time)}: {e.text}", e.time, e.agent, e.action_index
        )
    serve = ctx.last(lambda e: e.kind == "serve")
    if serve is not None:
        return Cause(
            f"the last dish was served at t = {num(serve.time)}; its plate comes back 10 later",
            serve.time,
            serve.agent,
            serve.action_index,
        )
    return Cause("no dish had been served yet, so no dirty plate was on its way back", 0.0)


def _cookware_rejects(ctx: _Context) -> Diagnosis:
    hand, top = ctx.hand(), ctx.top()
    ingredient = hand if hand and hand.get("kind") == "ingredient" else top
    if "burnt" in ctx.reason:
        e = ctx.last(lambda e: e.kind == "burnt")
        causes = [Cause(f"the food burnt at t = {num(e.time)}: {e.text}", e.time)] if e else []
        return Diagnosis(E.COOKWARE_REJECTS, "cookware without burnt food (empty it at a trash)", causes)
    causes = (
        [ctx.hand_cause()] if ingredient is hand else [ctx.station_cause(ctx.station)] if ctx.station else []
    )
    if ingredient and ingredient.get("state") == "raw":
        need = f"a chopped {ingredient.get('name')}: pans take chopped food, pots raw rice or pasta"
    else:
        need = f"an ingredient that cookware takes ({ctx.reason})"
    return Diagnosis(E.COOKWARE_REJECTS, need, causes)


def _process(ctx: _Context) -> Diagnosis:
    if ctx.station is None:
        return Diagnosis(ctx.err.get("kind", ""), "a station that can be processed", [ctx.plan_cause()])
    kind = ctx.level.station_by_name[ctx.station].kind
    need = {
        "chopping_board": f"something raw on {ctx.station} to chop",
        "sink": f"a dirty plate in {ctx.station} to wash",
        "stove": f"a pot or pan on {ctx.station} (stoves cook by themselves: no Process needed)",
    }.get(kind or "", f"a station that can be processed ({ctx.station} is a {kind})")
    if kind in ("chopping_board", "sink") or (kind == "stove" and "no pot" in ctx.reason):
        return Diagnosis(ctx.err.get("kind", ""), need, [ctx.station_cause(ctx.station)])
    return Diagnosis(ctx.err.get("kind", ""), need, [ctx.plan_cause()])


def _not_adjacent(ctx: _Context) -> Diagnosis:
    station = ctx.level.station_by_name.get(ctx.station) if ctx.station else None
    where = f" at ({station.x}, {station.y})" if station else ""
    need = f"{ctx.agent} standing next to {ctx.action.get('target')}{where}"
    return Diagnosis(E.NOT_ADJACENT, need, [ctx.position_cause()])


def _in_use(ctx: _Context) -> Diagnosis:
    user = ctx.reason.rsplit("in use by ", 1)[-1].strip()
    spans = ctx.timeline.spans if ctx.timeline is not None else []
    busy = next(
        (
            s
            for s in spans
            if s.agent == user and s.action.get("target") == ctx.station and s.start <= ctx.time < s.end
        ),
        None,
    )
    if busy is None:
        cause = Cause(f"{user} is processing {ctx.station} at t = {num(ctx.time)}", ctx.time, user)
    else:
        text = (
            f"{user} has been processing {ctx.station} since t = {num(busy.start)} "
            f"(its action {busy.index}, until t = {num(busy.end)})"
        )
        cause = Cause(text, busy.start, user, busy.index)
    return Diagnosis(E.STATION_IN_USE, f"{ctx.station} free of another agent's Process", [cause])


def _unreachable(ctx: _Context) -> Diagnosis:
    target = ctx.action.get("target")
    if "cannot be reached" in ctx.reason:
        return Diagnosis(E.UNREACHABLE, f"a path of floor tiles to {target}", [ctx.position_cause()])
    return Diagnosis(E.UNREACHABLE, "a floor tile inside the kitchen as MoveTo target", [ctx.plan_cause()])


def _not_allowed(ctx: _Context) -> Diagnosis:
    allowed = (ctx.level.options.get("can_use") or {}).get(ctx.agent, [])
    text = f"the level lets {ctx.agent} use only: {', '.join(allowed) or 'nothing'} (can_use)"
    return Diagnosis(E.NOT_ALLOWED, "another agent to do this", [Cause(text, ctx.time, ctx.agent, ctx.index)])


def _not_a_plate(ctx: _Context) -> Diagnosis:
    return Diagnosis(E.NOT_A_PLATE, f"{ctx.agent} holding a plate with the dish", [ctx.hand_cause()])


def _no_order_left(ctx: _Context) -> Diagnosis:
    e = ctx.last(lambda e: e.kind == "serve")
    causes = [
        Cause(f"the last order was served at t = {num(e.time)}: {e.text}", e.time, e.agent, e.action_index)
    ]
    return Diagnosis(E.NO_ORDER_LEFT, "an order still to serve", causes if e else [])


def _wrong_dish(ctx: _Context) -> Diagnosis:
    hand = ctx.hand() or {}
    served = len([e for e in ctx.before if e.kind == "serve"])
    want = ctx.level.orders[served] if served < len(ctx.level.orders) else "?"
    recipe = ctx.level.recipe_book.get(want)
    have = sorted(f"{i.get('name')}:{i.get('state')}" for i in hand.get("contents", ()))
    need_keys = list(recipe.signature()) if recipe else []
    missing = _minus(need_keys, have)
    extra = _minus(have, need_keys)
    parts = [f"missing {', '.join(missing)}" if missing else "", f"extra {', '.join(extra)}" if extra else ""]
    diff = "; ".join(p for p in parts if p)
    causes = [ctx.hand_cause()]
    if any(k.endswith(":burnt") for k in have):
        e = ctx.last(lambda e: e.kind == "burnt")
        if e is not None:
            causes.insert(0, Cause(f"the food burnt at t = {num(e.time)}: {e.text}", e.time))
    return Diagnosis(E.WRONG_DISH, f"the plate for {want} ({diff or ctx.reason})", causes)


def _minus(a: list[str], b: list[str]) -> list[str]:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _stale_dish(ctx: _Context) -> Diagnosis:
    hand = ctx.hand() or {}
    times = [float(i["fresh_at"]) for i in hand.get("contents", ()) if i.get("fresh_at") is not None]
    causes = []
    if times:
        first = min(times)
        e = ctx.last(lambda e: e.time == first and e.kind in ("chop", "cooked"))
        text = f"the oldest food on the plate was prepared at t = {num(first)}"
        causes.append(Cause(f"{text}: {e.text}" if e else text, first, e.agent if e else None))
    window = ctx.level.options.get("serve_within")
    return Diagnosis(E.STALE_DISH, f"serving within {num(window)} of the first chop or cook", causes)


def _plan_only(ctx: _Context) -> Diagnosis:
    return Diagnosis(str(ctx.err.get("kind", "")), ctx.reason, [ctx.plan_cause()])


def _fallback(ctx: _Context) -> Diagnosis:
    e = ctx.last(lambda e: e.agent == ctx.agent and e.kind != "move")
    causes = (
        [Cause(f"{ctx.agent}'s last event: {e.sentence()}", e.time, e.agent, e.action_index)] if e else []
    )
    return Diagnosis(str(ctx.err.get("kind", "")), ctx.reason, causes)


_HANDLERS = {
    E.BAD_INTERACT: _bad_interact,
    E.COOKWARE_REJECTS: _cookware_rejects,
    E.PROCESS_FAILED: _process,
    E.NO_PROCESS: _process,
    E.NOT_ADJACENT: _not_adjacent,
    E.STATION_IN_USE: _in_use,
    E.UNREACHABLE: _unreachable,
    E.NOT_ALLOWED: _not_allowed,
    E.NOT_A_PLATE: _not_a_plate,
    E.NO_ORDER_LEFT: _no_order_left,
    E.WRONG_DISH: _wrong_dish,
    E.STALE_DISH: _stale_dish,
    **{k: _plan_only for k in PLAN_KINDS},
}
