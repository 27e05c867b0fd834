"""Collaboration metrics of a run (docs/collaboration.md defines them): each agent's trajectory
efficiency against a reference plan, its increment per planning round, progress completeness,
how many help requests and responses advanced the task, and wasted work."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine import Level, Plan, PlanError, Result, parse_plan, simulate

from .item_flow import WORK, Waste, wasted_work

BETA = 1.0  # weight of one redundant action against one reference action


class NoReference(ValueError):
    """A reference plan named by a level file that cannot be used."""


def action_label(level: Level, action: dict[str, Any]) -> str | None:
    """What an Interact or Process did, independent of which copy of a station it used:
    `Interact dispenser:meat`, `Process chopping_board`; None for moves, waits and Finish."""
    name = action.get("action")
    if name not in WORK:
        return None
    station = level.station_by_name.get(str(action.get("target")))
    if station is None:
        return f"{name} {action.get('target')}"
    kind = station.kind or station.name
    return f"{name} {kind}:{station.provides}" if station.provides else f"{name} {kind}"


def trajectory(level: Level, result: Result, agent: str, upto: int | None = None) -> list[str]:
    """The agent's completed work actions, in order (those before action `upto` only)."""
    assert result.timeline is not None
    spans = [s for s in result.timeline.spans_of(agent) if s.status == "done"]
    labels = [action_label(level, s.action) for s in spans if upto is None or s.index < upto]
    return [x for x in labels if x is not None]


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence (order kept, gaps allowed)."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(prev[j] + 1 if x == y else max(prev[j + 1], row[j]))
        prev = row
    return prev[-1]


def efficiency(executed: list[str], reference: list[str], beta: float = BETA) -> float:
    """matched / (reference length + beta x redundant actions); 1 for an exact match, and
    for an agent with nothing to do that did nothing."""
    matched = lcs_length(executed, reference)
    redundant = len(executed) - matched
    denominator = len(reference) + beta * redundant
    return 1.0 if denominator == 0 else matched / denominator


@dataclass
class AgentScore:
    agent: str
    executed: int
    reference: int
    matched: int
    tes: float
    increments: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "executed": self.executed,
            "reference": self.reference,
            "matched": self.matched,
            "tes": round(self.tes, 4),
            "increments": [round(x, 4) for x in self.increments],
        }


@dataclass
class HelpShare:
    total: int = 0
    advanced: int = 0

    @property
    def share(self) -> float | None:
        return self.advanced / self.total if self.total else None


@dataclass
class Collaboration:
    agents: dict[str, AgentScore]
    completeness: float
    requests: HelpShare
    responses: HelpShare
    wasted: list[Waste]
    reference: str  # where the reference came from

    @property
    def tes(self) -> float:
        """The team's score: the per-agent sums put together the same way."""
        matched = sum(a.matched for a in self.agents.values())
        ref = sum(a.reference for a in self.agents.values())
        redundant = sum(a.executed - a.matched for a in self.agents.values())
        return 1.0 if ref + redundant == 0 else matched / (ref + BETA * redundant)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "tes": round(self.tes, 4),
            "agents": {a: s.to_dict() for a, s in self.agents.items()},
            "completeness": round(self.completeness, 4),
            "help_requests": {"total": self.requests.total, "advanced": self.requests.advanced},
            "help_responses": {"total": self.responses.total, "advanced": self.responses.advanced},
            "wasted_actions": len(self.wasted),
            "wasted_time": sum(w.duration for w in self.wasted),
            "wasted": [{"agent": w.agent, "index": w.index, "action": w.action} for w in self.wasted],
        }


def increments(
    level: Level, result: Result, agent: str, ref: list[str], rounds: list[dict[str, Any]], beta: float
) -> list[float]:
    """TES after each round minus TES before it (the whole plan is one round when none are given)."""
    out, before = [], 0.0
    for r in rounds:
        upto = int((r.get("actions") or {}).get(agent, 0))
        now = efficiency(trajectory(level, result, agent, upto), ref, beta)
        out.append(now - before)
        before = now
    return out


def help_shares(messages: list[dict[str, Any]], scores: dict[str, AgentScore]) -> tuple[HelpShare, HelpShare]:
    """A message answering one its sender got from a receiver the round before is a response,
    any other a request; either advanced the task when a receiver's next round raised its TES."""
    requests, responses = HelpShare(), HelpShare()
    for m in messages:
        k, sender, receivers = int(m["round"]), m["sender"], list(m["receivers"])
        answers = any(
            int(p["round"]) == k - 1 and p["sender"] in receivers and sender in p["receivers"]
            for p in messages
        )
        kind = responses if answers else requests
        kind.total += 1
        kind.advanced += any(
            r in scores and len(scores[r].increments) > k and scores[r].increments[k] > 0 for r in receivers
        )
    return requests, responses


def collaboration(
    level: Level,
    result: Result,
    reference: Plan,
    rounds: list[dict[str, Any]] | None = None,
    messages: list[dict[str, Any]] | None = None,
    beta: float = BETA,
    reference_name: str = "given",
) -> Collaboration:
    """Every metric of one recorded run against a reference plan (which must run clean)."""
    ref_result = simulate(level, reference, level.rules, record=True)
    if ref_result.error is not None:
        raise NoReference(f"the reference plan fails: {ref_result.error}")
    if not rounds:  # planned in one go: one round holding every action
        rounds = [{"round": 1, "actions": {a: 10**9 for a in level.agent_names}}]
    scores = {}
    for agent in level.agent_names:
        ex, ref = trajectory(level, result, agent), trajectory(level, ref_result, agent)
        matched = lcs_length(ex, ref)
        steps = increments(level, result, agent, ref, rounds, beta)
        scores[agent] = AgentScore(agent, len(ex), len(ref), matched, efficiency(ex, ref, beta), steps)
    total_ref = sum(s.reference for s in scores.values())
    completeness = 1.0 if total_ref == 0 else sum(s.matched for s in scores.values()) / total_ref
    requests, responses = help_shares(messages or [], scores)
    return Collaboration(
        scores, completeness, requests, responses, wasted_work(level, result), reference_name
    )


def named_reference(level: Level, level_path: Path | None) -> tuple[Plan, str] | None:
    """The hand-made reference a level file names (`meta: {reference: FILE}`, relative to the
    level file), or None when it names none. A broken one is a NoReference naming the file."""
    name = level.meta.get("reference")
    if not name or level_path is None:
        return None
    path = level_path.parent / str(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        plan = data.get("plan", data) if isinstance(data, dict) else data
        return parse_plan(plan, level.agent_names), str(path)
    except (OSError, json.JSONDecodeError) as e:
        raise NoReference(f"{level_path}: meta.reference {name}: cannot read it ({e})") from None
    except PlanError as e:
        raise NoReference(f"{level_path}: meta.reference {name}: {'; '.join(e.problems)}") from None


def reference_for(level: Level, level_path: Path | None, time_limit: float = 2.0) -> tuple[Plan, str]:
    """The level's hand-made reference, else the built-in planner's plan."""
    named = named_reference(level, level_path)
    if named is not None:
        return named
    from game.planners.solver import solve

    sol = solve(level, time_limit=time_limit)
    if not sol.result.done:
        raise NoReference(f"no reference: the built-in planner found no plan ({sol.note})")
    return parse_plan(sol.plan, level.agent_names), "built-in planner"
