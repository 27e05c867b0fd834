"""Partner mode: the person plans some agents, a partner (the built-in planner or an LLM) plans the
others around them, in the background.

Whenever the person's queues change (an edit, an undo, an agent taken over or handed over) and
then stay still for DEBOUNCE_S, the partner is asked again; a newer change drops the request in
flight. The partner's answer replaces only the partner's agents' queues (never the person's, and
not as an undo step); a failing partner says why and changes nothing. The window never waits:
the partner runs in its own process (game/ui/partner_job.py) and is polled once a frame."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.engine import Action
from game.study.partner import Partner
from game.ui import partner_job
from game.ui.editor import plan_problems
from game.ui.render import palette as P
from game.ui.render import play_panels as panels

if TYPE_CHECKING:
    from .screen import PlayScreen

# a person waits for an LLM partner: fewer retries, sooner, than an evaluation run's
LLM_WAITING = {"retries": 1, "backoff_s": 0.5}
DEBOUNCE_S = 0.15  # the person's queues stay still this long before the partner is asked


def label(partner: Partner) -> str:
    """The partner in the window's words."""
    if partner.kind == "planner":
        return "built-in planner"
    return f"{partner.model} ({partner.method})"


def function_of(partner: Partner, steady: bool = False) -> partner_job.Partner:
    """What the background process runs for this partner; `steady` (a study): the built-in
    planner's plans depend on the queues alone, never on how busy the machine is."""
    if partner.kind == "planner" and steady:
        return functools.partial(partner_job.planner_partner, steady=True)
    if partner.kind == "planner":
        return partner_job.planner_partner
    return functools.partial(partner_job.llm_partner, settings={**partner.llm_settings(), **LLM_WAITING})


@dataclass(frozen=True)
class Replan:
    """One partner re-plan that reached the screen (or failed), as a study records it."""

    changed: list[str]  # the partner's agents whose queues this re-plan changed
    partner_oct: float | None  # the whole plan's OCT with the partner's queues (None: not served)
    served: bool
    elapsed: float  # seconds from the request to the answer
    error: str = ""
    kept: bool = False  # no new plan found; the partner's queues, as they were, still serve


@dataclass
class PartnerState:
    status: str = "off"  # off, idle (nothing to plan), waiting, planning, ready, failed, cancelled
    error: str = ""
    last: Replan | None = None
    asked_at: float = 0.0
    history: list[Replan] = field(default_factory=list)
    found_none: bool = False  # failed: the partner ran, and found no plan around the person's queues


Key = tuple[tuple[str, tuple[Action, ...]], ...]


