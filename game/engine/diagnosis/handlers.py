"""One explanation per error kind: the unmet need and its causes, likeliest first."""

from __future__ import annotations

from collections.abc import Callable

from .. import errors as E
from ..narration import item_words, num
from .context import Context
from .dishes import dish_causes, expected_dish
from .model import Cause, Diagnosis

PLAN_KINDS = (
    E.UNKNOWN_TARGET,
    E.NOT_A_STATION,
    E.BAD_DURATION,
    E.SERVE_TOO_EARLY,
    E.INVALID_ACTION,
    E.TIME_LIMIT,
)


def bad_interact(ctx: Context) -> Diagnosis:
    hand, top = ctx.hand(), ctx.top()
    if ctx.station is None:
        return Diagnosis(ctx.kind, "a station to interact with", [ctx.plan_cause()])
    kind = ctx.station_kind(ctx.station)
    if kind == "plate_return":
        if hand is not None:
            need = f"an empty hand to take a dirty plate from {ctx.station}"
            return Diagnosis(E.BAD_INTERACT, need, [ctx.hand_cause()])
        return Diagnosis(E.BAD_INTERACT, f"a dirty plate waiting at {ctx.station}", [_plate_back_cause(ctx)])
    station, own = ctx.station_cause(ctx.station), ctx.hand_cause()
    if hand is None and top is None:
        need = f"something on {ctx.station} to pick up, or something in {ctx.agent}'s hand"
        return Diagnosis(E.BAD_INTERACT, need, [station, own])
    if kind == "stove" and top is None:
        return Diagnosis(E.BAD_INTERACT, f"a pot or pan on {ctx.station} ({ctx.reason})", [station, own])
    need = f"what {ctx.agent} holds and what {ctx.station} holds must combine ({ctx.reason})"
    return Diagnosis(E.BAD_INTERACT, need, [own, station] if hand is not None else [station, own])


def _plate_back_cause(ctx: Context) -> Cause:
    e = ctx.last(lambda e: e.kind == "take" and e.station == ctx.station)
    if e is not None:
        text = f"the last dirty plate was taken at t = {num(e.time)}: {e.text}"
        return Cause("moved_away", text, e.time, e.agent, e.action_index, {"station": ctx.station})
    serve = ctx.last(lambda e: e.kind == "serve")
    if serve is not None:
        text = f"the last dish was served at t = {num(serve.time)}; its plate comes back 10 later"
        return Cause("no_plate_back", text, serve.time, serve.agent, serve.action_index)
    return Cause("no_plate_back", "no dish had been served yet, so no dirty plate was on its way back", 0.0)


def cookware_rejects(ctx: Context) -> Diagnosis:
    hand, top = ctx.hand(), ctx.top()
    ingredient = hand if hand and hand.get("kind") == "ingredient" else top
    if "burnt" in ctx.reason:
        e = ctx.last(lambda e: e.kind == "burnt")
        causes = [Cause("burnt", f"the food burnt at t = {num(e.time)}: {e.text}", e.time)] if e else []
        return Diagnosis(E.COOKWARE_REJECTS, "cookware without burnt food (empty it at a trash)", causes)
    held = ctx.hand_cause() if ingredient is hand else ctx.station_cause(ctx.station) if ctx.station else None
    causes = [held] if held else []
    if ingredient is hand and ctx.station is not None:
        causes.append(ctx.station_cause(ctx.station))
    if ingredient and ingredient.get("state") == "raw" and ingredient.get("name") not in ("rice", "pasta"):
        name = ingredient.get("name")
        src = held or ctx.plan_cause()
        text = (
            f"the {name} was never chopped, and pans take only chopped food: chop it on a chopping board "
            f"first ({src.text})"
        )
        fields = {"ingredient": name, "step": "chop"}
        step = Cause("missing_step", text, src.time, src.agent, src.action_index, fields)
        return Diagnosis(E.COOKWARE_REJECTS, f"a chopped {name}", [step, *causes])
    return Diagnosis(E.COOKWARE_REJECTS, f"an ingredient that cookware takes ({ctx.reason})", causes)


