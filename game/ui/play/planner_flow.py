"""The built-in planner as the play window uses it: started in the background (Strong plan),
cancelled by the same button, its plan shown on a card and, when asked, in place of the person's
own plan (read-only) or in the replay viewer. The person's plan is never replaced unasked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.engine import PlanError, parse_plan
from game.ui import planner_job as strong
from game.ui import store
from game.ui.editor import PlanEditor
from game.ui.render import play_panels as panels

from .card import Card, bound_text, gap_text
from .toolbar import job_look

if TYPE_CHECKING:
    from .screen import PlayScreen


class PlannerFlow:
    def __init__(self, host: PlayScreen):
        self.s = host
        self.planner: strong.Planner = strong.solver_plan
        self.job: strong.PlannerJob | None = None
        self.planner_editor: PlanEditor | None = None

    def strong_plan(self) -> None:
        """Start the planner (or cancel it when it runs)."""
        if self.job is not None:
            self.job.cancel()
            self.job = None
            self.s._dirty = True
            self.s.say("planning cancelled")
            return
        try:
            self.job = strong.PlannerJob(self.s.level, self.s.editor.rules, self.planner)
        except (OSError, ValueError) as e:
            self.s.notice = ("The built-in planner could not start", [str(e)])
            return
        self.s._dirty = True
        self.s.say("the built-in planner is working in the background; you can keep planning")

    def poll(self) -> None:
        """Hear from the planner; the window is redrawn only when what it shows of the job moved."""
        assert self.job is not None
        before = job_look(self.job.state)
        state = self.job.poll()
        if state.status == "running":
            if job_look(state) != before:
                self.s._dirty = True
            return
        self.job = None
        self.s._dirty = True
        if state.status == "failed":
            self.s.notice = ("The built-in planner failed", [state.error, "Your plan is unchanged."])
        elif state.status == "done":
            self._planner_done(state)

    def _planner_done(self, state: strong.JobState) -> None:
        try:
            plan = parse_plan(state.plan, self.s.level.agent_names)
        except PlanError as e:
            self.s.notice = ("The built-in planner's plan cannot be read", list(e.problems)[:8])
            return
        self.planner_editor = PlanEditor(self.s.level, plan, self.s.editor.rules)
        result = self.planner_editor.result
        if result.done and self.s.options.record_scores:
            try:
                store.record_score(self.s.level, result, source="planner")
            except OSError:
                pass
        outcome = f"done in {panels.fmt(result.time)}" if result.done else str(result.error)
        self.s.say(f"built-in planner: {outcome}")
        mine = self.s.editor.result
        rows = [
            ("Its time (OCT)", panels.fmt(result.time) if result.done else f"not served: {result.error}"),
            ("Your plan", f"done in {panels.fmt(mine.time)}" if mine.done else "not finished yet"),
        ]
        if result.done and state.bound is not None:  # the bound the planner reported
            rows += [
                ("Lower bound", bound_text(self.s.level, result.time, self.s.editor.rules, state.bound)),
                ("Gap", gap_text(result.time, state.bound)),
            ]
        rows += [
            ("Its actions", str(self.planner_editor.action_count)),
            ("Planning took", f"{state.elapsed:.1f} s"),
        ]
        notes = ["Your plan stays as it is. 'View its plan' shows the planner's plan here (Esc comes back)."]
        title = f"Built-in planner: {outcome}"
        self.s.open_card(Card(title, rows, notes, None))

    def view_planner_plan(self) -> None:
        if not hasattr(self, "planner_editor"):
            return
        self.s.viewing = self.planner_editor
        self.s.viewing.select_agent(self.s.editor.agent)
        self.s.refresh()
        self.s.clock.t = 0.0
        self.s.options.tell("preview")
        self.s.say("Viewing the built-in planner's plan: Esc returns to yours, U copies it into yours")

    def stop_viewing(self) -> None:
        self.s.viewing = None
        self.s.refresh()
        self.s.say("back to your plan")

    def use_planner_plan(self) -> None:
        if self.s.viewing is None:
            return
        plan = self.s.viewing.plan
        self.s.viewing = None
        self.s.editor.replace_plan(plan)
        self.s.after_edit()
        self.s.say("the planner's plan is now yours (Ctrl+Z gives yours back)")
