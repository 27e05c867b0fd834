"""Where each part of the play window goes, for a window size and a number of agents."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

TOP_H = 44
SCRUB_H = 32
STATUS_H = 50
LANE_H = 24
AXIS_H = 20


@dataclass
class Layout:
    top: pygame.Rect
    kitchen: pygame.Rect
    scrub: pygame.Rect
    timeline: pygame.Rect
    status: pygame.Rect
    queues: pygame.Rect
    side: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int], agents: int = 2) -> Layout:
        w, h = size
        side_w = max(300, min(460, int(w * 0.3)))
        main_w = w - side_w
        queues_h = max(170, min(300, int(h * 0.26)))
        lane = LANE_H if h >= 800 else 20
        timeline_h = min(max(1, agents), 6) * lane + AXIS_H + 6
        queues = pygame.Rect(0, h - queues_h, main_w, queues_h)
        status = pygame.Rect(0, queues.y - STATUS_H, main_w, STATUS_H)
        timeline = pygame.Rect(0, status.y - timeline_h, main_w, timeline_h)
        scrub = pygame.Rect(0, timeline.y - SCRUB_H, main_w, SCRUB_H)
        top = pygame.Rect(0, 0, w, TOP_H)
        return cls(
            top,
            pygame.Rect(0, top.bottom, main_w, scrub.y - top.bottom),
            scrub,
            timeline,
            status,
            queues,
            pygame.Rect(main_w, top.bottom, side_w, h - top.bottom),
        )
