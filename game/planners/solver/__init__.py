"""The built-in planner and the lower bound beside it.

from game.planners.solver import solve, lower_bound, Planner
sol = solve(level, rules="paracook", time_limit=10)   # sol.plan, sol.result, sol.bound
sol = solve(level, progress=lambda p: print(p.describe()))   # return False to stop early
run = Planner(level, time_limit=10)                   # step by step, e.g. in a background task
for p in run.steps(): ...                             # Progress: best_oct, bound, gap, fraction
sol = run.solution()                                  # the best plan so far, engine-verified
"""

from .bound import Bound, lower_bound
from .model import Unsolvable
from .planner import DEFAULT_TIME_LIMIT, Planner, Progress, Solution, solve

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Bound",
    "Planner",
    "Progress",
    "Solution",
    "Unsolvable",
    "lower_bound",
    "solve",
]
