"""The mutable kitchen during a run, and what Interact and Process do to it (docs/rules.md)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import errors as E
from .errors import ActionFailed
from .items import Container, DirtyPlate, Ingredient, Item, describe
from .level import COOKWARE_TIME, Level, Pos, Station, Wall
from .plan import Action
from .rules import RuleSet

CHOP_TIME = 4
WASH_TIME = 6
RETURN_DELAY = 10

Target = Station | Wall  # what an Interact or Process names


def _no_cookware(stove: str, held: Item) -> str:
    """An empty stove and a hand that is not cookware: said as what the agent was trying to do."""
    if isinstance(held, Container) and held.kind == "plate":
        return f"{stove} has no pot or pan to take food from onto {describe(held)}"
    if isinstance(held, Ingredient):
        return f"{stove} has no pot or pan to put the {describe(held)} in"
    return f"{stove} takes only a pot or a pan, not {describe(held)}"


class AgentState:
    __slots__ = (
        "name",
        "pos",
        "held",
        "finished",
        "queue",
        "next",
        "current",
        "current_index",
        "start",
        "end",
        "registered",
        "moving",
        "processing",
        "waiting",
        "total",
    )

    def __init__(self, name: str, pos: Pos, queue: tuple[Action, ...]):
        self.name = name
        self.pos = pos
        self.held: Item | None = None
        self.finished = False
        self.queue = queue
        self.next = 0  # index of the next action to start == actions started so far
        self.current: Action | None = None
        self.current_index = -1
        self.start: float = 0
        self.end: float = 0
        self.registered = False
        self.moving: float = 0
        self.processing: float = 0
        self.waiting: float = 0
        self.total: float = 0


class Kitchen:
    """Everything that changes during a run. Only the simulator drives it."""

    def __init__(self, level: Level, rules: RuleSet, plan: dict[str, tuple[Action, ...]]):
        self.level = level
        self.rules = rules
        self.agents = [AgentState(a.name, a.pos, plan.get(a.name, ())) for a in level.agents]
        self.surface: dict[str, Item | None] = {}
        for s in level.stations:
            self.surface.setdefault(s.name, Container(s.item) if s.item else None)
        self.stoves = [s.name for s in level.stations if s.kind == "stove"]
        returns = [s.name for s in level.stations if s.kind == "plate_return"]
        self.plate_return = returns[0] if returns else None
        self.dirty_plates = {name: 0 for name in returns}
        self.pending_returns: list[float] = []
        self.in_use: dict[str, str] = {}
        self.remaining = list(level.orders)
        self.served: list[tuple[str, float]] = []
        opts = level.options
        self.burn_after: float | None = opts.get("burn_after")
        self.serve_within: float | None = opts.get("serve_within")
        self.can_use: dict[str, list[str]] = opts.get("can_use") or {}
        # progress: required (name, state) counts over all orders, and what the run achieved
        self.need: Counter[tuple[str, str]] = Counter(
            (i.item, i.state)
            for o in level.orders
            if o in level.recipe_book
            for i in level.recipe_book[o].ingredients
        )
        self.reached: Counter[tuple[str, str]] = Counter()
        self.plated: Counter[tuple[str, str]] = Counter()

    # -- step 1 of every event time ----------------------------------------------
    def tick(self, now: float) -> None:
        """Advance cooking and deliver returned dirty plates due at or before now."""
        for name in self.stoves:
            item = self.surface[name]
            if isinstance(item, Container) and item.is_cookware:
                if item.cooking:
                    self.cook(item, now)
                if self.burn_after is not None and item.cooked_at is not None:
                    self.maybe_burn(item, now)
        pending = self.pending_returns
        while pending and pending[0] <= now:
            pending.pop(0)
            if self.plate_return is not None:
                self.dirty_plates[self.plate_return] += 1

    def cook(self, item: Container, now: float) -> None:
        fresh = [i for i in item.contents if i.state != "cooked"]
        item.advance(now)
        if item.cooking:
            return
        for ing in fresh:
            self.reached[(ing.name, "cooked")] += 1
            if self.serve_within is not None and ing.fresh_at is None:
                ing.fresh_at = now
        if self.burn_after is not None and item.contents:
            item.cooked_at = now

    def maybe_burn(self, item: Container, now: float) -> None:
        """Food left on a stove more than burn_after after it finished cooking burns."""
        if now - item.cooked_at > self.burn_after:  # type: ignore[operator]
            for ing in item.contents:
                ing.state = "burnt"
            item.cooked_at = None

    # -- start-time checks --------------------------------------------------------
    def check_allowed(self, agent: AgentState, station: Target) -> None:
        allowed = self.can_use.get(agent.name)
        if allowed is None or station.kind == "wall" or station.kind in allowed:
            return
        raise ActionFailed(
            E.NOT_ALLOWED,
            f"{agent.name} may not use {station.kind}s (allowed: {', '.join(allowed) or 'nothing'})",
        )

    def resolve(self, agent: AgentState, target: str) -> Target:
        """The station or wall an Interact/Process names, with the existence and station checks;
        adjacency is checked separately because Process checks its duration first."""
        station = self.level.target_named(target)
        if station is None:
            if target in self.level.object_names:
                raise ActionFailed(E.NOT_A_STATION, f"{target!r} is not a station")
            raise ActionFailed(E.UNKNOWN_TARGET, f"there is no station called {target!r}")
        if station.kind is None:
            raise ActionFailed(E.NOT_A_STATION, f"{target!r} is not a station of any known kind")
        return station

    def check_adjacent(self, agent: AgentState, target: str, station: Target) -> None:
        (x, y), (cx, cy) = agent.pos, station.pos
        if abs(cx - x) + abs(cy - y) != 1:
            raise ActionFailed(E.NOT_ADJACENT, f"{agent.name} at ({x}, {y}) is not next to {target}")

    def check_free(self, agent: AgentState, station: Target) -> None:
        user = self.in_use.get(station.name)
        if user is not None and user != agent.name:
            raise ActionFailed(E.STATION_IN_USE, f"{station.name} is in use by {user}")

    def is_exclusive(self, station: Target) -> bool:
        return station.kind == "chopping_board" or (station.kind == "sink" and self.rules.exclusive_sinks)

    def process_time(self, station: Target, target: str) -> int:
        kind = station.kind
        if kind == "chopping_board":
            return CHOP_TIME
        if kind == "sink":
            return WASH_TIME
        if kind == "stove":
            item = self.surface[station.name]
            if isinstance(item, Container) and item.is_cookware:
                return COOKWARE_TIME[item.kind]
            raise ActionFailed(E.NO_PROCESS, f"{target} has no pot or pan to process")
        raise ActionFailed(E.NO_PROCESS, f"{target} ({kind}) cannot be processed")

    # -- Interact effects -----------------------------------------------------------
    def interact(self, agent: AgentState, station: Target, now: float) -> None:
        kind = station.kind
        if kind == "wall":
            raise ActionFailed(
                E.BAD_INTERACT,
                f"walls cannot be interacted with ({station.name} at ({station.x}, {station.y}))",
            )
        if kind == "dispenser":
            if agent.held is None and self.surface[station.name] is None:
                if not station.provides:
                    raise ActionFailed(E.BAD_INTERACT, f"{station.name} provides nothing")
                agent.held = Ingredient(station.provides)
                self.reached[(station.provides, "raw")] += 1
                return
            self.surface_rule(agent, station.name, now)
        elif kind in ("table", "chopping_board"):
            self.surface_rule(agent, station.name, now)
        elif kind == "stove":
            self.stove_rule(agent, station.name, now)
        elif kind == "sink":
            self.sink_rule(agent, station.name)
        elif kind == "plate_return":
            self.take_dirty_plate(agent, station.name)
        elif kind == "serving_window":
            self.serve(agent, now)
        elif kind == "trash":
            self.trash(agent)

    def surface_rule(self, agent: AgentState, name: str, now: float) -> None:
        held, top = agent.held, self.surface[name]
        if held is None:
            if top is None:
                raise ActionFailed(E.BAD_INTERACT, f"empty hand and nothing on {name}")
            agent.held, self.surface[name] = top, None
        elif top is None:
            self.surface[name], agent.held = held, None
        elif isinstance(held, Container) and isinstance(top, Ingredient):
            self.put_in(held, top, now)
            self.surface[name] = None
        elif isinstance(held, Ingredient) and isinstance(top, Container):
            self.put_in(top, held, now)
            agent.held = None
        elif isinstance(held, Container) and isinstance(top, Container):
            if held.kind == "plate":
                self.move_contents(top, held)
            elif top.kind == "plate":
                self.move_contents(held, top)
            else:
                raise ActionFailed(
                    E.BAD_INTERACT, f"cannot combine {describe(held)} with {describe(top)} on {name}"
                )
        else:
            raise ActionFailed(
                E.BAD_INTERACT, f"cannot combine {describe(held)} with {describe(top)} on {name}"
            )

    def stove_rule(self, agent: AgentState, name: str, now: float) -> None:
        held, top = agent.held, self.surface[name]
        if held is None:
            if top is None:
                raise ActionFailed(E.BAD_INTERACT, f"empty hand and nothing on {name}")
            agent.held, self.surface[name] = top, None
        elif top is None:
            if not (isinstance(held, Container) and held.is_cookware):
                raise ActionFailed(E.BAD_INTERACT, _no_cookware(name, held))
            if self.rules.cooking_pauses_off_stove and held.cooking:
                held.stamp = now  # the time off the stove does not count
            self.surface[name], agent.held = held, None
        elif isinstance(held, Ingredient) and isinstance(top, Container):
            self.put_in(top, held, now)
            agent.held = None
        elif isinstance(held, Container) and held.kind == "plate" and isinstance(top, Container):
            self.move_contents(top, held)
        else:
            raise ActionFailed(E.BAD_INTERACT, f"cannot use {describe(held)} with {describe(top)} on {name}")

    def sink_rule(self, agent: AgentState, name: str) -> None:
        held, top = agent.held, self.surface[name]
        if held is None:
            if not (isinstance(top, Container) and top.kind == "plate"):
                raise ActionFailed(E.BAD_INTERACT, f"no clean plate in {name}")
            agent.held, self.surface[name] = top, None
        elif isinstance(held, DirtyPlate) and top is None:
            self.surface[name], agent.held = held, None
        else:
            raise ActionFailed(
                E.BAD_INTERACT,
                f"{name} takes only a dirty plate into an empty sink, "
                f"not {describe(held)} (sink holds {describe(top)})",
            )

    def take_dirty_plate(self, agent: AgentState, name: str) -> None:
        if agent.held is not None:
            raise ActionFailed(E.BAD_INTERACT, f"nothing can be put on {name}")
        if self.dirty_plates.get(name, 0) <= 0:
            raise ActionFailed(E.BAD_INTERACT, f"no dirty plate waiting at {name}")
        self.dirty_plates[name] -= 1
        agent.held = DirtyPlate()

    def serve(self, agent: AgentState, now: float) -> None:
        held = agent.held
        if now <= 0:
            raise ActionFailed(E.SERVE_TOO_EARLY, "nothing can be served at time 0")
        if not (isinstance(held, Container) and held.kind == "plate"):
            raise ActionFailed(E.NOT_A_PLATE, f"serving needs a plate, {agent.name} holds {describe(held)}")
        if not self.remaining:
            raise ActionFailed(E.NO_ORDER_LEFT, "every order is already served")
        want = self.remaining[0]
        recipe = self.level.recipe_book.get(want)
        have = tuple(sorted(i.key for i in held.contents))
        if recipe is None or have != recipe.signature():
            need = ", ".join(recipe.signature()) if recipe else "?"
            raise ActionFailed(
                E.WRONG_DISH,
                f"the plate ({', '.join(have) or 'empty'}) is not the next order {want} ({need})",
            )
        self.check_fresh(want, held, now)
        agent.held = None
        self.served.append((self.remaining.pop(0), now))
        self.pending_returns.append(now + RETURN_DELAY)

    def check_fresh(self, dish: str, plate: Container, now: float) -> None:
        if self.serve_within is None:
            return
        times = [i.fresh_at for i in plate.contents if i.fresh_at is not None]
        if times and now - min(times) > self.serve_within:
            late = now - min(times) - self.serve_within
            raise ActionFailed(
                E.STALE_DISH,
                f"{dish} is {late:g} too late: first prepared at t={min(times):g}, "
                f"it had to be served within {self.serve_within:g}",
            )

    def trash(self, agent: AgentState) -> None:
        held = agent.held
        if held is None:
            raise ActionFailed(E.BAD_INTERACT, "nothing in hand to throw away")
        if isinstance(held, Container):
            held.contents = []
            held.cooked_at = None
            if held.is_cookware and self.rules.reset_emptied_cookware:
                held.reset()
        else:
            agent.held = None

    def put_in(self, container: Container, ing: Ingredient, now: float) -> None:
        if not container.accepts(ing):
            raise ActionFailed(E.COOKWARE_REJECTS, f"a {container.kind} does not take {ing!r}")
        if container.is_cookware and any(i.state == "burnt" for i in container.contents):
            raise ActionFailed(
                E.COOKWARE_REJECTS, f"the {container.kind} holds burnt food: throw it away at a trash first"
            )
        container.add(ing, now)
        container.cooked_at = None
        if container.kind == "plate":
            self.plated[(ing.name, ing.state)] += 1

    def move_contents(self, src: Container, dst: Container) -> None:
        if src.is_cookware and dst.kind == "plate":
            self.plated.update((i.name, i.state) for i in src.contents)
        dst.contents.extend(src.contents)
        src.contents = []
        src.cooked_at = None
        if src.is_cookware and self.rules.reset_emptied_cookware:
            src.reset()

    # -- Process effects ------------------------------------------------------------
    def process(self, agent: AgentState, station: Target, now: float) -> None:
        kind, name = station.kind, station.name
        top = self.surface.get(name)
        if kind == "chopping_board":
            if not (isinstance(top, Ingredient) and top.state == "raw"):
                raise ActionFailed(
                    E.PROCESS_FAILED, f"nothing raw to chop on {name} (it holds {describe(top)})"
                )
            top.state = "chopped"
            self.reached[(top.name, "chopped")] += 1
            if self.serve_within is not None:
                top.fresh_at = now
        elif kind == "sink":
            if not isinstance(top, DirtyPlate):
                raise ActionFailed(E.PROCESS_FAILED, f"no dirty plate to wash in {name}")
            self.surface[name] = Container("plate")
        else:
            raise ActionFailed(E.PROCESS_FAILED, f"{name} cooks by itself; Process on it fails")

    # -- what views and the timeline see ---------------------------------------------
    def progress(self) -> float:
        """Share of the order's work done: each required ingredient brought to its state and
        plated, each dish served. Counts what happened, so it never goes down; 1 on success."""
        total = 2 * sum(self.need.values()) + len(self.level.orders)
        if total == 0:
            return 1.0
        done = len(self.served) + sum(
            min(self.reached[k], n) + min(self.plated[k], n) for k, n in self.need.items()
        )
        return done / total

    def snapshot(self) -> dict[str, Any]:
        return {
            "agents": {
                a.name: {
                    "pos": [a.pos[0], a.pos[1]],
                    "held": None if a.held is None else a.held.to_dict(),
                    "finished": a.finished,
                }
                for a in self.agents
            },
            "stations": {n: (None if i is None else i.to_dict()) for n, i in self.surface.items()},
            "dirty_plates": dict(self.dirty_plates),
            "pending_returns": list(self.pending_returns),
            "served": [[n, t] for n, t in self.served],
            "progress": self.progress(),
        }
