"""Kitchen states as short text for the model: who stands where holding what, what lies where."""

from __future__ import annotations

from typing import Any

from game.engine import Level, Timeline
from game.engine.items import cooking_progress


def item_text(item: dict[str, Any] | None, t: float | None = None, on_stove: bool = False) -> str:
    """With the time t, a pot or pan's cooking is what an Interact at t would find."""
    if item is None:
        return "nothing"
    kind = item.get("kind")
    if kind == "ingredient":
        return f"{item['state']} {item['name']}"
    if kind == "dirty_plate":
        return "a dirty plate"
    inside = ", ".join(item_text(i) for i in item.get("contents", ()))
    text = f"a {kind} with {inside}" if inside else f"an empty {kind}"
    if kind in ("pan", "pot") and item.get("cooking"):
        done, required = (
            cooking_progress(item, t, on_stove) if t is not None else (item["processed"], item["required"])
        )
        text += f" (cooking: {_num(done)} of {_num(required)} done)"
    return text


def action_text(action: dict[str, Any]) -> str:
    """`MoveTo [3, 4]`, `Interact stove1`, `Wait 5`, `Finish`."""
    arg = action.get("target", action.get("duration"))
    return f"{action.get('action')} {arg}" if arg is not None else str(action.get("action"))


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def state_text(
    level: Level, state: dict[str, Any], timeline: Timeline | None = None, t: float | None = None
) -> str:
    """Agents, non-empty stations, plates waiting or on their way back, orders served. With the
    run's timeline, an agent whose move the stop cut short is said to be on its way, not idle;
    with the time t, cooking is what an Interact at t would find."""
    lines = []
    for name, a in state["agents"].items():
        done = " (finished)" if a.get("finished") else ""
        where = f"at [{a['pos'][0]}, {a['pos'][1]}]"
        cut = timeline.cut_span(name) if timeline is not None else None
        if cut is not None and cut.action.get("action") == "MoveTo" and cut.end > cut.start:
            x, y = timeline.position_at(name, timeline.end)
            target = cut.action.get("target")
            where = (
                f"on its way to {list(target) if isinstance(target, list | tuple) else target} "
                f"(near [{round(x)}, {round(y)}] when the run stopped; it never arrived)"
            )
        lines.append(f"- {name} {where} holding {item_text(a['held'])}{done}")
    stoves = {s.name for s in level.stations if s.kind == "stove"}
    full = [f"{n}: {item_text(i, t, n in stoves)}" for n, i in state["stations"].items() if i is not None]
    lines.append("- on stations: " + ("; ".join(full) if full else "nothing"))
    dirty = [f"{n}: {k}" for n, k in state.get("dirty_plates", {}).items() if k]
    if dirty:
        lines.append("- dirty plates waiting at " + "; ".join(dirty))
    if state.get("pending_returns"):
        due = ", ".join(f"t = {_num(t)}" for t in state["pending_returns"])
        lines.append(f"- dirty plates coming back to the plate return at {due}")
    served = state.get("served", [])
    names = [f"{d} (t = {_num(t)})" for d, t in served]
    lines.append("- served: " + (", ".join(names) if names else "nothing yet"))
    remaining = list(level.orders[len(served) :])
    lines.append("- still to serve, in order: " + (", ".join(remaining) if remaining else "nothing"))
    return "\n".join(lines)
