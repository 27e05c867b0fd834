"""The conversation of a decentralized run beside the replay: the messages sent up to the time
shown, newest at the bottom, each with its time, sender (in the agent's colour) and receivers."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.replay.conversation import MessageLine, messages_until

from . import palette as P
from .text import blit_text, ellipsize, wrap

SIZE = 15
LINE_H = 18


@dataclass
class MessagePanel:
    lines: list[MessageLine]
    agents: tuple[str, ...]

    def colour(self, agent: str) -> tuple[int, int, int]:
        return P.agent_colour(self.agents.index(agent)) if agent in self.agents else P.TEXT

    def shown(self, t: float) -> list[MessageLine]:
        return messages_until(self.lines, t)

    def rows(self, t: float, width: int) -> list[tuple[MessageLine, list[str]]]:
        """Each message sent by t with its wrapped text lines."""
        return [(m, wrap(f'"{m.text}"', width - 12, SIZE)) for m in self.shown(t)]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
        pygame.draw.rect(surface, P.PANEL_LIGHT, rect, border_radius=4)
        sent = self.shown(t)
        title = f"Messages  {len(sent)} of {len(self.lines)} sent by t = {t:g}"
        blit_text(
            surface, ellipsize(title, rect.w - 12, SIZE), (rect.x + 6, rect.y + 4), SIZE, P.TEXT, bold=True
        )
        y_top = rect.y + 4 + LINE_H + 2
        blocks, need = [], 0
        for m, text in reversed(self.rows(t, rect.w)):  # newest first until the panel is full
            h = LINE_H * (1 + len(text)) + 4
            if y_top + need + h > rect.bottom:
                break
            blocks.append((m, text))
            need += h
        y = y_top
        for m, text in reversed(blocks):
            head = f"t = {m.time:g}  {m.sender} to {', '.join(m.receivers)}"
            blit_text(
                surface,
                ellipsize(head, rect.w - 12, SIZE),
                (rect.x + 6, y),
                SIZE,
                self.colour(m.sender),
                bold=True,
            )
            y += LINE_H
            for line in text:
                blit_text(surface, line, (rect.x + 12, y), SIZE, P.TEXT)
                y += LINE_H
            y += 4
