"""The built-in planner: search schedules, ground the best into actions, let the engine judge."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, Result, get_rules, parse_plan, simulate

from .bound import Bound, lower_bound
from .grounding import ground
from .model import KitchenModel, Unsolvable
from .search import Search, level_seed
from .tasks import build_tasks

DEFAULT_TIME_LIMIT = 10.0
# decodes per second of time limit, per (task x agent): measured on a 2-core machine, with room
# to spare so that a busy machine still finishes well inside the limit
DECODE_COST_S = 40e-6
BUDGET_SHARE = 0.4
MIN_BUDGET, MAX_BUDGET = 50, 40_000
VERIFY = 8  # distinct best schedules run through the engine


@dataclass
class Solution:
    """What `solve` returns: the plan, the engine's result for it, and the lower bound."""

    level: Level
    rules: str
    plan: dict[str, list[dict[str, Any]]]
    result: Result
    bound: Bound
    evaluations: int = 0
    seconds: float = 0.0
    note: str = ""
    predicted: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.result.done

    @property
    def oct(self) -> float:
        return self.result.time

    @property
    def gap(self) -> float | None:
        """OCT over the lower bound, minus one (0.1 = 10% above the bound)."""
        if not self.done or not self.bound.finite or self.bound.value <= 0:
            return None
        return self.result.time / self.bound.value - 1

    def summary(self) -> dict[str, Any]:
        return {
            "oct": self.oct if self.done else None,
            "lower_bound": self.bound.value if self.bound.finite else None,
            "gap": None if self.gap is None else round(self.gap, 4),
            "evaluations": self.evaluations,
            "seconds": round(self.seconds, 3),
            "bound_terms": dict(self.bound.terms),
            "note": self.note,
        }


def budget_for(model: KitchenModel, tasks: int, time_limit: float) -> int:
    size = max(1, tasks * len(model.agent_names))
    n = int(time_limit * BUDGET_SHARE / (DECODE_COST_S * size))
    return max(MIN_BUDGET, min(MAX_BUDGET, n))


def solve(
    level: Level, rules: str | None = None, time_limit: float = DEFAULT_TIME_LIMIT, record: bool = False
) -> Solution:
    """Plan the level. The returned plan has been run by the engine; `done` says whether it
    serves every order (False only when no plan was found: `note` says why)."""
    rules = get_rules(rules or level.rules).name
    start = time.monotonic()
    bound = lower_bound(level)
    empty = {name: [] for name in level.agent_names}
    try:
        model = KitchenModel(level, rules)
    except Unsolvable as e:
        return _give_up(level, rules, empty, bound, f"unsolvable: {e}", start, record)
    tasks = build_tasks(model)
    search = Search(
        model,
        tasks,
        budget_for(model, len(tasks), time_limit),
        level_seed(model),
        bound.value,
        deadline=start + time_limit,
    )
    found = search.run()
    best: tuple | None = None
    for f in found[:VERIFY]:
        plan = ground(model.geo, f.schedule.ops, model.agent_names)
        result = simulate(level, parse_plan(plan, level.agent_names), rules, record=False)
        if result.done and (best is None or (result.time, f.cost) < (best[1].time, best[2].cost)):
            best = (plan, result, f)
    if best is None:
        note = "no schedule passed the engine" if found else "no schedule found"
        return _give_up(level, rules, empty, bound, note, start, record, search.used)
    plan, result, f = best
    if record:
        result = simulate(level, parse_plan(plan, level.agent_names), rules, record=True)
    return Solution(
        level,
        rules,
        plan,
        result,
        bound,
        search.used,
        time.monotonic() - start,
        predicted=f.schedule.makespan,
    )


def _give_up(
    level: Level, rules: str, plan: dict, bound: Bound, note: str, start: float, record: bool, used: int = 0
) -> Solution:
    result = simulate(level, parse_plan(plan, level.agent_names), rules, record=record)
    return Solution(level, rules, plan, result, bound, used, time.monotonic() - start, note)
