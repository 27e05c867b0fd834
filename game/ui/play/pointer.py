"""The mouse in the play window: clicks on the kitchen, the scrub bar, the timeline (select a bar,
drag a Wait's end, move the time cursor) and the queues, and dragging across them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui.render import play_panels as panels

if TYPE_CHECKING:
    from .screen import PlayScreen


class Pointer:
    def __init__(self, host: PlayScreen):
        self.s = host
        self.dragging = False  # the time cursor, on the scrub bar or the timeline
        self._drag_on_timeline = False

    def motion(self, pos: tuple[int, int]) -> None:
        self.s.mouse = pos
        if self.s.timeline.drag is not None:
            self.s.timeline.drag_to(pos[0])
        elif self.dragging:
            self.s.seek(self._drag_time(pos[0]))

    def _drag_time(self, x: int) -> float:
        if self._drag_on_timeline:
            return self.s.timeline.time_at(x)
        return panels.time_at(self.s.layout.scrub, self.s.clock.end, x)

    def click(self, pos: tuple[int, int], button: int) -> None:
        lay = self.s.layout
        shift = self.s.shift or bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        if lay.kitchen.collidepoint(pos):
            self._kitchen_click(pos, button, shift)
        elif lay.scrub.collidepoint(pos) and button == 1:
            self.dragging, self._drag_on_timeline = True, False
            self.s.seek(panels.time_at(lay.scrub, self.s.clock.end, pos[0]))
        elif lay.timeline.collidepoint(pos) and button == 1:
            self._timeline_click(pos)
        elif lay.queues.collidepoint(pos):
            row = self.s.queues.row_at(pos)
            if row is not None:
                self._select_row(row.agent, row.index, toggle=True)

    def release(self, pos: tuple[int, int]) -> None:
        self.dragging = False
        drag = self.s.timeline.drag
        if drag is None:
            return
        self.s.timeline.drag = None
        if not self.s.editable(drag.agent):
            return
        self.s.editor.select_action(drag.index, drag.agent)
        if self.s.editor.set_wait(drag.index, drag.duration):
            self.s.after_edit()
            self.s.say(f"{drag.agent} action {drag.index} now waits {panels.fmt(drag.duration)}")

    def _kitchen_click(self, pos: tuple[int, int], button: int, shift: bool) -> None:
        agent = self.s.renderer.badge_at_pixel(pos)
        if button == 1 and agent is not None and agent != self.s.shown.agent and not shift:
            self.s.select_agent(agent)  # only the badge selects: the tile itself is a MoveTo target
            return
        tile = self.s.kitchen.tile_at(pos)
        if tile is None:
            return
        self.s.act_on_tile(tile, process=button == 3, move=shift)

    def _timeline_click(self, pos: tuple[int, int]) -> None:
        ed = self.s.shown
        wait = self.s.timeline.wait_end_at(ed, pos) if self.s.viewing is None else None
        if wait is not None:
            self.s.timeline.start_drag(wait)
            return
        span = self.s.timeline.span_at(pos)
        if span is not None:
            self._select_row(span.agent, span.index, toggle=False)
            return
        self.dragging, self._drag_on_timeline = True, True
        self.s.seek(self.s.timeline.time_at(pos[0]))

    def _select_row(self, agent: str, index: int | None, toggle: bool) -> None:
        ed = self.s.shown
        if toggle and index is not None and ed.agent == agent and ed.selected == index:
            ed.select_action(None, agent)
        else:
            ed.select_action(index, agent)
        i = ed.insertion_index()
        span = ed.span(agent, i) if i < len(ed.queues[agent]) else None
        if span is not None:
            self.s.clock.seek(span.start)
            self.s.follow_time()
        self.s.show_insertion()
        if ed.selected is None:
            self.s.say(f"{agent}: new actions go at the end of the queue")
        else:
            self.s.say(f"{agent}: new actions go before action {ed.selected}; Delete removes it")
