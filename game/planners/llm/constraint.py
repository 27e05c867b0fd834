"""The partner constraint on a model's plan: some agents' queues are fixed (as given, from t = 0);
the model plans the others. A reply's queue for a fixed agent is ignored, and the model is told."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine import Level, Plan
from game.engine.plan import Action, read_action
from game.fixed import Queue, check_fixed

from .prompts import fill, names_text, partner_answer


@dataclass(frozen=True)
class Fixed:
    """The fixed queues as given (JSON actions) and as the engine reads them."""

    queues: dict[str, Queue]
    actions: dict[str, tuple[Action, ...]]

    @classmethod
    def of(cls, queues: Mapping[str, Sequence[Mapping[str, Any]]] | None, level: Level) -> Fixed | None:
        """Checked against the level's agents (InputError, a ValueError, naming agent and action
        index); None when nothing is fixed."""
        checked = check_fixed(queues, level.agent_names)
        if not checked:
            return None
        return cls(checked, {a: tuple(read_action(x) for x in q) for a, q in checked.items()})

    def free(self, level: Level) -> list[str]:
        """The agents the model plans."""
        return [a for a in level.agent_names if a not in self.queues]

    def strip(self, raw: Any, whole: bool = True) -> tuple[Any, list[str]]:
        """A reply's plan object without the fixed agents' queues, before it is read (so that
        nothing in an ignored queue, however malformed or long, costs the rest), and the fixed
        agents whose queue it wrote: in a whole plan, one other than the fixed queue (an empty
        one, or an exact copy, is no conflict); in a step's batch, any action at all."""
        if not isinstance(raw, Mapping):
            return raw, []
        ignored = [a for a in self.queues if a in raw and self._conflicts(raw[a], a, whole)]
        return {k: v for k, v in raw.items() if k not in self.queues}, ignored

    def _conflicts(self, queue: Any, agent: str, whole: bool) -> bool:
        if queue is None or queue == []:
            return False
        if not whole or not isinstance(queue, list) or len(queue) != len(self.actions[agent]):
            return True
        return tuple(read_action(x) for x in queue) != self.actions[agent]

    def whole(self, plan: Plan) -> Plan:
        """A whole plan with every fixed queue as given."""
        return {**plan, **self.actions}

    def empty_plan(self, level: Level) -> Plan:
        """The fixed queues, and nothing for the others."""
        return {a: self.actions.get(a, ()) for a in level.agent_names}

    def answer_text(self, level: Level) -> str:
        """Whose queues the model writes, said again where a prompt asks for every agent's."""
        return partner_answer(level, self.queues)

    def nothing_new(self, level: Level) -> str:
        """A step's reply with no action for the agents the model plans."""
        return fill("partner_none", free_agents=names_text(self.free(level)))

    def ignored_feedback(self, level: Level, ignored: list[str]) -> str:
        return fill("partner_ignored", agents=names_text(ignored), free_agents=names_text(self.free(level)))

    def to_dict(self) -> dict[str, Queue]:
        return {a: list(q) for a, q in self.queues.items()}
