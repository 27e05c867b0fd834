"""The lower bound on a level's OCT: relaxations that hold for every valid plan.

    from game.planners.solver.bound import lower_bound, known_bound
    b = lower_bound(level, "paracook")          # Bound: b.value, b.terms (the strongest of each kind)

`bounder` (per dish: distances, cookware, boards, plates, the work shared out), `hand_bound`
(the agents' hands as a linear program, with `hand_flow`, `hands`, `hand_pans`, `hand_plating`,
`hand_reach`, `hand_turns` and `visit_tree`), `late_work` (the washes' work after the dirty
plates come back, fitted into the time left), `route_bound` (the agents' routes, CP-SAT), over
the carrying distances of `carry` and `team_carry`; `lower` puts them together.
"""

from .bounder import Bound
from .lower import known_bound, lower_bound, routes_by_default, warm_known_bound

__all__ = ["Bound", "known_bound", "lower_bound", "routes_by_default", "warm_known_bound"]
