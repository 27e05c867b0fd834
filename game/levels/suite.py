"""Named sets of level files: the 360-task benchmark suite, its subsets, the tutorials and the
scenarios."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .catalog import CATALOG_PATH, LEVELS_DIR
from .ids import resolve
from .task import DIFFICULTY

SUITE_DIR = LEVELS_DIR / "suite"
TUTORIAL_DIR = LEVELS_DIR / "tutorial"
SCENARIO_DIR = LEVELS_DIR / "scenarios"
COLLAB_DIR = LEVELS_DIR / "collab"
CATEGORIES = ("burger", "burrito", "pasta", "salad", "sashimi", "sushi")
SEEDS = (42, 84, 126, 128, 256)
AGENT_COUNTS = (1, 2, 3)
ORDER_COUNTS = (1, 2, 3, 4)
# The human study: 2 agents; seeds 42, 84, 126 with 2 orders, and seed 42 with 3 orders.
HUMAN_STUDY = ((42, 2), (84, 2), (126, 2), (42, 3))

SUITES = {
    "suite": "360 generated tasks in the benchmark's shape (6 categories x 5 seeds x 1-3 agents x 1-4 orders)",
    "human24": "the paper's 24 human-study tasks (installed by `levels import-paracook`)",
    "suite24": "24 generated two-agent tasks at the human study's seeds and order counts "
    "(other kitchens than the paper's)",
    "tutorial": "small kitchens that teach the rules one at a time",
    "scenarios": "divided kitchens, cooks with roles, burn and freshness windows",
    "collab": "kitchens no cook can finish alone: split stations and roles, for talking agents",
    **{
        d: f"the {d} benchmark tasks ({' and '.join(c for c in CATEGORIES if DIFFICULTY[c] == d)})"
        for d in ("easy", "medium", "hard")
    },
    **{c: f"the {c} benchmark tasks" for c in CATEGORIES},
}
HAND_MADE = {"tutorial": TUTORIAL_DIR, "scenarios": SCENARIO_DIR, "collab": COLLAB_DIR}


@dataclass(frozen=True)
class SuiteTask:
    category: str
    seed: int
    agents: int
    orders: int

    @property
    def id(self) -> str:
        return f"{self.category}/seed_{self.seed}/agent_num_{self.agents}/orders_num_{self.orders}"

    @property
    def difficulty(self) -> str:
        return DIFFICULTY[self.category]

    def path(self, root: Path = SUITE_DIR) -> Path:
        return root / f"{self.id}.yaml"


def suite_tasks() -> list[SuiteTask]:
    return [
        SuiteTask(c, s, a, n) for c in CATEGORIES for s in SEEDS for a in AGENT_COUNTS for n in ORDER_COUNTS
    ]


def _natural(path: Path) -> list:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path.as_posix())]


class NotInstalled(ValueError):
    """A suite whose levels come from data that has not been imported."""


def human_study_levels(folder: Path | None = None) -> list[Path]:
    """The paper's 24 human-study tasks as `levels import-paracook` installs them (in `folder`,
    by default the data folder's paracook/); NotInstalled, saying how, when any is missing."""
    if folder is None:
        from game.ui.store import installed_paracook_dir  # where the import writes by default

        folder = installed_paracook_dir()
    paths = [
        folder / c / f"seed_{s}" / "agent_num_2" / f"orders_num_{n}.yaml"
        for c in CATEGORIES
        for s, n in HUMAN_STUDY
    ]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise NotInstalled(
            f"human24 is the paper's 24 human-study tasks, and {len(missing)} of them are not "
            f"installed in {folder} (e.g. {missing[0].relative_to(folder)}); install them with "
            "`paracook-kitchen levels import-paracook PATH/TO/ParaCook/data` (`suite24` names the "
            "generated two-agent tasks, which are other kitchens)"
        )
    return paths


def suite_levels(name: str) -> list[Path]:
    """The level files of a named suite (see SUITES), or every YAML level under a directory."""
    tasks = suite_tasks()
    if name == "suite":
        return [t.path() for t in tasks]
    if name == "suite24":
        return [t.path() for t in tasks if t.agents == 2 and (t.seed, t.orders) in HUMAN_STUDY]
    if name == "human24":
        return human_study_levels()
    if name in HAND_MADE:
        return sorted(HAND_MADE[name].glob("*.yaml"), key=_natural)
    if name in ("easy", "medium", "hard"):
        return [t.path() for t in tasks if t.difficulty == name]
    if name in CATEGORIES:
        return [t.path() for t in tasks if t.category == name]
    folder = resolve(name, folders=True)
    if folder.is_dir():
        return sorted(
            (p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.resolve() != CATALOG_PATH),
            key=_natural,
        )
    raise ValueError(f"no suite called {name!r} (suites: {', '.join(SUITES)}; or a directory of levels)")
