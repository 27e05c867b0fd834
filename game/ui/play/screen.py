"""The play window: plan every agent's queue on a live kitchen, watch it run, finish with a score.

Every edit goes through PlanEditor, which re-runs the whole plan in the engine; what is drawn at
time t is the engine's Timeline at t. The screen composes small parts (kitchen, timeline, queues,
status line, side panel, toolbar, card, file dialog, planner job) and routes input between them.
It draws only when something changed (see needs_draw) and never blocks: the built-in planner runs
in a background process.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine import Level, Plan
from game.engine.level import Station
from game.storage import Locked
from game.ui import planner_job as strong
from game.ui import store
from game.ui.editor import EditRefused, PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels

from . import history
from .autosave import Autosaver, locked_message
from .card import Card, CardView
from .clock import PlayClock
from .dialogs import FileDialog
from .files import PlanFiles
from .finish import Results
from .help import HELP
from .keys import CTRL_KEYS, KEYS, WaitPrompt, is_help_key
from .kitchen_view import KitchenView, click_hint
from .layout import Layout
from .options import PlayOptions
from .partner import PartnerMode
from .partner import label as partner_label
from .partner_dialog import PartnerDialog
from .planner_flow import PlannerFlow
from .pointer import Pointer
from .queues import QueuesView
from .side import agent_info_lines, draw_side
from .status import draw_status, insertion_text
from .timeline import TimelineView
from .toolbar import FILE_BUTTONS, STRONG_TIP, Toolbar, draw_title_bar

MESSAGE_SECONDS = 6
THEME = Path(__file__).resolve().parents[1] / "theme.json"
BG = (24, 25, 31)
Back = Any  # a screen, a function that makes one, or None (the Levels button then closes the window)


class PlayScreen:
    """One level being planned. `back` is where the Levels button goes."""

    def __init__(
        self,
        level: Level,
        plan: Plan | None = None,
        *,
        back: Back = None,
        restore: bool = True,
        size: tuple[int, int] | None = None,
        options: PlayOptions | None = None,
    ):
        self.level = level
        self.back = back
        self.options = options or PlayOptions()
        restored = store.load_autosave(level) if restore and self.options.restore and plan is None else None
        # a plan the player did not build here must not silently replace their autosave
        kept = store.backup_autosave(level) if restore and self.options.restore and plan is not None else None
        self.editor = PlanEditor(level, plan)
        self.viewing: PlanEditor | None = None  # the built-in planner's plan, shown instead of the person's
        self.clock = PlayClock()
        self.wait_default: float = 1
        self.prompt: WaitPrompt | None = None
        self.mouse: tuple[int, int] | None = None
        self.shift = False
        self.show_help = False
        self.notice: tuple[str, list[str]] | None = None
        self.message, self.message_error, self.message_left = "", False, 0.0
        self._next: Any = self
        self._dirty = True
        surface = pygame.display.get_surface()
        self.size = size or (surface.get_size() if surface else (1440, 900))
        self.manager = pygame_gui.UIManager(self.size, str(THEME) if THEME.is_file() else None)
        self.kitchen = KitchenView(level)
        self.timeline = TimelineView(level)
        self.queues = QueuesView(level)
        self.toolbar = Toolbar(self.manager, self._hidden_buttons(), self.options.labels)
        self.card_view = CardView(self.manager)
        self.dialog_box = FileDialog(self.manager)
        self.files = PlanFiles(self)
        self.autosaver = Autosaver(level, self._autosave_failed)
        self.autosave_error = ""
        self.autosave_warned = False
        self.pointer = Pointer(self)
        self.planner_flow = PlannerFlow(self)
        self.partner = PartnerMode(self)
        self.partner_dialog = PartnerDialog(self.manager)
        self.results = Results(self)
        # the result card's bound, worked out once in the background (None: not worked out here)
        self.bound_job = strong.warm_bound(level, self.editor.rules) if self.options.record_scores else None
        shows_human = "Human baseline" not in self.options.hidden_rows
        self.human = store.human_reference(level) if shows_human else None
        self.layout = Layout.for_size(self.size, len(level.agent_names))
        self.resize(self.size)
        if restored:
            self._restore(restored)
        if kept:
            self.say(f"Your previous autosave is kept as {kept}")
        if self.options.autosave:
            try:
                self.autosaver.claim()
            except Locked as e:
                self.say(locked_message(e), error=True)
        self.refresh()
        if self.editor.result.done:
            self.cards[self.fingerprint()] = self.results.card_for(None, None)
        if self.options.partner is not None:  # a study's condition: partner mode from the start
            self.partner.on_replan = self.options.on_replan
            self.partner.start(self.options.partner, locked=True)

    def _hidden_buttons(self) -> list[str]:
        hidden = []
        if not (self.options.planner and strong.solver_available()):
            hidden.append("strong")
        if not self.options.partner_dialog:
            hidden.append("partner")
        if not self.options.files:
            hidden += FILE_BUTTONS
        return hidden

    def _restore(self, plan: Plan) -> None:
        """Reopen the autosave: the plan as one undoable step, then its saved undo history."""
        self.editor.replace_plan(plan)
        kept = history.load_history(self.level, self.editor)
        self.clock.set_end(self.editor.result.time)
        self.clock.t = self.clock.end
        n = self.editor.action_count
        more = (
            "with its undo history; Ctrl+Z undoes your last edit" if kept else "Ctrl+Z empties the plan again"
        )
        self.say(f"Restored your autosaved plan: {n} action{'s' if n != 1 else ''}, {more}")
        self.message_left = 3 * MESSAGE_SECONDS

    # -- the parts' shared state ------------------------------------------------------------------
    @property
    def shown(self) -> PlanEditor:
        """The plan on screen: the person's, or the built-in planner's while it is being viewed."""
        return self.viewing or self.editor

    @property
    def t(self) -> float:
        return self.clock.t

    @t.setter
    def t(self, value: float) -> None:
        self.clock.t = value

    @property
    def playing(self) -> bool:
        return self.clock.playing

    @property
    def speed(self) -> float:
        return self.clock.speed

    @property
    def renderer(self) -> Any:
        return self.kitchen.renderer

    @property
    def rows(self) -> list[panels.QueueRow]:
        return self.queues.rows

    @property
    def buttons(self) -> dict[str, pygame_gui.elements.UIButton]:
        return self.toolbar.buttons

    @property
    def card(self) -> Card | None:
        return self.card_view.card

    @property
    def card_buttons(self) -> dict[str, pygame_gui.elements.UIButton]:
        return self.card_view.buttons

    @property
    def dialog(self) -> Any:
        return self.dialog_box.window

    @property
    def dialog_open(self) -> bool:
        return self.dialog_box.is_open or self.partner_dialog.is_open

    def _card_rect(self) -> pygame.Rect:
        return self.card_view.rect(self.size)

    def agent_info_lines(self) -> list[tuple[str, Any]]:
        return agent_info_lines(self.shown, self.wait_default)

    # -- the Screen protocol ------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        self._dirty = True
        if event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift = event.type == pygame.KEYDOWN
        if event.type == pygame.WINDOWLEAVE:
            self.mouse = None  # tooltips leave with the mouse
        if event.type == pygame.MOUSEMOTION:
            self.pointer.motion(event.pos)
        consumed = self.manager.process_events(event)
        if self.partner_dialog.window is not None:
            self._partner_dialog_event(event)
            return
        if self.dialog_box.window is not None:
            purpose = self.dialog_box.purpose
            picked = self.dialog_box.handle(event)
            if picked is not None:
                self.files.on_path(purpose, picked)
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._on_button(event.ui_element)
            return
        if consumed or self._handle_overlay(event):
            return
        if event.type == pygame.KEYDOWN:
            self._on_key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.pointer.click(event.pos, event.button)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.pointer.release(event.pos)
        elif event.type == pygame.MOUSEWHEEL and self.mouse is not None:
            if self.timeline.zoom(event, self.mouse):
                return
            if self.layout.queues.collidepoint(self.mouse):
                self.queues.wheel(self.shown, self.mouse[0], event.y)

    def update(self, dt: float) -> Any:
        if self.message_left > 0:
            self.message_left = max(0.0, self.message_left - dt)
            if self.message_left == 0:
                self._dirty = True
        if self.clock.playing:
            self._dirty = True
            if self.clock.advance(dt):
                self._reached_end()
            self.follow_time()
        if self.job is not None:
            self.planner_flow.poll()
        self.partner.update()
        if self.autosave_error:
            self.say(self.autosave_error, error=True)
            self.autosave_error = ""
        if self.autosaver.kept:  # took over from a window that closed
            self.say(f"Autosave resumes here; the other window's autosave is kept as {self.autosaver.kept}")
            self.autosaver.kept = None
        self._sync_buttons()  # before the UI manager's update, so a button's new state is drawn now
        self.manager.update(dt)
        nxt, self._next = self._next, self  # a hand-over happens once; coming back, this screen stays
        return nxt

    def needs_draw(self) -> bool:
        """True when the last draw is out of date (the app skips drawing otherwise; a running
        planner marks it out of date when its progress shown moves)."""
        return self._dirty or self.clock.playing

    def draw(self, surface: pygame.Surface) -> None:
        self._dirty = False
        ed = self.shown
        surface.fill(BG)
        draw_title_bar(
            surface,
            self.layout.top,
            self.toolbar.left - 16,
            self.title(),
            self.viewing is not None,
            self.job.state if self.job is not None else None,
            self.partner.title_text() if self.viewing is None else ("", P.TEXT),
        )
        hover = self.kitchen.tile_at(self.mouse) if self._pointer_free() else None
        self.kitchen.draw(surface, ed, self.clock.t, hover)
        self._draw_scrub(surface)
        span = self.timeline.span_at(self.mouse) if self.mouse and self._pointer_free() else None
        theirs = set(self.partner.partner_agents) if self.viewing is None else set()
        self.timeline.draw(surface, ed, self.clock.t, span, theirs)
        draw_status(surface, self.layout.status, ed, self._hint(), self.prompt is None)
        self.queues.draw(surface, ed, self._running(), theirs if self.partner.active else None)
        partner = self.partner.side_lines() if self.viewing is None else None
        draw_side(surface, self.layout.side, ed, self.clock, self.wait_default, self.human, partner)
        self.card_view.draw(surface)
        self.manager.draw_ui(surface)
        if self.show_help:
            panels.draw_help(surface, HELP)
        elif self.notice is not None:
            panels.draw_notice(surface, *self.notice)
        elif self._pointer_free() and self.mouse is not None and not self.timeline.drag:
            if span is not None:
                panels.draw_tooltip(surface, self.mouse, self.timeline.tooltip(ed, span))
            elif not self.pointer.dragging:
                self.kitchen.draw_tooltip(surface, ed, self.clock.t, self.mouse)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.layout = Layout.for_size(size, len(self.level.agent_names))
        self.manager.set_window_resolution(size)
        self.kitchen.place(self.layout.kitchen)
        self.timeline.rect = self.layout.timeline
        self.queues.area = self.layout.queues
        self.toolbar.place(size[0])
        if self.card is not None:
            self.card_view.place(size)
        self._dirty = True

    def close(self) -> None:
        """Leaving the screen (or the window closing): make sure the plan is on disk."""
        if self.job is not None:
            self.planner_flow.strong_plan()  # cancels it
        self.partner.close()
        self._autosave()
        self.autosaver.stop()  # writes what is pending; a later edit starts the writer again

    # -- time -------------------------------------------------------------------------------------------
    def seek(self, t: float) -> None:
        self.clock.seek(t)
        self.follow_time()
        self.options.tell("preview")

    def toggle_play(self) -> None:
        self.clock.toggle()
        if self.clock.playing:
            self.options.tell("preview")

    def step_event(self, direction: int) -> None:
        self.clock.step_event(self.shown.result.timeline.times, direction)
        self.follow_time()

    def change_speed(self, step: int) -> None:
        self.clock.change_speed(step)
        s = panels.fmt(self.clock.speed)
        self.say(f"speed {s}x: {s} time units per second")

    def _running(self) -> dict[str, int | None]:
        tl = self.shown.result.timeline
        return {a: (s.index if (s := tl.span_at(a, self.clock.t)) else None) for a in self.level.agent_names}

    def follow_time(self) -> None:
        """The queues follow the shown time; the selected row of the selected agent stays in view."""
        for agent, index in self._running().items():
            if index is not None:
                self.queues.keep_visible(agent, index)
        self.show_insertion()
        self.timeline.follow(self.clock.t)

    def show_insertion(self) -> None:
        ed = self.shown
        self.queues.keep_visible(ed.agent, ed.insertion_index())

    def _reached_end(self) -> None:
        card = self.cards.get(self.fingerprint())
        if self.viewing is None and self.editor.result.done and card is not None and self.card is None:
            self.open_card(card)

    # -- editing ------------------------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message, self.message_error, self.message_left = text, error, MESSAGE_SECONDS
        self._dirty = True

    def editable(self, agent: str | None = None) -> bool:
        """True when the person may edit now (`agent`'s queue, when one is named: an agent the
        partner plans is taken over first)."""
        if self.viewing is not None:
            self.say(
                "This is the built-in planner's plan: Esc returns to yours, U copies it into yours", True
            )
            return False
        return agent is None or self.partner.before_edit(agent)

    def edit(self, fn: Callable[..., Any], *args: Any) -> bool:
        if not self.editable(self.editor.agent):
            return False
        try:
            fn(*args)
        except EditRefused as e:
            self.say(str(e), error=True)
            return False
        self.after_edit()
        return True

    def after_edit(self, what: str = "edit") -> None:
        self.refresh()
        self.clock.playing = False
        self.clock.t = min(self.editor.focus_time(), self.clock.end)
        err = self.editor.error
        if err is not None:
            self.queues.keep_visible(err.agent, err.action_index)
        self.show_insertion()
        self._autosave()
        self.options.tell(what)
        if self.editor.result.done and not self.partner.active:  # with a partner: Enter shows it
            self.results.finish()

    def after_partner(self) -> None:
        """The partner's queues changed: what is shown follows; the person's edit stays in view."""
        self.refresh()
        self.clock.t = min(self.clock.t, self.clock.end)
        self._autosave()

    def refresh(self) -> None:
        self.clock.set_end(self.shown.result.time)
        self.timeline.refresh(self.shown)
        self._dirty = True

    def undo(self) -> None:
        if not self.editable():
            return
        if self.editor.undo():
            self.after_edit("undo")
            self.say("undone")
        else:
            self.say("nothing to undo")

    def redo(self) -> None:
        if not self.editable():
            return
        if self.editor.redo():
            self.after_edit("redo")
            self.say("redone")
        else:
            self.say("nothing to redo")

    def delete(self) -> None:
        if not self.editable(self.editor.agent):
            return
        if self.editor.delete():
            self.after_edit()
        else:
            self.say("the queue is empty")

    def adjust_wait(self, delta: int) -> None:
        selected_wait = self.editor.selected is not None and self.partner.is_partners(self.editor.agent)
        if selected_wait and not self.editable(self.editor.agent):
            return
        if self.viewing is None and self.editor.adjust_wait(delta):
            self.after_edit()
        else:
            self.wait_default = max(0, self.wait_default + delta)
            self.say(f"W queues Wait({panels.fmt(self.wait_default)}); select a Wait to change it")

    def open_prompt(self) -> None:
        if self.editable(self.editor.agent):
            self.prompt = WaitPrompt(self.wait_default)

    def escape(self) -> None:
        if self.viewing is not None:
            self.stop_viewing()
            return
        self.editor.select_action(None)
        self.say(insertion_text(self.editor))

    def select_agent(self, name: str) -> None:
        """Another agent's queue gets the new actions, at its end: no hidden insertion point."""
        self.shown.select_agent(name)
        self.shown.select_action(None, name)
        self.show_insertion()
        self.say(f"{name} selected: new actions go at the end of its queue")

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

    def key_on_hover(self, process: bool = False, move: bool = False) -> None:
        tile = self.kitchen.tile_at(self.mouse)
        if tile is None:
            self.say("point at a tile in the kitchen first", error=True)
        else:
            self.act_on_tile(tile, process=process, move=move)

    def _autosave(self) -> None:
        if not self.options.autosave:
            return
        if self.editor.action_count == 0 and not self.editor.can_undo:
            return
        self.autosaver.submit(self.editor.plan, *self.editor.steps)

    def _autosave_failed(self, where: Path, error: OSError) -> None:
        # from the writer thread; shown by the next update
        if isinstance(error, Locked):
            self.autosave_error = locked_message(error)
            return
        self.autosave_error = f"autosave failed: cannot write {where} ({error.strerror or error})"
        if not self.autosave_warned:  # said in full once, then briefly
            self.autosave_warned = True
            self.notice = ("Autosave failed", store.unwritable_lines(where, error))

    def fingerprint(self) -> str:
        return repr(sorted(self.editor.plan_dict().items()))

    # -- finishing (finish.Results) ---------------------------------------------------------------------
    @property
    def cards(self) -> dict[str, Card]:
        return self.results.cards

    def open_card(self, card: Card) -> None:
        self.results.open_card(card)

    def reopen_card(self) -> None:
        """Enter: the result card of the plan as it stands, again (with a partner, the first time)."""
        if self.viewing is None and self.partner.active and self.editor.result.done:
            if self.fingerprint() not in self.cards:
                self.results.finish()
                return
        card = self.cards.get(self.fingerprint()) if self.viewing is None else None
        if card is None:
            self.say("no result card: this plan does not serve every order yet", error=True)
        else:
            self.open_card(card)

    def close_card(self) -> None:
        self.card_view.close()

    def hand_over(self, screen: object) -> None:
        """Show another screen next (it comes back here)."""
        self._next = screen

    def go_back(self) -> None:
        self._autosave()
        back = self.back() if callable(self.back) and not hasattr(self.back, "handle") else self.back
        self.back = back
        self._next = back

    # -- the built-in planner (planner_flow.PlannerFlow) ------------------------------------------------
    @property
    def job(self) -> strong.PlannerJob | None:
        return self.planner_flow.job

    @property
    def planner(self) -> strong.Planner:
        return self.planner_flow.planner

    @planner.setter
    def planner(self, fn: strong.Planner) -> None:
        self.planner_flow.planner = fn

    @property
    def planner_editor(self) -> PlanEditor | None:
        return self.planner_flow.planner_editor

    def strong_plan(self) -> None:
        self.planner_flow.strong_plan()

    def view_planner_plan(self) -> None:
        self.planner_flow.view_planner_plan()

    def stop_viewing(self) -> None:
        self.planner_flow.stop_viewing()

    def use_planner_plan(self) -> None:
        self.planner_flow.use_planner_plan()

    # -- files (files.PlanFiles) --------------------------------------------------------------------------
    @property
    def plan_path(self) -> Path | None:
        return self.files.plan_path

    def save(self, save_as: bool = False) -> None:
        self.files.save(save_as)

    def open(self) -> None:
        self.files.open()

    def export(self) -> None:
        self.files.export()

    def load(self, path: Path) -> None:
        self.files.load(path)

    def title(self) -> str:
        return self.level.title or str(self.level.meta.get("id") or self.level.name)

    # -- input ---------------------------------------------------------------------------------------------
    def _pointer_free(self) -> bool:
        return self.card is None and not self.dialog_open and not self.show_help and self.notice is None

    def _handle_overlay(self, event: pygame.event.Event) -> bool:
        """Overlays take the input while open; True when the event was theirs."""
        is_key = event.type == pygame.KEYDOWN
        is_click = event.type == pygame.MOUSEBUTTONDOWN
        if self.show_help:
            if is_click or (is_key and (is_help_key(event) or event.key == pygame.K_ESCAPE)):
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

    def _prompt_key(self, event: pygame.event.Event) -> None:
        assert self.prompt is not None
        what = self.prompt.key(event)
        if what == "cancel":
            self.prompt = None
        elif what == "queue":
            value, self.prompt = self.prompt.value, None
            self.wait_default = value
            self.edit(self.editor.queue_wait, value)

    def _on_key(self, event: pygame.event.Event) -> None:
        key = event.key
        if event.mod & pygame.KMOD_CTRL:
            command = CTRL_KEYS.get(key)
            if command is not None:
                command(self, event)
            return
        if is_help_key(event):
            self.show_help = True
            return
        if key == pygame.K_u and self.viewing is not None:
            self.use_planner_plan()
            return
        if key == pygame.K_t and self.viewing is None:
            self.partner.toggle_selected()
            return
        if key == pygame.K_r and self.partner.active and not self.partner.locked:  # a study's is fixed
            self.partner.replan_now()
            self.say("the partner re-plans now")
            return
        command = KEYS.get(key)
        if command is not None:
            command(self, event)
        elif pygame.K_1 <= key <= pygame.K_9:
            n = key - pygame.K_0
            if n <= len(self.level.agent_names):
                self.select_agent(self.level.agent_names[n - 1])

    def _on_button(self, element: Any) -> None:
        name = self.card_view.name_of(element)
        if name is not None:
            self.results.on_button(name)
            return
        name = self.toolbar.name_of(element)
        if name is None:
            return
        if name == "cancel_partner":
            self.partner.cancel()
            return
        self.close_card()
        self.show_help = name == "help" and not self.show_help
        TOOLBAR_ACTIONS[name](self)

    # -- drawing -------------------------------------------------------------------------------------------------
    def _draw_scrub(self, surface: pygame.Surface) -> None:
        r = self.shown.result
        err = r.error_detail.time if r.error_detail else None
        panels.draw_scrub(
            surface, self.layout.scrub, self.clock.t, self.clock.end, r.timeline.times, r.served_times, err
        )

    def _hint(self) -> tuple[str, Any]:
        if self.prompt is not None:
            return (
                f"Wait for: {self.prompt.text or '0'}_   (type a number, +/- adjust, Enter queues it, Esc cancels)",
                panels.NEXT,
            )
        tile = self.kitchen.tile_at(self.mouse) if self._pointer_free() else None
        if self.message_left > 0 and (self.message_error or tile is None):
            return self.message, P.ERROR if self.message_error else P.TEXT
        if tile is not None:  # what a click does here, and where it goes in the queue
            return click_hint(self.shown, tile), P.TEXT_DIM
        return insertion_text(
            self.shown
        ) + ";  click floor to walk, a station to interact; F1 help", P.TEXT_DIM

    def _sync_buttons(self) -> None:
        free = self.card is None
        enabled = {name: free for name in self.buttons}
        own = self.viewing is None
        enabled.update(undo=free and own and self.editor.can_undo, redo=free and own and self.editor.can_redo)
        self.toolbar.sync(self.clock.playing, enabled)
        strong_button = self.buttons["strong"]
        label = "Cancel plan" if self.job is not None else "Strong plan"
        if strong_button.text != label:
            strong_button.set_text(label)
            tip = "Stop the built-in planner" if self.job is not None else STRONG_TIP
            strong_button.set_tooltip(tip)
        self.toolbar.show_cancel(self.partner.state.status == "planning")

    # -- the partner (partner.PartnerMode) ------------------------------------------------------------
    def open_partner_dialog(self) -> None:
        if self.partner.locked:
            self.say("this study session sets the partner", error=True)
            return
        p = self.partner
        self.partner_dialog.open(
            self.size, self.level.agent_names, p.choice, p.mine, p.active, strong.solver_available()
        )

    def _partner_dialog_event(self, event: pygame.event.Event) -> None:
        picked = self.partner_dialog.handle(event)
        if picked is None:
            return
        if picked.action == "stop":
            self.partner.stop()
            self.say("no partner: every agent is yours")
        elif picked.action in ("start", "first") and picked.choice is not None:
            self.partner.start(picked.choice, picked.mine)
            theirs = ", ".join(self.partner.partner_agents) or "no agent"
            if picked.action == "first":
                self.say("the partner plans every agent; an agent you edit becomes yours")
            else:
                self.say(f"{partner_label(picked.choice)} plans {theirs} around your queues")


TOOLBAR_ACTIONS: dict[str, Callable[[PlayScreen], Any]] = {
    "back": PlayScreen.go_back,
    "play": PlayScreen.toggle_play,
    "slower": lambda s: s.change_speed(-1),
    "faster": lambda s: s.change_speed(1),
    "undo": PlayScreen.undo,
    "redo": PlayScreen.redo,
    "save": PlayScreen.save,
    "open": PlayScreen.open,
    "export": PlayScreen.export,
    "strong": PlayScreen.strong_plan,
    "partner": PlayScreen.open_partner_dialog,
    "help": lambda s: None,  # toggled in _on_button
}
