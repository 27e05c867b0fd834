"""The one source for "the kitchen at time t": event snapshots plus every action's span."""

from __future__ import annotations

import copy
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
NESTED = ("agents", "stations", "dirty_plates")


@dataclass
class ActionSpan:
    """One action as it ran. status: done, failed (its effect errored), rejected (a start
    check failed; never counted as started) or cut (still running when the run stopped)."""

    agent: str
    index: int
    action: dict[str, Any]
    start: float
    end: float
    status: str = "done"
    path: list[list[int]] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "agent": self.agent,
            "index": self.index,
            "action": self.action,
            "start": self.start,
            "end": self.end,
            "status": self.status,
        }
        if self.path is not None:
            d["path"] = self.path
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ActionSpan:
        return cls(
            d["agent"], d["index"], d["action"], d["start"], d["end"], d.get("status", "done"), d.get("path")
        )


def state_delta(old: State, new: State) -> State:
    """What changed from old to new: per name inside agents/stations/dirty_plates."""
    out: State = {}
    for key, value in new.items():
        if key in NESTED:
            changed = {k: v for k, v in value.items() if old.get(key, {}).get(k, ...) != v}
            if changed:
                out[key] = changed
        elif old.get(key, ...) != value:
            out[key] = value
    return out


def apply_delta(state: State, delta: State) -> State:
    new = dict(state)
    for key, value in delta.items():
        if key in NESTED:
            new[key] = {**state.get(key, {}), **value}
        else:
            new[key] = value
    return new


@dataclass
class Timeline:
    times: list[float] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    spans: list[ActionSpan] = field(default_factory=list)

    def add_frame(self, t: float, state: State) -> None:
        if self.times and self.times[-1] == t:
            self.states[-1] = state
        else:
            self.times.append(t)
            self.states.append(state)

    @property
    def end(self) -> float:
        return self.times[-1] if self.times else 0

    def frame_index(self, t: float) -> int:
        """Index of the last event snapshot at or before t (0 before the first)."""
        return max(0, bisect_right(self.times, t) - 1)

    def state_at(self, t: float) -> State:
        """The kitchen after every event at or before t, as the engine left it."""
        return self.states[self.frame_index(t)]

    def spans_of(self, agent: str) -> list[ActionSpan]:
        return [s for s in self.spans if s.agent == agent]

    def _ran(self, agent: str) -> tuple[list[float], list[ActionSpan]]:
        """The agent's spans that ran, in start order, with their starts (built once)."""
        index = self.__dict__.setdefault("_index", {})
        if agent not in index:
            ran = [s for s in self.spans if s.agent == agent and s.status != "rejected"]
            index[agent] = ([s.start for s in ran], ran)
        return index[agent]

    def span_at(self, agent: str, t: float) -> ActionSpan | None:
        """The action the agent is busy with at t (a zero-length one only at its instant).
        An agent's actions run back to back, so only the last one started by t can cover t."""
        starts, ran = self._ran(agent)
        i = bisect_right(starts, t) - 1
        if i < 0:
            return None
        s = ran[i]
        # an action cut by the stop is still under way then, even one due to end at that very instant
        return (
            s
            if t < s.end or s.start == s.end == t or (s.status == "cut" and t == s.end == self.end)
            else None
        )

    def position_at(self, agent: str, t: float) -> tuple[float, float]:
        """Where an agent stands at t, walking tile by tile along a running MoveTo (at the stop, a
        cut MoveTo's agent is where its walk had got to, though its arrival never happened)."""
        span = self.span_at(agent, t)
        if span is not None and span.path and span.end > span.start:
            step = min(t, span.end) - span.start
            i = min(int(step), len(span.path) - 1)
            frac = step - int(step) if i < len(span.path) - 1 else 0.0
            (x0, y0) = span.path[i]
            (x1, y1) = span.path[min(i + 1, len(span.path) - 1)]
            return (x0 + (x1 - x0) * frac, y0 + (y1 - y0) * frac)
        x, y = self.state_at(t)["agents"][agent]["pos"]
        return (float(x), float(y))

    def cut_span(self, agent: str) -> ActionSpan | None:
        """The agent's action still running when the run stopped at an error (its effect never
        landed: a cut MoveTo never arrived), or None."""
        return next((s for s in self.spans if s.agent == agent and s.status == "cut"), None)

    # -- (de)serialisation: keyframes plus deltas --------------------------------------
    def frames_to_json(self, keyframe_every: int = 32) -> list[State]:
        out: list[State] = []
        prev: State = {}
        for i, (t, state) in enumerate(zip(self.times, self.states, strict=True)):
            if i % keyframe_every == 0:
                out.append({"t": t, "key": True, "state": state})
            else:
                out.append({"t": t, "delta": state_delta(prev, state)})
            prev = state
        return out

    @classmethod
    def from_json(cls, frames: list[State], spans: list[dict[str, Any]]) -> Timeline:
        tl = cls(spans=[ActionSpan.from_dict(s) for s in spans])
        state: State = {}
        for f in frames:
            state = copy.deepcopy(f["state"]) if f.get("key") else apply_delta(state, f["delta"])
            tl.times.append(f["t"])
            tl.states.append(state)
        return tl
