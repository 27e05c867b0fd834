"""The built-in planner and the lower bound beside it.

from game.planners.solver import solve, lower_bound
sol = solve(level, rules="paracook", time_limit=10)   # sol.plan, sol.result, sol.bound
"""

from .bound import Bound, lower_bound
from .model import Unsolvable
from .planner import DEFAULT_TIME_LIMIT, Solution, solve

__all__ = ["DEFAULT_TIME_LIMIT", "Bound", "Solution", "Unsolvable", "lower_bound", "solve"]
