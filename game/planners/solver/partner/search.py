"""The search for the free agents' queues around fixed ones.

A node is a prefix of every free agent's queue. Its children add one macro action to the free
agent that is idle first: walk to a side of a station, maybe wait for an instant at which that
station changes (a fixed agent acts there, food finishes, a dirty plate comes back), then
Interact or Process. Every node is judged by running the whole plan, fixed queues as given, in
the engine: an error before the free agents' next decision (or in a free agent's own actions)
ends the branch, because nothing done later can undo it; a fixed queue that relies on its
partner makes the branches where the partner does not do it fail, so the search finds what the
partner must do. A run that serves every order is a plan, and its OCT is the engine's.

The order is a beam search, widened each round (anytime: the best plan so far is kept; every
round is the same sequence of runs whatever the machine, ended by a budget of runs). Half of each
beam is ranked "safe" (what the run kept of the fixed queues first), half "bold" (a fixed agent's
error weighed by how soon it comes); on a plateau it looks one step further. After each round
the best plan is made leaner (`polish`). Plans the schedule search made are tried as they are:
before the first round, of the free agents alone (a plan at once where the search would take
long, e.g. around a dish left half done); after the second, made without the constraint and
longer ones of the free agents alone (`seeded`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine import Action, Level
from game.engine.errors import ErrorDetail
from game.engine.kitchen import CHOP_TIME, WASH_TIME
from game.engine.level import COOKWARE_TIME, PAN_INGREDIENTS, POT_INGREDIENTS
from game.engine.rules import RuleSet
from game.engine.simulator import Simulation

from .fixed import FixedQueues
from .world import Probe, View, Work

Queues = dict[str, tuple[Action, ...]]
Seed = Callable[[], Generator[None, None, Queues]]
PROCESS_TIME = {"chopping_board": CHOP_TIME, "sink": WASH_TIME}
# ranking: a unit of work left (`world.STEPS`) weighs STEP units of time; a run that stopped at a
# fixed agent's error counts the fixed queue time it cut off (CUT per unit) plus STOPPED for the
# error itself, which the bold ranking scales down to nothing for an error SLACK or more ahead
STEP = 2
CUT = 1
STOPPED = 40
SLACK = 30
WIDTHS = (1, 3, 8, 20, 50, 120, 300)  # beam widths of the rounds, then the last again
MAX_DEPTH = 120  # macro actions of all free agents together
EMPTY_TABLES = 2  # empty tables tried as a place to put something down (the nearest)
LATER = 2  # later instants tried at a station, besides arriving
LOOK = 4  # nodes looked one step further from, on a plateau
SEED_ROUND = 1  # the round after which a seed is tried


@dataclass
class Node:
    queues: dict[str, tuple[Action, ...]]
    frontier: dict[str, float]  # when each free agent's last action ends
    pos: dict[str, tuple[int, int]]
    view: View | None = None  # the kitchen at the first free agent's frontier
    left: float = 0
    cut: float = 0.0  # fixed queue time the run did not reach (it stopped at an error first)
    slack: float = math.inf  # time from the next decision to that error
    parent: Node | None = None
    done: bool = False
    oct: float = 0.0
    error: ErrorDetail | None = None

    def next_agent(self) -> str:
        return min(self.frontier, key=lambda a: (self.frontier[a], list(self.frontier).index(a)))

    def score(self) -> tuple:
        """Safe ranking: first what the run kept of the fixed queues (a plan that breaks them
        is never preferred to one that does not), then time and work left."""
        t = min(self.frontier.values())
        return (self.cut, t + STEP * self.left, t, sum(len(q) for q in self.queues.values()))

    def bold(self) -> tuple:
        """Bold ranking: a fixed queue's error as a cost beside time and work left, so that what
        the fixed agent waits for may come later when something else is more urgent (food to
        put on to cook first, then the hand-over while it cooks)."""
        t = min(self.frontier.values())
        urgent = STOPPED * max(0.0, 1 - self.slack / SLACK) if self.cut else 0.0
        lost = self.cut - STOPPED if self.cut else 0.0
        return (t + STEP * self.left + CUT * lost + urgent, t, sum(len(q) for q in self.queues.values()))


class PartnerSearch:
    def __init__(self, level: Level, rules: RuleSet, fixed: FixedQueues, budget: int):
        self.level = level
        self.rules = rules
        self.fixed = fixed
        self.free = [a for a in level.agent_names if a not in fixed.raw]
        self.budget = budget
        self.used = 0
        self.best: Node | None = None
        self.polished: Node | None = None
        self.seed_tried = False
        self.floor = 0.0  # a lower bound: a plan this fast ends the search
        self.work = Work(level)
        self.last_fixed = max((fixed.end(a) for a in fixed.raw), default=0)
        self.sides = self._sides()
        self.events = {s: fixed.events_at(s) for s in self.sides}
        self.kind = {s: level.station_by_name[s].kind for s in self.sides}
        self.needed = {
            i.item for o in level.orders if o in level.recipe_book for i in level.recipe_book[o].ingredients
        }
        self.signatures = {level.recipe_book[o].signature() for o in level.orders if o in level.recipe_book}

    def _sides(self) -> dict[str, list[tuple[int, int]]]:
        """Floor tiles beside each station (of a known kind) that some free agent can reach."""
        level = self.level
        starts = [a.pos for a in level.agents if a.name in self.free]
        reach = set().union(*(level.distances(p) for p in starts)) if starts else set()
        out = {}
        for s in level.stations:
            if s.kind is None or s.name in out:
                continue
            tiles = [t for t in level.neighbours(s.pos) if t in reach]
            if tiles:
                out[s.name] = tiles
        return out

    # -- runs -----------------------------------------------------------------------------------
    def evaluate(self, queues: dict[str, tuple[Action, ...]], frontier: dict[str, float], pos) -> Node:
        self.used += 1
        plan = {**self.fixed.actions, **queues}
        at = min(frontier.values())
        sim = Probe(self.level, plan, self.rules, at)
        error = sim.run()
        node = Node(queues, frontier, pos, sim.seen, error=error)
        k = sim.kitchen
        node.done = error is None and not k.remaining
        node.oct = sim.now
        node.left = self.work.left(k, self.free, error.agent if error is not None else None)
        if error is not None:
            node.cut = STOPPED + sum(max(0.0, self.fixed.end(a) - error.time) for a in self.fixed.raw)
            node.slack = error.time - min(frontier.values())
        return node

    def dead(self, node: Node) -> bool:
        e = node.error
        if e is None:
            return node.view is None
        return e.agent in self.free or e.time < min(node.frontier.values()) or node.view is None

    # -- macros ---------------------------------------------------------------------------------
    def children(self, node: Node) -> Iterator[Node]:
        agent = node.next_agent()
        now = node.frontier[agent]
        view = node.view
        assert view is not None
        here = node.pos[agent]
        dist = self.level.distances(here)
        held = view.held.get(agent)
        empty_tables = 0
        last = node.queues[agent][-1] if node.queues[agent] else None
        undo_at = last.target if last is not None and last.name == "Interact" else None
        for name, tiles in sorted(self.sides.items(), key=lambda kv: min(dist.get(t, 10**9) for t in kv[1])):
            kind = self.kind[name]
            top = view.surfaces.get(name)
            later = [e for e in self.events[name] if e > now]
            acts = self.acts(kind, name, held, top, view, bool(later))
            if not acts:
                continue
            if undo_at == name and held is not None and top is None:
                continue  # putting back at once what was just taken: nothing gained
            if kind == "table" and held is not None and top is None and not later:
                empty_tables += 1  # a place to put something down: the nearest few
                if empty_tables > EMPTY_TABLES:
                    continue
            for tile in self.near_sides(dist, tiles):
                arrive = now + dist[tile]
                for act in acts:
                    for when in self.moments(name, kind, arrive, later, view, held):
                        macro = self.macro(here, tile, arrive, when, act, name, now)
                        end = when + (PROCESS_TIME.get(kind, 0) if act == "Process" else 0)
                        queues = {**node.queues, agent: node.queues[agent] + macro}
                        frontier = {**node.frontier, agent: end}
                        yield self.evaluate(queues, frontier, {**node.pos, agent: tile})

    def near_sides(self, dist: dict, tiles: list) -> list:
        """Sides not lying beyond another side (reached through it): acting from the nearer one
        has the same effect sooner."""
        ok = [t for t in tiles if t in dist]
        out = []
        for t in ok:
            beyond = any(
                u != t and dist[u] < dist[t] and self.level.distances(u).get(t, 10**9) + dist[u] == dist[t]
                for u in ok
            )
            if not beyond:
                out.append(t)
        return sorted(out, key=lambda t: (dist[t], t))[:2]

    def acts(self, kind: str, name: str, held: Any, top: Any, view: View, changes: bool) -> list[str]:
        """Actions worth trying at a station (the engine has the last word)."""
        if kind in ("table", "chopping_board", "dispenser"):
            return self._surface_acts(kind, name, held, top, view, changes)
        if kind == "stove":
            return _stove_acts(held, top, changes)
        if kind == "sink":
            took = (held is None and (_is_plate(top) or changes)) or (
                held == "dirty" and (top is None or changes)
            )
            return ["Interact"] * bool(took) + ["Process"] * (top == "dirty" or changes)
        if kind == "plate_return":
            return ["Interact"] if held is None and (view.dirty or view.pending) else []
        if kind == "serving_window":
            return ["Interact"] if _is_plate(held) and self._dish(held) in self.signatures else []
        if kind == "trash":
            extra = _is_ingredient(held) and held[0] not in self.needed
            unwanted = _is_plate(held) and held[1] and self._dish(held) not in self.signatures
            return ["Interact"] if extra or unwanted else []
        return []

    @staticmethod
    def _dish(plate: Any) -> tuple[str, ...]:
        return tuple(sorted(f"{n}:{s}" for n, s in plate[1]))

    def _surface_acts(
        self, kind: str, name: str, held: Any, top: Any, view: View, changes: bool
    ) -> list[str]:
        out = []
        if held is None:
            provides = self.level.station_by_name[name].provides if kind == "dispenser" else None
            if top is not None or changes or self.wanted(provides, view):
                out.append("Interact")
        elif (
            changes
            or (_combines(held, top) and self.plated_fits(held, top, view))
            or (top is None and kind != "dispenser")
        ):
            out.append("Interact")
        if kind == "chopping_board" and (changes or (_is_ingredient(top) and top[1] == "raw")):
            out.append("Process")
        return out

    def plated_fits(self, held: Any, top: Any, view: View) -> bool:
        """Whether food put onto a plate (or a plate onto food) leaves a plate some order left
        can still be served with: raw food on a plate whose orders want it chopped, say, spoils
        the plate for good (it and everything on it fit no order)."""
        if _is_plate(held) and _is_ingredient(top):
            plate, food = held, top
        elif _is_ingredient(held) and _is_plate(top):
            plate, food = top, held
        else:
            return True
        have = Counter((*plate[1], food))
        return any(
            all(Counter((n, s) for n, s, _ in needs)[k] >= c for k, c in have.items())
            for needs in self.work.needs[view.served :]
        )

    def wanted(self, item: str | None, view: View) -> bool:
        """Is one more of this ingredient needed: fewer exist than the orders left use?"""
        if item is None:
            return False
        need = sum(n == item for needs in self.work.needs[view.served :] for n, _, _ in needs)
        # a fixed agent done with its queue keeps what it holds for good
        hands = [c for a, c in view.held.items() if a in self.free or self.fixed.end(a) > view.time]
        have = sum(_count(code, item) for code in (*view.surfaces.values(), *hands))
        return have < need

    def moments(
        self, name: str, kind: str, arrive: float, later: list[float], view: View, held: Any
    ) -> list[float]:
        """Arriving, and the next instants at which the station changes by someone else; food
        is taken onto a plate only once it is cooked."""
        out = [arrive]
        extra = [e for e in later if e > arrive][:LATER]
        ready = view.ready.get(name)
        if kind == "stove" and ready is not None and ready > arrive:
            if _is_plate(held):
                out = []
            extra.append(ready)
        if kind == "plate_return":
            extra += [p for p in view.pending if p > arrive][:1]
        return out + sorted(set(extra))

    def macro(self, here, tile, arrive, when, act, name, now) -> tuple[Action, ...]:
        out: list[Action] = []
        if tile != here:
            out.append(Action("MoveTo", tile))
        wait = when - arrive
        wait = int(wait) if float(wait).is_integer() else wait
        if wait > 1:  # the last second alone: whoever arrives at that instant acts first
            out += [Action("Wait", duration=wait - 1), Action("Wait", duration=1)]
        elif wait > 0:
            out.append(Action("Wait", duration=wait))
        out.append(Action(act, name))
        return tuple(out)

    # -- the search -----------------------------------------------------------------------------
    def root(self) -> Node:
        queues = {a: () for a in self.free}
        frontier = {a: 0.0 for a in self.free}
        pos = {a.name: a.pos for a in self.level.agents if a.name in self.free}
        return self.evaluate(queues, frontier, pos)

    def consider(self, node: Node) -> bool:
        """Keep a plan that serves every order if it is the best so far."""
        if not node.done:
            return False
        if self.best is None or node.oct < self.best.oct:
            self.best = node
        return True

    def polish(self) -> Iterator[int]:
        """Make the best plan leaner: drop each free macro (walk, wait, act) and each Wait in
        turn, keeping a change whenever the engine still serves every order no later. Later
        walks name their tiles, so they still go to the same places; only timing moves, and the
        engine judges it."""
        while (
            self.best is not None
            and self.best is not self.polished
            and self.used < self.budget
            and not self.optimal()
        ):
            node = self.best
            self.polished = node
            for agent in self.free:
                queue = node.queues[agent]
                for cut in _cuts(queue):
                    trial = {**node.queues, agent: cut}
                    done, oct_ = self.run(trial)
                    yield self.used
                    if done and oct_ <= node.oct:
                        self.best = Node(trial, node.frontier, node.pos, done=True, oct=oct_)
                        break
                if self.best is not node or self.used >= self.budget:
                    break

    def run(self, queues: dict[str, tuple[Action, ...]]) -> tuple[bool, float]:
        self.used += 1
        sim = Simulation(self.level, {**self.fixed.actions, **queues}, self.rules, record=False)
        error = sim.run()
        return error is None and not sim.kitchen.remaining, sim.now

    def optimal(self) -> bool:
        return self.best is not None and self.best.oct <= self.floor

    def steps(
        self,
        seeds: Sequence[Seed] = (),
        hints: Sequence[Queues] = (),
        alone: Sequence[Seed] = (),
    ) -> Iterator[int]:
        """The search, yielding the runs used so far after each expansion. `hints` (the free
        agents' queues of an earlier plan, say the partner's before the person's last edit, then
        the same shifted in time as the edit shifted a fixed queue) are tried first, as they
        are; then, while no plan is in, each of `alone` in turn (plans of the free agents alone,
        made by the schedule search: agents never block each other, so such a plan serves
        around fixed queues that leave what it uses alone). After the second round (or at the
        end of the budget, if that comes first), each of `seeds` gives the free agents' queues
        of a plan made with a longer search (without the constraint, or of the free agents
        alone: it takes a while, so not before the first plans), tried the same way. A seed is
        a generator (it yields while it works, so that the search can be stopped meanwhile)
        returning the queues."""
        root = self.root()
        if self.consider(root) or self.dead(root):
            self.polished = self.best  # the free agents do nothing: nothing to drop
            yield self.used
            return
        for hint in hints:
            if self.best is not None:
                break
            yield from self.attempt(hint)
        for make in alone:
            if self.best is not None or self.used >= self.budget:
                break
            queues = yield from self.wait_for(make())
            yield from self.attempt(queues)
        yield from self.polish()
        round_ = 0
        while self.used < self.budget and not self.optimal():
            width = WIDTHS[min(round_, len(WIDTHS) - 1)]
            before = self.used
            yield from self.beam(root, width)
            if round_ == SEED_ROUND or self.used >= self.budget:
                yield from self.seeded(seeds)
            yield from self.polish()
            round_ += 1
            if round_ >= len(WIDTHS) and self.used == before:
                return

    def seeded(self, seeds: Sequence[Seed]) -> Iterator[int]:
        """Try the seeds, once."""
        if self.seed_tried:
            return
        self.seed_tried = True
        for seed in seeds:  # even at the end of the budget: a seed is a few runs
            if self.optimal():
                return
            queues = yield from self.wait_for(seed())
            yield from self.attempt(queues)

    def wait_for(self, seed: Generator[None, None, Queues]) -> Generator[int, None, Queues]:
        """A seed's queues, yielding the runs used so far while it works."""
        while True:
            try:
                next(seed)
            except StopIteration as done:
                return done.value
            yield self.used

    def attempt(self, queues: Queues) -> Iterator[int]:
        """One run with these queues for the free agents, kept when it serves every order."""
        if not queues:
            return
        trial = {a: tuple(queues.get(a, ())) for a in self.free}
        done, oct_ = self.run(trial)
        if done:
            self.consider(Node(trial, dict.fromkeys(self.free, oct_), {}, done=True, oct=oct_))
        yield self.used  # reported with the plan it found

    def beam(self, root: Node, width: int) -> Iterator[int]:
        layer = [root]
        seen: dict = {}
        for _ in range(MAX_DEPTH):
            pool: list[Node] = []
            for node in layer:
                pool += yield from self.expand(node)
                if self.used >= self.budget or self.optimal():
                    return
            if pool and not any(c.parent and (c.cut, c.left) < (c.parent.cut, c.parent.left) for c in pool):
                # a plateau: no step gains anything (a hand to free first, say); look one
                # step further from the most promising few, and keep their children
                deeper: list[Node] = []
                for node in sorted(pool, key=Node.score)[: max(LOOK, width)]:
                    deeper += yield from self.expand(node)
                    if self.used >= self.budget or self.optimal():
                        return
                pool = deeper or pool
            # half the beam by each ranking (all of it by the safe one when it is one node)
            layer = self.best_of(sorted(pool, key=Node.score), max(1, width - width // 2), seen)
            layer += self.best_of(sorted(pool, key=Node.bold), width // 2, seen)
            if not layer:
                return

    def expand(self, node: Node) -> Generator[int, None, list[Node]]:
        """The node's children worth keeping (plans are kept as they are found)."""
        out = []
        for child in self.children(node):
            child.parent = node
            if self.consider(child) or self.dead(child):
                continue
            if self.best is not None and min(child.frontier.values()) >= self.best.oct:
                continue
            out.append(child)
        yield self.used
        return out

    @staticmethod
    def best_of(ranked: list[Node], count: int, seen: dict) -> list[Node]:
        """The first `count` nodes whose kitchen no node before had as early (nor a better one
        of this layer): a kitchen reached again later is where an earlier node already stood."""
        out: list[Node] = []
        for child in ranked:
            if len(out) >= count:
                break
            key = (tuple(sorted(child.pos.items())), child.view.key())
            t = tuple(sorted(child.frontier.values()))
            if key not in seen or t < seen[key]:
                seen[key] = t
                out.append(child)
        return out


def _stove_acts(held: Any, top: Any, changes: bool) -> list[str]:
    if held is None:
        return ["Interact"] if top is not None or changes else []
    if top is None:
        return ["Interact"] if _is_cookware(held) or changes else []
    if _is_ingredient(held) and _is_cookware(top):
        return ["Interact"] if _cookware_takes(top[0], held) else []
    if _is_plate(held) and _is_cookware(top):
        return ["Interact"]
    return ["Interact"] if changes else []


def _is_ingredient(c: Any) -> bool:
    return isinstance(c, tuple) and len(c) == 2 and isinstance(c[1], str)


def _count(code: Any, item: str) -> int:
    if _is_ingredient(code):
        return int(code[0] == item)
    if _is_container(code):
        return sum(n == item for n, _ in code[1])
    return 0


def _is_container(c: Any) -> bool:
    return isinstance(c, tuple) and len(c) == 2 and isinstance(c[1], tuple)


def _is_plate(c: Any) -> bool:
    return _is_container(c) and c[0] == "plate"


def _is_cookware(c: Any) -> bool:
    return _is_container(c) and c[0] in COOKWARE_TIME


def _cookware_takes(kind: str, ing: tuple[str, str]) -> bool:
    if kind == "pan":
        return ing[1] == "chopped" and ing[0] in PAN_INGREDIENTS
    return ing[1] == "raw" and ing[0] in POT_INGREDIENTS


def _combines(held: Any, top: Any) -> bool:
    if _is_container(held) and _is_ingredient(top):
        return not _is_cookware(held) or _cookware_takes(held[0], top)
    if _is_ingredient(held) and _is_container(top):
        return not _is_cookware(top) or _cookware_takes(top[0], held)
    if _is_container(held) and _is_container(top):
        return held[0] == "plate" or top[0] == "plate"
    return False


def _cuts(queue: tuple[Action, ...]) -> Iterator[tuple[Action, ...]]:
    """The queue without one of its macros (a run of walks and waits ending at a station
    action), from the last, then without two in a row, then without one of its Waits."""
    ends = [i for i, a in enumerate(queue) if a.name in ("Interact", "Process")]
    starts = [0] + [i + 1 for i in ends[:-1]]
    spans = list(zip(starts, ends, strict=True))
    for start, end in reversed(spans):
        yield queue[:start] + queue[end + 1 :]
    for (start, _), (_, end) in reversed(list(zip(spans, spans[1:], strict=False))):
        yield queue[:start] + queue[end + 1 :]  # two in a row (a take and a put back)
    for i in reversed(range(len(queue))):
        if queue[i].name == "Wait":
            yield queue[:i] + queue[i + 1 :]
