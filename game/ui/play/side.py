"""The side panel: the clock, the orders, the level's description, recipes, the selected agent."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.editor import PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.kitchen import describe_item

from .clock import PlayClock


def agent_info_lines(ed: PlanEditor, wait_default: float) -> list[tuple[str, Any]]:
    """What the side panel says about the selected agent (its role first, if any)."""
    end = ed.end_point(ed.agent)
    index = ed.insertion_index()
    held = describe_item(end.held) + ("" if end.known else " (as far as the run got)")
    where = "at the end of its queue" if ed.selected is None else f"before action {ed.selected}"
    lines: list[tuple[str, Any]] = [
        (f"new actions go {where}; there it stands at {ed.position_before(ed.agent, index)}", P.TEXT),
        (f"after its queue: at {end.pos}, holding {held}", P.TEXT_DIM),
        (f"W queues Wait({panels.fmt(wait_default)})   F1: all controls", P.TEXT_DIM),
    ]
    role = (ed.level.options.get("can_use") or {}).get(ed.agent)
    if role is not None:
        lines.insert(0, (f"may use only: {', '.join(role) or 'nothing'}", P.TEXT))
    return lines


def draw_side(
    surface: pygame.Surface,
    side: pygame.Rect,
    ed: PlanEditor,
    clock: PlayClock,
    wait_default: float,
    human: tuple[float, str] | None = None,
    partner: list[tuple[str, Any]] | None = None,
) -> None:
    """`partner`: the Partner block's lines (partner mode), above the selected agent's."""
    panels.panel(surface, side)
    x, w = side.x + 16, side.w - 32
    r, level = ed.result, ed.level
    y = panels.draw_clock(surface, x, side.y + 10, w, clock.t, clock.end, clock.playing, clock.speed) + 10
    served = sum(1 for s in r.served_times if s <= clock.t)
    y = panels.draw_orders(surface, x, y, w, level.orders, served, r.served_times, r.error is not None) + 6
    if human is not None:  # the published human time of this very task, to plan against
        line = f"Human time to beat: {panels.fmt(human[0])} ({human[1]})"
        y = panels.draw_lines(surface, x, y, w, [(line, P.TEXT_DIM)]) + 6
    info = agent_info_lines(ed, wait_default)
    info_h = block_height(info, w)
    partner_h = block_height(partner, w) if partner else 0
    if level.description and y + 60 < side.bottom - info_h:
        y = panels.heading(surface, "About this level", x, y, w)
        y = panels.draw_lines(surface, x, y, w, [(level.description, P.TEXT)]) + 10
    y = panels.draw_recipes(surface, x, y, w, level, side.bottom - info_h - partner_h) + 4
    if partner:
        y = panels.heading(surface, "Partner", x, max(y, side.bottom - info_h - partner_h), w)
        y = panels.draw_lines(surface, x, y, w, partner) + 8
    y = panels.heading(surface, f"Selected: {ed.agent}", x, max(y, side.bottom - info_h), w)
    panels.draw_lines(surface, x, y, w, info)


def block_height(lines: list[tuple[str, Any]], w: int) -> int:
    """A headed block of lines, in pixels."""
    return 24 + sum(len(panels.wrap(text, w, 17)) for text, _ in lines) * 16 + 8
