"""Why a served plate was the wrong dish: out of order, taken out too soon, or a step never done."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..items import cooking_progress
from ..narration import Event, num
from .context import Context, dish_of, held_words, plate_keys
from .model import Cause

STATE_RANK = {"raw": 0, "chopped": 1, "cooked": 2}


def minus(a: list[str], b: list[str]) -> list[str]:
    """The multiset a - b."""
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def expected_dish(ctx: Context) -> tuple[int, str]:
    """(position in the order list, dish) of the first unserved order at the failure."""
    served = len([e for e in ctx.before if e.kind == "serve"])
    orders = ctx.level.orders
    return served, orders[served] if served < len(orders) else "?"


def dish_causes(ctx: Context, hand: Mapping[str, Any]) -> tuple[list[Cause], list[str], list[str]]:
    """(causes, missing keys, extra keys) for a plate that is not the next order's dish."""
    pos, want = expected_dish(ctx)
    recipe = ctx.level.recipe_book.get(want)
    have = plate_keys(hand)
    need = sorted(recipe.signature()) if recipe else []
    missing, extra = minus(need, have), minus(have, need)
    out_of_order = _wrong_order(ctx, hand, pos, want)
    if out_of_order is not None:
        return [out_of_order], missing, extra
    causes: list[Cause] = []
    for key in missing:
        name, state = key.split(":", 1)
        lesser = next((k for k in extra if k.split(":", 1)[0] == name), None)
        if lesser is not None:
            extra.remove(lesser)
            causes.append(_short_state(ctx, name, lesser.split(":", 1)[1], state))
        else:
            causes.append(_never_added(ctx, name, state))
    for key in extra:
        causes.append(
            Cause(
                "extra",
                f"the plate also holds {key.replace(':', ' ')}, which {want} does not have",
                ctx.time,
                ctx.agent,
                ctx.index,
                {"item": key},
            )
        )
    return causes, minus(need, have), minus(have, need)


def _wrong_order(ctx: Context, hand: Mapping[str, Any], pos: int, want: str) -> Cause | None:
    dish = dish_of(ctx.level, hand)
    orders = ctx.level.orders
    if dish is None or dish == want or dish not in orders[pos + 1 :]:
        return None
    later = orders.index(dish, pos + 1)
    where = _where_is(ctx, want)
    text = (
        f"{ctx.agent} served {dish} (order {later + 1} of {len(orders)}) while {want} (order {pos + 1}) "
        f"was still the next to serve; dishes must be served in order. {where}"
    )
    fields = {"dish": dish, "expected": want, "expected_at": where}
    return Cause("wrong_order", text, ctx.time, ctx.agent or None, ctx.index, fields)


def _where_is(ctx: Context, dish: str) -> str:
    """Where a finished plate of `dish` was when the run stopped."""
    if ctx.timeline is None:
        return ""
    state = ctx.timeline.state_at(ctx.time)
    for agent, a in state.get("agents", {}).items():
        if dish_of(ctx.level, a.get("held")) == dish:
            return f"At that instant {agent} held {held_words(ctx.level, a.get('held'))}."
    for station, item in state.get("stations", {}).items():
        if dish_of(ctx.level, item) == dish:
            return f"At that instant {held_words(ctx.level, item)} stood on {station}."
    return f"No plate held a finished {dish} yet."


def _short_state(ctx: Context, name: str, have: str, need: str) -> Cause:
    """The ingredient is on the plate but less prepared than the order needs."""
    if need == "cooked":
        taken = _taken_from_cookware(ctx, name)
        if taken is not None:
            return taken
        text = f"the {name} on the plate is {have}: no pot or pan ever cooked it (the order needs it cooked)"
        return Cause(
            "missing_step", text, ctx.time, ctx.agent or None, ctx.index, {"ingredient": name, "step": "cook"}
        )
    if STATE_RANK.get(need, 0) > STATE_RANK.get(have, 0):
        e = _last_with(ctx, name)
        since = f"; it came from: t = {num(e.time)} {e.text}" if e else ""
        text = f"the {name} on the plate is {have}: it was never chopped on a chopping board{since}"
        t, agent, index = (e.time, e.agent, e.action_index) if e else (ctx.time, ctx.agent or None, ctx.index)
        return Cause("missing_step", text, t, agent, index, {"ingredient": name, "step": "chop"})
    text = f"the {name} on the plate is {have}, but {need} is what the order needs"
    return Cause(
        "missing_step", text, ctx.time, ctx.agent or None, ctx.index, {"ingredient": name, "step": need}
    )


def _taken_from_cookware(ctx: Context, name: str) -> Cause | None:
    """The event that moved the uncooked food out of its pot or pan, and how far it had cooked."""
    e = ctx.last(lambda e: e.kind == "combine" and _moved_from_cookware(e, name))
    if e is None or ctx.timeline is None:
        return None
    before = (
        ctx.timeline.states[ctx.timeline.frame_index(e.time) - 1] if ctx.timeline.frame_index(e.time) else {}
    )
    cookware, on_stove = _cookware_before(ctx, before, e)
    if cookware is None:
        return None
    done, required = cooking_progress(cookware, e.time, on_stove)
    short = max(0.0, required - done)
    kind = cookware.get("kind")
    text = (
        f"{e.agent} took the {name} out of the {kind} on {e.station} at t = {num(e.time)} (its action "
        f"{e.action_index}), {units(short)} before it was cooked ({num(done)}/{num(required)} "
        f"done): wait {num(short)} longer before taking it"
    )
    fields = {
        "short_by": short,
        "station": e.station,
        "ingredient": name,
        "cooked": done,
        "required": required,
    }
    return Cause("not_ready", text, e.time, e.agent, e.action_index, fields)


def units(x: float) -> str:
    return f"{num(x)} time unit" + ("" if x == 1 else "s")


def _moved_from_cookware(e: Event, name: str) -> bool:
    hand = e.hand or {}
    if hand.get("kind") != "plate":
        return False
    return any(i.get("name") == name and i.get("state") != "cooked" for i in hand.get("contents", ()))


def _cookware_before(ctx: Context, before: Mapping[str, Any], e: Event) -> tuple[dict | None, bool]:
    item = before.get("stations", {}).get(e.station) if e.station else None
    if isinstance(item, dict) and item.get("kind") in ("pan", "pot"):
        return item, ctx.station_kind(e.station) == "stove"
    return None, False


def _never_added(ctx: Context, name: str, state: str) -> Cause:
    """The ingredient never reached the plate: where it was last, or that nobody fetched it."""
    e = _last_with(ctx, name)
    fields = {"ingredient": name, "step": "add" if e else "fetch"}
    if e is None:
        text = f"{name} ({state}) is missing: no agent ever takes {name} from a dispenser"
        return Cause("missing_step", text, ctx.time, ctx.agent or None, ctx.index, fields)
    text = (
        f"{name} ({state}) is missing from the plate: the last that happened to it was at t = {num(e.time)}, "
        f"{e.text}, and it never went onto this plate"
    )
    return Cause("missing_step", text, e.time, e.agent, e.action_index, fields)


def _last_with(ctx: Context, name: str) -> Event | None:
    return ctx.last(
        lambda e: e.item == name and e.kind in ("dispense", "take", "put", "chop", "combine", "trash")
    )
