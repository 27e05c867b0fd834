"""Per-task bounds and per-agent measures of docs/rules.md (T_max, D_max, MD, AU)."""

from __future__ import annotations

from .level import COOKWARE_TIME, Level, Recipe, default_cookware

WASH_AND_RETURN = 10 + 6  # the return delay plus washing, per extra dish beyond the plates


def _ingredient_bound(d: int, state: str, item: str, cookware: str | None, timed: bool) -> int:
    if state == "raw":
        return 2 * d
    if state == "chopped":
        return 3 * d + (4 if timed else 0)
    cook = COOKWARE_TIME[cookware or default_cookware(item)]
    return 4 * d + (cook if timed else 0)


def _bound(level: Level, timed: bool) -> int:
    d = level.width + level.height
    total = 0
    for name in level.orders:
        recipe: Recipe | None = level.recipe_book.get(name)
        for ing in recipe.ingredients if recipe else ():
            total += _ingredient_bound(d, ing.state, ing.item, ing.cookware, timed)
        total += d
    extra = max(0, len(level.orders) - level.plate_count)
    return total + extra * (2 * d + (WASH_AND_RETURN if timed else 0))


def t_max(level: Level) -> int:
    """The upper bound on completion time charged to a failed task (pOCT, nOCT)."""
    return _bound(level, timed=True)


def d_max(level: Level) -> int:
    """The same bound without process and wait times (charged as distance on failure)."""
    return _bound(level, timed=False)


def utilisation(total: float, waiting: float) -> float:
    """AU of one agent: the share of its execution time not spent waiting."""
    return 0.0 if total == 0 else (total - waiting) / total


def bound_fits(bound: float, done: bool, time: float) -> bool:
    """Whether a lower bound on a kitchen's OCT can stand beside a run of it: every plan that
    serves the order takes at least the bound, so one above a served run's time is no bound (a
    damaged record or cache entry, or a run of another kitchen)."""
    return not done or bound <= time
