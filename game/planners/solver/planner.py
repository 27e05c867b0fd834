"""The built-in planner: search schedules, ground the best into actions, let the engine judge."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine import Level, Result, get_rules, parse_plan, simulate
from game.machine import cores
from game.words import plural

from .bound import Bound, lower_bound
from .exact import Outcome, Unsupported, check_supported, proven_below
from .exact import Search as ExactSearch
from .model import INF, KitchenModel, Unsolvable
from .partner import Partner
from .schedule import Found, Search, build_tasks, ground, level_seed

DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = 86_400.0  # a day: a longer limit is a typing mistake (and would overflow the budget)
# seconds one unit of the schedule search's work takes (`Decoder.best_way`: one way of doing a
# task weighed), fitted on 36 suite levels of every size, from one agent and one order to three
# agents and four orders, on a 2-core machine (the real cost is within 0.66-1.28 x the fit on
# nine levels in ten: `benchmarks/search_cost_bench.py`), with room to spare for a busy machine
WORK_S = 30e-6
WORK_SPARE = 1.25
# the limit is the whole run's: the bound's estimated cost (`Bound.cost`) comes off it first, the
# searches get this share of the rest, and the remainder is for turning schedules into actions,
# running them in the engine, and a margin
BUDGET_SHARE = 0.8
MIN_BUDGET, MAX_BUDGET = 1_000, 500_000_000
VERIFY = 8  # distinct best schedules run through the engine when no improvement passed it
# The budget, never the clock, ends a search, so that its plan does not depend on the machine's
# load: the limit only sets the budget. On a busy machine a search takes longer than its limit
# (a caller that must stop sooner stops it through `progress`, keeping the best plan so far).
# on a one-agent, one-order level the exact search (`exact`) gets this share of the searches', in
# units of its work (`exact.Search.max_work`: successors weighed and engine steps run) at this
# many seconds each: fitted on the suite's 30 such levels on a 2-core machine (by states
# expanded, the same fit was 0.5-2.2 x out by level; by work, 0.7-1.5 x), with room for two
# searches at once. There it often proves the optimum, or finds a faster plan, within seconds, and
# when it does not, the floor it reached raises the bound. The schedule search needs little of
# the limit there (on the 30 such suite levels a fifth of it gives the same plans as a half)
EXACT_SHARE = 0.8
EXACT_WORK_S = 50e-6
# of that work, this share goes first to a weighted, anytime search for faster plans (on the
# suite's one-agent, one-order levels it finds some the schedule search misses); the plain search
# that proves floors keeps the rest
WEIGHTED_SHARE = 0.25
WEIGHT = 2.0


@dataclass
class Solution:
    """What `solve` returns: the plan, the engine's result for it, and the lower bound."""

    level: Level
    rules: str
    plan: dict[str, list[dict[str, Any]]]
    result: Result
    bound: Bound
    evaluations: int = 0
    seconds: float = 0.0
    note: str = ""
    predicted: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.result.done

    @property
    def oct(self) -> float:
        return self.result.time

    @property
    def gap(self) -> float | None:
        """OCT over the lower bound, minus one (0.1 = 10% above the bound)."""
        if not self.done or not self.bound.finite or self.bound.value <= 0:
            return None
        return self.result.time / self.bound.value - 1

    def summary(self) -> dict[str, Any]:
        return {
            "oct": self.oct if self.done else None,
            "lower_bound": self.bound.value if self.bound.finite else None,
            "gap": None if self.gap is None else round(self.gap, 4),
            "evaluations": self.evaluations,
            "seconds": round(self.seconds, 3),
            "bound_terms": dict(self.bound.terms),
            "note": self.note,
            **self.run_fields(),
        }

    def run_fields(self) -> dict[str, Any]:
        """`fixed_agents` and `fixed` (their queues as given) of a plan made around fixed queues,
        the names `llm --fix` results use, so that reports label the run; and `searches` of a
        plan from more than one search (`jobs`), which decides the plan as the limit does."""
        fixed = self.extra.get("fixed")
        searches = {"searches": self.extra["searches"]} if "searches" in self.extra else {}
        return searches | ({"fixed_agents": list(fixed), "fixed": fixed} if fixed else {})


