"""The exact search: the least OCT of a one-agent level over all valid plans, proven by search
(`search`), with its admissible estimate (`estimate`) over the engine's own states (`state`).

    from game.planners.solver.exact import exact_optimum
    best = exact_optimum(level, "paracook", max_states=200_000)   # Exact, or None if unknown
"""

from .search import (
    DEFAULT_MAX_STATES,
    Exact,
    Outcome,
    Search,
    Unsupported,
    check_supported,
    exact_optimum,
    exact_search,
    proven_below,
)

__all__ = [
    "DEFAULT_MAX_STATES",
    "Exact",
    "Outcome",
    "Search",
    "Unsupported",
    "check_supported",
    "exact_optimum",
    "exact_search",
    "proven_below",
]
