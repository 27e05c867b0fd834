"""Fast stand-in partners for the play window's tests, run in the partner's background process
(so they live in a module of their own, importable by name there)."""

from __future__ import annotations

import time


def counting_partner(level, rules, fixed, progress=None):
    """Each agent not fixed waits 1 + (the number of actions in the fixed queues): an answer
    that follows the person's queues, so a test can tell a fresh plan from an old one."""
    n = sum(len(q) for q in fixed.values())
    plan = {a: [{"action": "Wait", "duration": 1 + n}] for a in level.agent_names if a not in fixed}
    # a partner's reply may say anything of the fixed agents: the window must not take it
    plan.update({a: [{"action": "Finish"}] for a in fixed})
    return plan


def sleeping_partner(level, rules, fixed):
    """Never answers in time and never reports progress (an LLM waiting on its endpoint)."""
    time.sleep(60)
    return {}


def broken_partner(level, rules, fixed):
    raise RuntimeError("no kitchen like this one")


def nonsense_partner(level, rules, fixed):
    return {a: [{"action": "Fly", "to": "moon"}] for a in level.agent_names}


def first_plan_partner(level, rules, fixed, progress=None):
    """The real solve(fixed=...), stopped at its first plan (no deadline: a test must not depend
    on how fast the machine is)."""
    from game.planners.solver import solve

    def first(p):
        if progress is not None and progress(p) is False:
            return False
        return False if p.best_oct is not None else None

    return solve(level, rules=rules, time_limit=30, progress=first, fixed=fixed).plan


def planless_partner(level, rules, fixed, progress=None):
    """Runs, and finds no plan (as the built-in partner says it)."""
    plan = {a: list(q) for a, q in fixed.items()}
    plan.update({a: [] for a in level.agent_names if a not in fixed})
    return {
        "plan": plan,
        "found": False,
        "note": "no plan for agent2 around the fixed queues found in 9 runs",
    }


def patience_partner(level, rules, fixed, patience=None):
    """Answers with how long it was asked to search: Wait(patience), Wait(0) when not said."""
    return {a: [{"action": "Wait", "duration": patience or 0}] for a in level.agent_names if a not in fixed}


def hint_partner(level, rules, fixed, hint=None):
    """Answers with its hint's queue for each free agent plus one Wait: each answer one Wait
    longer than the last shows that the previous plan came back as the hint."""
    hint = hint or {}
    return {
        a: [*hint.get(a, []), {"action": "Wait", "duration": 1}] for a in level.agent_names if a not in fixed
    }
