"""The project's level files: YAML with the kitchen drawn as a grid of two-letter cells.

    title: First salad                     # optional, shown to players
    description: Chop a lettuce ...        # optional
    orders: [salad_basic]                  # dish names from levels/recipes.yaml, served in order
    rules: paracook                        # optional: paracook (default) or documented
    meta: {id: tutorial/01, suite: tutorial}   # optional, free-form
    options: {burn_after: 5, serve_within: 20, can_use: {agent1: [table, stove]}}   # optional
    grid: |
      D1 C1 ## SW
      .. a1 .. ..
      T1 .. .. PR
    legend:
      a1: {agent: agent1}
      D1: {station: dispenser1, provides: lettuce}
      C1: {station: chopping_board1}
      T1: {station: table1, item: plate}
      SW: {station: serving_window}
      PR: {station: plate_return}

`..` is floor, `##` a wall; every other cell is a legend key. A station or agent key is drawn
once (agents sharing a tile: `a1+a2`); a key whose value is `wall` may be drawn many times. The
ParaCook map keeps the legend's order (stations, agents, then walls key by key, `##` last), each
key's tiles in reading order.
"""

from __future__ import annotations

from .format_read import level_from_yaml
from .format_write import level_to_yaml

__all__ = ["level_from_yaml", "level_to_yaml"]