@dataclass(frozen=True)
class Progress:
    """One report of a running planner: decodes so far, the best OCT the engine has confirmed
    (None before the first), the lower bound, and the gap between them."""

    evaluations: int
    budget: int  # the search's, in units of `work` (or of `evaluations` where `work` is None)
    best_oct: float | None
    bound: int | None
    seconds: float
    done: bool = False
    exact_work: int = 0  # units of the exact search's work done, of `exact_budget`
    exact_budget: int = 0
    work: int | None = None  # units of the schedule search's work done (`Decoder.best_way`)
    states: int = 0  # states the exact search has expanded

    @property
    def gap(self) -> float | None:
        if self.best_oct is None or not self.bound:
            return None
        return self.best_oct / self.bound - 1

    @property
    def fraction(self) -> float:
        work = (self.evaluations if self.work is None else self.work) + self.exact_work
        return 1.0 if self.done else min(1.0, work / max(1, self.budget + self.exact_budget))

    def describe(self) -> str:
        best = "none yet" if self.best_oct is None else f"{self.best_oct:g}"
        gap = "" if self.gap is None else f", gap {self.gap:.1%}"
        states = f", {plural(self.states, 'exact-search state')}" if self.states else ""
        searched = plural(self.evaluations, "schedule")
        bound = "not known yet" if self.bound is None else self.bound
        return f"best OCT {best}, bound {bound}{gap} ({searched}{states}, {self.seconds:.1f} s)"


def exact_applies(level: Level) -> bool:
    """Whether the planner runs the exact search here: on one-agent, one-order levels it handles."""
    try:
        check_supported(level)
    except Unsupported:
        return False
    return len(level.orders) == 1


def exact_budget(level: Level, time_limit: float) -> int:
    """Units of work for the exact search within the searches' limit (none where it does not
    apply)."""
    if not exact_applies(level):
        return 0
    return max(1, int(BUDGET_SHARE * EXACT_SHARE * time_limit / EXACT_WORK_S))


def budget_for(time_limit: float) -> int:
    """The schedule search's budget for a time limit, in units of its work (`WORK_S`)."""
    n = int(time_limit * BUDGET_SHARE / (WORK_S * WORK_SPARE))
    return max(MIN_BUDGET, min(MAX_BUDGET, n))


