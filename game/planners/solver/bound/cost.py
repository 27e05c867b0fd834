"""What working a bound out costs, in seconds estimated from the solvers' own counts of their work
(simplex iterations, CP-SAT's deterministic time), so that the estimate is the same on every
machine and under any load: the planner takes it from its time limit (`Planner`) without letting
the clock decide anything.

The rates were fitted on a 2-core machine: the hands program's on the suite's 360 levels (one
bound per core), where the estimate is within 0.83-1.33 x the real cost on nine levels in ten and
within a second on every level; the routes relaxation's on 46 of the suite's team levels, where
it is within 0.62-1.19 x on the 31 that take over half a second."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LP_ITERATION_S = 2.8e-8  # per simplex iteration and row or column of the program at that solve
LP_SOLVE_S = 4.6e-3  # per solve
LP_SIZE_S = 8e-6  # per row or column of the program as built
CP_SAT_S = 2.5  # per unit of CP-SAT's deterministic time (1.6-3.4 s of one core's, by model)
CP_SAT_SOLVE_S = 0.1  # per solve: building the model


@dataclass
class Cost:
    """Seconds of work estimated so far."""

    seconds: float = 0.0

    def lp_solved(self, lp: Any) -> None:
        """One solve of a linear program (an ortools `pywraplp.Solver`)."""
        size = lp.NumConstraints() + lp.NumVariables()
        self.seconds += LP_SOLVE_S + LP_ITERATION_S * lp.iterations() * size

    def lp_built(self, lp: Any) -> None:
        self.seconds += LP_SIZE_S * (lp.NumConstraints() + lp.NumVariables())

    def cp_sat_solved(self, deterministic_time: float) -> None:
        self.seconds += CP_SAT_SOLVE_S + CP_SAT_S * deterministic_time
