"""The lower bound the planner and the windows show: the largest of the relaxations (`bounder`,
`hand_bound`, `late_work`, and on request `route_bound`), worked out once per level and kept."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from game.engine import Level

from .bounder import Bound, Bounder
from .cost import Cost
from .hand_bound import hand_bound
from .late_work import late_work
from .recorded import recorded_bound, recorded_routes
from .route_bound import route_bound_spent

_KNOWN: dict[tuple[str, str | None], int | None] = {}


def known_bound(level: Level, rules: str | None = None) -> int | None:
    """The lower bound as a number to show beside an OCT, or None when there is none; kept, so
    that a window asking again (or after `warm_known_bound`) gets it at once."""
    key = (json.dumps(level.to_dict(), sort_keys=True, default=str), rules)
    if key in _KNOWN:
        return _KNOWN[key]
    try:
        b = lower_bound(level, rules)
        value = b.value if b.finite and b.value > 0 else None
    except Exception:  # a level the bound cannot read: show nothing, never fail a window
        value = None
    if len(_KNOWN) >= 64:
        _KNOWN.clear()
    _KNOWN[key] = value
    return value


def warm_known_bound(level: Level, rules: str | None = None) -> threading.Thread:
    """Work the bound out in the background (a fraction of a second), so that a result card or
    viewer shown later does not wait for it on the window's thread."""
    worker = threading.Thread(target=known_bound, args=(level, rules), daemon=True)
    worker.start()
    return worker


def routes_by_default(level: Level) -> bool:
    """Whether the planner adds the routes relaxation unasked: on one-order levels, where it fits
    and tightens the bound now and then (on the suite's two-order levels it never did)."""
    return len(level.orders) == 1


KEPT = 64  # bounds kept per kind, the least recently used dropped first
# The relaxations other than the routes read no rule set (both count cooking the same way), so
# one bound serves a level under either; the routes relaxation is kept per rule set.
_BOUNDS: OrderedDict[str, Bound] = OrderedDict()
_ROUTES: OrderedDict[tuple[str, str], tuple[int | None, float]] = OrderedDict()  # value, cost
_KEEPING = threading.Lock()  # a window works bounds out on a thread of its own


def _kept(store: OrderedDict, key: object, work_out: Callable[[], Any]) -> Any:
    with _KEEPING:
        if key in store:
            store.move_to_end(key)
            return store[key]
    value = work_out()
    with _KEEPING:
        store[key] = value
        if len(store) > KEPT:
            store.popitem(last=False)
    return value


def lower_bound(level: Level, rules: str | None = None, routes: bool | None = False) -> Bound:
    """The largest of several relaxations (see the module docstring), the hands term among them
    (`hand_bound`, a linear program and its cuts, a fraction of a second); with `routes`, also the
    agents' routes relaxation (`route_bound`, a CP-SAT solve of about a second) on levels small
    enough for it (None: as `routes_by_default` says). 0 with no orders. Every part is
    deterministic (CP-SAT runs on a deterministic time limit), so the last few bounds are kept:
    planning the same level again, or under the other rule set, does not work it out again; and
    those of the bundled levels and the ParaCook tasks are shipped (`recorded`)."""
    if not level.orders:
        return Bound(0)
    if routes is None:
        routes = routes_by_default(level)
    text = json.dumps(level.to_dict(), sort_keys=True, default=str)
    kept = _kept(_BOUNDS, text, lambda: recorded_bound(level) or _work_out(level))
    bound = Bound(kept.value, dict(kept.terms), kept.cost)
    if routes and bound.finite:
        ruleset = rules or level.rules
        value, cost = _kept(
            _ROUTES,
            (text, ruleset),
            lambda: recorded_routes(level, ruleset) or route_bound_spent(level, ruleset),
        )
        bound.cost += cost
        if value is not None:
            bound.terms["routes"] = value
            bound.value = max(bound.value, value)
    return bound


def _work_out(level: Level) -> Bound:
    """The relaxations that hold under both rule sets."""
    bounder = Bounder(level)
    bound = bounder.bound()
    if bound.finite:
        spent = Cost()
        hands = hand_bound(level, bounder, spent)
        bound.terms["hands"] = hands
        late = late_work(level, bounder)
        bound.terms["late"] = late
        bound.value = max(bound.value, hands, late)
        bound.cost = spent.seconds
    return bound
