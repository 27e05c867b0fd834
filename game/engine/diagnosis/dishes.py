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
    if extra:
        causes.append(_extras(ctx, extra, want))
    return causes, minus(need, have), minus(have, need)


def _extras(ctx: Context, extra: list[str], want: str) -> Cause:
    """What the plate holds beyond the order, and since when the agent's plate has held it."""
    words = ", ".join(_key_words(k) for k in extra)
    text = f"the plate also holds {words}, which {want} does not have"
    since = _since_holding(ctx, extra)
    if since is not None:
        them = "it" if len(extra) == 1 else "them"
        text += f"; {ctx.agent}'s plate has held {them} since t = {num(since.time)}: {since.text}"
        return Cause("extra", text, since.time, since.agent, since.action_index, {"items": extra})
    return Cause("extra", text, ctx.time, ctx.agent or None, ctx.index, {"items": extra})


def _key_words(key: str) -> str:
    name, _, state = key.partition(":")
    return f"{state} {name}"


def _since_holding(ctx: Context, keys: list[str]) -> Event | None:
    """The failing agent's event from which its plate has held all of `keys` without a break."""
    mine = [
        e for e in ctx.before if e.agent == ctx.agent and e.kind in ("take", "combine", "dispense", "put")
    ]
    since = None
    for e in mine:
        if e.hand and e.hand.get("kind") == "plate" and not minus(keys, plate_keys(e.hand)):
            since = since or e
        else:
            since = None
    return since


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
    for e in reversed(ctx.before):
        if e.kind != "combine" or not _plate_has_uncooked(e, name) or ctx.timeline is None:
            continue
        frame = ctx.timeline.frame_index(e.time)
        before = ctx.timeline.states[frame - 1] if frame else {}
        cookware, on_stove = _cookware_before(ctx, before, e)
        if cookware is not None and any(i.get("name") == name for i in cookware.get("contents", ())):
            return _not_ready(e, name, cookware, on_stove)
    return None


def _not_ready(e: Event, name: str, cookware: dict, on_stove: bool) -> Cause:
    done, required = cooking_progress(cookware, e.time, on_stove)
    short = max(0.0, required - done)
    text = (
        f"{e.agent} took the {name} out of the {cookware.get('kind')} on {e.station} at t = {num(e.time)} "
        f"(its action {e.action_index}), {units(short)} before it was cooked ({num(done)}/{num(required)} "
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


def _plate_has_uncooked(e: Event, name: str) -> bool:
    hand = e.hand or {}
    if hand.get("kind") != "plate":
        return False
    return any(i.get("name") == name and i.get("state") != "cooked" for i in hand.get("contents", ()))


def _cookware_before(ctx: Context, before: Mapping[str, Any], e: Event) -> tuple[dict | None, bool]:
    """The pot or pan on the event's station just before the event, and whether that is a stove."""
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
