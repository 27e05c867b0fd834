"""Our seeded generator of the benchmark suite: 10x8 kitchens after the paper's configuration.

A kitchen depends on (category, seed) only, so the 1-, 2- and 3-agent tasks of a seed share it
(agent k starts where it starts in every task with k or more agents). Stations stand on the border:
one dispenser per ingredient of the category, 2 chopping boards, 2 stoves per kind of cookware the
category needs (each with its pot or pan), a serving window, a sink and a plate return. Inside:
4 tables (2 with a plate) and 2 walls. Every agent can reach every station. The dishes of a
(category, seed) are one seeded draw of 4 from the category; a task with n orders serves the first n.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from game.engine import AgentStart, Level, Station
from game.engine.level import default_cookware
from game.storage import write_atomic

from .catalog import load_catalog
from .format import level_to_yaml
from .suite import AGENT_COUNTS, ORDER_COUNTS, SUITE_DIR, SuiteTask, suite_tasks

WIDTH, HEIGHT = 10, 8
TABLES, PLATES, WALLS, BOARDS, STOVES_PER_COOKWARE = 4, 2, 2, 2, 2
MAX_TRIES = 1000
Pos = tuple[int, int]


def category_needs(category: str) -> tuple[list[str], list[str]]:
    """The category's ingredients (catalog order) and cookware kinds (pan before pot)."""
    items: dict[str, None] = {}
    cookware: set[str] = set()
    for recipe in load_catalog().values():
        if recipe.category == category:
            for ing in recipe.ingredients:
                items.setdefault(ing.item)
                if ing.state == "cooked":
                    cookware.add(ing.cookware or default_cookware(ing.item))
    return list(items), [c for c in ("pan", "pot") if c in cookware]


def border_stations(category: str) -> list[Station]:
    """The stations that go on the border, at a dummy position."""
    items, cookware = category_needs(category)
    out = [Station(f"dispenser{i}", 0, 0, provides=item) for i, item in enumerate(items, 1)]
    out += [Station(f"chopping_board{i}", 0, 0) for i in range(1, BOARDS + 1)]
    kinds = [c for c in cookware for _ in range(STOVES_PER_COOKWARE)]
    out += [Station(f"stove{i}", 0, 0, item=c) for i, c in enumerate(kinds, 1)]
    return out + [Station(n, 0, 0) for n in ("serving_window", "sink", "plate_return")]


def _take(rng: random.Random, pool: list[Pos]) -> Pos:
    return pool.pop(rng.randrange(len(pool)))


def _layout(rng: random.Random, border_count: int) -> tuple[list[Pos], list[Pos], list[Pos], list[Pos]]:
    """Positions for the border stations, the tables, the walls and three agents."""
    cells = [(x, y) for y in range(HEIGHT) for x in range(WIDTH)]
    border = [p for p in cells if p[0] in (0, WIDTH - 1) or p[1] in (0, HEIGHT - 1)]
    inside = [p for p in cells if p not in border]
    stations = [_take(rng, border) for _ in range(border_count)]
    tables = [_take(rng, inside) for _ in range(TABLES)]
    walls = sorted((_take(rng, inside) for _ in range(WALLS)), key=lambda p: (p[1], p[0]))
    floor = [p for p in cells if p not in set(stations + tables + walls)]
    agents = [_take(rng, floor) for _ in range(max(AGENT_COUNTS))]
    return stations, tables, walls, agents


def _fully_reachable(level: Level) -> bool:
    """Every agent reaches every other agent's start and a tile next to every station."""
    for a in level.agents:
        reach = level.distances(a.pos)
        if any(b.pos not in reach for b in level.agents):
            return False
        if any(not any(n in reach for n in level.neighbours(s.pos)) for s in level.stations):
            return False
    return True


def generate_kitchen(category: str, seed: int) -> Level:
    """The (category, seed) kitchen with all three agents and no orders."""
    rng = random.Random(f"kitchen/{category}/{seed}")
    on_border = border_stations(category)
    for _ in range(MAX_TRIES):
        spots, tables, walls, agents = _layout(rng, len(on_border))
        stations = [
            Station(s.name, x, y, s.provides, s.item) for s, (x, y) in zip(on_border, spots, strict=True)
        ]
        stations += [
            Station(f"table{i}", x, y, item="plate" if i <= PLATES else None)
            for i, (x, y) in enumerate(tables, 1)
        ]
        level = Level(
            name="kitchen",
            width=WIDTH,
            height=HEIGHT,
            agents=tuple(AgentStart(f"agent{i}", x, y) for i, (x, y) in enumerate(agents, 1)),
            stations=tuple(stations),
            walls=tuple(walls),
        )
        if _fully_reachable(level):
            return level
    raise RuntimeError(f"no usable {category} kitchen for seed {seed} in {MAX_TRIES} tries")


def generate_orders(category: str, seed: int, count: int) -> list[str]:
    """The first `count` of the (category, seed) draw of dishes."""
    dishes = [r.name for r in load_catalog().values() if r.category == category]
    rng = random.Random(f"orders/{category}/{seed}")
    draw = [dishes[rng.randrange(len(dishes))] for _ in range(max(ORDER_COUNTS))]
    return draw[:count]


def task_level(task: SuiteTask, kitchen: Level | None = None) -> Level:
    kitchen = kitchen or generate_kitchen(task.category, task.seed)
    orders = generate_orders(task.category, task.seed, task.orders)
    book = load_catalog()
    plural = "s" if task.agents > 1 else ""
    return kitchen.replace(
        agents=kitchen.agents[: task.agents],
        orders=tuple(orders),
        recipes=tuple(book[n] for n in dict.fromkeys(orders)),
        title=f"{task.category.capitalize()}, seed {task.seed}: {task.agents} agent{plural}, "
        f"{task.orders} order{'s' if task.orders > 1 else ''}",
        description="Serve in this order: " + ", ".join(o.replace("_", " ") for o in orders) + ".",
        meta={
            "id": task.id,
            "suite": "suite",
            "category": task.category,
            "seed": task.seed,
            "difficulty": task.difficulty,
        },
    )


def task_yaml(task: SuiteTask, kitchen: Level | None = None) -> str:
    return level_to_yaml(
        task_level(task, kitchen),
        comment=f"Benchmark task {task.id}, written by `python main.py levels generate`.",
    )


def suite_texts() -> Iterator[tuple[SuiteTask, str]]:
    """Every task with its file text; each (category, seed) kitchen is generated once."""
    kitchens: dict[tuple[str, int], Level] = {}
    for task in suite_tasks():
        key = (task.category, task.seed)
        if key not in kitchens:
            kitchens[key] = generate_kitchen(*key)
        yield task, task_yaml(task, kitchens[key])


def write_suite(out_dir: Path = SUITE_DIR) -> list[Path]:
    """Write all 360 task files under out_dir; returns their paths."""
    written = []
    for task, text in suite_texts():
        path = task.path(out_dir)
        write_atomic(path, text.encode("utf-8"))
        written.append(path)
    return written


def check_suite(out_dir: Path = SUITE_DIR) -> list[Path]:
    """The task files under out_dir that are missing or differ from what the generator writes."""
    return [
        task.path(out_dir)
        for task, text in suite_texts()
        if not task.path(out_dir).is_file() or task.path(out_dir).read_bytes() != text.encode("utf-8")
    ]
