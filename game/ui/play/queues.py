"""The agents' action queues under the kitchen: one column per agent, scrolled to what matters."""

from __future__ import annotations

import pygame

from game.engine import Level
from game.ui.editor import PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels


class QueuesView:
    def __init__(self, level: Level):
        self.level = level
        self.scroll = {a: 0 for a in level.agent_names}
        self.rows: list[panels.QueueRow] = []
        self.area = pygame.Rect(0, 0, 10, 10)

    def columns(self) -> list[pygame.Rect]:
        area, names = self.area, self.level.agent_names
        w = area.w // len(names)
        return [pygame.Rect(area.x + i * w + 2, area.y + 2, w - 4, area.h - 4) for i in range(len(names))]

    def column_at(self, x: int) -> str | None:
        for name, rect in zip(self.level.agent_names, self.columns(), strict=True):
            if rect.x <= x < rect.right:
                return name
        return None

    def rows_visible(self) -> int:
        return panels.visible_rows(self.columns()[0])

    def keep_visible(self, agent: str, row: int) -> None:
        n = self.rows_visible()
        if row < self.scroll[agent]:
            self.scroll[agent] = row
        elif row >= self.scroll[agent] + n:
            self.scroll[agent] = row - n + 1

    def wheel(self, editor: PlanEditor, x: int, dy: int) -> None:
        agent = self.column_at(x)
        if agent is not None:
            top = max(0, len(editor.queues[agent]) + 1 - self.rows_visible())
            self.scroll[agent] = min(top, max(0, self.scroll[agent] - 3 * dy))

    def row_at(self, pos: tuple[int, int]) -> panels.QueueRow | None:
        return next((r for r in self.rows if r.rect.collidepoint(pos)), None)

    def draw(
        self,
        surface: pygame.Surface,
        editor: PlanEditor,
        running: dict[str, int | None],
        partner: set[str] | None = None,
    ) -> None:
        """`partner`: the agents the partner plans (None: no partner, nobody's queue is marked)."""
        ed, err = editor, editor.error
        self.rows = []
        for i, (name, rect) in enumerate(zip(self.level.agent_names, self.columns(), strict=True)):
            queue = ed.queues[name]
            spans = [ed.span(name, k) for k in range(len(queue))]
            ends = [s.end for s in spans if s is not None and s.status != "rejected"]
            summary = (
                f"{len(queue)} actions, busy until t = {panels.fmt(max(ends))}"
                if ends
                else (f"{len(queue)} actions" if queue else "no actions yet")
            )
            col = panels.QueueColumn(
                name,
                i + 1,
                P.agent_colour(i),
                queue,
                spans,
                name == ed.agent,
                ed.cursor[name],
                err.action_index if err is not None and err.agent == name else None,
                running.get(name),
                summary,
                self.scroll[name],
                owner="" if partner is None else ("partner" if name in partner else "you"),
            )
            self.rows += panels.draw_queue_column(surface, rect, col)