def process(ctx: Context) -> Diagnosis:
    if ctx.station is None:
        return Diagnosis(ctx.kind, "a station that can be processed", [ctx.plan_cause()])
    kind = ctx.station_kind(ctx.station)
    need = {
        "chopping_board": f"something raw on {ctx.station} to chop",
        "sink": f"a dirty plate in {ctx.station} to wash",
        "stove": f"a pot or pan on {ctx.station} (stoves cook by themselves: no Process needed)",
    }.get(kind or "", f"a station that can be processed ({ctx.station} is a {kind})")
    if kind in ("chopping_board", "sink") or (kind == "stove" and "no pot" in ctx.reason):
        causes = [ctx.station_cause(ctx.station)]
        unput = _never_put(ctx, kind)
        return Diagnosis(ctx.kind, need, [unput, *causes] if unput else causes)
    return Diagnosis(ctx.kind, need, [ctx.plan_cause()])


def _never_put(ctx: Context, kind: str | None) -> Cause | None:
    """A Process on an empty board or sink while the agent still holds what it meant to put there."""
    hand, top = ctx.hand(), ctx.top()
    wanted = {"chopping_board": "ingredient", "sink": "dirty_plate"}.get(kind or "")
    if top is not None or not hand or hand.get("kind") != wanted:
        return None
    last = ctx.last(lambda e: e.station == ctx.station)
    if last is not None and last.agent == ctx.agent and last.kind == "take":
        return None  # it was put there and taken back: the station's cause says so
    held = ctx.hand_cause()
    text = (
        f"{ctx.agent} still holds {item_words(hand)}: it never put it on {ctx.station} before the Process "
        f"(an Interact {ctx.station} is missing); {held.text}"
    )
    return Cause("missing_step", text, held.time, held.agent, held.action_index, {"step": "put"})


def not_adjacent(ctx: Context) -> Diagnosis:
    station = ctx.level.station_by_name.get(ctx.station) if ctx.station else None
    where = f" at ({station.x}, {station.y})" if station else ""
    need = f"{ctx.agent} standing next to {ctx.action.get('target')}{where}"
    return Diagnosis(E.NOT_ADJACENT, need, [ctx.position_cause()])


def in_use(ctx: Context) -> Diagnosis:
    user = ctx.reason.rsplit("in use by ", 1)[-1].strip()
    busy = next(
        (
            s
            for s in ctx.spans()
            if s.agent == user and s.action.get("target") == ctx.station and s.start <= ctx.time < s.end
        ),
        None,
    )
    if busy is None:
        cause = Cause("busy", f"{user} is processing {ctx.station} at t = {num(ctx.time)}", ctx.time, user)
    else:
        text = (
            f"{user} has been processing {ctx.station} since t = {num(busy.start)} "
            f"(its action {busy.index}, until t = {num(busy.end)})"
        )
        cause = Cause("busy", text, busy.start, user, busy.index, {"until": busy.end})
    return Diagnosis(E.STATION_IN_USE, f"{ctx.station} free of another agent's Process", [cause])


def unreachable(ctx: Context) -> Diagnosis:
    target = ctx.action.get("target")
    if "cannot be reached" in ctx.reason:
        return Diagnosis(
            E.UNREACHABLE, f"a path of floor tiles to {target}", [ctx.plan_cause(), ctx.position_cause()]
        )
    return Diagnosis(E.UNREACHABLE, "a floor tile inside the kitchen as MoveTo target", [ctx.plan_cause()])


def not_allowed(ctx: Context) -> Diagnosis:
    allowed = (ctx.level.options.get("can_use") or {}).get(ctx.agent, [])
    text = f"the level lets {ctx.agent} use only: {', '.join(allowed) or 'nothing'} (can_use)"
    return Diagnosis(
        E.NOT_ALLOWED, "another agent to do this", [Cause("rule", text, ctx.time, ctx.agent, ctx.index)]
    )


