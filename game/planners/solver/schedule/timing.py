"""Exact timing of interactions, the way the engine orders them.

Every interaction gets an event `(t, s, agent, seq)`: its time, the start of the action the
agent is finishing then (the engine handles the agents of one instant in that order, map order
breaking ties) and its place in the agent's chain of instant actions. An interaction that needs
another's effect must come strictly later in that order, so same-instant hand-overs are exact,
never off by one."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from game.engine.kitchen import CHOP_TIME
from game.engine.level import COOKWARE_TIME

from ..model import INF

CHOP = CHOP_TIME  # the engine's durations, never retyped
EV0 = (0, -3, -1, 0)  # before anything: the initial state
OPEN = (INF, 0, 0, 0)  # an interval nobody has closed yet
PLACED, ADD = 0, 1  # a cookware's marks: on its stove again, an ingredient in (placed first at one instant)


class Op(NamedTuple):
    """One Interact or Process at time t from a tile; `late` splits the wait before it."""

    t: int
    tile: int
    action: str
    station: str
    dur: int
    late: bool


@dataclass
class AgentClock:
    tile: int
    t: int = 0
    s: int = -1  # start of the action whose end the agent is handled at
    seq: int = 0
    ops: list[Op] = field(default_factory=list)


@dataclass
class Batch:
    dish: int
    last_t: int  # its latest ingredient went in (or it stood on its stove again) then
    cum: int  # items ever put in this cookware, this batch included
    needs: list[int] = field(default_factory=list)


@dataclass
class Cookware:
    """Under `paracook` the engine counts cooking from a pot's or pan's first ingredient on, but
    when what is in it is done the count stops, at the first engine event from then on, at what
    it required: an ingredient added later counts from that event (so a pan left idle long
    enough cooks the next patty at once). `origin` is that moment as far as the schedule so far
    shows it (a later event, or the add itself, is never too early), `done` the items before.
    Under `documented` the same holds within a batch: emptied cookware starts afresh (`reset`)."""

    kind: str
    first_t: int | None = None
    count: int = 0
    open: Batch | None = None
    last_scoop: tuple = EV0
    origin: int = 0  # cumulative cooking counts from here ...
    done: int = 0  # ... for the items put in after the first `done`
    last_add: int = -1
    placed: tuple = EV0  # back on its stove from this event on (after being filled elsewhere)
    at: str | None = None  # the stove it was moved to, when not the one it starts on
    retired: bool = False  # set aside on a table, unused, to free its stove for another
    # what the counters were worked out from, in time order: (t, ADD) an ingredient put in,
    # (t, PLACED) the cookware back on its stove
    marks: tuple[tuple[int, int], ...] = ()

    def counted_from(self, t: int, events: list[int]) -> tuple[int, int]:
        """(origin, done) once an ingredient goes in at t; `events`: known event times, sorted."""
        if self.first_t is None:
            return t, 0
        finished = self.origin + COOKWARE_TIME[self.kind] * (self.count - self.done)
        if finished > t:
            return self.origin, self.done
        # the engine notices it is done at its next event after the last add (cooking advances
        # before the agents act, so not at the instant of that add)
        k = bisect_left(events, max(finished, self.last_add + 1))
        return min(t, events[k]) if k < len(events) else t, self.count

    def add(self, t: int, events: list[int]) -> None:
        """An ingredient put in at t. Tasks are placed out of time order: one put in before the
        latest so far changes when the engine notices the earlier ones done, so the counters are
        worked out again from every mark in time order."""
        if t < self.last_add:
            self.marks = tuple(sorted((*self.marks, (t, ADD))))
            self._recount(events)
            return
        self.marks += ((t, ADD),)
        self._put_in(t, events)

    def _put_in(self, t: int, events: list[int]) -> None:
        self.origin, self.done = self.counted_from(t, events)
        if self.first_t is None:
            self.first_t = t
        self.count += 1
        self.last_add = t

    def place(self, t: int) -> None:
        """Back on its stove at t (filled elsewhere): its contents are noticed done only from then on."""
        self.marks = tuple(sorted((*self.marks, (t, PLACED))))
        self.last_add = max(self.last_add, t)

    def _recount(self, events: list[int]) -> None:
        self.first_t, self.count, self.origin, self.done, self.last_add = None, 0, 0, 0, -1
        for t, kind in self.marks:
            if kind == ADD:
                self._put_in(t, events)
            else:
                self.last_add = max(self.last_add, t)

    def reset(self) -> None:
        """Its counters after its contents left it, under `documented`."""
        self.first_t, self.count, self.origin, self.done = None, 0, 0, 0
        self.marks = ((self.last_add, PLACED),) if self.last_add >= 0 else ()

    def free_from(self) -> tuple:
        """The event after which food may go into it on its stove: once it is back there and the
        last batch was scooped out (also for a batch already open: tasks are placed out of time
        order, and food put in before that scoop would go onto the last dish's plate)."""
        return max(self.placed, self.last_scoop)

    def ready(self, b: Batch) -> int:
        base = self.origin + COOKWARE_TIME[self.kind] * (b.cum - self.done)
        return max(b.last_t + 1, base)

    def probe(self, t: int, events: list[int]) -> Cookware:
        """This cookware as it would be with one more ingredient put in at t."""
        out = Cookware.__new__(Cookware)  # what copy.copy does, without its generic dispatch
        out.__dict__.update(self.__dict__)
        out.add(t, events)
        return out


@dataclass
class Schedule:
    ops: list[list[Op]]
    serve_times: list[int]
    moving: int

    @property
    def makespan(self) -> int:
        return self.serve_times[-1] if self.serve_times else 0

    @property
    def cost(self) -> tuple[int, int, int]:
        return (self.makespan, sum(self.serve_times), self.moving)


class Floor(Protocol):
    """What a `Walker` asks of the decoder: where each agent stands and when, the walking
    distances between tiles, and the side of a station to act from (`Decoder.pick`)."""

    agents: list[AgentClock]
    dist: list[list[int]]
    to_station: dict[str, list[int]]  # station -> the walk from each tile to beside it
    sides: dict[tuple, int]  # `pick`'s answers when the agent does not wait, by (tile, station, nxt)

    def pick(self, tile: int, station: str, nxt: str | None, t: int = 0, ready: int = 0) -> int: ...


class Walker:
    """One agent trying out a task: times each interaction without touching the decoder."""

    __slots__ = ("dec", "idx", "tile", "t", "s", "seq", "ops", "moving")

    def __init__(self, dec: Floor, idx: int):
        a = dec.agents[idx]
        self.dec, self.idx = dec, idx
        self.tile, self.t, self.s, self.seq = a.tile, a.t, a.s, a.seq
        # the ops so far as plain tuples in `Op`'s field order: most walkers are tried out and
        # dropped, so only a committed one's become `Op`s (`Decoder.effect_partner`)
        self.ops: list[tuple] = []
        self.moving = 0

    def clone(self) -> Walker:
        w = Walker.__new__(Walker)
        w.dec, w.idx, w.tile, w.t, w.s, w.seq = self.dec, self.idx, self.tile, self.t, self.s, self.seq
        w.ops, w.moving = list(self.ops), self.moving
        return w

    def at(
        self,
        station: str,
        nxt: str | None,
        t_min: int = 0,
        deps: tuple = (),
        action: str = "Interact",
        dur: int = 0,
    ) -> tuple:
        """Go next to `station` and act there as early as allowed; return the event."""
        dec = self.dec
        here, now = self.tile, self.t
        if deps:
            dep = deps[0] if len(deps) == 1 else max(deps)
            dep_t = dep[0]
        else:
            dep, dep_t = None, 0
        ready = dep_t if dep_t > t_min else t_min  # max(t_min, dep_t), ties keep t_min
        # `pick`, its cached answer taken here without the call where the agent does not wait
        if ready > now and ready > now + dec.to_station[station][here]:
            tile = dec.pick(here, station, nxt, now, ready)
        else:
            tile = dec.sides.get((here, station, nxt))
            if tile is None:
                tile = dec.pick(here, station, nxt, now, ready)
        d = dec.dist[here][tile]
        if d >= INF:
            raise Infeasible  # this agent cannot reach the station
        arr = now + d
        t = ready if ready > arr else arr
        idx = self.idx
        late = False
        if dep is not None and dep_t == t:  # after `dep` at the same instant: settle the order
            t, s, seq, late = self._after(dep, t, arr, d)
        elif t > arr:
            s, seq = arr, 0
        elif d > 0:
            s, seq = arr - d, 0
        else:
            s, seq = self.s, self.seq + 1
        self.ops.append((t, tile, action, station, dur, late))
        self.moving += d
        self.tile = tile
        if dur:
            self.t, self.s, self.seq = t + dur, t, 0
            return (t + dur, t, idx, 0)
        self.t, self.s, self.seq = t, s, seq
        return (t, s, idx, seq)

    def _after(self, dep: tuple, t: int, arr: int, d: int) -> tuple[int, int, int, bool]:
        """(t, s, seq, late) of the first event strictly after `dep`, from t on (dep's time).
        An event at a later instant than dep's is after it whatever its other fields, so only
        the instant of dep needs this."""
        idx = self.idx
        while True:
            late = False
            if t > arr:
                s, seq = arr, 0
                if dep >= (t, s, idx, seq):
                    s, late = t - 1, True
            elif d > 0:
                s, seq = arr - d, 0
            else:
                s, seq = self.s, self.seq + 1
            if dep >= (t, s, idx, seq):
                t += 1
                continue
            return t, s, seq, late


class Infeasible(Exception):
    pass
