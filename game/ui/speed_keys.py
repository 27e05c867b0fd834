"""The playback speed keys, one map for the play window and the replay viewer."""

from __future__ import annotations

import pygame

SLOWER = pygame.K_LEFTBRACKET
FASTER = pygame.K_RIGHTBRACKET
HELP = ("[ / ]", "slower / faster")
SLOWER_TIP = "Slower ([)"
FASTER_TIP = "Faster (])"
