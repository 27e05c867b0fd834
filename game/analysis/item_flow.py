"""Where each item went, read from a recorded timeline: which items every action touched, and
which actions' effects never reached a served dish (wasted work).

The engine's snapshots hold items as values without identities, so identities are given here:
at each instant where actions take effect, the items in the places those actions touch (the
agents' hands and their target stations) before and after are matched by kind (an item staying
where it was keeps its identity; one that moved is matched with an item of its kind that left
another of those places; anything else is new, like a fresh ingredient from a dispenser). Items
that leave without arriving anywhere were served (when a dish was served at that instant) or
thrown away. An item "reaches a served dish" when it was served, or, for a pan or pot, when it
ever held an ingredient that was served. A dirty plate and the clean plate it is washed into
count as one plate."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from game.engine import ActionSpan, Level, Result, simulate

State = dict[str, Any]
WORK = ("Interact", "Process")


def descriptor(item: dict[str, Any]) -> str:
    kind = item.get("kind")
    if kind == "ingredient":
        return f"ingredient:{item.get('name')}:{item.get('state')}"
    return "plate" if kind in ("plate", "dirty_plate") else str(kind)


def same_thing(desc: str) -> str:
    """A descriptor without the ingredient's state: chopping or cooking keeps the identity."""
    return desc.rsplit(":", 1)[0] if desc.startswith("ingredient:") else desc


Token = tuple[int, str]


def flatten(item: dict[str, Any] | None) -> list[str]:
    """The item and what it holds: [container, *contents] as descriptors."""
    if item is None:
        return []
    return [descriptor(item)] + [descriptor(i) for i in item.get("contents", ())]


def place_items(state: State, place: str) -> list[str]:
    kind, name = place.split(":", 1)
    if kind == "agent":
        return flatten(state["agents"][name]["held"])
    return flatten(state["stations"].get(name))


@dataclass
class Flow:
    """Tokens (item identities) per place; which tokens each action touched; what was served."""

    places: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    touched: dict[tuple[str, int], set[int]] = field(default_factory=dict)
    served: set[int] = field(default_factory=set)
    held: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))  # container -> contents
    next_id: int = 0

    def new(self, desc: str) -> tuple[int, str]:
        self.next_id += 1
        return (self.next_id, desc)

    def current(self, state: State, place: str) -> list[Token]:
        """The tokens at a place, kept in step with the state: a state change that no action
        made (food cooking) keeps identities; what cannot be matched is new."""
        kinds = place_items(state, place)
        tracked = self.places.get(place, [])
        if place not in self.places or [d for _, d in tracked] != kinds:
            self.places[place] = self.match({place: tracked}, {place: kinds})[0][place]
        return self.places[place]

    def match(
        self, old: dict[str, list[Token]], kinds: dict[str, list[str]]
    ) -> tuple[dict[str, list[Token]], list[Token]]:
        """Tokens for the items of `kinds`, taken from `old` (the same place first, then any;
        the same kind and state first, then the same kind); new ones for the rest. Also
        returns the old tokens left over (gone: served or thrown away)."""
        pool = [(p, tok) for p in old for tok in old[p]]
        new: dict[str, list[Token | None]] = {p: [None] * len(ds) for p, ds in kinds.items()}
        passes = ((True, True), (False, True), (True, False), (False, False))
        for same_place, exact in passes:
            for p, ds in kinds.items():
                for i, d in enumerate(ds):
                    if new[p][i] is not None:
                        continue
                    hit = next(
                        (
                            (q, t)
                            for q, t in pool
                            if (q == p or not same_place)
                            and (t[1] == d if exact else same_thing(t[1]) == same_thing(d))
                        ),
                        None,
                    )
                    if hit is not None:
                        pool.remove(hit)
                        new[p][i] = (hit[1][0], d)
        out = {p: [tok or self.new(ds[i]) for i, tok in enumerate(new[p])] for p, ds in kinds.items()}
        return out, [t for _, t in pool]

    def step(self, before: State, after: State, spans: list[ActionSpan]) -> None:
        """Move the tokens of the places these actions touch from `before` to `after`."""
        places = sorted(
            {f"agent:{s.agent}" for s in spans} | {f"station:{s.action['target']}" for s in spans}
        )
        old = {p: list(self.current(before, p)) for p in places}
        new, gone = self.match(old, {p: place_items(after, p) for p in places})
        where_before = {t[0]: p for p in places for t in old[p]}
        where_after = {t[0]: p for p in places for t in new[p]}
        moved = {t for t in where_after if where_before.get(t) != where_after[t]}
        moved |= {t[0] for t in gone}
        if len(after.get("served", ())) > len(before.get("served", ())):
            self.served |= {t[0] for t in gone}
        for p in places:
            self.places[p] = new[p]
            if new[p] and new[p][0][1] in ("pan", "pot", "plate"):
                self.held[new[p][0][0]] |= {t[0] for t in new[p][1:]}
        reach: dict[str, set[str]] = defaultdict(set)  # an agent's instant actions count as one
        for s in spans:
            reach[s.agent] |= {f"agent:{s.agent}", f"station:{s.action['target']}"}
        for s in spans:
            if s.action["action"] == "Process":
                board = f"station:{s.action['target']}"
                self.touched[(s.agent, s.index)] = {t[0] for t in old[board] + new[board]}
            else:
                here = {t[0] for p in reach[s.agent] for t in old[p] + new[p]}
                self.touched[(s.agent, s.index)] = here & moved

    def reached_dish(self, token: int) -> bool:
        return token in self.served or bool(self.held.get(token, set()) & self.served)


def trace(level: Level, result: Result) -> Flow:
    """The item flow of a recorded run (simulate(..., record=True))."""
    tl = result.timeline
    if tl is None:
        raise ValueError("the run was not recorded; simulate with record=True")
    start = simulate(level, {a: () for a in level.agent_names}, level.rules, record=True)
    assert start.timeline is not None
    flow = Flow()
    by_time: dict[float, list[ActionSpan]] = defaultdict(list)
    for s in tl.spans:
        if s.status == "done" and s.action.get("action") in WORK:
            by_time[s.end].append(s)
    for t in sorted(by_time):
        i = tl.frame_index(t)
        if tl.times[i] != t:  # no event recorded at t: nothing changed
            continue
        before = tl.states[i - 1] if i > 0 else start.timeline.states[0]
        flow.step(before, tl.states[i], by_time[t])
    return flow


@dataclass(frozen=True)
class Waste:
    agent: str
    index: int
    action: dict[str, Any]
    duration: float


def wasted_work(level: Level, result: Result) -> list[Waste]:
    """Actions whose effects never reached a served dish: an Interact or Process that touched
    no item that was served (or no pan or pot that held one), an action that failed, and a
    MoveTo whose next Interact or Process is wasted or never comes. Waits are not work."""
    assert result.timeline is not None
    flow = trace(level, result)
    out: list[Waste] = []
    for agent in level.agent_names:
        spans = [s for s in result.timeline.spans_of(agent) if s.status in ("done", "failed")]
        useless = {
            s.index
            for s in spans
            if s.action.get("action") in WORK
            and (
                s.status == "failed"
                or not any(flow.reached_dish(t) for t in flow.touched.get((agent, s.index), ()))
            )
        }
        useful_next = False
        for s in reversed(spans):
            name = s.action.get("action")
            if name in WORK:
                useful_next = s.index not in useless
            elif name == "MoveTo" and not useful_next:
                useless.add(s.index)
        out += [Waste(agent, s.index, s.action, s.end - s.start) for s in spans if s.index in useless]
    return out
