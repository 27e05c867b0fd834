"""The play window's timeline: one lane per agent, each action a bar at its engine times.

Built on the shared Gantt renderer (game/ui/render/gantt.py) and the engine's event sentences
(game/engine/narration.py), as the replay viewer is. On top of it: the insertion point of the
selected agent, the same-instant meetings (who goes first, numbered), and a Wait whose end is
being dragged. Mouse: click a bar to select that action, drag the right end of a Wait to change
its length, click or drag an empty part of a lane to move the time cursor, wheel to zoom."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.engine import ActionSpan, Level
from game.engine.diagnosis import Diagnosis
from game.engine.narration import Narration, narrate
from game.ui.editor import PlanEditor
from game.ui.render import palette as P
from game.ui.render.gantt import Gantt, span_lines
from game.ui.render.text import blit_text

from . import instant

GRAB_PX = 6  # how close to a Wait's right end a press starts a drag
INSERT = (255, 255, 255)
MEETING = (240, 228, 66)
STRIPE_GAP = 8


def stripes(size: tuple[int, int]) -> pygame.Surface:
    """Dark diagonal stripes over a partner's lane: its bars read as planned by someone else."""
    img = pygame.Surface(size, pygame.SRCALPHA)
    w, h = size
    for x in range(-h, w, STRIPE_GAP):
        pygame.draw.line(img, (10, 12, 18, 120), (x, h), (x + h, 0), 3)
    return img


def dashed_rect(
    surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect, dash: int = 6
) -> None:
    for x in range(rect.x, rect.right, 2 * dash):
        end = min(x + dash, rect.right)
        pygame.draw.line(surface, colour, (x, rect.y), (end, rect.y))
        pygame.draw.line(surface, colour, (x, rect.bottom - 1), (end, rect.bottom - 1))
    for y in range(rect.y, rect.bottom, 2 * dash):
        end = min(y + dash, rect.bottom)
        pygame.draw.line(surface, colour, (rect.x, y), (rect.x, end))
        pygame.draw.line(surface, colour, (rect.right - 1, y), (rect.right - 1, end))


@dataclass
class Drag:
    agent: str
    index: int
    start: float
    duration: float


