"""Fixed queues that make the orders impossible, said in words (which order, which agent and
action, why). Each check is a proof: no plan for the other agents can help."""

from __future__ import annotations

from game.engine import Level, get_rules, simulate
from game.engine.errors import ErrorDetail

from ..bound import lower_bound
from ..model import Unsolvable
from .fixed import FixedQueues, Timed


def order_name(level: Level, index: int) -> str:
    return f"order {index + 1} ({level.orders[index]})"


def check_possible(level: Level, rules: str, fixed: FixedQueues) -> None:
    """Raise Unsolvable when the fixed queues alone rule every plan out."""
    serves = fixed.serves(level)
    first = fixed.independent
    if first is not None:
        served_before = sum(1 for s in serves if s.end <= first.time)
        which = order_name(level, min(served_before, len(level.orders) - 1)) if level.orders else "the orders"
        raise Unsolvable(
            f"{which} and any after it can never be served: {_said(first)} whatever the other agents do, "
            f"and the run stops there (t = {first.time:g})"
        )
    if len(serves) > len(level.orders):
        extra = serves[len(level.orders)]
        raise Unsolvable(
            f"{_action(extra)} serves at t = {extra.end:g}, but the fixed queues serve "
            f"{len(serves)} times and the level has only {len(level.orders)} orders: "
            "serving with no order left is an error"
        )


def check_in_time(level: Level, rules: str, fixed: FixedQueues) -> None:
    """Raise Unsolvable when a fixed serve comes before the orders up to it can be ready (a
    lower bound each, seconds on a level seen for the first time: run only when no plan was found)."""
    for i, serve in enumerate(fixed.serves(level)):
        earliest = _earliest(level, rules, i + 1)
        if earliest is not None and earliest > serve.end:
            raise Unsolvable(
                f"{order_name(level, i)} cannot be served in time: {_action(serve)} serves at "
                f"t = {serve.end:g}, its serve number {i + 1}, so orders 1 to {i + 1} must all be served "
                f"by then, but no plan serves them before t = {earliest:g} (their lower bound); "
                "a plate served out of order is an error"
            )


def check_all_fixed(level: Level, rules: str, raw: dict) -> None:
    """Every agent fixed: the plan is the given one; when the engine says it fails, the
    engine's own diagnosis is the reason."""
    result = simulate(level, raw, rules, record=True)
    if result.done:
        return
    which = order_name(level, len(result.finished_orders)) if result.remaining_orders else "the orders"
    why = (result.diagnosis or {}).get("summary") or result.error or "the queues end before it is served"
    raise Unsolvable(f"every agent is fixed and {which} is not served: {why}")


def _earliest(level: Level, rules: str, count: int) -> int | None:
    """A lower bound on serving the first `count` orders (None when unknown)."""
    bound = lower_bound(level.with_orders(level.orders[:count]), get_rules(rules).name, routes=False)
    return bound.value if bound.finite else None


def _action(t: Timed) -> str:
    return f"{t.agent}'s action {t.index} ({t.action})"


def _said(e: ErrorDetail) -> str:
    return f"{e.agent}'s action {e.action_index} ({e.action.get('action')}) fails ({e.reason})"