def not_a_plate(ctx: Context) -> Diagnosis:
    return Diagnosis(E.NOT_A_PLATE, f"{ctx.agent} holding a plate with the dish", [ctx.hand_cause()])


def no_order_left(ctx: Context) -> Diagnosis:
    e = ctx.last(lambda e: e.kind == "serve")
    if e is None:
        return Diagnosis(E.NO_ORDER_LEFT, "an order still to serve", [])
    text = f"the last order was served at t = {num(e.time)}: {e.text}"
    return Diagnosis(
        E.NO_ORDER_LEFT,
        "an order still to serve",
        [Cause("all_served", text, e.time, e.agent, e.action_index)],
    )


def wrong_dish(ctx: Context) -> Diagnosis:
    hand = ctx.hand() or {}
    _, want = expected_dish(ctx)
    causes, missing, extra = dish_causes(ctx, hand)
    parts = [f"missing {', '.join(missing)}" if missing else "", f"extra {', '.join(extra)}" if extra else ""]
    diff = "; ".join(p for p in parts if p)
    if any(k.endswith(":burnt") for k in extra):
        e = ctx.last(lambda e: e.kind == "burnt")
        if e is not None:
            causes.insert(
                0,
                Cause(
                    "burnt",
                    f"the food burnt at t = {num(e.time)}: {e.text}",
                    e.time,
                    None,
                    None,
                    {"station": e.station},
                ),
            )
    causes.append(ctx.hand_cause())
    if any(c.kind == "wrong_order" for c in causes):
        return Diagnosis(E.WRONG_DISH, f"{want} served first: dishes are served in the order given", causes)
    return Diagnosis(E.WRONG_DISH, f"the plate for {want} ({diff or ctx.reason})", causes)


def stale_dish(ctx: Context) -> Diagnosis:
    hand = ctx.hand() or {}
    times = [float(i["fresh_at"]) for i in hand.get("contents", ()) if i.get("fresh_at") is not None]
    causes = []
    if times:
        first = min(times)
        e = ctx.last(lambda e: e.time == first and e.kind in ("chop", "cooked"))
        text = f"the oldest food on the plate was prepared at t = {num(first)}"
        causes.append(Cause("stale", f"{text}: {e.text}" if e else text, first, e.agent if e else None))
    window = ctx.level.options.get("serve_within")
    return Diagnosis(E.STALE_DISH, f"serving within {num(window)} of the first chop or cook", causes)


def plan_only(ctx: Context) -> Diagnosis:
    return Diagnosis(ctx.kind, ctx.reason, [ctx.plan_cause()])


def fallback(ctx: Context) -> Diagnosis:
    e = ctx.last(lambda e: e.agent == ctx.agent and e.kind != "move")
    causes = (
        [Cause("last_event", f"{ctx.agent}'s last event: {e.sentence()}", e.time, e.agent, e.action_index)]
        if e
        else []
    )
    return Diagnosis(ctx.kind, ctx.reason, causes)


HANDLERS: dict[str, Callable[[Context], Diagnosis]] = {
    E.BAD_INTERACT: bad_interact,
    E.COOKWARE_REJECTS: cookware_rejects,
    E.PROCESS_FAILED: process,
    E.NO_PROCESS: process,
    E.NOT_ADJACENT: not_adjacent,
    E.STATION_IN_USE: in_use,
    E.UNREACHABLE: unreachable,
    E.NOT_ALLOWED: not_allowed,
    E.NOT_A_PLATE: not_a_plate,
    E.NO_ORDER_LEFT: no_order_left,
    E.WRONG_DISH: wrong_dish,
    E.STALE_DISH: stale_dish,
    **{k: plan_only for k in PLAN_KINDS},
}
