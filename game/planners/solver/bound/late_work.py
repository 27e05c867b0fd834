"""Work that cannot start before the dirty plates come back: an energy bound over time windows.

    from game.planners.solver.bound.late_work import late_work
    late_work(level, bounder)        # 0 when the level washes no plate

Every other term counts one thing alone. This one asks of a window [a, OCT] whether the agents
can fit into it the work that cannot begin before a: m agents do at most m * (OCT - a) of it.

The work. A level of n dishes with p plates on the map serves at least w = n - p washed plates,
and each of those was washed from a dirty plate of its own, which came back from a serve of its
own. Take w such washes, one per served washed plate, and sort them by the serve their dirty
plate came from: those serves are distinct, so the i-th came from serve i or a later one, and its
dirty plate appeared no sooner than r_i = s_i + `RETURN_DELAY`, where s_i is the earliest serve i
can happen (the bounder's serve chain, `Bounder.serves`). After r_i, each such wash takes of the
agents' time, without overlap (an agent holds one thing and does one action at a time):
- the dirty plate carried from the plate return to a sink, walking with it: at least the least
  carrying distance (`Bounder.hd`) between them;
- the part of the wash after r_i: the wash ends when the plate is in the sink, so no sooner than
  it could be carried there (`Bounder.cd`), and it ran `WASH_TIME` before that; a lone agent puts
  the plate down before washing it, so all of it;
- the clean plate carried from the sink to a window, where it is served: at least the least
  carrying distance between them.
All of it is done by the last serve, and the OCT is at least that under both rule sets.

The bound. For each k, the washes k, k+1, ..., w-1 all lie in [r_k, OCT], so
OCT >= r_k + (w - k) * each / m, where `each` is the work of one wash above; rounded down, as
waits of a fraction of a unit can make an OCT a fraction. The term is the largest over k. It can
exceed the serve chain when several washes follow serves close together, or when one agent does
them all.
"""

from __future__ import annotations

from game.engine import Level
from game.engine.kitchen import RETURN_DELAY, WASH_TIME

from ..model import INF
from .bounder import Bounder


def late_work(level: Level, bounder: Bounder | None = None) -> int:
    """The least OCT that fitting the washes' work after the plates come back allows (0 when no
    plate is washed, or the level cannot be bounded this way)."""
    b = bounder or Bounder(level)
    washes = len(b.dishes) - len(b.plates)
    if washes <= 0 or not b.plate_return or not b.sinks or not b.windows:
        return 0
    if not b.serves:
        b.bound()  # the serve chain
    each = wash_work(b)
    agents = max(1, len(level.agents))
    if each >= INF or any(s >= INF for s in b.serves[:washes]):
        return 0
    best = 0
    for k in range(washes):
        best = max(best, b.serves[k] + RETURN_DELAY + (washes - k) * each // agents)
    return best


def wash_work(b: Bounder) -> int:
    """The agents' time one wash takes after its dirty plate appears: carrying it to a sink, the
    part of the washing that cannot come before, carrying the clean plate to a window."""
    ret = b.plate_return
    assert ret is not None
    dirty = min(b.hd(ret, s) for s in b.sinks)
    clean = min(b.hd(s, w) for s in b.sinks for w in b.windows)
    arrive = min(b.cd(ret, s) for s in b.sinks)
    washing = WASH_TIME if len(b.agents) <= 1 else min(WASH_TIME, arrive)
    return dirty + washing + clean