class Planner:
    """One planning run, step by step: iterate `steps()` for progress (stop early to cancel),
    then `solution()` gives the best engine-verified plan found so far.

        run = Planner(level, time_limit=10)
        for p in run.steps():
            print(p.describe())
        sol = run.solution()

    The search is the same sequence of schedules whatever the limit (the limit sets how far it
    goes), and every schedule better than all before it is run by the engine at once, so a
    longer limit never returns a worse plan. With `jobs` > 1, that many searches with different
    seeds run in parallel processes and the best plan wins (ties: the lowest seed).

    `fixed` ({agent: queue in the plan JSON format}) keeps those agents' queues exactly as given
    and plans the others around them (`partner`); the bound is for the same constraint. Bad fixed
    input raises ValueError naming the agent and action; fixed queues that rule every plan out
    raise Unsolvable (here when no search is needed to prove it, else from `solve` once the search
    found nothing). `hint`, a plan (say the partner's before the person's last edit), has its free
    agents' queues tried first, as they are."""

    def __init__(
        self,
        level: Level,
        rules: str | None = None,
        time_limit: float = DEFAULT_TIME_LIMIT,
        record: bool = False,
        jobs: int = 1,
        seed_offset: int = 0,
        bound: Bound | None = None,
        routes: bool | None = None,
        exact: bool = True,
        fixed: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
        hint: Mapping[str, Any] | None = None,
    ):
        self.level = level
        self.rules = get_rules(rules or level.rules).name
        self.time_limit = time_limit
        self.record = record
        self.jobs = max(1, jobs)
        self.seed_offset = seed_offset
        self.start = time.monotonic()
        exact_here = exact and not fixed and exact_applies(level)
        if routes is None and exact_here:
            # where the exact search runs, the floor it reaches takes the place of the routes
            # relaxation, a CP-SAT solve of seconds (on the suite's 30 such levels, at a 10 s
            # limit, its floor or another term always matched or beat the routes term)
            routes = False
        self.routes = routes
        if fixed:  # worked out once the first plan is in (`_partner_steps`), so that it comes soon
            self.bound = bound if bound is not None else Bound(0, {})
        else:
            self.bound = bound if bound is not None else lower_bound(level, self.rules, routes)
        # the bound's cost, as estimated from its solvers' counts of work (the same on every
        # machine), comes off the limit first (a bound handed in was paid for by the caller)
        paid = 0.0 if fixed or bound is not None else self.bound.cost
        self.search_limit = max(0.0, time_limit - paid)
        self.exact_budget = exact_budget(level, self.search_limit) if exact_here else 0
        self.best: tuple | None = None  # (time, cost, plan, predicted)
        self.used = 0
        self.work: int | None = None  # the schedule search's units of work, once it runs
        self.budget = 0
        self.note = ""
        self.states = 0  # expanded by the exact search
        self.exact_work = 0
        self.proof: Outcome | None = None  # how the exact search ended
        self.partner = None
        if fixed:
            self.partner = Partner(level, self.rules, fixed, time_limit, hint)
            self.bound = self.partner.bound_for(self.bound, alone=False)  # the rest comes later

    def progress(self, done: bool = False) -> Progress:
        return Progress(
            self.used,
            self.budget,
            None if self.best is None else self.best[0],
            self.bound.value if self.bound.finite else None,
            time.monotonic() - self.start,
            done,
            self.exact_work,
            self.exact_budget,
            self.work,
            self.states,
        )

    def steps(self) -> Iterator[Progress]:
        if self.partner is not None:
            yield from self._partner_steps()
            return
        try:
            model = KitchenModel(self.level, self.rules)
        except Unsolvable as e:
            self.note = f"unsolvable: {e}"
            yield self.progress(done=True)
            return
        tasks = build_tasks(model)
        share = 1 - EXACT_SHARE if self.exact_budget else 1
        self.budget = budget_for(self.search_limit * share)
        if self.jobs > 1:
            yield from self._parallel(self.search_limit * share)
        else:
            search = Search(
                model,
                tasks,
                self.budget,
                level_seed(model) + self.seed_offset,
                self.bound.value,
            )
            yield from self._search(model, search)
        if self.exact_budget:
            yield from self._exact()
        yield self.progress(done=True)

    def _partner_steps(self) -> Iterator[Progress]:
        """The search around fixed queues; the unconstrained bound (seconds on a level seen for
        the first time, then kept) is worked out after the first plan is reported."""
        partner = self.partner
        self.budget = partner.budget
        free_bound = None
        for used in partner.steps(self._schedule_plan):
            self.used = used
            found = partner.best()
            if found is not None and (self.best is None or found[0] < self.best[0]):
                self.best = (found[0], (found[0],), found[1], None)
                yield self.progress()
            if self.best is not None and free_bound is None:
                free_bound = self._partner_bound()
            yield self.progress()
        self.used = partner.used
        found = partner.best()  # an improvement found after the last report counts too
        if partner.search is None and found is not None:  # every agent fixed: the plan as given
            result = simulate(self.level, found[1], self.rules, record=False)
            self.best = (result.time, (result.time,), found[1], None)
        elif found is not None and (self.best is None or found[0] < self.best[0]):
            self.best = (found[0], (found[0],), found[1], None)
        if free_bound is None:
            self._partner_bound()
        if self.best is None:
            partner.explain()
        self.note = partner.note
        yield self.progress(done=True)

    def _schedule_plan(self, level: Level, time_limit: float) -> Generator[None, None, dict[str, Any]]:
        """The schedule search's plan of a level ({} for none), yielding as it goes: plans made
        without the constraint, or of the free agents alone, seed the search around fixed
        queues (`partner`)."""
        run = Planner(level, self.rules, time_limit, bound=Bound(0, {}), exact=False)
        for _ in run.steps():
            yield
        return {} if run.best is None else run.best[2]

    def _partner_bound(self) -> Bound:
        free = lower_bound(self.level, self.rules, self.routes)
        self.bound = self.partner.bound_for(free)
        return free

    def _exact(self) -> Iterator[Progress]:
        """The exact search for a plan faster than the best so far: weighted first, for plans,
        then plain, for the floor; it raises the bound to what it proves, even when stopped
        early."""
        quick = int(self.exact_budget * WEIGHTED_SHARE)
        first = yield from self._exact_pass(quick, WEIGHT)
        if first.status not in ("optimal", "unsolvable"):  # not every state below the best searched
            yield from self._exact_pass(self.exact_budget - quick)

    def _exact_pass(self, work: int, weight: float = 1.0):
        """One exact search for a plan faster than the best so far, on this much work, reporting
        progress; what it finds and proves is kept even when it is stopped early: its outcome."""
        below = INF if self.best is None else self.best[0]
        rules = get_rules(self.rules)
        search = ExactSearch(self.level, rules, MAX_BUDGET, None, below, weight, max(1, work))
        states, done = self.states, self.exact_work
        try:
            for expanded in search.steps():
                self.states, self.exact_work = states + expanded, done + search.work
                yield self.progress()
        except AssertionError as e:  # its plan did not replay: keep the best so far, say so
            search.outcome = Outcome("budget", states=self.states - states, reason=str(e))
            self.note = f"the exact search failed ({e}); the best plan before it"
        finally:
            self.states, self.exact_work = states + search.outcome.states, done + search.work
            self._proven(search.outcome, below)
        return search.outcome

    def _proven(self, outcome: Outcome, below: float) -> None:
        if self.best is not None:
            outcome = proven_below(outcome, below, self.best[2], self.rules)
        found = outcome.exact
        if outcome.status in ("optimal", "found") and found is not None and found.oct < below:
            self.best = (found.oct, (found.oct,), found.plan, None)
            self.note = "the exact search's plan"
        floor = math.ceil(outcome.lower - 1e-9) if outcome.lower else 0
        if floor > self.bound.value and self.bound.finite:
            self.bound = Bound(floor, {**self.bound.terms, "exact": floor})
        self.proof = outcome

    def _search(self, model: KitchenModel, search: Search) -> Iterator[Progress]:
        checked = 0
        for used in search.steps():
            self.used, self.work = used, search.work
            for f in search.improved[checked:]:
                self._verify(model, f)
            checked = len(search.improved)
            yield self.progress()
        self.used, self.work = search.used, search.work
        if self.best is None:  # no improvement passed the engine: try the best few left
            for f in search.best(VERIFY):
                self._verify(model, f)
            if self.best is None:
                self.note = "no schedule passed the engine" if search.pool else "no schedule found"

    def _verify(self, model: KitchenModel, f: Found) -> None:
        if self.best is not None and f.schedule.makespan >= self.best[0] and f.cost >= self.best[1]:
            return
        plan = ground(model.geo, f.schedule.ops, model.agent_names)
        result = simulate(self.level, parse_plan(plan, self.level.agent_names), self.rules, record=False)
        if result.done and (self.best is None or (result.time, f.cost) < self.best[:2]):
            self.best = (result.time, f.cost, plan, f.schedule.makespan)

    def _parallel(self, time_limit: float) -> Iterator[Progress]:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        data = self.level.to_dict()
        args = [(data, self.rules, time_limit, self.seed_offset + k, self.bound) for k in range(self.jobs)]
        outcomes: dict[int, tuple] = {}
        # the searches, not the processes, decide the plan: more searches than cores queue up
        with ProcessPoolExecutor(max_workers=min(self.jobs, cores())) as pool:
            futures = {pool.submit(_one_search, *a): k for k, a in enumerate(args)}
            for fut in as_completed(futures):
                outcomes[futures[fut]] = fut.result()
                self.used = sum(o[0] for o in outcomes.values())
                self.work = sum(o[3] for o in outcomes.values())
                self._merge(outcomes)
                yield self.progress()
        self.budget = self.budget * self.jobs

    def _merge(self, outcomes: dict[int, tuple]) -> None:
        best = None
        for k in sorted(outcomes):
            got = outcomes[k][1]
            if got is not None and (best is None or got[:2] < best[:2]):
                best = got
        self.best = best
        if best is None:
            self.note = next((o[2] for o in outcomes.values() if o[2]), "no schedule found")

    def solution(self) -> Solution:
        level, rules = self.level, self.rules
        if self.best is None:
            empty = {name: [] for name in level.agent_names}
            if self.partner is not None:
                empty = self.partner.plan({})
            result = simulate(level, parse_plan(empty, level.agent_names), rules, record=self.record)
            note = self.note or "stopped before a plan was found"
            return Solution(level, rules, empty, result, self.bound, self.used, self._seconds(), note)
        _, _, plan, predicted = self.best
        result = simulate(level, parse_plan(plan, level.agent_names), rules, record=self.record)
        return Solution(
            level,
            rules,
            plan,
            result,
            self.bound,
            self.used,
            self._seconds(),
            self.note,
            predicted,
            self._extra(),
        )

    def _extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"searches": self.jobs} if self.jobs > 1 else {}
        if self.proof:
            return extra | {"exact": self.proof}
        if self.partner is not None:  # what was fixed goes with every number made under it
            return extra | {"partner": True, "fixed": {a: list(q) for a, q in self.partner.raw.items()}}
        return extra

    def _seconds(self) -> float:
        return time.monotonic() - self.start


