"""A timed schedule as engine actions: MoveTo the chosen tile, Wait, then Interact or Process."""

from __future__ import annotations

from typing import Any

from ..model import Geometry
from .timing import Op


def ground(geo: Geometry, ops: list[list[Op]], agent_names: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Plan JSON for a schedule. A wait marked `late` ends with a Wait(1) of its own, so the
    agent is handled after whoever it waits for at that instant (see decoder)."""
    plan: dict[str, list[dict[str, Any]]] = {}
    for idx, name in enumerate(agent_names):
        tile, now = geo.agent_tiles[idx], 0
        actions: list[dict[str, Any]] = []
        for op in ops[idx]:
            if op.tile != tile:
                x, y = geo.tiles[op.tile]
                actions.append({"action": "MoveTo", "target": [x, y]})
                now += geo.dist[tile][op.tile]
                tile = op.tile
            wait = op.t - now
            if wait < 0:
                raise AssertionError(f"{name}: schedule goes back in time at {op}")
            if wait > 1 and op.late:
                actions.append({"action": "Wait", "duration": wait - 1})
                actions.append({"action": "Wait", "duration": 1})
            elif wait > 0:
                actions.append({"action": "Wait", "duration": wait})
            actions.append({"action": op.action, "target": op.station})
            now = op.t + op.dur
        plan[name] = actions
    return plan
