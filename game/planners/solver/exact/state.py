"""Compact, hashable states of a one-agent kitchen for the exact search, and the stepper that
runs the engine's own rules on them (`Simulation.run(resume=True)` on a rebuilt kitchen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.engine import Level
from game.engine.items import Container, DirtyPlate, Ingredient, Item
from game.engine.level import COOKWARE_TIME, PAN_INGREDIENTS, POT_INGREDIENTS
from game.engine.plan import Action
from game.engine.rules import RuleSet
from game.engine.simulator import Simulation

from ..model import Geometry

HOLDING = ("table", "chopping_board", "dispenser", "stove", "sink")  # stations with a surface
DIRTY = "dirty"


# -- compact states ---------------------------------------------------------------------------
# An item's code: None, DIRTY, (name, state) for an ingredient, or (kind, contents, counters)
# for a container. A cooking pan or pot's counters are kept as its ready time ("r"), which
# ticks do not change, so a state waited on keeps its code; under documented rules cookware off
# a stove keeps its remaining time instead ("p"), because cooking pauses there.
def encode(item: Item | None, on_stove: bool, pauses: bool) -> Any:
    if item is None:
        return None
    if isinstance(item, Ingredient):
        return (item.name, item.state)
    if isinstance(item, DirtyPlate):
        return DIRTY
    contents = tuple(sorted((i.name, i.state) for i in item.contents))
    if not item.is_cookware:
        return ("plate", contents, ())
    if item.cooking and item.stamp != 0:
        if on_stove or not pauses:
            counters: tuple = ("r", item.stamp + item.required - item.processed, item.required)
        else:
            counters = ("p", item.required - item.processed, item.required)
    else:
        counters = ("x", item.processed, item.required, item.stamp, item.cooking)
    return (item.kind, contents, counters)


def decode(code: Any, now: float) -> Item | None:
    if code is None:
        return None
    if code == DIRTY:
        return DirtyPlate()
    if len(code) == 2:
        return Ingredient(code[0], code[1])
    kind, contents, counters = code
    c = Container(kind)
    c.contents = [Ingredient(n, s) for n, s in contents]
    if counters:
        form = counters[0]
        if form == "r":  # ready at counters[1]: as if last ticked now
            c.required, c.stamp, c.cooking = counters[2], now, True
            c.processed = now + counters[2] - counters[1]
        elif form == "p":
            c.required, c.stamp, c.cooking = counters[2], now, True
            c.processed = counters[2] - counters[1]
        else:
            c.processed, c.required, c.stamp, c.cooking = counters[1:]
    return c


@dataclass(frozen=True, slots=True)
class State:
    tile: int
    held: Any
    surfaces: tuple  # one code per station of HOLDING kind, in `Stepper.names` order
    dirty: int  # dirty plates waiting at the plate return
    pending: tuple  # times dirty plates are due
    served: int


def ready_time(code: Any) -> float | None:
    """When a cooking pan or pot on a stove finishes (None when it is not cooking)."""
    if not isinstance(code, tuple) or len(code) != 3 or not code[2]:
        return None
    counters = code[2]
    if counters[0] == "r":
        return counters[1]
    if counters[0] == "x" and counters[4]:  # started at t = 0
        return counters[2] - counters[1]
    return None


class Stepper:
    """Runs a few actions of the one agent from a compact state, with the engine's own rules."""

    def __init__(self, level: Level, rules: RuleSet, geo: Geometry):
        self.level = level
        self.rules = rules
        self.geo = geo
        self.agent_name = level.agents[0].name
        self.sim = Simulation(level, {self.agent_name: ()}, rules, record=False)
        self.kitchen = self.sim.kitchen
        self.agent = self.kitchen.agents[0]
        self.names = [n for n in dict.fromkeys(s.name for s in level.stations) if self.kind(n) in HOLDING]
        self.slot = {n: i for i, n in enumerate(self.names)}
        self.on_stove = [self.kind(n) == "stove" for n in self.names]
        self.stove_slots = [i for i, s in enumerate(self.on_stove) if s]
        self.plate_return = self.kitchen.plate_return
        self.pauses = rules.cooking_pauses_off_stove

    def kind(self, name: str) -> str | None:
        return self.level.station_by_name[name].kind

    def start(self) -> State:
        k = self.kitchen
        surfaces = tuple(
            encode(k.surface[n], s, self.pauses) for n, s in zip(self.names, self.on_stove, strict=True)
        )
        tile = self.geo.index[self.agent.pos]
        return State(tile, None, surfaces, 0, (), 0)

    def step(self, state: State, now: float, actions: tuple[Action, ...]) -> tuple[State, float] | None:
        """The state after the actions, and its time; None if an action fails. Only the
        station acted on and the stoves where something cooks (ticks advance it) can change,
        so only they are rebuilt."""
        k, agent, sim = self.kitchen, self.agent, self.sim
        surface = k.surface
        codes = state.surfaces
        touched = [i for i in self.stove_slots if ready_time(codes[i]) is not None]  # ticks cook these
        slot = self.slot.get(actions[-1].target)
        if slot is not None and slot not in touched:
            touched.append(slot)
        names = self.names
        for i in self.stove_slots:  # idle cookware stays out of the run's ticks
            surface[names[i]] = None
        for i in touched:
            code = codes[i]
            surface[names[i]] = None if code is None else decode(code, now)
        agent.pos = self.geo.tiles[state.tile]
        agent.held = decode(state.held, now)
        if self.plate_return is not None:
            k.dirty_plates[self.plate_return] = state.dirty
        k.pending_returns = list(state.pending)
        k.remaining = list(self.level.orders[state.served :])
        k.served = []
        k.in_use.clear()
        agent.queue, agent.next, agent.current, agent.registered = actions, 0, None, False
        sim.now = now
        if sim.run(resume=True) is not None:
            return None
        pauses = self.pauses
        new_codes = list(codes)
        for i in touched:
            item = surface[names[i]]
            new_codes[i] = None if item is None else encode(item, self.on_stove[i], pauses)
        held = encode(agent.held, False, pauses)
        dirty = k.dirty_plates[self.plate_return] if self.plate_return is not None else 0
        served = len(self.level.orders) - len(k.remaining)
        new = State(
            self.geo.index[agent.pos], held, tuple(new_codes), dirty, tuple(k.pending_returns), served
        )
        return new, sim.now


def is_ingredient(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 2


def stove_takes(held: Any, top: Any) -> bool:
    """Can an Interact at a stove holding `top` succeed with `held` in hand (the stove rule)?"""
    if held is None:
        return top is not None
    if top is None:
        return is_cookware(held)
    if is_ingredient(held):
        name, state = held
        if top[0] == "pan":
            return state == "chopped" and name in PAN_INGREDIENTS
        return state == "raw" and name in POT_INGREDIENTS
    return is_plate(held)


def is_cookware(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 3 and code[0] in COOKWARE_TIME


def is_plate(code: Any) -> bool:
    return isinstance(code, tuple) and len(code) == 3 and code[0] == "plate"
