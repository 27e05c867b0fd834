"""The kitchen part of the play window: the grid at the shown time, what the mouse points at,
where a click would send the selected agent, and the error's tile."""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import Level
from game.engine.level import Station
from game.ui.editor import PlanEditor
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.kitchen import KitchenRenderer, describe_tile, fit_tile

Tile = tuple[int, int]


class KitchenView:
    def __init__(self, level: Level):
        self.level = level
        self.renderer = KitchenRenderer(level)
        self.rect = pygame.Rect(0, 0, 10, 10)

    def place(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.renderer.set_tile(fit_tile(self.level, rect.inflate(-16, -16).size, largest=110))

    def tile_at(self, pos: tuple[int, int] | None) -> Tile | None:
        if pos is None or not self.rect.collidepoint(pos):
            return None
        return self.renderer.tile_at_pixel(self.rect, pos)

    def draw(self, surface: pygame.Surface, ed: PlanEditor, t: float, hover: Tile | None) -> None:
        ghosts = {
            a: {"pos": list(e.pos), "held": e.held} for a in self.level.agent_names for e in [ed.end_point(a)]
        }
        timeline = ed.result.timeline
        self.renderer.draw(
            surface,
            self.rect,
            timeline.state_at(t),
            timeline=timeline,
            t=t,
            highlight=self.highlights(ed, t, hover),
            ghosts=ghosts,
            selected=ed.agent,
        )

    def highlights(self, ed: PlanEditor, t: float, hover: Tile | None) -> dict[Tile, tuple[int, int, int]]:
        marks: dict[Tile, tuple[int, int, int]] = {}
        if hover is not None:
            marks[hover] = P.HIGHLIGHT
            spot = walk_spot(ed, hover)
            if spot is not None:
                marks[spot] = P.agent_colour(self.level.agent_names.index(ed.agent))
        if ed.error is not None:
            where = error_tile(ed, t)
            if where is not None:
                marks[where] = P.ERROR
        return marks

    def draw_tooltip(self, surface: pygame.Surface, ed: PlanEditor, t: float, mouse: tuple[int, int]) -> None:
        tile = self.tile_at(mouse)
        if tile is not None:
            tl = ed.result.timeline
            state = tl.state_at(t)
            where = {a: tl.position_at(a, t) for a in state.get("agents", {})}
            lines = describe_tile(self.level, state, tile, t, where, ed.rules)
            panels.draw_tooltip(surface, mouse, lines)


def walk_spot(ed: PlanEditor, tile: Tile) -> Tile | None:
    """Where the selected agent would walk first if this station were clicked."""
    if not isinstance(ed.level.tile_at(tile), Station):
        return None
    index = ed.insertion_index()
    here = ed.position_before(ed.agent, index)
    if abs(here[0] - tile[0]) + abs(here[1] - tile[1]) == 1:
        return None
    return ed.nearest_access(ed.agent, tile, index)


def error_tile(ed: PlanEditor, t: float) -> Tile | None:
    err = ed.error
    if err is None:
        return None
    action: dict[str, Any] = err.action
    if action.get("action") in ("Interact", "Process"):
        station = ed.level.station_by_name.get(action.get("target"))
        if station is not None:
            return station.pos
    if action.get("action") == "MoveTo":
        target = tuple(action.get("target", ()))
        if len(target) == 2 and ed.level.in_bounds(target):
            return target  # type: ignore[return-value]
    return tuple(ed.result.timeline.state_at(t)["agents"][err.agent]["pos"])  # type: ignore[return-value]


def click_hint(ed: PlanEditor, tile: Tile) -> str:
    agent = ed.agent
    where = "" if ed.selected is None else f" before action {ed.selected}"
    target = ed.level.tile_at(tile)
    if isinstance(target, Station):
        spot = walk_spot(ed, tile)
        walk = f" (walks to {spot} first)" if spot else ""
        return (
            f"click: {agent}{where} Interact({target.name}){walk}   right-click / P: Process({target.name})"
        )
    if target == "wall":
        return f"({tile[0]}, {tile[1]}) is a wall"
    return f"click: {agent}{where} MoveTo({tile[0]}, {tile[1]})"