class TimelineView:
    def __init__(self, level: Level):
        self.level = level
        self.agents = level.agent_names
        self.rect = pygame.Rect(0, 0, 10, 10)
        self.gantt: Gantt | None = None
        self.meetings: list[instant.Meeting] = []
        self.story: Narration | None = None
        self.drag: Drag | None = None
        self._revision = -1
        self._stripes: pygame.Surface | None = None

    def refresh(self, editor: PlanEditor) -> None:
        """Rebuild after an edit (cheap when nothing changed)."""
        key = (id(editor), editor.revision)
        if key == self._revision:
            return
        self._revision = key
        r = editor.result
        stop = r.error_detail.time if r.error_detail is not None else None
        old = self.gantt
        self.story = narrate(self.level, r.timeline, editor.rules, error=r.error_detail)
        room = max(4.0, 0.1 * r.time)  # past the plan's end: room to drag a Wait longer
        self.gantt = Gantt(r.timeline, self.agents, end=r.time + room, stop=stop, story=self.story)
        if old is not None and old.zoomed:  # an edit keeps the zoom
            self.gantt.set_view(*old.view)
        self.meetings = instant.meetings(r.timeline, self.agents)

    def zoom(self, event: pygame.event.Event, mouse: tuple[int, int]) -> bool:
        """The wheel over the timeline zooms around the mouse (shift pans); True when used."""
        if self.gantt is None or event.type != pygame.MOUSEWHEEL or not self.rect.collidepoint(mouse):
            return False
        return self.gantt.handle(event, self.rect, mouse)

    def follow(self, t: float) -> None:
        if self.gantt is not None and self.gantt.zoomed:
            self.gantt.follow(t)

    # -- hit-testing ------------------------------------------------------------------------
    def span_at(self, pos: tuple[int, int]) -> ActionSpan | None:
        if self.gantt is None or not self.rect.collidepoint(pos):
            return None
        return self.gantt.span_at_pixel(self.rect, pos)

    def lane_at(self, pos: tuple[int, int]) -> str | None:
        if self.gantt is None or not self.rect.collidepoint(pos):
            return None
        for i, agent in enumerate(self.agents):
            if self.gantt.row_rect(self.rect, i).inflate(0, 4).collidepoint(pos):
                return agent
        return None

    def time_at(self, x: int) -> float:
        return self.gantt.time_at(self.rect, x) if self.gantt else 0.0

    def wait_end_at(self, editor: PlanEditor, pos: tuple[int, int]) -> ActionSpan | None:
        """A Wait whose right end is under pos (for dragging)."""
        agent = self.lane_at(pos)
        if agent is None or self.gantt is None:
            return None
        best, best_d = None, GRAB_PX + 1
        for span in self.gantt.rows[agent]:
            if span.action.get("action") != "Wait" or span.status == "rejected":
                continue
            d = abs(self.gantt.x_of(self.rect, span.end) - pos[0])
            if d < best_d:
                best, best_d = span, d
        return best

    # -- dragging a Wait -----------------------------------------------------------------------
    def start_drag(self, span: ActionSpan) -> None:
        self.drag = Drag(span.agent, span.index, span.start, span.end - span.start)

    def drag_to(self, x: int) -> None:
        if self.drag is not None:
            self.drag.duration = max(0.0, round(self.time_at(x) - self.drag.start))

    # -- drawing --------------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        editor: PlanEditor,
        t: float,
        hover: ActionSpan | None,
        partner: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        g = self.gantt
        if g is None:
            return
        selected = (editor.agent, editor.selected) if editor.selected is not None else None
        g.draw(surface, self.rect, t, hover, selected)
        clip = surface.get_clip()
        surface.set_clip(g.plot(self.rect).inflate(8, 8))
        for agent in partner:  # the partner's lanes: striped bars, a dashed frame
            self._draw_partner_lane(surface, self._lane(agent))
        self._draw_selection(surface, editor)
        self._draw_meetings(surface)
        if self.drag is not None:
            self._draw_drag(surface)
        surface.set_clip(clip)

    def _lane(self, agent: str) -> pygame.Rect:
        assert self.gantt is not None
        return self.gantt.row_rect(self.rect, self.agents.index(agent))

    def _draw_selection(self, surface: pygame.Surface, ed: PlanEditor) -> None:
        """The insertion point of the selected agent: before the selected action, else at the end."""
        g = self.gantt
        assert g is not None
        lane = self._lane(ed.agent)
        colour = P.agent_colour(self.agents.index(ed.agent))
        pygame.draw.rect(surface, colour, lane.inflate(2, 2), 1)
        index = ed.insertion_index()
        span = ed.span(ed.agent, index) if index < len(ed.queues[ed.agent]) else None
        if span is not None:
            x = g.x_of(self.rect, span.start)
            bar = g.span_rect(self.rect, lane, span)
            pygame.draw.rect(surface, INSERT, bar.inflate(4, 4), 2)
        else:
            ran = [s for s in g.rows[ed.agent] if s.status != "rejected"]
            x = g.x_of(self.rect, ran[-1].end) if ran else g.x_of(self.rect, 0)
        pygame.draw.line(surface, INSERT, (x - 1, lane.y - 3), (x - 1, lane.bottom + 2), 3)
        pygame.draw.polygon(surface, INSERT, [(x - 6, lane.y - 4), (x + 4, lane.y - 4), (x - 1, lane.y + 2)])

    def _draw_partner_lane(self, surface: pygame.Surface, lane: pygame.Rect) -> None:
        size = (lane.w, lane.h)
        if self._stripes is None or self._stripes.get_size() != size:
            self._stripes = stripes(size)
        surface.blit(self._stripes, lane.topleft)
        dashed_rect(surface, P.PARTNER, lane.inflate(2, 2))

    def _draw_meetings(self, surface: pygame.Surface) -> None:
        g = self.gantt
        assert g is not None
        for meeting in self.meetings:
            x = g.x_of(self.rect, meeting.t)
            for n, agent in enumerate(meeting.agents, 1):
                lane = self._lane(agent)
                badge = pygame.Rect(0, 0, 13, 13)
                badge.midbottom = (x, lane.bottom)
                pygame.draw.rect(surface, MEETING, badge, border_radius=3)
                blit_text(surface, str(n), badge.center, 14, (20, 20, 20), bold=True, anchor="center")

    def _draw_drag(self, surface: pygame.Surface) -> None:
        g, d = self.gantt, self.drag
        assert g is not None and d is not None
        lane = self._lane(d.agent)
        x0, x1 = g.x_of(self.rect, d.start), g.x_of(self.rect, d.start + d.duration)
        ghost = pygame.Rect(min(x0, x1), lane.y, max(3, abs(x1 - x0)), lane.h)
        pygame.draw.rect(surface, (255, 255, 255), ghost, 2)
        blit_text(
            surface, f"Wait {d.duration:g}", (ghost.right + 4, lane.centery), 16, P.TEXT, anchor="midleft"
        )

    # -- hover text ----------------------------------------------------------------------------
    def tooltip(self, editor: PlanEditor, span: ActionSpan) -> list[str]:
        lines = span_lines(span, self.story)
        err = editor.error
        found = editor.result.diagnosis
        if err is not None and (err.agent, err.action_index) == (span.agent, span.index) and found:
            lines += Diagnosis.from_dict(found).lines()
        for meeting in self.meetings:
            if span.agent in meeting.agents and meeting.t in (span.start, span.end):
                order = meeting.agents
                turns = meeting.turns
                k = order.index(span.agent)
                other = turns[1] if k == 0 else turns[0]
                first, second = (turns[k], other) if k == 0 else (other, turns[k])
                lines.append(f"{meeting.station}: " + instant.order_sentence(first, second, meeting.t))
        lines.append("click: select it (new actions go before it)")
        if span.action.get("action") == "Wait":
            lines.append("drag its right end to change how long it waits")
        return lines
