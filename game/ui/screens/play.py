"""The play window: plan every agent's queue on a live kitchen, watch it run, finish with a score.

Every edit goes through PlanEditor, which re-runs the whole plan in the engine; what is drawn at
time t is the engine's Timeline at t. The plan autosaves after every edit.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine import Level, Plan, parse_plan, plan_to_dict, simulate
from game.engine.level import Station
from game.ui import store
from game.ui.editor import EditRefused, PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.kitchen import KitchenRenderer, describe_tile, fit_tile
from game.ui.render.text import blit_text, ellipsize, fit_size, font

SPEEDS = (0.25, 0.5, 1, 2, 4, 8, 16)
DEFAULT_SPEED = 3  # index into SPEEDS: 2 time units per second
MESSAGE_SECONDS = 6
THEME = Path(__file__).resolve().parents[1] / "theme.json"
BG = (24, 25, 31)
ERROR_BG = (110, 30, 30)
ERROR_TEXT = (255, 235, 235)

HELP: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Agents",
        [
            ("click an agent", "select it (its queue gets the new actions)"),
            ("1-9, Tab", "select agent n / the next agent (Shift+Tab: previous)"),
        ],
    ),
    (
        "Planning",
        [
            ("click floor", "queue a MoveTo to that tile"),
            ("click station", "queue an Interact; walks next to it first when needed"),
            ("right-click, P", "queue a Process (chop, wash) at the station under the mouse"),
            ("I / M", "Interact with / MoveTo the tile under the mouse"),
            ("Shift+click", "MoveTo even where another agent stands"),
            ("W", "queue a Wait: type its length, +/- adjust, Enter queues"),
            ("F", "queue a Finish"),
            ("+ / -", "lengthen / shorten the selected Wait"),
            ("click an action", "select it: new actions are inserted before it"),
            ("Up / Down", "select the previous / next action in the queue"),
            ("Esc", "deselect: new actions go at the end"),
            ("Delete, Backspace", "delete the selected action (or the last one)"),
            ("Ctrl+Z / Ctrl+Y", "undo / redo any edit"),
        ],
    ),
    (
        "Time",
        [
            ("Space", "play / pause the plan as an animation"),
            ("[ / ]", "slower / faster"),
            ("Left / Right", "previous / next event"),
            ("Home / End", "start / end of the plan"),
            ("drag the bar", "show the kitchen at any moment"),
        ],
    ),
    (
        "Files",
        [
            ("Ctrl+S", "save the plan (Ctrl+Shift+S: save as)"),
            ("Ctrl+O", "open a saved plan"),
            ("Ctrl+E", "export the run as ParaCook JSON (result and plan)"),
            ("autosave", "the plan is saved after every edit and restored next time"),
        ],
    ),
    (
        "Window",
        [
            ("F1, ?", "show / hide this help"),
            ("hover a tile", "full detail of the tile in a tooltip"),
        ],
    ),
]

TOOLBAR = (
    ("back", "Levels", "Back to the level list"),
    ("play", "Play", "Play / pause (Space)"),
    ("slower", "Slower", "Slower ([)"),
    ("faster", "Faster", "Faster (])"),
    ("undo", "Undo", "Undo (Ctrl+Z)"),
    ("redo", "Redo", "Redo (Ctrl+Y)"),
    ("save", "Save", "Save the plan (Ctrl+S)"),
    ("open", "Open", "Open a plan (Ctrl+O)"),
    ("export", "Export", "Export as ParaCook JSON (Ctrl+E)"),
    ("strong", "Strong plan", "Show the built-in planner's plan for this level"),
    ("help", "Help", "Controls (F1 or ?)"),
)
CARD_BUTTONS = (
    ("watch", "Watch it"),
    ("viewer", "Replay viewer"),
    ("export", "Export JSON"),
    ("strong", "Strong plan"),
    ("keep", "Keep editing"),
    ("back", "Levels"),
)


# -- hooks to other parts of the program (present or not) ----------------------------------------
def module_available(name: str) -> bool:
    """True when the module is there (a bare namespace folder does not count)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin is not None


def _bound_text(level: Level, oct_: float, rules: str | None) -> str:
    from game.planners.solver.bound import known_bound

    b = known_bound(level, rules)
    return f"{b}   (no plan can finish sooner; OCT / bound {oct_ / b:.2f})" if b else "-"


def solver_available() -> bool:
    return module_available("game.planners.solver")


def replay_viewer_available() -> bool:
    return module_available("game.ui.screens.replay")


def strong_plan(level: Level, rules: str) -> Plan:
    """The built-in planner's plan under the rules it will run with:
    game.planners.solver.solve(level, rules=...) returns a plan (or an object with a `plan`)."""
    solver = importlib.import_module("game.planners.solver")
    out = solver.solve(level, rules=rules)
    return parse_plan(getattr(out, "plan", out), level.agent_names)


def open_replay_screen(replay: Any, back: Any) -> Any:
    from game.ui.screens.replay import ReplayScreen

    return ReplayScreen(replay, back=back)


