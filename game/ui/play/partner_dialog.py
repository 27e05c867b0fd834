"""The Partner dialog: who the partner is (the built-in planner, or a model through an endpoint
with a planning method), which agents are the person's, and Start, Partner first or Stop."""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui

from game.planners.llm import METHODS
from game.study.partner import Partner, PartnerSpecError, endpoint_of, key_env_of

W = 600
TITLE_H = 34  # the window's own title bar
PAD = 16
ROW = 40


@dataclass
class DialogResult:
    """What the person pressed: start (with the choice and their agents), first, stop or close."""

    action: str
    choice: Partner | None = None
    mine: tuple[str, ...] = ()


class PartnerDialog:
    def __init__(self, manager: pygame_gui.UIManager):
        self.manager = manager
        self.window: pygame_gui.elements.UIWindow | None = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        self.note: pygame_gui.elements.UILabel | None = None
        self.kind = "planner"
        self.method = METHODS[0]
        self.mine: dict[str, bool] = {}
        self.planner_ok = True

    @property
    def is_open(self) -> bool:
        return self.window is not None and self.window.alive()

    def open(
        self,
        size: tuple[int, int],
        agents: list[str],
        current: Partner | None,
        mine: set[str],
        active: bool,
        planner_ok: bool,
    ) -> None:
        self.close()
        choice = current or Partner("planner" if planner_ok else "llm")
        self.kind, self.method, self.planner_ok = choice.kind, choice.method or METHODS[0], planner_ok
        default_mine = mine if active else set(agents[:1])
        self.mine = {a: a in default_mine for a in agents}
        rows = (len(agents) + 3) // 4
        height = TITLE_H + 2 * PAD + 5 * ROW + 6 + 32 + ROW * rows + 10 + ROW + 30
        rect = pygame.Rect(0, 0, min(W, size[0] - 40), min(height, size[1] - 40))
        rect.center = (size[0] // 2, size[1] // 2)
        self.window = pygame_gui.elements.UIWindow(
            rect, self.manager, window_display_title="Plan with a partner", resizable=False
        )
        inner = self.window.get_container()
        w = inner.get_rect().w - 2 * PAD
        y = PAD

        def label(text: str, x: int, yy: int, width: int) -> None:
            pygame_gui.elements.UILabel(pygame.Rect(x, yy, width, 30), text, self.manager, container=inner)

        def button(name: str, text: str, x: int, yy: int, width: int, tip: str | None = None) -> None:
            self.buttons[name] = pygame_gui.elements.UIButton(
                pygame.Rect(x, yy, width, 32), text, self.manager, container=inner, tool_tip_text=tip
            )

        self.buttons, self.entries = {}, {}
        label("Partner:", PAD, y, 90)
        half = (w - 100) // 2
        button("kind:planner", "Built-in planner", PAD + 100, y, half - 4)
        button(
            "kind:llm", "LLM", PAD + 100 + half, y, half - 4, "a model through an OpenAI-compatible endpoint"
        )
        y += ROW
        for name, text, value in (
            ("endpoint", "Endpoint:", choice.endpoint),
            ("model", "Model:", choice.model),
            ("key", "Key from:", choice.api_key_env),
        ):
            label(text, PAD, y, 90)
            entry = pygame_gui.elements.UITextEntryLine(
                pygame.Rect(PAD + 100, y, w - 100, 32), self.manager, container=inner
            )
            entry.set_text(value or "")
            self.entries[name] = entry
            y += ROW
        self.entries["endpoint"].set_tooltip("base URL, e.g. http://localhost:8000/v1 (empty: OpenAI)")
        self.entries["key"].set_tooltip("the environment variable holding the API key (not the key itself)")
        label("Method:", PAD, y, 90)
        button("method", self.method, PAD + 100, y, 160, "click for the next planning method")
        y += ROW + 6
        label("Your agents (click to give one to the partner):", PAD, y, w)
        y += 32
        bw = max(90, min(150, w // max(1, len(agents)) - 6))
        for i, agent in enumerate(agents):
            x = PAD + (i % 4) * (bw + 6)
            button(f"agent:{agent}", "", x, y + (i // 4) * ROW, bw)
        y += ROW * ((len(agents) + 3) // 4) + 10
        third = (w - 12) // 3
        button("start", "Start", PAD, y, third, "the partner plans the agents that are not yours")
        button("first", "Partner first", PAD + third + 6, y, third, "the partner plans every agent; you edit")
        button(
            "stop" if active else "close",
            "Stop partner" if active else "Close",
            PAD + 2 * (third + 6),
            y,
            third,
        )
        self.note = pygame_gui.elements.UILabel(
            pygame.Rect(PAD, y + ROW, w, 30), "", self.manager, container=inner
        )
        self._sync()

    def close(self) -> None:
        if self.window is not None and self.window.alive():
            self.window.kill()
        self.window = None

    def _sync(self) -> None:
        """The buttons' words and states follow the choices made."""
        for kind in ("planner", "llm"):
            b = self.buttons[f"kind:{kind}"]
            b.select() if self.kind == kind else b.unselect()
        if not self.planner_ok:
            self.buttons["kind:planner"].disable()
        llm = self.kind == "llm"
        for element in (*self.entries.values(), self.buttons["method"]):
            element.enable() if llm else element.disable()
        self.buttons["method"].set_text(self.method)
        for agent, yours in self.mine.items():
            self.buttons[f"agent:{agent}"].set_text(f"{agent}: {'yours' if yours else 'partner'}")

    def choice(self) -> Partner:
        """The partner chosen; PartnerSpecError naming the field that cannot be used."""
        if self.kind == "planner":
            return Partner("planner")
        model = self.entries["model"].get_text().strip()
        if not model:
            raise PartnerSpecError("an LLM partner needs a model name")
        endpoint = self.entries["endpoint"].get_text().strip()
        env = key_env_of(self.entries["key"].get_text().strip() or "OPENAI_API_KEY", "key from")
        return Partner("llm", endpoint_of(endpoint or None, "endpoint"), model, self.method, api_key_env=env)

    def handle(self, event: pygame.event.Event) -> DialogResult | None:
        """After the UI manager saw the event: what was decided, if anything (the dialog closes)."""
        w = self.window
        if w is None:
            return None
        if not w.alive():  # its own close button
            self.window = None
            return DialogResult("close")
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return DialogResult("close")
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        name = next((n for n, b in self.buttons.items() if b is event.ui_element), None)
        if name is None:
            return None
        if name.startswith("kind:"):
            self.kind = name[5:]
        elif name == "method":
            self.method = METHODS[(METHODS.index(self.method) + 1) % len(METHODS)]
        elif name.startswith("agent:"):
            agent = name[6:]
            self.mine[agent] = not self.mine[agent]
        elif name in ("start", "first"):
            try:
                choice = self.choice()
            except PartnerSpecError as e:
                if self.note is not None:
                    self.note.set_text(str(e))
                return None
            mine = tuple(a for a, yours in self.mine.items() if yours) if name == "start" else ()
            self.close()
            return DialogResult(name, choice, mine)
        elif name in ("stop", "close"):
            self.close()
            return DialogResult(name)
        self._sync()
        return None
