"""Prompt templates (files in prompts/) filled in for one level and one method."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from game.engine import Level, level_from_map
from game.engine.kitchen import CHOP_TIME, RETURN_DELAY, WASH_TIME
from game.engine.level import COOKWARE_TIME
from game.levels import resolve_orders

from .client import Messages

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
CONSTANTS = {
    "chop": CHOP_TIME,
    "wash": WASH_TIME,
    "pot": COOKWARE_TIME["pot"],
    "pan": COOKWARE_TIME["pan"],
    "plate_return": RETURN_DELAY,
}


@cache
def template(name: str) -> Template:
    return Template((PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8"))


def fill(name: str, **values: Any) -> str:
    """A template with every $field filled (a missing one is a KeyError: a bug, not user input)."""
    return template(name).substitute({**CONSTANTS, **values}).strip()


def compact(data: Any) -> str:
    """JSON with one tile, agent or action per line: readable and short."""
    if isinstance(data, dict):
        items = [f"{json.dumps(k)}: {_inline_list(v)}" for k, v in data.items()]
        return "{\n" + ",\n".join(items) + "\n}"
    return json.dumps(data)


def _inline_list(v: Any) -> str:
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return "[\n  " + ",\n  ".join(json.dumps(x) for x in v) + "\n]"
    return json.dumps(v)


def recipes_text(level: Level) -> str:
    book = level.recipe_book
    return "\n".join(f"- {name}: {book[name].text}" for name in dict.fromkeys(level.orders))


def orders_text(level: Level) -> str:
    return "\n".join(f"{i + 1}. {name}" for i, name in enumerate(level.orders))


def options_text(level: Level) -> str:
    """The level's scenario rules in plain words (empty for benchmark levels)."""
    opts = level.options
    lines = []
    if "burn_after" in opts:
        lines.append(fill("option_burn", window=opts["burn_after"]))
    if "serve_within" in opts:
        lines.append(fill("option_fresh", window=opts["serve_within"]))
    for agent, kinds in (opts.get("can_use") or {}).items():
        lines.append(fill("option_role", agent=agent, kinds=", ".join(kinds) or "nothing"))
    if not lines:
        return ""
    return "## Extra rules of this kitchen\n" + "\n".join(f"- {line}" for line in lines)


def task_text(level: Level) -> str:
    return fill(
        "task",
        map=compact(level.to_paracook_map()),
        recipes=recipes_text(level),
        orders=orders_text(level),
        agents=", ".join(level.agent_names),
        options=options_text(level),
    )


@cache
def example() -> dict[str, Any]:
    return json.loads((PROMPTS_DIR / "example.json").read_text(encoding="utf-8"))


def example_level() -> Level:
    ex = example()
    names, recipes = resolve_orders(ex["orders"], str(PROMPTS_DIR / "example.json"))
    return level_from_map(ex["map"], names, recipes)


def example_text() -> str:
    ex, level = example(), example_level()
    return fill(
        "example",
        map=compact(ex["map"]),
        recipes=recipes_text(level),
        orders=", ".join(ex["orders"]),
        plan=compact(ex["plan"]),
        time=ex["time"],
    )


def first_messages(level: Level, method: str, fixed: Mapping[str, list] | None = None) -> Messages:
    """System (role and rules) and user (example, task, answer format) messages. With fixed
    queues, the task shows them and the answer format asks for the other agents only."""
    system = fill("system", rules=fill("rules"))
    parts = [example_text(), task_text(level)]
    if fixed:
        parts.append(partner_text(level, fixed))
    parts.append(fill(f"method_{method}"))
    if fixed:
        parts.append(partner_answer(level, fixed))
    user = "\n\n".join(parts)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def names_text(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c` (`no agent` for none)."""
    if not names:
        return "no agent"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def partner_names(level: Level, fixed: Mapping[str, list]) -> dict[str, str]:
    free = [a for a in level.agent_names if a not in fixed]
    return {"fixed_agents": names_text(list(fixed)), "free_agents": names_text(free)}


def partner_answer(level: Level, fixed: Mapping[str, list]) -> str:
    """Whose queues the answer gives (the others' are fixed)."""
    return fill("partner_answer", **partner_names(level, fixed))


def partner_text(level: Level, fixed: Mapping[str, list]) -> str:
    """Which agents' queues are fixed, and the queues themselves."""
    names = partner_names(level, fixed)
    one = len(fixed) == 1
    return fill(
        "partner",
        **names,
        are="is" if one else "are",
        their="its" if one else "their",
        queues_are="queue is" if one else "queues are",
        run="runs" if one else "run",
        them="it" if one else "them",
        they_carry=f"{names['fixed_agents']} carries, cooks and serves"
        if one
        else "they carry, cook and serve",
        queues=compact({a: list(q) for a, q in fixed.items()}),
    )