# -- layout ---------------------------------------------------------------------------------------
@dataclass
class Layout:
    top: pygame.Rect
    kitchen: pygame.Rect
    scrub: pygame.Rect
    status: pygame.Rect
    queues: pygame.Rect
    side: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> Layout:
        w, h = size
        side_w = max(340, min(460, int(w * 0.3)))
        main_w = w - side_w
        queues_h = max(190, min(320, int(h * 0.3)))
        queues = pygame.Rect(0, h - queues_h, main_w, queues_h)
        status = pygame.Rect(0, queues.y - 50, main_w, 50)
        scrub = pygame.Rect(0, status.y - 38, main_w, 38)
        top = pygame.Rect(0, 0, w, 44)
        return cls(
            top,
            pygame.Rect(0, top.bottom, main_w, scrub.y - top.bottom),
            scrub,
            status,
            queues,
            pygame.Rect(main_w, top.bottom, side_w, h - top.bottom),
        )


@dataclass
class Card:
    title: str
    rows: list[tuple[str, str]]
    notes: list[str]
    replay: Path | None


class PlayScreen:
    """One level being planned. `back` is the screen the Levels button returns to."""

    def __init__(
        self,
        level: Level,
        plan: Plan | None = None,
        *,
        back: Any = None,
        restore: bool = True,
        size: tuple[int, int] | None = None,
    ):
        self.level = level
        self.back = back
        restored = store.load_autosave(level) if restore and plan is None else None
        self.editor = PlanEditor(level, plan or restored)
        self.renderer = KitchenRenderer(level)
        self.t = 0.0
        self.playing = False
        self.speed_index = DEFAULT_SPEED
        self.wait_default: float = 1
        self.prompt: str | None = None
        self.prompt_fresh = False
        self.mouse: tuple[int, int] | None = None
        self.dragging = False
        self.shift = False
        self.show_help = False
        self.notice: tuple[str, list[str]] | None = None
        self.card: Card | None = None
        self.message, self.message_error, self.message_left = "", False, 0.0
        self.scroll = {a: 0 for a in level.agent_names}
        self.rows: list[panels.QueueRow] = []
        self.plan_path: Path | None = None
        self.dialog: Any = None
        self.dialog_purpose = ""
        self.recorded: set[str] = set()
        self._next: Any = self
        self.size = size or (
            pygame.display.get_surface().get_size() if pygame.display.get_surface() else (1440, 900)
        )
        self.layout = Layout.for_size(self.size)
        self.manager = pygame_gui.UIManager(self.size, str(THEME) if THEME.is_file() else None)
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.card_buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._build_toolbar()
        self.resize(self.size)
        if self.editor.result.done:
            self.recorded.add(self._fingerprint())
        if restored:
            self.say(f"Restored your autosaved plan ({self.editor.action_count} actions)")
        self.t = self._end() if restored else 0.0
        if self.editor.error is not None:
            self._keep_visible(self.editor.error.agent, self.editor.error.action_index)

    # -- the Screen protocol ------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift = event.type == pygame.KEYDOWN
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.dragging:
                self.seek(panels.time_at(self.layout.scrub, self._end(), event.pos[0]))
        consumed = self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._on_button(event.ui_element)
            return
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            self._on_path(Path(event.text))
            return
        if consumed or self.dialog_open:
            return
        if self._handle_overlay(event):
            return
        if event.type == pygame.KEYDOWN:
            self._on_key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self._on_click(event.pos, event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.dragging = False
        elif event.type == pygame.MOUSEWHEEL:
            self._on_wheel(event.y)

    def update(self, dt: float) -> Any:
        self.manager.update(dt)
        self.message_left = max(0.0, self.message_left - dt)
        if self.playing:
            self.t = min(self._end(), self.t + dt * self.speed)
            self._follow_running()
            if self.t >= self._end():
                self.playing = False
                if self.editor.result.done and self.card is None:
                    self._open_card(self._make_card(None))
        self._sync_buttons()
        nxt, self._next = self._next, self  # a hand-over happens once; coming back, this screen stays
        return nxt

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        self._draw_top(surface)
        self._draw_kitchen(surface)
        self._draw_scrub(surface)
        self._draw_status(surface)
        self._draw_queues(surface)
        self._draw_side(surface)
        if self.card is not None:
            panels.draw_card(surface, self._card_rect(), self.card.title, self.card.rows, self.card.notes)
        self.manager.draw_ui(surface)
        if self.show_help:
            panels.draw_help(surface, HELP)
        elif self.notice is not None:
            panels.draw_notice(surface, *self.notice)
        elif self.card is None and not self.dialog_open:
            self._draw_tooltip(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.layout = Layout.for_size(size)
        self.manager.set_window_resolution(size)
        self.renderer.set_tile(fit_tile(self.level, self.layout.kitchen.inflate(-16, -16).size, largest=110))
        self._place_toolbar()
        if self.card is not None:
            self._place_card_buttons()

    def close(self) -> None:
        """Leaving the screen (or the window closing): make sure the plan is on disk."""
        self._autosave()

    # -- time -----------------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def _end(self) -> float:
        return float(self.editor.result.time)

    def seek(self, t: float) -> None:
        self.t = min(max(0.0, float(t)), self._end())
        self.playing = False

    def toggle_play(self) -> None:
        if not self.playing and self.t >= self._end():
            self.t = 0.0
        self.playing = not self.playing

    def step_event(self, direction: int) -> None:
        times = self.editor.result.timeline.times
        if direction > 0:
            later = [x for x in times if x > self.t + 1e-9]
            self.seek(later[0] if later else self._end())
        else:
            earlier = [x for x in times if x < self.t - 1e-9]
            self.seek(earlier[-1] if earlier else 0.0)

    def change_speed(self, step: int) -> None:
        self.speed_index = min(len(SPEEDS) - 1, max(0, self.speed_index + step))
        self.say(f"speed {panels.fmt(self.speed)}x: {panels.fmt(self.speed)} time units per second")

    # -- editing ----------------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message, self.message_error, self.message_left = text, error, MESSAGE_SECONDS

    def edit(self, fn: Any, *args: Any) -> bool:
        try:
            fn(*args)
        except EditRefused as e:
            self.say(str(e), error=True)
            return False
        self._after_edit()
        return True

    def _after_edit(self) -> None:
        self.playing = False
        self.t = min(self.editor.focus_time(), self._end())
        err = self.editor.error
        if err is not None:
            self._keep_visible(err.agent, err.action_index)
        self._keep_visible(self.editor.agent, self.editor.insertion_index())
        self._autosave()
        if self.editor.result.done:
            self._finish()

    def undo(self) -> None:
        if self.editor.undo():
            self._after_edit()
            self.say("undone")
        else:
            self.say("nothing to undo")

    def redo(self) -> None:
        if self.editor.redo():
            self._after_edit()
            self.say("redone")
        else:
            self.say("nothing to redo")

    def act_on_tile(self, tile: tuple[int, int], process: bool = False, move: bool = False) -> None:
        """What a click on a tile means for the selected agent."""
        target = self.level.tile_at(tile)
        if move or target is None:
            if process:
                self.say("Process needs a station: right-click a chopping board or a sink", error=True)
            else:
                self.edit(self.editor.queue_move, tile)
        elif isinstance(target, Station):
            self.edit(self.editor.queue_station, target.name, process)
        else:
            self.say(f"({tile[0]}, {tile[1]}) is a wall: nothing to do there", error=True)

    def _autosave(self) -> None:
        try:
            store.autosave(self.level, self.editor.plan)
        except OSError as e:
            self.say(f"autosave failed: {e}", error=True)

    def _fingerprint(self) -> str:
        return repr(sorted(self.editor.plan_dict().items()))

    # -- finishing ---------------------------------------------------------------------------------
    def _finish(self) -> None:
        """Every order served without error: save the replay, score it, show the card."""
        key = self._fingerprint()
        if key in self.recorded:
            return
        self.recorded.add(key)
        replay = None
        notes = []
        try:
            replay = store.save_play_replay(self.level, self.editor.plan, self.editor.result)
            notes.append(f"Replay saved to {replay}")
        except OSError as e:
            notes.append(f"The replay could not be saved: {e}")
        previous = store.best_time(self.level)
        try:
            store.record_score(self.level, self.editor.result, replay)
        except OSError as e:
            notes.append(f"The scoreboard could not be written: {e}")
        card = self._make_card(replay, previous)
        card.notes = notes + card.notes
        self._open_card(card)

    def _make_card(self, replay: Path | None, previous: float | None = None) -> Card:
        r = self.editor.result
        names = self.level.agent_names
        best = store.best_time(self.level)
        mine = panels.fmt(best)
        if previous is None or r.time < previous:
            mine += "  (new best!)" if replay is not None else ""
        human = store.human_reference(self.level)
        planner = store.best_time(self.level, source="planner")
        rows = [
            ("Completion time (OCT)", panels.fmt(r.time)),
            (
                "nOCT",
                f"{100 * r.time / r.t_max:.1f}   (OCT / T_max x 100, T_max = {r.t_max})" if r.t_max else "-",
            ),
            ("Lower bound", _bound_text(self.level, r.time, self.editor.rules)),
            ("Moving (MD)", ", ".join(f"{a} {panels.fmt(r.md[a])}" for a in names)),
            ("Utilisation (AU)", ", ".join(f"{a} {r.au[a]:.0%}" for a in names)),
            ("Your best here", mine),
            ("Human baseline", f"{panels.fmt(human[0])}   ({human[1]})" if human else "not recorded"),
            (
                "Built-in planner",
                panels.fmt(planner)
                if planner is not None
                else ("press Strong plan to see it" if solver_available() else "not known"),
            ),
        ]
        n = len(self.level.orders)
        title = (
            f"All {n} orders served in {panels.fmt(r.time)}"
            if n > 1
            else f"The order is served in {panels.fmt(r.time)}"
        )
        return Card(title, rows, [], replay)

    def _open_card(self, card: Card) -> None:
        self.card = card
        self.playing = False
        for name, label in CARD_BUTTONS:
            if name == "viewer" and (card.replay is None or not replay_viewer_available()):
                continue
            if name == "strong" and not solver_available():
                continue
            self.card_buttons[name] = pygame_gui.elements.UIButton(
                pygame.Rect(0, 0, 130, 36), label, self.manager
            )
        self._place_card_buttons()

    def close_card(self) -> None:
        self.card = None
        for b in self.card_buttons.values():
            b.kill()
        self.card_buttons.clear()

    def _card_rect(self) -> pygame.Rect:
        notes = sum(len(panels.wrap(n, 860 - 48, 17)) for n in self.card.notes) if self.card else 0
        rows = len(self.card.rows) if self.card else 7
        height = 54 + rows * 28 + 6 + notes * 17 + 80
        rect = pygame.Rect(0, 0, min(860, self.size[0] - 40), min(height, self.size[1] - 40))
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        return rect

    def _place_card_buttons(self) -> None:
        rect = self._card_rect()
        x = rect.x + 20
        for b in self.card_buttons.values():
            b.set_relative_position((x, rect.bottom - 56))
            x += 138

    def _on_card_button(self, name: str) -> None:
        card = self.card
        self.close_card()
        if name == "watch":
            self.t, self.playing = 0.0, True
        elif name == "viewer" and card is not None and card.replay is not None:
            self._open_viewer(card.replay)
        elif name == "export":
            self.export()
        elif name == "strong":
            self.show_strong_plan()
        elif name == "back":
            self.go_back()

    def _open_viewer(self, path: Path) -> None:
        from game.replay import ReplayError, load_replay

        try:
            self._next = open_replay_screen(load_replay(path), self)
        except (ReplayError, ImportError) as e:
            self.notice = ("Cannot open the replay", [str(e)])

    def show_strong_plan(self) -> None:
        """The hook for the built-in planner: run its plan and open it in the replay viewer."""
        from game.replay import Replay

        try:
            plan = strong_plan(self.level, self.editor.rules)
        except Exception as e:  # the planner is another part of the program; never lose the window
            self.notice = ("The built-in planner failed", [f"{type(e).__name__}: {e}"])
            return
        result = simulate(self.level, plan, self.editor.rules)
        if result.done:
            try:
                store.record_score(self.level, result, source="planner")
            except OSError:
                pass
        self.say(f"built-in planner: {'done in ' + panels.fmt(result.time) if result.done else result.error}")
        if replay_viewer_available():
            replay = Replay(
                self.level,
                plan_to_dict(plan),
                result.to_dict(),
                result.timeline,
                result.rules,
                {"kind": "solver"},
            )
            self._next = open_replay_screen(replay, self)

    def go_back(self) -> None:
        self._autosave()
        if self.back is None:
            from game.ui.screens.browser import BrowserScreen

            self.back = BrowserScreen(size=self.size)
        self._next = self.back

    # -- files -----------------------------------------------------------------------------------------
    def save(self, save_as: bool = False) -> None:
        if self.plan_path is not None and not save_as:
            self._write_plan(self.plan_path)
            return
        default = self.plan_path or store.data_dir() / "plans" / f"{store.slug(self._title())}.json"
        self._open_dialog("save", "Save the plan as", default, existing_only=False)

    def open(self) -> None:
        folder = store.data_dir() / "plans"
        self._open_dialog("open", "Open a plan", self.plan_path or folder, existing_only=True)

    def export(self) -> None:
        name = f"{store.slug(self._title())}_{panels.fmt(self._end())}.json"
        self._open_dialog(
            "export", "Export as ParaCook JSON", store.exports_dir() / name, existing_only=False
        )

    def _open_dialog(self, purpose: str, title: str, initial: Path, existing_only: bool) -> None:
        if self.dialog_open:
            self.dialog.kill()
        initial.parent.mkdir(parents=True, exist_ok=True)
        if initial.suffix == "":
            initial.mkdir(parents=True, exist_ok=True)
        rect = pygame.Rect(0, 0, min(720, self.size[0] - 40), min(520, self.size[1] - 40))
        rect.center = (self.size[0] // 2, self.size[1] // 2)
        self.dialog = pygame_gui.windows.UIFileDialog(
            rect,
            self.manager,
            window_title=title,
            initial_file_path=str(initial),
            allow_existing_files_only=existing_only,
        )
        self.dialog_purpose = purpose

    @property
    def dialog_open(self) -> bool:
        return self.dialog is not None and self.dialog.alive()

    def _on_path(self, path: Path) -> None:
        purpose, self.dialog = self.dialog_purpose, None
        if purpose == "save":
            self._write_plan(path)
        elif purpose == "open":
            self.load(path)
        elif purpose == "export":
            try:
                store.export_result(path, self.level, self.editor.plan, self.editor.result)
                self.say(f"exported to {path}")
            except OSError as e:
                self.notice = ("Export failed", [f"{path}: {e}"])

    def _write_plan(self, path: Path) -> None:
        try:
            store.save_plan(path, self.level, self.editor.plan)
        except OSError as e:
            self.notice = ("Save failed", [f"{path}: {e}", "Your plan is still here and autosaved."])
            return
        self.plan_path = path
        self.say(f"saved to {path}")

    def load(self, path: Path) -> None:
        """Load a plan file; one that does not fit the level is refused with the reasons."""
        try:
            plan, note = store.load_plan(path, self.level)
        except store.StoreError as e:
            lines = str(e).splitlines()
            self.notice = (
                "This plan does not fit the level",
                [lines[0]] + [x.strip() for x in lines[1:]] + ["Your current plan is unchanged."],
            )
            return
        self.editor.replace_plan(plan)
        self.plan_path = path
        self._after_edit()
        self.say(note or f"loaded {path.name} ({self.editor.action_count} actions; Ctrl+Z undoes)")

    def _title(self) -> str:
        return self.level.title or str(self.level.meta.get("id") or self.level.name)

    # -- input ---------------------------------------------------------------------------------------
    def _handle_overlay(self, event: pygame.event.Event) -> bool:
        """Overlays take the input while open; True when the event was theirs."""
        is_key = event.type == pygame.KEYDOWN
        is_click = event.type == pygame.MOUSEBUTTONDOWN
        if self.show_help:
            if is_click or (is_key and (_is_help_key(event) or event.key == pygame.K_ESCAPE)):
                self.show_help = False
            return is_key or is_click
        if self.notice is not None:
            if is_key or is_click:
                self.notice = None
            return is_key or is_click
        if self.card is not None:
            if is_key and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.close_card()
            return is_key or is_click
        if self.prompt is not None and is_key:
            self._prompt_key(event)
            return True
        return False

    def _on_key(self, event: pygame.event.Event) -> None:
        key, mod = event.key, event.mod
        if mod & pygame.KMOD_CTRL:
            self._ctrl_key(key, bool(mod & pygame.KMOD_SHIFT))
            return
        if _is_help_key(event):
            self.show_help = True
            return
        action = KEYS.get(key)
        if action is not None:
            action(self, event)
        elif pygame.K_1 <= key <= pygame.K_9:
            self._select_agent_number(key - pygame.K_0)

    def _ctrl_key(self, key: int, shift: bool) -> None:
        if key == pygame.K_z:
            self.redo() if shift else self.undo()
        elif key == pygame.K_y:
            self.redo()
        elif key == pygame.K_s:
            self.save(save_as=shift)
        elif key == pygame.K_o:
            self.open()
        elif key == pygame.K_e:
            self.export()

    def _select_agent_number(self, n: int) -> None:
        names = self.level.agent_names
        if n <= len(names):
            self.select_agent(names[n - 1])

    def select_agent(self, name: str) -> None:
        self.editor.select_agent(name)
        self.say(f"{name} selected: its queue gets the new actions")

    def _hover_tile(self) -> tuple[int, int] | None:
        if self.mouse is None or not self.layout.kitchen.collidepoint(self.mouse):
            return None
        return self.renderer.tile_at_pixel(self.layout.kitchen, self.mouse)

    def _key_on_hover(self, process: bool = False, move: bool = False) -> None:
        tile = self._hover_tile()
        if tile is None:
            self.say("point at a tile in the kitchen first", error=True)
        else:
            self.act_on_tile(tile, process=process, move=move)

    def _adjust_wait(self, delta: int) -> None:
        if self.editor.adjust_wait(delta):
            self._after_edit()
        else:
            self.wait_default = max(0, self.wait_default + delta)
            self.say(f"W queues Wait({panels.fmt(self.wait_default)}); select a Wait to change it")

    def _prompt_key(self, event: pygame.event.Event) -> None:
        key = event.key
        if key == pygame.K_ESCAPE:
            self.prompt = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_w):
            value = float(self.prompt or 0)
            self.prompt = None
            self.wait_default = value
            self.edit(self.editor.queue_wait, value)
        elif key == pygame.K_BACKSPACE:
            self.prompt, self.prompt_fresh = self.prompt[:-1], False
        elif key in PLUS_KEYS or key in MINUS_KEYS:
            value = max(0, float(self.prompt or 0) + (1 if key in PLUS_KEYS else -1))
            self.prompt, self.prompt_fresh = panels.fmt(value), False
        elif event.unicode and (event.unicode.isdigit() or (event.unicode == "." and "." not in self.prompt)):
            self.prompt = (event.unicode if self.prompt_fresh else self.prompt + event.unicode)[:6]
            self.prompt_fresh = False

    def _on_click(self, pos: tuple[int, int], button: int) -> None:
        lay = self.layout
        shift = self.shift or bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        if lay.kitchen.collidepoint(pos):
            self._kitchen_click(pos, button, shift)
        elif lay.scrub.collidepoint(pos) and button == 1:
            self.dragging = True
            self.seek(panels.time_at(lay.scrub, self._end(), pos[0]))
        elif lay.queues.collidepoint(pos):
            self._queue_click(pos)

    def _kitchen_click(self, pos: tuple[int, int], button: int, shift: bool) -> None:
        tile = self.renderer.tile_at_pixel(self.layout.kitchen, pos)
        if tile is None:
            return
        agent = self.renderer.agent_at_pixel(pos)
        if button == 1 and agent is not None and agent != self.editor.agent and not shift:
            self.select_agent(agent)
            return
        self.act_on_tile(tile, process=button == 3, move=shift)

    def _queue_click(self, pos: tuple[int, int]) -> None:
        for row in self.rows:
            if row.rect.collidepoint(pos):
                self._select_row(row)
                return

    def _select_row(self, row: panels.QueueRow) -> None:
        ed = self.editor
        if row.index is not None and ed.agent == row.agent and ed.selected == row.index:
            ed.select_action(None, row.agent)
        else:
            ed.select_action(row.index, row.agent)
        index = ed.insertion_index()
        span = ed.span(row.agent, index) if index < len(ed.queues[row.agent]) else None
        if span is not None:
            self.seek(span.start)
        if ed.selected is None:
            self.say(f"{row.agent}: new actions go at the end of the queue")
        else:
            self.say(f"{row.agent}: new actions go before action {ed.selected}; Delete removes it")

    def _on_wheel(self, dy: int) -> None:
        if self.mouse is None or not self.layout.queues.collidepoint(self.mouse):
            return
        agent = self._column_at(self.mouse[0])
        if agent is not None:
            top = max(0, len(self.editor.queues[agent]) + 1 - self._rows_visible())
            self.scroll[agent] = min(top, max(0, self.scroll[agent] - 3 * dy))

    def _on_button(self, element: Any) -> None:
        for name, button in self.card_buttons.items():
            if button is element:
                self._on_card_button(name)
                return
        for name, button in self.buttons.items():
            if button is element:
                self.close_card()
                self.show_help = name == "help" and not self.show_help
                TOOLBAR_ACTIONS[name](self)
                return

    # -- queues: columns and scrolling ---------------------------------------------------------------
    def _columns(self) -> list[pygame.Rect]:
        area, names = self.layout.queues, self.level.agent_names
        w = area.w // len(names)
        return [pygame.Rect(area.x + i * w + 2, area.y + 2, w - 4, area.h - 4) for i in range(len(names))]

    def _column_at(self, x: int) -> str | None:
        for name, rect in zip(self.level.agent_names, self._columns(), strict=True):
            if rect.x <= x < rect.right:
                return name
        return None

    def _rows_visible(self) -> int:
        return panels.visible_rows(self._columns()[0])

    def _keep_visible(self, agent: str, row: int) -> None:
        n = self._rows_visible()
        if row < self.scroll[agent]:
            self.scroll[agent] = row
        elif row >= self.scroll[agent] + n:
            self.scroll[agent] = row - n + 1

    def _running_index(self, agent: str) -> int | None:
        span = self.editor.result.timeline.span_at(agent, self.t)
        return None if span is None else span.index

    def _follow_running(self) -> None:
        for agent in self.level.agent_names:
            index = self._running_index(agent)
            if index is not None:
                self._keep_visible(agent, index)

    # -- drawing ------------------------------------------------------------------------------------------
    def _draw_top(self, surface: pygame.Surface) -> None:
        top = self.layout.top
        pygame.draw.rect(surface, P.PANEL, top)
        first = min((b.relative_rect.x for b in self.buttons.values() if b.visible), default=top.right)
        title = (
            f"{self._title()}  -  {plural(len(self.level.agent_names), 'agent')}, "
            f"{plural(len(self.level.orders), 'order')}"
        )
        blit_text(
            surface,
            ellipsize(title, first - 24, 24),
            (12, top.centery),
            24,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )

    def _state(self) -> dict[str, Any]:
        return self.editor.result.timeline.state_at(self.t)

    def _draw_kitchen(self, surface: pygame.Surface) -> None:
        ed = self.editor
        ghosts = {
            a: {"pos": list(e.pos), "held": e.held} for a in self.level.agent_names for e in [ed.end_point(a)]
        }
        self.renderer.draw(
            surface,
            self.layout.kitchen,
            self._state(),
            timeline=ed.result.timeline,
            t=self.t,
            highlight=self._highlights(),
            ghosts=ghosts,
            selected=ed.agent,
        )

    def _highlights(self) -> dict[tuple[int, int], tuple[int, int, int]]:
        marks: dict[tuple[int, int], tuple[int, int, int]] = {}
        tile = self._hover_tile()
        if tile is not None and self.card is None:
            marks[tile] = P.HIGHLIGHT
            spot = self._walk_spot(tile)
            if spot is not None:
                marks[spot] = P.agent_colour(self.level.agent_names.index(self.editor.agent))
        err = self.editor.error
        if err is not None:
            where = self._error_tile(err)
            if where is not None:
                marks[where] = P.ERROR
        return marks

    def _walk_spot(self, tile: tuple[int, int]) -> tuple[int, int] | None:
        """Where the selected agent would walk first if this station were clicked."""
        ed = self.editor
        target = self.level.tile_at(tile)
        if not isinstance(target, Station):
            return None
        index = ed.insertion_index()
        here = ed.position_before(ed.agent, index)
        if abs(here[0] - tile[0]) + abs(here[1] - tile[1]) == 1:
            return None
        return ed.nearest_access(ed.agent, tile, index)

    def _error_tile(self, err: Any) -> tuple[int, int] | None:
        action = err.action
        if action.get("action") in ("Interact", "Process"):
            station = self.level.station_by_name.get(action.get("target"))
            if station is not None:
                return station.pos
        if action.get("action") == "MoveTo":
            target = tuple(action.get("target", ()))
            if len(target) == 2 and self.level.in_bounds(target):
                return target  # type: ignore[return-value]
        return tuple(self._state()["agents"][err.agent]["pos"])  # type: ignore[return-value]

    def _draw_scrub(self, surface: pygame.Surface) -> None:
        r = self.editor.result
        err = r.error_detail.time if r.error_detail else None
        panels.draw_scrub(
            surface, self.layout.scrub, self.t, self._end(), r.timeline.times, r.served_times, err
        )

    def _draw_status(self, surface: pygame.Surface) -> None:
        rect = self.layout.status
        err = self.editor.error
        first = pygame.Rect(rect.x, rect.y, rect.w, 25)
        if err is not None:
            text = (
                f"Error  {err.agent}, action {err.action_index} {_action_text(err.action)} at t = "
                f"{panels.fmt(err.time)}: {err.reason}"
            )
            size = fit_size(text, rect.w - 16, 21, 17)
            if font(size).size(text)[0] > rect.w - 16 and self.prompt is None:  # too long: use both lines
                pygame.draw.rect(surface, ERROR_BG, rect)
                for i, line in enumerate(panels.wrap(text, rect.w - 16, 19)[:2]):
                    blit_text(surface, line, (rect.x + 8, rect.y + 4 + i * 22), 19, ERROR_TEXT)
                return
            pygame.draw.rect(surface, ERROR_BG, first)
            blit_text(
                surface,
                ellipsize(text, rect.w - 16, size),
                (rect.x + 8, first.centery),
                size,
                ERROR_TEXT,
                anchor="midleft",
            )
        else:
            pygame.draw.rect(surface, P.PANEL, first)
            blit_text(
                surface,
                self._outcome_text(),
                (rect.x + 8, first.centery),
                20,
                P.OK if self.editor.result.done else P.TEXT_DIM,
                anchor="midleft",
            )
        second = pygame.Rect(rect.x, first.bottom, rect.w, rect.h - first.h)
        pygame.draw.rect(surface, BG, second)
        text, colour = self._hint()
        blit_text(
            surface,
            ellipsize(text, rect.w - 16, 19),
            (rect.x + 8, second.centery),
            19,
            colour,
            anchor="midleft",
        )

    def _outcome_text(self) -> str:
        r = self.editor.result
        if r.done:
            return f"No error: every order is served at t = {panels.fmt(r.time)}"
        if self.editor.action_count == 0:
            return "No actions yet: click the kitchen to plan the selected agent (F1 for help)"
        return (
            f"No error so far: {len(r.finished_orders)} of {len(self.level.orders)} orders served; "
            f"the plan ends at t = {panels.fmt(r.time)}"
        )

    def _hint(self) -> tuple[str, Any]:
        if self.prompt is not None:
            return (
                f"Wait for: {self.prompt or '0'}_   (type a number, +/- adjust, Enter queues it, Esc "
                "cancels)",
                panels.NEXT,
            )
        if self.message_left > 0:
            return self.message, P.ERROR if self.message_error else P.TEXT
        tile = self._hover_tile()
        if tile is not None:
            return self._click_hint(tile), P.TEXT_DIM
        return (
            "Click floor to walk, a station to interact, right-click to process; W waits; Space plays; "
            "F1 help",
            P.TEXT_DIM,
        )

    def _click_hint(self, tile: tuple[int, int]) -> str:
        agent = self.editor.agent
        target = self.level.tile_at(tile)
        if isinstance(target, Station):
            spot = self._walk_spot(tile)
            walk = f" (walks to {spot} first)" if spot else ""
            return f"click: {agent} Interact({target.name}){walk}   right-click / P: Process({target.name})"
        if target == "wall":
            return f"({tile[0]}, {tile[1]}) is a wall"
        return f"click: {agent} MoveTo({tile[0]}, {tile[1]})"

    def _draw_queues(self, surface: pygame.Surface) -> None:
        ed = self.editor
        err = ed.error
        self.rows = []
        for i, (name, rect) in enumerate(zip(self.level.agent_names, self._columns(), strict=True)):
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
                self._running_index(name),
                summary,
                self.scroll[name],
            )
            self.rows += panels.draw_queue_column(surface, rect, col)

    def _draw_side(self, surface: pygame.Surface) -> None:
        side = self.layout.side
        panels.panel(surface, side)
        x, w = side.x + 16, side.w - 32
        r = self.editor.result
        y = panels.draw_clock(surface, x, side.y + 10, w, self.t, self._end(), self.playing, self.speed) + 10
        served = sum(1 for s in r.served_times if s <= self.t)
        y = (
            panels.draw_orders(
                surface, x, y, w, self.level.orders, served, r.served_times, r.error is not None
            )
            + 6
        )
        if self.level.description:
            y = panels.heading(surface, "About this level", x, y, w)
            y = panels.draw_lines(surface, x, y, w, [(self.level.description, P.TEXT)]) + 10
        y = panels.draw_recipes(surface, x, y, w, self.level, side.bottom - 120) + 4
        self._draw_agent_info(surface, x, max(y, side.bottom - 110), w)

    def _draw_agent_info(self, surface: pygame.Surface, x: int, y: int, w: int) -> None:
        y = panels.heading(surface, f"Selected: {self.editor.agent}", x, y, w)
        panels.draw_lines(surface, x, y, w, self.agent_info_lines())

    def agent_info_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """What the side panel says about the selected agent (its role first, if any)."""
        ed = self.editor
        end = ed.end_point(ed.agent)
        index = ed.insertion_index()
        held = _describe(end.held) + ("" if end.known else " (as far as the run got)")
        where = "at the end of its queue" if ed.selected is None else f"before action {ed.selected}"
        lines = [
            (f"new actions go {where}; there it stands at {ed.position_before(ed.agent, index)}", P.TEXT),
            (f"after its queue: at {end.pos}, holding {held}", P.TEXT_DIM),
            (f"W queues Wait({panels.fmt(self.wait_default)})   F1: all controls", P.TEXT_DIM),
        ]
        role = (self.level.options.get("can_use") or {}).get(ed.agent)
        if role is not None:
            lines.insert(0, (f"may use only: {', '.join(role) or 'nothing'}", P.TEXT))
        return lines

    def _draw_tooltip(self, surface: pygame.Surface) -> None:
        tile = self._hover_tile()
        if tile is None or self.mouse is None or self.dragging:
            return
        lines = describe_tile(self.level, self._state(), tile, self.t)
        panels.draw_tooltip(surface, self.mouse, lines)

    # -- toolbar -------------------------------------------------------------------------------------------
    def _build_toolbar(self) -> None:
        for name, label, tip in TOOLBAR:
            self.buttons[name] = pygame_gui.elements.UIButton(
                pygame.Rect(0, 0, 10, 32), label, self.manager, tool_tip_text=tip
            )
        if not solver_available():
            self.buttons["strong"].hide()

    def _place_toolbar(self) -> None:
        x = self.size[0] - 8
        for name, label, _ in reversed(TOOLBAR):
            button = self.buttons[name]
            if not button.visible:
                continue
            width = 26 + 9 * len(label)
            x -= width + 4
            button.set_dimensions((width, 32))
            button.set_relative_position((x, 6))

    def _sync_buttons(self) -> None:
        play = "Pause" if self.playing else "Play"
        if self.buttons["play"].text != play:
            self.buttons["play"].set_text(play)
        free = self.card is None
        states = {name: free for name in self.buttons}
        states.update(undo=free and self.editor.can_undo, redo=free and self.editor.can_redo)
        for name, ok in states.items():
            button = self.buttons[name]
            if ok and not button.is_enabled:
                button.enable()
            elif not ok and button.is_enabled:
                button.disable()


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _is_help_key(event: pygame.event.Event) -> bool:
    return event.key == pygame.K_F1 or getattr(event, "unicode", "") == "?"


def _action_text(action: dict[str, Any]) -> str:
    name = action.get("action")
    if name == "MoveTo":
        x, y = action.get("target", ("?", "?"))
        return f"MoveTo({x}, {y})"
    if name in ("Interact", "Process"):
        return f"{name}({action.get('target')})"
    if name == "Wait":
        return f"Wait({action.get('duration')})"
    return str(name)


def _describe(item: dict[str, Any] | None) -> str:
    from game.ui.render.kitchen import describe_item

    return describe_item(item)


PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)


