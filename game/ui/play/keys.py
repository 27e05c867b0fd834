"""The play window's keyboard map: key -> what it does to the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import speed_keys

if TYPE_CHECKING:
    from .screen import PlayScreen

PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
Command = Callable[["PlayScreen", Any], None]


def is_help_key(event: pygame.event.Event) -> bool:
    return event.key == pygame.K_F1 or getattr(event, "unicode", "") == "?"


def _cycle(screen: PlayScreen, event: Any) -> None:
    names = screen.level.agent_names
    step = -1 if event.mod & pygame.KMOD_SHIFT else 1
    screen.select_agent(names[(names.index(screen.editor.agent) + step) % len(names)])


def _move_selection(step: int) -> Command:
    def run(screen: PlayScreen, _event: Any) -> None:
        screen.editor.move_selection(step)
        screen.show_insertion()

    return run


KEYS: dict[int, Command] = {
    pygame.K_ESCAPE: lambda s, e: s.escape(),
    pygame.K_SPACE: lambda s, e: s.toggle_play(),
    pygame.K_TAB: _cycle,
    pygame.K_UP: _move_selection(-1),
    pygame.K_DOWN: _move_selection(1),
    pygame.K_LEFT: lambda s, e: s.step_event(-1),
    pygame.K_RIGHT: lambda s, e: s.step_event(1),
    pygame.K_HOME: lambda s, e: s.seek(0),
    pygame.K_END: lambda s, e: s.seek(s.clock.end),
    speed_keys.SLOWER: lambda s, e: s.change_speed(-1),
    speed_keys.FASTER: lambda s, e: s.change_speed(1),
    pygame.K_RETURN: lambda s, e: s.reopen_card(),
    pygame.K_KP_ENTER: lambda s, e: s.reopen_card(),
    pygame.K_DELETE: lambda s, e: s.delete(),
    pygame.K_BACKSPACE: lambda s, e: s.delete(),
    pygame.K_w: lambda s, e: s.open_prompt(),
    pygame.K_f: lambda s, e: s.edit(s.editor.queue_finish),
    pygame.K_p: lambda s, e: s.key_on_hover(process=True),
    pygame.K_i: lambda s, e: s.key_on_hover(),
    pygame.K_m: lambda s, e: s.key_on_hover(move=True),
    **{k: (lambda s, e: s.adjust_wait(1)) for k in PLUS_KEYS},
    **{k: (lambda s, e: s.adjust_wait(-1)) for k in MINUS_KEYS},
}

CTRL_KEYS: dict[int, Command] = {
    pygame.K_z: lambda s, e: s.redo() if e.mod & pygame.KMOD_SHIFT else s.undo(),
    pygame.K_y: lambda s, e: s.redo(),
    pygame.K_s: lambda s, e: s.save(save_as=bool(e.mod & pygame.KMOD_SHIFT)),
    pygame.K_o: lambda s, e: s.open(),
    pygame.K_e: lambda s, e: s.export(),
}


class WaitPrompt:
    """Typing a Wait's length after W: digits, a dot, +/-, Backspace; Enter queues, Esc cancels."""

    def __init__(self, default: float):
        from game.ui.render.play_panels import fmt

        self.text, self.fresh = fmt(default), True

    def key(self, event: pygame.event.Event) -> str:
        """'queue', 'cancel' or '' (still typing)."""
        from game.ui.render.play_panels import fmt

        key = event.key
        if key == pygame.K_ESCAPE:
            return "cancel"
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_w):
            return "queue"
        if key == pygame.K_BACKSPACE:
            self.text, self.fresh = self.text[:-1], False
        elif key in PLUS_KEYS or key in MINUS_KEYS:
            value = max(0, self.value + (1 if key in PLUS_KEYS else -1))
            self.text, self.fresh = fmt(value), False
        elif event.unicode and (event.unicode.isdigit() or (event.unicode == "." and "." not in self.text)):
            self.text = (event.unicode if self.fresh else self.text + event.unicode)[:6]
            self.fresh = False
        return ""

    @property
    def value(self) -> float:
        try:
            return float(self.text or 0)
        except ValueError:
            return 0.0
