"""The dish catalog (levels/recipes.yaml): every dish a level may order."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import yaml

from game.engine import Recipe, RecipeIngredient
from game.paths import LEVELS_DIR

from .errors import LevelError

CATALOG_PATH = LEVELS_DIR / "recipes.yaml"
STATES = ("raw", "chopped", "cooked")


def _ingredient(text: str, where: str) -> RecipeIngredient:
    parts = str(text).split(":")
    if len(parts) not in (2, 3) or parts[1] not in STATES:
        raise LevelError(str(CATALOG_PATH), [f"{where}: {text!r} is not item:state[:cookware]"])
    return RecipeIngredient(parts[0], parts[1], parts[2] if len(parts) == 3 else None)


@lru_cache(maxsize=4)
def load_catalog(path: Path = CATALOG_PATH) -> dict[str, Recipe]:
    """Dish name -> Recipe, for every dish of every category."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    book: dict[str, Recipe] = {}
    for category, dishes in data.items():
        for name, spec in dishes.items():
            where = f"{category}.{name}.ingredients"
            ings = tuple(_ingredient(i, where) for i in spec["ingredients"])
            book[name] = Recipe(name, spec["text"], ings, category)
    return book


def dish_name(order: str) -> str:
    """`salad/salad_basic` and `salad_basic` both name the dish `salad_basic`."""
    return order.rsplit("/", 1)[-1]


def resolve_orders(
    orders: list[str] | tuple[str, ...], source: str, catalog: dict[str, Recipe] | None = None
) -> tuple[tuple[str, ...], tuple[Recipe, ...]]:
    """Dish names and their recipes; an unknown dish is a LevelError naming its position."""
    book = load_catalog() if catalog is None else catalog
    if not isinstance(orders, (list, tuple)):
        raise LevelError(source, ["orders: must be a list of dish names"])
    names = tuple(dish_name(o) if isinstance(o, str) else o for o in orders)
    unknown = [
        f"orders[{i}]: no dish called {n!r} in the catalog"
        if isinstance(n, str)
        else f"orders[{i}]: must be a dish name, not {json.dumps(n)[:40]}"
        for i, n in enumerate(names)
        if not isinstance(n, str) or n not in book
    ]
    if unknown:
        raise LevelError(source, unknown)
    return names, tuple(book[n] for n in dict.fromkeys(names))