def _open_prompt(screen: PlayScreen, _event: Any) -> None:
    screen.prompt, screen.prompt_fresh = panels.fmt(screen.wait_default), True


def _escape(screen: PlayScreen, _event: Any) -> None:
    screen.editor.select_action(None)
    screen.say(f"{screen.editor.agent}: new actions go at the end of the queue")


def _delete(screen: PlayScreen, _event: Any) -> None:
    if screen.editor.delete():
        screen._after_edit()
    else:
        screen.say("the queue is empty")


def _move_selection(step: int):
    def run(screen: PlayScreen, _event: Any) -> None:
        screen.editor.move_selection(step)
        screen._keep_visible(screen.editor.agent, screen.editor.insertion_index())

    return run


KEYS: dict[int, Any] = {
    pygame.K_ESCAPE: _escape,
    pygame.K_SPACE: lambda s, e: s.toggle_play(),
    pygame.K_TAB: lambda s, e: s.select_agent(
        s.level.agent_names[
            (s.level.agent_names.index(s.editor.agent) + (-1 if e.mod & pygame.KMOD_SHIFT else 1))
            % len(s.level.agent_names)
        ]
    ),
    pygame.K_UP: _move_selection(-1),
    pygame.K_DOWN: _move_selection(1),
    pygame.K_LEFT: lambda s, e: s.step_event(-1),
    pygame.K_RIGHT: lambda s, e: s.step_event(1),
    pygame.K_HOME: lambda s, e: s.seek(0),
    pygame.K_END: lambda s, e: s.seek(s._end()),
    pygame.K_LEFTBRACKET: lambda s, e: s.change_speed(-1),
    pygame.K_RIGHTBRACKET: lambda s, e: s.change_speed(1),
    pygame.K_DELETE: _delete,
    pygame.K_BACKSPACE: _delete,
    pygame.K_w: _open_prompt,
    pygame.K_f: lambda s, e: s.edit(s.editor.queue_finish),
    pygame.K_p: lambda s, e: s._key_on_hover(process=True),
    pygame.K_i: lambda s, e: s._key_on_hover(),
    pygame.K_m: lambda s, e: s._key_on_hover(move=True),
    **{k: (lambda s, e: s._adjust_wait(1)) for k in PLUS_KEYS},
    **{k: (lambda s, e: s._adjust_wait(-1)) for k in MINUS_KEYS},
}

TOOLBAR_ACTIONS: dict[str, Any] = {
    "back": PlayScreen.go_back,
    "play": PlayScreen.toggle_play,
    "slower": lambda s: s.change_speed(-1),
    "faster": lambda s: s.change_speed(1),
    "undo": PlayScreen.undo,
    "redo": PlayScreen.redo,
    "save": PlayScreen.save,
    "open": PlayScreen.open,
    "export": PlayScreen.export,
    "strong": PlayScreen.show_strong_plan,
    "help": lambda s: None,  # toggled in _on_button
}
