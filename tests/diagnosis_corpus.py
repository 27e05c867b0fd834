"""The labelled corpus of broken plans (tests/data/diagnosis_corpus.yaml): build a case, run it,
and find where in the diagnosis its labelled cause ranks. Used by the tests and by
benchmarks/diagnosis_bench.py."""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.engine import Level, Result, simulate
from game.levels import load_level

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "diagnosis_corpus.yaml"
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")


@dataclass
class Case:
    id: str
    level: str
    plan: str
    rules: str = "paracook"
    edits: list[dict[str, Any]] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)

    @property
    def needs_paracook(self) -> bool:
        return self.level.startswith("paracook:")


def load_cases(path: Path = CORPUS) -> list[Case]:
    return [Case(**entry) for entry in yaml.safe_load(path.read_text())]


def _paracook_task(spec: str) -> tuple[Level, dict[str, Any]]:
    cat, seed, agents, orders = spec.removeprefix("paracook:").split("/")
    dishes = json.loads((PARACOOK / "orders.json").read_text())[f"{cat}/{seed}/{orders}"]
    level = load_level(PARACOOK / "maps" / cat / seed / f"{agents}.json", dishes)
    human = json.loads((PARACOOK / "human" / cat / seed / agents / f"{orders}.json").read_text())
    return level, human["plan"]


def _plan_file(spec: str) -> dict[str, Any]:
    path, _, keys = spec.partition("#")
    data = json.loads((ROOT / path).read_text())
    for key in keys.split(".") if keys else ():
        data = data[key]
    return data


def edited(plan: dict[str, Any], edits: list[dict[str, Any]]) -> dict[str, Any]:
    plan = copy.deepcopy(plan)
    for e in edits:
        queue = plan[e["agent"]]
        if "delete" in e:
            del queue[e["delete"]]
        elif "set" in e:
            queue[e["set"]] = e["to"]
        elif "insert" in e:
            queue.insert(e["insert"], e["action"])
        elif "truncate" in e:
            del queue[e["truncate"] :]
        else:
            raise ValueError(f"unknown edit {e}")
    return plan


def build(case: Case) -> tuple[Level, dict[str, Any]]:
    """The case's level and broken plan."""
    if case.needs_paracook:
        level, human = _paracook_task(case.level)
        base = human if case.plan == "human" else _plan_file(case.plan)
    else:
        level, base = load_level(ROOT / case.level), _plan_file(case.plan)
    return level, edited(base, case.edits)


def run(case: Case) -> Result:
    level, plan = build(case)
    return simulate(level, plan, case.rules)


def matches(case: Case, cause: dict[str, Any]) -> bool:
    """The cause is the labelled one: its kind, and the agent, time and shortfall the label gives."""
    want = case.expect
    if cause.get("kind") != want["cause"]:
        return False
    if "agent" in want and cause.get("agent") != want["agent"]:
        return False
    if "t" in want and cause.get("t") != want["t"]:
        return False
    return "short_by" not in want or cause.get("short_by") == want["short_by"]


def rank(case: Case, result: Result) -> int | None:
    """1 when the labelled cause comes first, 2 when second, ...; None when it is missing or the
    run did not fail with the labelled error."""
    d = result.diagnosis
    if not d or d.get("error") != case.expect["error"]:
        return None
    for n, cause in enumerate(d["causes"], 1):
        if matches(case, cause):
            return n
    return None
