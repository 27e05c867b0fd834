"""What a result needs to be grouped in reports: category, difficulty, agents, orders."""

from __future__ import annotations

from typing import Any

from game.engine import Level

DIFFICULTY = {
    "sashimi": "easy",
    "salad": "easy",
    "pasta": "medium",
    "burrito": "medium",
    "sushi": "hard",
    "burger": "hard",
}


def task_info(level: Level, level_id: str | None = None) -> dict[str, Any]:
    """Grouping facts for a level; `level.meta` wins, the orders fill the gaps. The suite (when
    the level names one) tells tasks of one id apart: a suite level and the paper's kitchen."""
    cats = [level.recipe_book[o].category for o in level.orders if o in level.recipe_book]
    category = level.meta.get("category") or (cats[0] if cats and len(set(cats)) == 1 else "mixed")
    return {
        "id": level_id or level.meta.get("id") or level.name,
        "category": category,
        "difficulty": level.meta.get("difficulty") or DIFFICULTY.get(category, "other"),
        "agents": len(level.agents),
        "orders": len(level.orders),
        "seed": level.meta.get("seed"),
        **({"suite": str(level.meta["suite"])} if level.meta.get("suite") else {}),
    }
