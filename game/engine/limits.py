"""How big a plan may be. Beyond these a plan is refused, or its run stops, with a message
naming the agent and action index; nothing in a plan can make a run slow, huge or infinite."""

from __future__ import annotations

MAX_ACTIONS_PER_AGENT = 10_000  # a longer queue refuses the whole plan before anything runs
MAX_WAIT = 100_000  # a longer Wait fails at its start (bad_duration)
MAX_TIME = 1_000_000  # an action that would end later fails at its start (time_limit)
MAX_PROBLEMS_LISTED = 20  # a refused plan lists this many problems, then how many more there are
