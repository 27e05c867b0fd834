"""Search over genomes: priority-rule starts, then iterated local search.

Everything random comes from one generator seeded by the level and rule set, and the search runs
in rounds of a fixed number of decodes whatever the budget: a larger budget only runs more of the
same sequence, so it finds everything a smaller one finds (the planner is anytime), and the same
level, seed and budget always give the same plan. The budget is in units of the decoder's `work`
(ways of doing a task weighed), which follows a decode's real cost far more closely than a count
of decodes: a decode on a large team kitchen weighs ten times the ways a small one does."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..model import INF, KitchenModel
from .decoder import Decoder
from .tasks import (
    BRING,
    CARRY,
    DELIVER,
    DIRECT,
    FILL,
    HAND,
    HOLD,
    MOVE,
    PARK,
    PASS,
    PREP,
    RELAY,
    SCOOP,
    SELF,
    SERVE,
    STAGE,
    STAY,
    WASH,
    Genome,
    Task,
    bring_key,
    fill_key,
    hand_key,
    move_key,
    serve_key,
    wash_key,
)
from .timing import Schedule

BIG = (INF, 0, 0)  # worse than any schedule
ROUND = 1500  # decodes per local-search round: fixed, so that longer runs extend shorter ones
FRESH_ROUNDS = 4  # rounds that start from the best priority rules; later ones kick the best
YIELD_EVERY = 200  # decodes between two progress reports
KIND_RANK = {"pan": 0, "pot": 1, "chop": 2, "raw": 3}
FLIP = {
    DELIVER: STAGE,
    STAGE: DELIVER,
    PARK: HOLD,
    HOLD: PARK,
    DIRECT: RELAY,
    RELAY: DIRECT,
    STAY: MOVE,
    MOVE: STAY,
    SCOOP: BRING,
    BRING: SCOOP,
    SERVE: PASS,
    PASS: SERVE,
    CARRY: FILL,
    FILL: CARRY,
    SELF: HAND,
    HAND: SELF,
}


@dataclass
class Found:
    genome: Genome
    schedule: Schedule

    @property
    def cost(self) -> tuple[int, int, int]:
        return self.schedule.cost


def sub_rank(t: Task) -> float:
    """Order within a dish: cooking first, then chopping, raw items, the wash, the assembly."""
    if t.kind in (PREP, RELAY):
        return KIND_RANK[t.need.kind] + (0.5 if t.kind == RELAY else 0)
    return {MOVE: -1, WASH: 5, BRING: 5.5}.get(t.kind, 6)


def level_seed(model: KitchenModel) -> int:
    text = json.dumps([model.level.to_dict(), model.rules], sort_keys=True, default=str)
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


class Search:
    def __init__(
        self,
        model: KitchenModel,
        tasks: list[Task],
        budget: int,
        seed: int,
        lower_bound: int = 0,
    ):
        self.model = model
        self.tasks = tasks
        self.decoder = Decoder(model, tasks)
        self.budget = budget
        self.rng = random.Random(seed)
        self.lower_bound = lower_bound
        self.used = 0
        self.pool: dict[tuple, Found] = {}  # best distinct schedules, by plan signature
        self.best_cost = BIG
        self.improved: list[Found] = []  # every schedule better than all before it, in order
        self.cooks = any(need.kind in ("pan", "pot") for need in model.needs)

    # -- evaluating ----------------------------------------------------------------------
    @property
    def work(self) -> int:
        """Units of work so far (`Decoder.best_way`), what `budget` is set in."""
        return self.decoder.work

    def exhausted(self) -> bool:
        return self.decoder.work >= self.budget

    def evaluate(self, g: Genome) -> tuple[tuple[int, int, int], Schedule | None]:
        self.used += 1
        s = self.decoder.decode(g)
        if s is None:
            return BIG, None
        if s.cost < self.best_cost:
            self.best_cost = s.cost
            self.improved.append(Found(g.copy(), s))
        key = tuple(tuple((op.t, op.tile, op.station) for op in ops) for ops in s.ops)
        if key not in self.pool:
            self.pool[key] = Found(g.copy(), s)
            if len(self.pool) > 64:
                worst = max(self.pool, key=lambda k: self.pool[k].cost)
                del self.pool[worst]
        return s.cost, s

    def best(self, n: int) -> list[Found]:
        return sorted(self.pool.values(), key=lambda f: f.cost)[:n]

    def optimal(self, cost: tuple[int, int, int]) -> bool:
        return cost[0] <= self.lower_bound

    # -- starting points -------------------------------------------------------------------
    def start_genomes(self) -> list[Genome]:
        m = self.model
        n = len(self.tasks)
        plates = list(range(len(m.plates)))
        near = sorted(plates, key=lambda p: m.geo.station_distance(m.plates[p], m.windows[0]))
        out = []
        for rule in (self.rule_dish, self.rule_cook_first, self.rule_by_kind):
            for methods in self.method_sets():
                for plate_order in (plates, near):
                    out.append(Genome(rule(), dict(methods), [None] * n, list(plate_order)))
        if self.cooks:  # the same starts choosing cookware by when its food is ready
            for g in list(out):
                by_ready = g.copy()
                by_ready.to_window = False
                out.append(by_ready)
        return out

    def method_sets(self) -> list[dict[int, str]]:
        m = self.model
        washed = [d for d in range(m.dishes) if d >= len(m.plates)]
        combos = [
            (DELIVER, DELIVER, PARK, DIRECT),
            (STAGE, STAGE, PARK, DIRECT),
            (STAGE, DELIVER, PARK, DIRECT),
            (DELIVER, STAGE, PARK, DIRECT),
            (STAGE, STAGE, HOLD, DIRECT),
        ]
        if m.flexible:  # hand-overs: cooked ingredients passed on over a table, pans brought
            combos += [(STAGE, STAGE, PARK, RELAY), (DELIVER, DELIVER, PARK, RELAY)]
        sets = []
        for n, (raw, chop, wash, cook) in enumerate(combos * (2 if m.flexible else 1)):
            methods = {}
            if m.flexible:
                for d in range(m.dishes):
                    methods[move_key(d)] = MOVE if n >= len(combos) else STAY
                    methods[bring_key(d)] = BRING if n >= len(combos) else SCOOP
            for need in m.needs:
                if need.kind in ("raw", "chop"):
                    methods[need.id] = raw if need.kind == "raw" else chop
                elif m.flexible:
                    methods[need.id] = cook
            for d in washed:
                methods[wash_key(d)] = wash
            sets.append(methods)
        if len(m.agent_names) > 1 and m.tables:  # plates handed over to be served, where sooner
            keys = range(m.dishes)
            sets = [s | dict.fromkeys(map(serve_key, keys), w) for w in (SERVE, PASS) for s in sets]
        pans = [fill_key(n.id) for n in m.needs if n.kind == "pan"]
        # pans brought to the chopped food and filled there: they cook on the way back only
        # where cooking counts off the stove (`paracook`)
        if len(m.agent_names) > 1 and pans and m.cumulative:
            sets = [s | dict.fromkeys(pans, w) for w in (CARRY, FILL) for s in sets]
        # pots taken to the food and filled there, by the agent that fetches it (`paracook`):
        # every other start, so that the starts do not double again (moves flip it per pot)
        pots = [fill_key(n.id) for n in m.needs if n.kind == "pot"]
        if pots and m.cumulative:
            sets = [s | dict.fromkeys(pots, (CARRY, FILL)[n % 2]) for n, s in enumerate(sets)]
        if len(m.agent_names) > 1 and m.tables:  # raw food handed over on a table to be
            # chopped: from the start only where no agent reaches both a dispenser and a board
            hands = {
                hand_key(n.id): HAND if self.shut_off(n) else SELF
                for n in m.needs
                if n.kind in ("chop", "pan")
            }
            sets = [s | hands for s in sets]
        return sets

    def shut_off(self, need) -> bool:
        """Whether no agent can both fetch this ingredient and reach a board."""
        dec = self.decoder
        return not any(
            any(dec.reaches(a, d) for d in need.dispensers)
            and any(dec.reaches(a, b) for b in self.model.boards)
            for a in range(len(self.model.agent_names))
        )

    def rule_dish(self) -> list[float]:
        def key(t: Task) -> float:
            return t.dish * 10 + sub_rank(t)

        return [key(t) for t in self.tasks]

    def rule_cook_first(self) -> list[float]:
        def key(t: Task) -> float:
            if t.kind in (PREP, RELAY) and t.need.kind in ("pan", "pot"):
                return t.dish + (0.5 if t.kind == RELAY else 0)
            return 100 + t.dish * 10 + sub_rank(t)

        return [key(t) for t in self.tasks]

    def rule_by_kind(self) -> list[float]:
        def key(t: Task) -> float:
            if t.kind in (PREP, RELAY):
                return KIND_RANK[t.need.kind] * 100 + t.dish + (0.5 if t.kind == RELAY else 0)
            if t.kind == MOVE:
                return -1 + t.dish / 100
            return 1000 + t.dish * 10 + {WASH: 0, BRING: 0.5}.get(t.kind, 1)

        return [key(t) for t in self.tasks]

    # -- moves -----------------------------------------------------------------------------
    def mutate(self, g: Genome, strength: int = 1) -> Genome:
        g = g.copy()
        for _ in range(strength):
            self.rng.choice(self.moves())(g)
        return g

    def moves(self) -> list[Callable[[Genome], None]]:
        moves = [self.move_task, self.move_task, self.swap_tasks, self.flip_method, self.set_agent]
        if len(self.model.plates) > 1:
            moves.append(self.swap_plates)
        if self.cooks:
            moves.append(self.flip_window)
        return moves

    def flip_window(self, g: Genome) -> None:
        g.to_window = not g.to_window

    def move_task(self, g: Genome) -> None:
        order = sorted(range(len(g.keys)), key=g.keys.__getitem__)
        i = self.rng.randrange(len(order))
        task = order.pop(i)
        order.insert(self.rng.randrange(len(order) + 1), task)
        for rank, t in enumerate(order):
            g.keys[t] = float(rank)

    def swap_tasks(self, g: Genome) -> None:
        a, b = self.rng.randrange(len(g.keys)), self.rng.randrange(len(g.keys))
        g.keys[a], g.keys[b] = g.keys[b], g.keys[a]

    def flip_method(self, g: Genome) -> None:
        if not g.method:
            return
        k = self.rng.choice(sorted(g.method))
        g.method[k] = FLIP[g.method[k]]

    def set_agent(self, g: Genome) -> None:
        t = self.rng.randrange(len(g.agent))
        n = len(self.model.agent_names)
        choice = self.rng.randrange(n + 1)
        g.agent[t] = None if choice == n else choice

    def swap_plates(self, g: Genome) -> None:
        i, j = self.rng.sample(range(len(g.plates)), 2)
        g.plates[i], g.plates[j] = g.plates[j], g.plates[i]

    # -- the search ------------------------------------------------------------------------
    def run(self) -> list[Found]:
        for _ in self.steps():
            pass
        return self.best(8)

    def steps(self) -> Iterator[int]:
        """Run the search, yielding the number of decodes so far every so often (and after each
        improvement), so that a caller can report progress, verify new bests, or stop."""
        starts = []
        for g in self.start_genomes():
            cost, _ = self.evaluate(g)
            starts.append((cost, g))
            if self.optimal(cost):
                yield self.used
                return
        yield self.used
        starts.sort(key=lambda s: s[0])
        feasible = [s for s in starts if s[0] != BIG] or starts
        fresh = min(len(feasible), FRESH_ROUNDS)
        r = 0
        while not self.exhausted():
            if r < fresh:
                cost, g = feasible[r]
            else:  # restart from the best found so far, kicked
                best = self.best(1)
                base = best[0].genome if best else feasible[r % len(feasible)][1]
                g = self.mutate(base, 3)
                cost, _ = self.evaluate(g)
            yield from self.local_search(g, cost, self.used + ROUND)
            if self.pool and self.optimal(self.best(1)[0].cost):
                return
            r += 1

    def local_search(self, g: Genome, cost: tuple, until: int) -> Iterator[int]:
        best_g, best_cost = g, cost
        cur_g, cur_cost = g, cost
        stall = 0
        while self.used < until and not self.exhausted():
            if self.used % YIELD_EVERY == 0:
                yield self.used
            strength = 1 if stall < 200 else self.rng.randint(2, 4)
            cand = self.mutate(cur_g, strength)
            before = len(self.improved)
            c, _ = self.evaluate(cand)
            if len(self.improved) > before:
                yield self.used
            if c <= cur_cost:
                if c < cur_cost:
                    stall = 0
                cur_g, cur_cost = cand, c
            else:
                stall += 1
            if c < best_cost:
                best_g, best_cost = cand, c
                if self.optimal(c):
                    return
            if stall > 600:  # restart from the best with a kick
                cur_g, cur_cost = self.mutate(best_g, 3), BIG
                cur_cost, _ = self.evaluate(cur_g)
                stall = 0