def _one_search(level_data: dict, rules: str, time_limit: float, seed_offset: int, bound: Bound) -> tuple:
    """One search of a parallel run, in a worker process: (decodes, best, note, work)."""
    level = Level.from_dict(level_data)
    run = Planner(level, rules, time_limit, seed_offset=seed_offset, bound=bound, exact=False)
    for _ in run.steps():
        pass
    return run.used, run.best, run.note, run.work or 0


def solve(
    level: Level,
    rules: str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    record: bool = False,
    jobs: int = 1,
    progress: Callable[[Progress], bool | None] | None = None,
    routes: bool | None = None,
    exact: bool = True,
    fixed: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    hint: Mapping[str, Any] | None = None,
) -> Solution:
    """Plan the level. The returned plan has been run by the engine; `done` says whether it
    serves every order (False only when no plan was found: `note` says why). `progress` is
    called with each `Progress`; returning False stops the search (the best plan so far is
    returned). `routes` adds the routing relaxation to the bound (about a second more; by
    default on one-order levels, `bound.routes_by_default`). On a
    one-agent, one-order level the exact search has most of the limit (`exact=False`: the
    schedule search alone has all of it). `fixed` keeps those agents' queues as given and plans
    the others around them (see `Planner`); with it, `hint` (an earlier
    plan, e.g. the partner's before the person's last edit) is tried first for the others."""
    number = isinstance(time_limit, int | float) and not isinstance(time_limit, bool)
    if not (number and 0 < time_limit <= MAX_TIME_LIMIT):  # NaN fails too
        raise ValueError(
            f"time_limit must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, not {time_limit!r}"
        )
    # a first report before the bound is worked out (a second or more), so that a progress bar
    # starts from nothing instead of guessing from the clock
    stop = progress is not None and progress(Progress(0, 0, None, None, 0.0)) is False
    run = Planner(level, rules, time_limit, record, jobs, routes=routes, exact=exact, fixed=fixed, hint=hint)
    if stop:
        return run.solution()
    for p in run.steps():
        if progress is not None and progress(p) is False:
            break
    if run.partner is not None and run.partner.impossible:
        raise Unsolvable(run.partner.impossible)
    return run.solution()
