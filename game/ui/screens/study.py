"""Study mode: a participant plans a list of levels while the session records planning time,
edits, undos, previews and failed runs. Four small screens hand over to each other:

    StudySetupScreen  -> the participant's name and the order (or resume a session)
    StudyIntroScreen  -> the task description, nothing more; Begin
    StudyLevelScreen  -> the play screen in study mode (no planner, no other results), or paused
    StudyEndScreen    -> thanks, what was recorded, where the export is

The session itself (model, disk, export) is game/study/; these screens only show it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from game.engine import parse_plan
from game.engine.kitchen import CHOP_TIME, RETURN_DELAY, WASH_TIME
from game.engine.level import COOKWARE_TIME
from game.levels import LevelError, load_level
from game.levels.paper import task_digest
from game.storage import disk_message
from game.study.export import export_session
from game.study.partner import Partner, PartnerSpecError
from game.study.persist import SessionStore, new_session, unfinished_sessions
from game.study.session import LevelRecord, Session, SessionError
from game.ui import store as ui_store
from game.ui.play.options import study_options
from game.ui.play.partner import Replan
from game.ui.play.partner import label as partner_label
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.text import blit_text, ellipsize

BG = (24, 25, 31)
TEXT = 21  # body text size of the study pages
SAVE_EVERY = 5.0  # seconds of clock between saves (edits are saved at once)
INPUT_EVENTS = (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEWHEEL)
INSTRUCTIONS = [
    "You will plan {n} kitchen(s), one after the other.",
    "After every change the whole plan runs at once: you see when each action starts and ends, "
    "and the first error if there is one. Space plays the plan as an animation; F1 lists the controls.",
    "When you are happy with a plan, press Pause, then Submit. You cannot come back to a "
    "submitted kitchen. Your planning time is recorded; Pause stops the clock and hides the kitchen.",
]


def rules_text() -> list[str]:
    """The task in a few lines, with the engine's own durations (the facts live there)."""
    return [
        "Several cooks (agents) serve a list of orders, strictly in the order given, as early as "
        "possible: the time the last order is served is your score (lower is better).",
        "Give every cook a queue of actions: walk to a tile, interact with a station (pick up, put "
        "down, serve), process (chop, wash) or wait. Click a station to walk there and use it; right-click "
        "to process; Tab or a cook's badge selects another cook.",
        f"Chopping takes {CHOP_TIME} time units at a board, washing a plate {WASH_TIME} at the sink; "
        f"a pot cooks in {COOKWARE_TIME['pot']} and a pan in {COOKWARE_TIME['pan']} on their own "
        f"while the cook does something else. A served dish's plate comes back dirty {RETURN_DELAY} "
        "time units later. Walking takes 1 time unit per tile; cooks never block each other. Nothing "
        "waits for you: an action whose precondition fails is an error.",
    ]


SETUP_ORDERS = ("fixed", "shuffled")  # counterbalancing needs a protocol (it counts participants)


def studies_dir() -> Path:
    return ui_store.data_dir() / "studies"


@dataclass
class Button:
    name: str
    label: str
    rect: pygame.Rect


def draw_buttons(surface: pygame.Surface, buttons: list[Button], mouse: tuple[int, int] | None) -> None:
    for b in buttons:
        hovered = mouse is not None and b.rect.collidepoint(mouse)
        pygame.draw.rect(surface, (78, 82, 96) if hovered else P.PANEL_LIGHT, b.rect, border_radius=6)
        pygame.draw.rect(surface, P.TEXT_DIM, b.rect, 1, border_radius=6)
        text = ellipsize(b.label, b.rect.w - 16, 20)
        blit_text(surface, text, b.rect.center, 20, P.TEXT, bold=True, anchor="center")


def button_at(buttons: list[Button], pos: tuple[int, int]) -> str | None:
    return next((b.name for b in buttons if b.rect.collidepoint(pos)), None)


