"""Why a run that hit no error still left orders unserved: the plan ran out first."""

from __future__ import annotations

from typing import Any

from ..level import Level
from ..narration import Narration, num
from ..result import Result
from .context import Context, dish_of, held_words, plate_keys
from .dishes import dish_causes
from .model import Cause, Diagnosis

UNFINISHED = "unfinished"  # the diagnosis kind of a run that ended with orders left and no error


def explain_unfinished(level: Level, story: Narration, result: Result) -> Diagnosis:
    """The next order, the plate closest to it when the plan ran out, and what it still lacked."""
    want = result.remaining_orders[0]
    served, total = len(result.finished_orders), len(result.finished_orders) + len(result.remaining_orders)
    head = f"The plan ended at t = {num(result.time)} with {served} of {total} orders served: {want} was never served"
    actions = sum(int(p.split("/")[-1]) for p in result.agent_progress.values() if p.split("/")[-1].isdigit())
    if actions == 0:
        cause = Cause("plan_error", "the plan has no actions: no agent was given anything to do", 0.0)
        return Diagnosis(UNFINISHED, f"a served {want}", [cause], f"{head}. Likeliest cause: {cause.text}.")
    holder, plate = _closest_plate(level, result, want)
    agent = holder if holder and not holder.startswith("@") else None
    err: dict[str, Any] = {"agent": agent, "time": result.time, "kind": UNFINISHED}
    ctx = Context(level, story, err, result.timeline)
    causes = _causes(ctx, level, holder, plate, want)
    summary = f"{head}. Likeliest cause: {causes[0].text.rstrip('.')}."
    return Diagnosis(UNFINISHED, f"a served {want}", causes, summary)


def _causes(ctx: Context, level: Level, holder: str | None, plate: dict | None, want: str) -> list[Cause]:
    if plate is None:
        recipe = level.recipe_book.get(want)
        keys = sorted(recipe.signature()) if recipe else []
        text = f"no plate ever held any of {want}'s ingredients ({', '.join(keys)})"
        return [Cause("missing_step", text, ctx.time, None, None, {"step": "plate"})]
    if dish_of(level, plate) == want:
        where = f"it stood on {holder[1:]}" if holder and holder.startswith("@") else f"{holder} held it"
        text = f"{held_words(level, plate)} was ready at the end ({where}), but the plan never serves it"
        return [Cause("missing_step", text, ctx.time, ctx.agent or None, None, {"step": "serve"})]
    causes, _, _ = dish_causes(ctx, plate)
    return [c for c in causes if c.kind != "wrong_order"] or [
        Cause("missing_step", f"the plate closest to {want} holds {plate_keys(plate)}", ctx.time)
    ]


def _closest_plate(level: Level, result: Result, want: str) -> tuple[str | None, dict | None]:
    """(who holds it: an agent, or '@station'; the plate) sharing most ingredients with `want`."""
    if result.timeline is None:
        return None, None
    recipe = level.recipe_book.get(want)
    need = list(recipe.signature()) if recipe else []
    state = result.timeline.state_at(result.time)
    found: list[tuple[int, str, dict]] = []
    for agent, a in state.get("agents", {}).items():
        if isinstance(a.get("held"), dict) and a["held"].get("kind") == "plate":
            found.append((_overlap(need, a["held"]), agent, a["held"]))
    for station, item in state.get("stations", {}).items():
        if isinstance(item, dict) and item.get("kind") == "plate":
            found.append((_overlap(need, item), f"@{station}", item))
    best = max(found, key=lambda f: f[0], default=None)
    if best is None or best[0] == 0:
        return None, None
    return best[1], best[2]


def _overlap(need: list[str], plate: dict) -> int:
    names = {k.split(":", 1)[0] for k in need}
    return sum(1 for k in plate_keys(plate) if k.split(":", 1)[0] in names)
