"""The partner constraint on a model's plan: some agents' queues are fixed (as given, from t = 0);
the model plans the others. A reply's queue for a fixed agent is ignored, and the model is told."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine import Level, Plan
from game.engine.plan import Action, read_action
from game.fixed import Queue, check_fixed

from .prompts import fill, names_text


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

    def whole(self, plan: Plan) -> tuple[Plan, list[str]]:
        """A whole plan with every fixed queue as given, and the fixed agents whose queue the
        reply wrote otherwise (an empty or identical one is no conflict)."""
        ignored = [a for a, q in self.actions.items() if plan.get(a) and plan[a] != q]
        return {**plan, **self.actions}, ignored

    def batch(self, batch: Plan) -> tuple[Plan, list[str]]:
        """A step's new actions without any for a fixed agent (its queue is whole from the start)."""
        ignored = [a for a in self.actions if batch.get(a)]
        return {a: () if a in self.actions else q for a, q in batch.items()}, ignored

    def empty_plan(self, level: Level) -> Plan:
        """The fixed queues, and nothing for the others."""
        return {a: self.actions.get(a, ()) for a in level.agent_names}

    def ignored_feedback(self, level: Level, ignored: list[str]) -> str:
        return fill("partner_ignored", agents=names_text(ignored), free_agents=names_text(self.free(level)))

    def to_dict(self) -> dict[str, Queue]:
        return {a: list(q) for a, q in self.queues.items()}