class PartnerMode:
    def __init__(self, host: PlayScreen):
        self.s = host
        self.choice: Partner | None = None
        self.mine: set[str] = set(host.level.agent_names)
        self.locked = False  # a study: the person's agents are the protocol's
        self.function: partner_job.Partner | None = None  # tests put a stand-in here
        self.worker: partner_job.PartnerWorker | None = None
        self.state = PartnerState()
        self.on_replan: Callable[[Replan], None] | None = None
        self._seen: Key | None = None  # the person's queues last frame
        self._changed_at: float | None = None  # when they last changed (the debounce)
        self._asked: Key | None = None  # what the request in flight plans around
        self._patient = False  # the next request searches longer (R)
        self._look: tuple = ()

    # -- turning it on and off -------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.choice is not None

    def start(
        self, choice: Partner, mine: set[str] | tuple[str, ...] | None = None, locked: bool = False
    ) -> None:
        """Partner mode with these agents the person's (default: the partner's person_agents; an
        empty set: the partner plans every agent)."""
        self.stop()
        self.choice, self.locked = choice, locked
        mine = choice.person_agents if mine is None else mine
        self.mine = {a for a in self.s.level.agent_names if a in set(mine)}
        fn = self.function or function_of(choice, steady=locked)
        self.worker = partner_job.PartnerWorker(self.s.level, self.s.editor.rules, fn)
        self.state = PartnerState("waiting")
        self._seen = self._asked = None
        self._changed_at = time.monotonic() - DEBOUNCE_S  # the first plan at once
        self.s._dirty = True

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.close()
        self.worker, self.choice = None, None
        self.mine = set(self.s.level.agent_names)
        self.state = PartnerState()
        self.s._dirty = True

    @property
    def partner_agents(self) -> list[str]:
        return [a for a in self.s.level.agent_names if a not in self.mine] if self.active else []

    def is_partners(self, agent: str) -> bool:
        return self.active and agent not in self.mine

    # -- whose agent is it ---------------------------------------------------------------------------
    def set_owner(self, agent: str, person: bool) -> bool:
        if not self.active or (agent in self.mine) == person:
            return False
        if self.locked:
            self.s.say(f"{agent} is {'yours' if agent in self.mine else 'the partner'}'s in this study", True)
            return False
        if person:
            self.mine.add(agent)
            self.s.say(f"{agent} is yours now, with the partner's queue to start from; T hands it back")
        else:
            self.mine.discard(agent)
            self.s.say(f"{agent} is handed to the partner: it plans {agent} around your queues")
        self.s._dirty = True
        return True

    def toggle_selected(self) -> None:
        if not self.active:
            self.s.say("no partner: the Partner button chooses one", error=True)
            return
        agent = self.s.editor.agent
        self.set_owner(agent, agent not in self.mine)

    def before_edit(self, agent: str) -> bool:
        """An edit of a partner's agent takes it over first; False when it may not be edited."""
        if not self.is_partners(agent):
            return True
        if self.locked:
            self.s.say(f"{agent} is planned by the partner in this study: plan your own agents", True)
            return False
        return self.set_owner(agent, True)

    def partner_first(self) -> None:
        """The partner plans every agent; the person's edits then take agents over one by one."""
        if self.active and not self.locked:
            self.mine = set()
            self.replan_now()

    # -- the re-plans ------------------------------------------------------------------------------
    def _key(self) -> Key:
        q = self.s.editor.queues
        return tuple((a, tuple(q[a])) for a in self.s.level.agent_names if a in self.mine)

    def replan_now(self) -> None:
        """Ask at once, searching longer than after an edit."""
        if self.active:
            self._asked = None
            self._patient = True
            self._changed_at = time.monotonic() - DEBOUNCE_S
            self.s._dirty = True

    def cancel(self) -> None:
        """Drop the re-plan in flight: the partner's queues stay as they were, until the next change."""
        if self.worker is None or self.state.status not in ("planning", "waiting"):
            return
        self.worker.cancel()
        self._changed_at = None
        self._asked = self._key()  # not asked again until the person's queues change
        self.state.status = "cancelled"
        self.s.say("partner re-plan cancelled: its queues stay as they were (R re-plans)")

    def update(self) -> None:
        """Once a frame: notice changes, ask after the debounce, take the answer when it comes."""
        if not self.active or self.worker is None:
            return
        key, now = self._key(), time.monotonic()
        if key != self._seen:
            self._seen, self._changed_at = key, now
            if key != self._asked and self.state.status != "planning":
                self.state.status = "waiting"
        due = self._changed_at is not None and now - self._changed_at >= DEBOUNCE_S and key != self._asked
        if due and not self.partner_agents:  # every agent is the person's: nothing to plan
            self._asked, self._changed_at, self.state.status = key, None, "idle"
            self.worker.cancel()
        elif due:
            self._ask(key)
        answer = self.worker.poll()
        if answer is not None:
            self._take(answer)
        look = self._status_look()
        if look != self._look:
            self._look, self.s._dirty = look, True

    def _ask(self, key: Key) -> None:
        assert self.worker is not None
        self._asked, self._changed_at = key, None
        # patient when asked (R), or while the partner's agents have nothing to show yet
        empty = all(not self.s.editor.queues[a] for a in self.partner_agents)
        patience = partner_job.PATIENT_S if self._patient or empty else None
        self._patient = False
        self.worker.submit({a: [x.to_dict() for x in q] for a, q in key}, patience)
        self.state.status, self.state.asked_at = "planning", time.monotonic()

    def _take(self, answer: partner_job.Answer) -> None:
        if self._asked != self._key():
            return  # planned around queues the person has changed since: the newer request follows
        if answer.error:
            self._failed(answer.error, answer.elapsed)
            return
        if isinstance(answer.plan, dict) and answer.plan.get("found") is False and self.s.editor.result.done:
            self._kept(answer.elapsed)  # no plan found, and the partner's queues still serve with yours
            return
        if isinstance(answer.plan, dict) and answer.plan.get("found") is False:
            note = answer.plan.get("note")
            why = note if isinstance(note, str) and note else "it found no plan around your queues"
            self._failed(why[:300], answer.elapsed, found_none=True)
            return
        queues, problems = self._partner_queues(answer.plan)
        if problems:
            self._failed("its plan cannot be used: " + "; ".join(problems[:3]), answer.elapsed)
            return
        ed = self.s.editor
        changed = [a for a, q in queues.items() if tuple(ed.queues[a]) != q]
        ed.set_queues(queues)
        result = ed.result
        replan = Replan(changed, result.time if result.done else None, result.done, answer.elapsed)
        self.state = PartnerState("ready", "", replan, self.state.asked_at, [*self.state.history, replan])
        self.s.after_partner()
        if self.on_replan is not None:
            self.on_replan(replan)

    def _kept(self, elapsed: float) -> None:
        """The partner found no plan, but its queues as they are serve every order with the
        person's: a re-plan that changed nothing."""
        result = self.s.editor.result
        replan = Replan([], result.time, True, elapsed, kept=True)
        self.state = PartnerState("ready", "", replan, self.state.asked_at, [*self.state.history, replan])
        self.s.say("the partner keeps its queues: with yours they serve every order")
        self.s._dirty = True
        if self.on_replan is not None:
            self.on_replan(replan)

    def _failed(self, error: str, elapsed: float, found_none: bool = False) -> None:
        """No new plan: said (why), and nothing changes."""
        replan = Replan([], None, False, elapsed, error)
        history = [*self.state.history, replan]
        self.state = PartnerState("failed", error, replan, self.state.asked_at, history, found_none)
        if found_none:
            self.s.say(f"The partner has no new plan ({error}); its queues stay as they were", error=True)
        else:
            self.s.say(f"The partner failed: {error}. Your queues are unchanged.", error=True)
        if self.on_replan is not None:
            self.on_replan(replan)

    def _partner_queues(self, plan: Any) -> tuple[dict[str, tuple[Action, ...]], list[str]]:
        """The partner's agents' queues from its answer, checked against the level; the person's
        queues in the answer are not read (they are the person's, as they stand)."""
        data = plan.get("plan", plan) if isinstance(plan, dict) else plan
        if not isinstance(data, dict):
            return {}, ["the answer is not a plan (an object of agents' queues)"]
        missing = [a for a in self.partner_agents if a not in data]
        if missing:
            return {}, [f"no queue for {', '.join(missing)}"]
        theirs = {a: data[a] for a in self.partner_agents}
        parsed, problems = plan_problems(self.s.level, theirs)
        if parsed is None:
            return {}, problems
        return {a: tuple(parsed[a]) for a in self.partner_agents}, []

    # -- what the window shows ----------------------------------------------------------------------
    def _status_look(self) -> tuple:
        elapsed = time.monotonic() - self.state.asked_at if self.state.status == "planning" else 0
        return self.state.status, self.state.error, round(elapsed, 1), tuple(self.partner_agents), self.locked

    def status_line(self) -> tuple[str, tuple[int, int, int]]:
        """The partner's state in a sentence (the side panel's Partner block)."""
        if self.choice is None:
            return "", P.TEXT_DIM
        who = f"Partner ({label(self.choice)})"
        agents = ", ".join(self.partner_agents)
        st = self.state
        if st.status == "idle":
            return f"{who}: every agent is yours (T hands the selected one over)", P.TEXT_DIM
        if st.status == "planning":
            return f"{who}: planning {agents}, {time.monotonic() - st.asked_at:.1f} s", P.PARTNER
        if st.status == "waiting":
            return f"{who}: plans {agents} when you pause", P.PARTNER
        if st.status == "failed" and st.found_none:
            return f"{who}: no new plan for {agents} ({st.error}); its queues stay as they were", P.ERROR
        if st.status == "failed":
            return f"{who} failed: {st.error}; your queues are unchanged", P.ERROR
        if st.status == "cancelled":
            return f"{who}: re-plan cancelled (R re-plans {agents})", P.TEXT_DIM
        r = st.last
        if r is not None and r.served and r.partner_oct is not None:
            return f"{who}: {agents} planned, served at t = {panels.fmt(r.partner_oct)}", P.PARTNER
        return f"{who}: {agents} planned, not every order served", P.TEXT_DIM

    def title_text(self) -> tuple[str, tuple[int, int, int]]:
        """The partner's state in a few words, for the title bar (the side panel says more)."""
        if self.choice is None:
            return "", P.TEXT_DIM
        st = self.state
        words = {
            "idle": "Partner: nothing to plan",
            "planning": f"Partner: planning, {time.monotonic() - st.asked_at:.1f} s",
            "waiting": "Partner: waits for you to pause",
            "cancelled": "Partner: cancelled",
            "failed": "Partner: no new plan" if st.found_none else "Partner failed",
        }
        text = words.get(st.status)
        if text is None:
            r = st.last
            served = r is not None and r.served and r.partner_oct is not None
            text = f"Partner: served at t = {panels.fmt(r.partner_oct)}" if served else "Partner: not served"
        return text, self.status_line()[1]

    def side_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The side panel's Partner block: who plans what, its state, the keys."""
        if self.choice is None:
            return []
        mine = ", ".join(a for a in self.s.level.agent_names if a in self.mine) or "no agent"
        theirs = ", ".join(self.partner_agents) or "no agent"
        keys = (
            "in this study the partner's agents are its own"
            if self.locked
            else "T: take over / hand over the selected agent;  R: re-plan, searching longer"
        )
        return [
            (f"{label(self.choice)} plans {theirs}; you plan {mine}", P.TEXT),
            self.status_line(),
            (keys, P.TEXT_DIM),
        ]

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None