def column(size: tuple[int, int]) -> pygame.Rect:
    """The centred text column every study page uses."""
    w = min(900, size[0] - 80)
    return pygame.Rect((size[0] - w) // 2, 60, w, size[1] - 120)


def stack(x: int, y: int, w: int, labels: list[tuple[str, str]]) -> list[Button]:
    return [Button(name, label, pygame.Rect(x, y + i * 52, w, 42)) for i, (name, label) in enumerate(labels)]


def _minutes(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


class _Page:
    """What the three simple pages share: a size, buttons, the mouse, a hand-over."""

    def __init__(self, size: tuple[int, int] | None):
        surface = pygame.display.get_surface()
        self.size = size or (surface.get_size() if surface else (1440, 900))
        self.mouse: tuple[int, int] | None = None
        self.buttons: list[Button] = []
        self._next: Any = self

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def update(self, dt: float) -> Any:
        nxt, self._next = self._next, self
        return nxt

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            name = button_at(self.buttons, event.pos)
            if name is not None:
                self.press(name)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def press(self, name: str) -> None:  # overridden
        pass

    def key(self, event: pygame.event.Event) -> None:  # overridden
        pass


class StudySetupScreen(_Page):
    """The participant's name and the order of the levels; or resume an unfinished session."""

    def __init__(
        self,
        files: list[Path],
        back: Any = None,
        size: tuple[int, int] | None = None,
        root: Path | None = None,
    ):
        super().__init__(size)
        self.files = files
        self.back = back
        self.root = root or studies_dir()
        self.name = ""
        self.order = "shuffled"
        self.error = ""
        self.resumable = unfinished_sessions(self.root)[:3] if self.root.is_dir() else []

    def press(self, name: str) -> None:
        if name == "start":
            self.start()
        elif name == "order":
            self.order = SETUP_ORDERS[(SETUP_ORDERS.index(self.order) + 1) % len(SETUP_ORDERS)]
        elif name == "back":
            self._next = self.back
        elif name.startswith("resume:"):
            self._next = open_session(Path(name[7:]), self.back, self.size)

    def key(self, event: pygame.event.Event) -> None:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
        elif event.key == pygame.K_ESCAPE:
            self._next = self.back
        elif event.key == pygame.K_BACKSPACE:
            self.name = self.name[:-1]
        elif event.unicode and (event.unicode.isalnum() or event.unicode in "-_ ") and len(self.name) < 30:
            self.name += event.unicode

    def start(self) -> None:
        seed = int(time.time()) % 100000 if self.order == "shuffled" else None
        try:
            store = new_session(self.root, self.name, self.files, self.order, seed)
        except (SessionError, OSError) as e:
            self.error = str(e)
            return
        self._next = StudyIntroScreen(store, self.back, self.size)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        col = column(self.size)
        blit_text(surface, "Study session", (col.x, col.y), 34, P.TEXT, bold=True)
        lines = [
            f"{len(self.files)} level(s). The built-in planner and every other result stay hidden "
            "until the session ends; planning time, edits and failed runs are recorded.",
        ]
        y = panels.draw_lines(surface, col.x, col.y + 56, col.w, [(t, P.TEXT_DIM) for t in lines], TEXT) + 20
        blit_text(surface, "Participant (type a name or code):", (col.x, y), 20, P.TEXT)
        box = pygame.Rect(col.x, y + 28, min(420, col.w), 40)
        pygame.draw.rect(surface, P.PANEL_LIGHT, box, border_radius=6)
        blit_text(surface, self.name + "_", (box.x + 10, box.centery), 22, P.TEXT, anchor="midleft")
        y = box.bottom + 20
        self.buttons = stack(
            col.x,
            y,
            min(420, col.w),
            [("order", f"Order: {self.order} (click to change)"), ("start", "Start the session")],
        )
        y += 2 * 52 + 10
        if self.resumable:
            blit_text(surface, "Or resume an unfinished session:", (col.x, y), 20, P.TEXT)
            self.buttons += stack(
                col.x,
                y + 30,
                min(560, col.w),
                [(f"resume:{f}", f"Resume {describe_session(f)}") for f in self.resumable],
            )
            y += 30 + 52 * len(self.resumable)
        self.buttons.append(Button("back", "Back", pygame.Rect(col.x, y + 10, 160, 42)))
        draw_buttons(surface, self.buttons, self.mouse)
        if self.error:
            panels.draw_lines(surface, col.x, y + 70, col.w, [(self.error, P.ERROR)])


def describe_session(folder: Path) -> str:
    try:
        s = SessionStore.open(folder).session
    except SessionError:
        return folder.name
    return f"{s.participant}: level {min(s.current + 1, len(s.levels))} of {len(s.levels)}"


def open_session(folder: Path, back: Any, size: tuple[int, int]) -> Any:
    """The screen a session resumes on: its current level, or its end."""
    try:
        store = SessionStore.open(folder)
        store.claim()  # one window per session: a second one would overwrite this one's plan
    except SessionError as e:
        return StudyIntroScreen(None, back, size, problem=str(e))
    if store.session.repairs:
        store.log({"event": "repaired", "problems": store.session.repairs})
    if store.session.finished:
        return StudyEndScreen(store, back, size)
    store.log({"event": "resume"})
    screen = StudyLevelScreen(store, back, size)
    screen.paused = True  # the clock waits until the participant is back
    if store.session.repairs and screen.play is not None:
        more = len(store.session.repairs) - 1
        screen.play.say(store.session.repairs[0] + (f" (and {more} more)" if more else ""), error=True)
    return screen


def session_partner(session: Session) -> Partner | None:
    """The session's partner condition (None: the person plans every agent)."""
    if session.partner is None:
        return None
    try:
        return Partner.from_dict(session.partner)
    except PartnerSpecError:
        return None  # Session.from_dict checked it already; a damaged one was set aside there


def partner_text(partner: Partner) -> str:
    mine = ", ".join(partner.person_agents)
    who = "the built-in planner" if partner.kind == "planner" else f"the model {partner_label(partner)}"
    return (
        f"You plan {mine}; your partner, {who}, plans the other agents. Whenever your queues "
        "change, it plans its agents again around yours (the title bar says when it is working). "
        "Its queues are striped on the timeline; they are its own: you cannot edit them."
    )


def level_title(session: Session, record: LevelRecord) -> str:
    """`Warm-up 1 of 2` or `Level 3 of 4`, the time limit if any, and the level's title."""
    warm = [r for r in session.levels if r.warmup]
    if record.warmup:
        head = f"Warm-up {warm.index(record) + 1} of {len(warm)} (not scored)"
    else:
        measured = [r for r in session.levels if not r.warmup]
        head = f"Level {measured.index(record) + 1} of {len(measured)}"
    limit = session.time_limit  # before the title, which a narrow window cuts short
    head += f" ({_minutes(limit)} min to plan)" if limit else ""
    return f"{head}: {record.title}"


class StudyIntroScreen(_Page):
    """The task description, the same for every participant: the protocol's own text, the
    rules, how to plan; Begin opens the first level, or the tutorials first (not recorded)."""

    def __init__(
        self,
        store: SessionStore | None,
        back: Any = None,
        size: tuple[int, int] | None = None,
        problem: str = "",
    ):
        super().__init__(size)
        self.store = store
        self.back = back
        self.problem = problem

    def press(self, name: str) -> None:
        if name == "begin" and self.store is not None:
            self._next = StudyLevelScreen(self.store, self.back, self.size)
        elif name == "tutorials":
            self._next = TutorialPicker(self, self.size)
        elif name == "back":
            self._next = self.back

    def key(self, event: pygame.event.Event) -> None:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.press("begin")

    def paragraphs(self) -> list[tuple[str, Any, int]]:
        """(text, colour, size) of the page, in order."""
        s = self.store.session
        out: list[tuple[str, Any, int]] = []
        if s.instructions:
            out.append((s.instructions, P.TEXT, TEXT))
        out.append(("The task", P.TEXT_DIM, 18))
        out += [(t, P.TEXT, TEXT - 2) for t in rules_text()]
        out.append(("The session", P.TEXT_DIM, 18))
        measured = sum(not r.warmup for r in s.levels)
        warm = len(s.levels) - measured
        lines = [line.format(n=measured) for line in INSTRUCTIONS]
        if warm:
            lines[0] += f" First {warm} warm-up kitchen(s) to practise: they are not scored."
        if s.time_limit:
            lines[0] += f" You have {_minutes(s.time_limit)} min of planning per kitchen."
        out += [(t, P.TEXT, TEXT - 2) for t in lines]
        partner = session_partner(s)
        if partner is not None:
            out.append(("Your partner", P.TEXT_DIM, 18))
            out.append((partner_text(partner), P.TEXT, TEXT - 2))
        return out

    def shown_text(self) -> str:
        return "\n".join(t for t, _, _ in self.paragraphs()) if self.store else self.problem

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        col = column(self.size)
        col.y = min(col.y, 28) if self.size[1] < 800 else col.y
        if self.store is None:
            panels.draw_notice(surface, "This session cannot be opened", [self.problem])
            self.buttons = [Button("back", "Back", pygame.Rect(col.x, col.bottom - 42, 160, 42))]
            draw_buttons(surface, self.buttons, self.mouse)
            return
        s = self.store.session
        blit_text(surface, f"Welcome, {s.participant}", (col.x, col.y), 32, P.TEXT, bold=True)
        y = col.y + 46
        for text, colour, size in self.paragraphs():
            y = panels.draw_lines(surface, col.x, y, col.w, [(text, colour)], size) + 8
        self.buttons = [Button("begin", "Begin", pygame.Rect(col.x, y + 10, 220, 46))]
        if not any(r.warmup for r in s.levels):
            self.buttons.append(
                Button("tutorials", "Try the tutorials first", pygame.Rect(col.x + 240, y + 10, 300, 46))
            )
        draw_buttons(surface, self.buttons, self.mouse)


class TutorialPicker(_Page):
    """The tutorials as practice before a session: nothing is recorded; Back returns."""

    def __init__(self, intro: Any, size: tuple[int, int] | None):
        super().__init__(size)
        from game.levels.suite import TUTORIAL_DIR

        self.intro = intro
        self.files = sorted(TUTORIAL_DIR.glob("*.yaml"))
        self.problem = ""

    def press(self, name: str) -> None:
        if name == "back":
            self._next = self.intro
            return
        from game.ui.screens.play import PlayScreen

        try:
            level = load_level(self.files[int(name)])
        except LevelError as e:
            self.problem = str(e)
            return
        options = study_options(lambda kind: None)
        options = replace(
            options, labels={"back": "Back to the tutorials", "card:back": "Back to the tutorials"}
        )
        self._next = PlayScreen(level, None, back=self, restore=False, size=self.size, options=options)

    def key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE:
            self._next = self.intro

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        col = column(self.size)
        blit_text(surface, "Tutorials (practice, not recorded)", (col.x, col.y), 30, P.TEXT, bold=True)
        names = [(str(i), f.stem[3:].replace("_", " ").capitalize()) for i, f in enumerate(self.files)]
        self.buttons = stack(col.x, col.y + 50, min(460, col.w), names + [("back", "Back to the session")])
        draw_buttons(surface, self.buttons, self.mouse)
        if self.problem:
            panels.draw_lines(
                surface, col.x, self.buttons[-1].rect.bottom + 16, col.w, [(self.problem, P.ERROR)]
            )


class StudyLevelScreen:
    """One level of the session: the play screen in study mode, or the pause page over it."""

    def __init__(self, store: SessionStore, back: Any = None, size: tuple[int, int] | None = None):
        from game.ui.screens.play import PlayScreen

        surface = pygame.display.get_surface()
        self.size = size or (surface.get_size() if surface else (1440, 900))
        self.store = store
        self.back = back
        self.record = store.session.level
        self.paused = False
        self.confirm = False  # a plan that does not serve every order needs a second click
        self.mouse: tuple[int, int] | None = None
        self.buttons: list[Button] = []
        self.problem = ""
        self.unsaved = 0.0
        self._next: Any = self
        self.play = None
        if self.record is None:
            self._next = StudyEndScreen(store, back, self.size)
            return
        try:
            level = load_level(self.record.path)
            if task_digest(level) != self.record.digest:
                raise SessionError(f"{self.record.path}: the level file changed since the session began")
            plan = parse_plan(self.record.plan, level.agent_names) if self.record.plan else None
        except (LevelError, SessionError, ValueError) as e:
            self.problem, self.paused = str(e), True
            return
        s = store.session
        level = level.replace(title=level_title(s, self.record))
        options = study_options(self._on_change)
        partner = session_partner(s)
        if partner is not None:  # the partner condition: the protocol's partner, its agents
            options = replace(options, partner=partner, on_replan=self._on_replan)
        self.play = PlayScreen(level, plan, back=self, restore=False, size=self.size, options=options)
        if self.record.history and not self.play.editor.load_history(self.record.history):
            self.play.say("the undo history of this level could not be restored", error=True)
        self.was_playing = False
        self.closed = False
        self.record.opened = True
        self._save_quietly()  # opened is what tells abandoned from not attempted, even after a crash
        store.log({"event": "open", "title": self.record.title})

    # -- what the play screen reports ------------------------------------------------------------
    def _on_change(self, kind: str) -> None:
        if kind not in ("edit", "undo", "redo"):  # previews are counted by this screen's clock
            return
        ed = self.play.editor
        self.record.count(kind, error=ed.error is not None)
        self.record.plan = ed.plan_dict()
        self.record.history = ed.history()
        self.record.outcome = {"done": ed.result.done, "time": ed.result.time, "error": ed.result.error}
        self._save()
        self.store.log({"event": kind, **self.record.outcome, "plan": self.record.plan})

    def _on_replan(self, replan: Replan) -> None:
        """A partner re-plan reached the screen: recorded beside the person's edits (a failed
        one is logged, with why)."""
        ed = self.play.editor
        self.record.plan = ed.plan_dict()
        self.record.outcome = {"done": ed.result.done, "time": ed.result.time, "error": ed.result.error}
        try:
            if replan.error:
                self.store.log({"event": "replan_failed", "error": replan.error})
                self.store.save()
            else:
                self.store.record_replan(replan.changed, replan.partner_oct, replan.served, self.record.plan)
            self.unsaved = 0.0
        except (OSError, ValueError) as e:
            self.play.say(f"the session could not be saved: {e}", error=True)

    def _save(self) -> None:
        try:
            self.store.save()
            self.unsaved = 0.0
        except (OSError, ValueError) as e:
            self.play.say(f"the session could not be saved: {e}", error=True)
            return
        if self.store.log_problem:
            self.play.say(self.store.log_problem, error=True)

    # -- the Screen protocol ---------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.paused or self.play is None:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                name = button_at(self.buttons, event.pos)
                if name is not None:
                    self.press(name)
            return
        if event.type in INPUT_EVENTS:
            self.record.touch()
        if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and event.key == pygame.K_o:
            self.play.say("opening plan files is off during a study session", error=True)
            return
        self.play.handle(event)

    def update(self, dt: float) -> Any:
        if self.play is None:
            nxt, self._next = self._next, self
            return nxt
        if self.paused:
            self.record.pause(dt)
        else:
            self.record.tick(dt, self.store.session.idle_after)
            limit = self.store.session.time_limit
            if limit is not None and self.record.planning_s >= limit:
                self.store.log({"event": "time_limit", "limit_s": limit})
                self.submit()
                nxt, self._next = self._next, self
                return nxt
            nxt = self.play.update(dt)
            if self.play.playing and not self.was_playing:
                self.record.count("preview")
                self.store.log({"event": "preview"})
            self.was_playing = self.play.playing
            if nxt is self:  # the Pause button (or the card's Submit...)
                self.pause()
        self.unsaved += dt
        if self.unsaved >= SAVE_EVERY:
            self._save()
        nxt, self._next = self._next, self
        return nxt

    def draw(self, surface: pygame.Surface) -> None:
        if self.play is not None and not self.paused:
            self.play.draw(surface)
            return
        self._draw_paused(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        if self.play is not None:
            self.play.resize(size)

    def close(self) -> None:
        """The window closes or the participant stops: keep everything for resuming. Handing
        over to the next level (or the end) after a submit is no close."""
        if self.play is not None and not self.closed and not self.record.submitted:
            self._save()
            self.store.log({"event": "close"})
        self.closed = True

    # -- pause, submit, quit --------------------------------------------------------------------------
    def pause(self) -> None:
        self.paused = True
        self.play.clock.playing = False
        self._save()
        self.store.log({"event": "pause"})

    def press(self, name: str) -> None:
        self.confirm = self.confirm and name == "submit"
        if name == "resume":
            self.paused = False
            self.record.touch()
            self.store.log({"event": "unpause"})
        elif name == "submit":
            if self.record.outcome.get("done") or self.confirm:
                self.submit()
            else:
                self.confirm = True
        elif name == "quit":
            self.close()
            self.store.release()
            self._next = self.back

    def submit(self) -> None:
        if self.play is not None:
            ed = self.play.editor
            self.record.plan = ed.plan_dict()
            self.record.outcome = {"done": ed.result.done, "time": ed.result.time, "error": ed.result.error}
        self.store.log({"event": "submit", **self.record.outcome})
        self.store.session.submit()
        self._save_quietly()
        if self.store.session.finished:
            self._next = StudyEndScreen(self.store, self.back, self.size)
        else:
            self._next = StudyLevelScreen(self.store, self.back, self.size)

    def _save_quietly(self) -> None:
        try:
            self.store.save()
        except OSError as e:
            self.problem = f"the session could not be saved: {e}"

    def _draw_paused(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        col = column(self.size)
        s = self.store.session
        blit_text(surface, "Paused", (col.x, col.y), 34, P.TEXT, bold=True)
        r = self.record
        lines = [
            (level_title(s, r), P.TEXT),
            (
                f"Planning time so far {_minutes(r.planning_s)}; the clock is stopped and the kitchen hidden.",
                P.TEXT_DIM,
            ),
        ]
        if r.outcome:
            state = (
                f"serves every order at t = {panels.fmt(r.outcome['time'])}"
                if r.outcome.get("done")
                else "does not serve every order yet"
            )
            lines.append((f"Your plan {state}.", panels.SERVED if r.outcome.get("done") else P.TEXT_DIM))
        if self.problem:
            lines.append((self.problem, P.ERROR))
        y = panels.draw_lines(surface, col.x, col.y + 56, col.w, lines, TEXT) + 24
        last = s.current + 1 == len(s.levels)
        submit = (
            "Submit this plan and finish the session" if last else "Submit this plan and go to the next level"
        )
        if self.confirm:
            submit = "Click again: submit a plan that does not serve every order"
        options = [("submit", submit), ("quit", "Stop for now (the session resumes where it is)")]
        if self.play is not None:
            options.insert(0, ("resume", "Back to planning"))
        self.buttons = stack(col.x, y, min(560, col.w), options)
        draw_buttons(surface, self.buttons, self.mouse)


class StudyEndScreen(_Page):
    """The session is over: thanks, the participant's own results, where the export went."""

    def __init__(self, store: SessionStore, back: Any = None, size: tuple[int, int] | None = None):
        super().__init__(size)
        self.store = store
        self.back = back
        self.export_dir = store.folder / "export"
        store.log({"event": "end"})
        try:
            _, self.problems = export_session(store, self.export_dir)
        except OSError as e:
            self.problems = [disk_message(e, self.export_dir, "the session itself is saved")]
        self.problems = [*store.session.repairs, *self.problems]

    def press(self, name: str) -> None:
        if name == "close":
            self.store.release()
            self._next = self.back

    def key(self, event: pygame.event.Event) -> None:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            self._next = self.back

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        col = column(self.size)
        s = self.store.session
        blit_text(
            surface,
            f"Thank you, {s.participant}: the session is complete",
            (col.x, col.y),
            30,
            P.TEXT,
            bold=True,
        )
        y = col.y + 50
        heads = ("level", "your plan", "planning", "edits", "failed runs")
        xs = [
            col.x,
            col.x + col.w * 45 // 100,
            col.x + col.w * 65 // 100,
            col.x + col.w * 80 // 100,
            col.x + col.w * 90 // 100,
        ]
        for x, h in zip(xs, heads, strict=True):
            blit_text(surface, h, (x, y), 17, P.TEXT_DIM)
        y += 24
        for r in s.levels:
            served = r.outcome.get("done")
            cells = (
                ellipsize(r.title, xs[1] - xs[0] - 10, 18),
                f"served at t = {panels.fmt(r.outcome.get('time'))}" if served else "not served",
                _minutes(r.planning_s),
                str(r.edits),
                str(r.error_runs),
            )
            for x, c in zip(xs, cells, strict=True):
                blit_text(
                    surface, c, (x, y), 18, panels.SERVED if served and c.startswith("served") else P.TEXT
                )
            y += 24
            if y > col.bottom - 140:
                break
        notes = [
            (
                f"Everything is saved in {self.store.folder}; results for the paper in {self.export_dir}.",
                P.TEXT_DIM,
            )
        ]
        notes += [(p, P.ERROR) for p in self.problems]
        y = panels.draw_lines(surface, col.x, y + 16, col.w, notes, TEXT) + 20
        self.buttons = [Button("close", "Close", pygame.Rect(col.x, y, 160, 42))]
        draw_buttons(surface, self.buttons, self.mouse)
