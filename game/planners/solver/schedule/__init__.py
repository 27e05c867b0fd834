"""The schedule search: genomes (task order, agents, methods: `tasks`) decoded into timed
schedules by list scheduling with the engine's exact timing (`decoder`, `timing`, and the step
classes `prep_steps`, `plate_steps`, `ware_moves`, bound by `contract`), searched by an
anytime local search (`search`), and grounded into the engine's actions (`grounding`)."""

from .decoder import Decoder
from .grounding import ground
from .search import Found, Search, level_seed
from .tasks import Genome, Task, build_tasks
from .timing import Schedule

__all__ = ["Decoder", "Found", "Genome", "Schedule", "Search", "Task", "build_tasks", "ground", "level_seed"]
