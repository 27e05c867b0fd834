"""The one kitchen renderer: draws a state dict of a Level onto any pygame Surface.

Used by the play window, the replay viewer, the compare view and the off-screen exporter.

    from game.ui.render.kitchen import KitchenRenderer, fit_tile, describe_tile

    r = KitchenRenderer(level, tile=56)          # tile: pixels per grid cell
    r.size                                       # (w, h) of the whole grid in pixels
    r.set_tile(fit_tile(level, rect.size))       # rescale (icons are cached per tile size)
    r.draw(surface, where, state, timeline=None, t=None, highlight=None, ghosts=None,
           selected=None)

`where` is the grid's top-left pixel (x, y), or a Rect in which the grid is centred. Pass the same
`where` to the picking helpers:

    r.pixel_of_tile(where, (x, y)) -> (px, py)   top-left pixel of a tile
    r.tile_center(where, (x, y)) -> (px, py)
    r.tile_at_pixel(where, (px, py)) -> (x, y) | None
    r.agent_at_pixel((px, py)) -> agent name | None     (agents as last drawn)
    r.agent_points[agent] -> (px, py)   a pixel inside the agent's body that shows its colour,
                                        after draw() (for pixel tests); r.agent_rects likewise

draw() arguments:
- state: a state dict (Timeline.state_at(t) or a snapshot): agents, stations, dirty_plates,
  pending_returns, served.
- timeline, t: with both, agents are drawn at timeline.position_at(agent, t) (walking tile by
  tile), the running Process of each agent shows a filling bar, cookware cooking on a stove
  shows processed + (t - stamp), and the plate return counts down to the next dirty plate.
- highlight: tiles to outline: an iterable of (x, y), or a mapping (x, y) -> colour.
- ghosts: {agent: {"pos": [x, y], "held": item | None}} drawn faintly (e.g. end of a queue).
- selected: an agent name drawn with a ring.

describe_tile(level, state, pos, t=None) -> list[str]: the full detail of one tile (tooltips).
Agents use AGENT_COLOURS (Okabe-Ito) in level.agents order and carry their number (1, 2, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import pygame

from game.engine import Level, Timeline
from game.engine.items import cooking_progress
from game.engine.level import Station

from . import icons
from . import palette as P
from .text import blit_text, fit_size, font

Pos = tuple[int, int]
Where = tuple[int, int] | pygame.Rect
State = dict[str, Any]

PROCESS_BAR = (213, 94, 0)
COOK_BAR = (230, 159, 0)
DONE_BAR = (0, 158, 115)


def fit_tile(level: Level, size: tuple[int, int], largest: int = 96, smallest: int = 16) -> int:
    """The largest tile size at which the whole grid fits in size (w, h)."""
    tile = min(size[0] // max(1, level.width), size[1] // max(1, level.height))
    return max(smallest, min(largest, tile))


def station_label_lines(name: str) -> list[str]:
    """A station name split at its last '_' into two lines when it is long."""
    if len(name) > 10 and "_" in name:
        head, _, tail = name.rpartition("_")
        return [head + "_", tail]
    return [name]


LABEL_MIN = 16  # font size of a station's name: text about 11 px tall
SHORT_KINDS = {
    "chopping_board": "board",
    "serving_window": "serve",
    "plate_return": "return",
    "dispenser": "disp",
}


def short_label(name: str) -> str:
    """A station's name in few letters: 'chopping_board2' -> 'board 2', 'stove1' -> 'stove 1'."""
    for kind, short in SHORT_KINDS.items():
        if name.startswith(kind):
            return f"{short} {name[len(kind) :].strip('_')}".strip()
    head = name.rstrip("0123456789")
    return f"{head.rstrip('_')} {name[len(head) :]}".strip() if head != name and head else name


@lru_cache(maxsize=2048)
def label_layout(name: str, width: int, tile: int) -> tuple[list[str], int]:
    """The lines and font size of a station's label: the full name when it fits at a legible
    size (one line, then split in two), else its short form; smaller only on tiny tiles."""
    largest = max(LABEL_MIN, int(tile * 0.3))
    split = [station_label_lines(name)] if tile >= 64 else []  # two lines only on big tiles
    options = [[name], *split, [short_label(name)]]
    for lines in options:
        size = min(fit_size(line, width, largest, LABEL_MIN) for line in lines)
        if all(font(size).size(line)[0] <= width for line in lines):
            return lines, size
    short = short_label(name)
    return [short], fit_size(short, width, LABEL_MIN, 9)


class KitchenRenderer:
    """Draws one Level's kitchen at a given tile size; see the module docstring."""

    def __init__(self, level: Level, tile: int = 56):
        self.level = level
        self.tile = max(8, int(tile))
        self.agent_index = {name: i for i, name in enumerate(level.agent_names)}
        self.stations_at: dict[Pos, Station] = {}
        self.station_pos: dict[str, Pos] = {}
        for s in level.stations:
            self.stations_at.setdefault(s.pos, s)
            self.station_pos.setdefault(s.name, s.pos)
        self.stoves = {s.name for s in level.stations if s.kind == "stove"}
        returns = [s.name for s in level.stations if s.kind == "plate_return"]
        self.first_return = returns[0] if returns else None
        self._background: pygame.Surface | None = None
        self.agent_points: dict[str, tuple[int, int]] = {}
        self.agent_rects: dict[str, pygame.Rect] = {}
        self.agent_badges: dict[str, pygame.Rect] = {}  # the chip a click selects the agent by

    # -- geometry ---------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return (self.level.width * self.tile, self.level.height * self.tile)

    def set_tile(self, tile: int) -> None:
        tile = max(8, int(tile))
        if tile != self.tile:
            self.tile = tile
            self._background = None

    def origin(self, where: Where) -> tuple[int, int]:
        if isinstance(where, pygame.Rect):
            w, h = self.size
            return (where.x + (where.w - w) // 2, where.y + (where.h - h) // 2)
        return (int(where[0]), int(where[1]))

    def pixel_of_tile(self, where: Where, pos: tuple[float, float]) -> tuple[int, int]:
        ox, oy = self.origin(where)
        return (ox + round(pos[0] * self.tile), oy + round(pos[1] * self.tile))

    def tile_center(self, where: Where, pos: tuple[float, float]) -> tuple[int, int]:
        x, y = self.pixel_of_tile(where, pos)
        return (x + self.tile // 2, y + self.tile // 2)

    def tile_at_pixel(self, where: Where, pixel: tuple[int, int]) -> Pos | None:
        ox, oy = self.origin(where)
        x, y = (pixel[0] - ox) // self.tile, (pixel[1] - oy) // self.tile
        return (x, y) if self.level.in_bounds((x, y)) else None

    def agent_at_pixel(self, pixel: tuple[int, int]) -> str | None:
        """The top-most agent drawn under pixel at the last draw()."""
        hit = None
        for name, rect in self.agent_rects.items():
            if rect.collidepoint(pixel):
                hit = name
        return hit

    # -- drawing ------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        where: Where,
        state: State,
        *,
        timeline: Timeline | None = None,
        t: float | None = None,
        highlight: Iterable[Pos] | Mapping[Pos, Any] | None = None,
        ghosts: Mapping[str, Mapping[str, Any]] | None = None,
        selected: str | None = None,
    ) -> None:
        origin = self.origin(where)
        surface.blit(self.background(), origin)
        self._draw_station_items(surface, origin, state, t)
        self._draw_plate_return(surface, origin, state, t)
        if highlight:
            self._draw_highlight(surface, origin, highlight)
        if ghosts:
            for name, ghost in ghosts.items():
                self._draw_ghost(surface, origin, name, ghost)
        self._draw_agents(surface, origin, state, timeline, t, selected)

    def background(self) -> pygame.Surface:
        """Floor, walls and station icons with their names (cached per tile size)."""
        if self._background is None:
            self._background = self._build_background()
        return self._background

    def _build_background(self) -> pygame.Surface:
        n = self.tile
        bg = pygame.Surface(self.size)
        walls = set(self.level.walls)
        for y in range(self.level.height):
            for x in range(self.level.width):
                pos = (x, y)
                if pos in self.stations_at:
                    s = self.stations_at[pos]
                    bg.blit(icons.station(s.kind, n, s.provides), (x * n, y * n))
                    self._draw_label(bg, pygame.Rect(x * n, y * n, n, n), s.name)
                else:
                    bg.blit(icons.wall_tile(n) if pos in walls else icons.floor_tile(n), (x * n, y * n))
        return bg

    def _draw_label(self, surface: pygame.Surface, rect: pygame.Rect, name: str) -> None:
        lines, size = label_layout(name, rect.w - 4, self.tile)
        line_h = font(size).get_linesize() - 1
        band = pygame.Rect(rect.x, rect.bottom - line_h * len(lines) - 2, rect.w, line_h * len(lines) + 2)
        shade = pygame.Surface(band.size, pygame.SRCALPHA)
        shade.fill(P.LABEL_BAND)
        surface.blit(shade, band)
        for i, line in enumerate(lines):
            blit_text(
                surface, line, (band.centerx, band.y + 1 + i * line_h), size, P.LABEL_TEXT, anchor="midtop"
            )

    def _label_height(self, name: str) -> int:
        lines, size = label_layout(name, self.tile - 4, self.tile)
        return (font(size).get_linesize() - 1) * len(lines) + 2

    def _draw_station_items(
        self, surface: pygame.Surface, origin: tuple[int, int], state: State, t: float | None
    ) -> None:
        n = self.tile
        for name, item in state.get("stations", {}).items():
            if item is None or name not in self.station_pos:
                continue
            x, y = self.station_pos[name]
            top = (origin[0] + x * n, origin[1] + y * n)
            room = n - self._label_height(name)
            size = max(8, min(int(n * 0.62), room - 2))
            icon = icons.item_icon(item, size)
            surface.blit(icon, icon.get_rect(center=(top[0] + n // 2, top[1] + max(size // 2, room // 2))))
            if item.get("kind") in ("pan", "pot"):
                bar = pygame.Rect(top[0] + 3, top[1] + 2, n - 6, max(4, n // 10))
                self._cookware_bars(surface, bar, item, t, name in self.stoves)

    def _cookware_bars(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        item: Mapping[str, Any],
        t: float | None,
        on_stove: bool,
    ) -> None:
        """Cooking progress (orange, green when done, red when burnt); under the burn_after
        option a thin red bar below shrinks to the moment the cooked food burns."""
        frac = cooking_fraction(item, t, on_stove)
        if frac is None:
            return
        contents = item.get("contents", ())
        if any(i.get("state") == "burnt" for i in contents):
            self._bar(surface, rect, 1.0, P.ERROR)
            return
        done = frac >= 1  # an Interact now would find it cooked, recorded or not
        self._bar(surface, rect, frac, DONE_BAR if done else COOK_BAR)
        left = burn_left(self.level, item, t) if on_stove else None
        if left is not None:
            below = pygame.Rect(rect.x, rect.bottom + 1, rect.w, max(3, rect.h // 2))
            self._bar(surface, below, left / self.level.options["burn_after"], P.ERROR)

    def _draw_plate_return(
        self, surface: pygame.Surface, origin: tuple[int, int], state: State, t: float | None
    ) -> None:
        n = self.tile
        pending = state.get("pending_returns") or []
        for name, count in (state.get("dirty_plates") or {}).items():
            if name not in self.station_pos:
                continue
            x, y = self.station_pos[name]
            top = (origin[0] + x * n, origin[1] + y * n)
            size = max(9, int(n * 0.3))
            if count:
                badge = pygame.Rect(0, 0, size + 4, size + 2)
                badge.topright = (top[0] + n - 2, top[1] + 2)
                pygame.draw.rect(surface, (140, 110, 70), badge, border_radius=size // 3)
                blit_text(surface, f"{count}", badge.center, size, (255, 255, 255), anchor="center")
            if name == self.first_return and pending:
                due = pending[0]
                text = f"+1 in {_num(max(0, due - t))}" if t is not None else f"+1 at {_num(due)}"
                size = fit_size(text, n - 4, max(9, int(n * 0.22)), 7)
                img = font(size).render(text, True, (255, 255, 255))
                box = img.get_rect(midtop=(top[0] + n // 2, top[1] + 2)).inflate(4, 2)
                pygame.draw.rect(surface, (90, 70, 40), box, border_radius=3)
                surface.blit(img, img.get_rect(center=box.center))

    def _draw_highlight(
        self, surface: pygame.Surface, origin: tuple[int, int], highlight: Iterable[Pos] | Mapping[Pos, Any]
    ) -> None:
        n = self.tile
        items = highlight.items() if isinstance(highlight, Mapping) else ((p, P.HIGHLIGHT) for p in highlight)
        for pos, colour in items:
            rect = pygame.Rect(origin[0] + pos[0] * n, origin[1] + pos[1] * n, n, n)
            pygame.draw.rect(surface, (0, 0, 0), rect, 5, border_radius=max(2, n // 10))
            pygame.draw.rect(surface, colour, rect.inflate(-2, -2), 3, border_radius=max(2, n // 10))

    # -- agents -------------------------------------------------------------------------
    def _positions(self, state: State, timeline: Timeline | None, t: float | None) -> dict[str, tuple]:
        out = {}
        for name, agent in state.get("agents", {}).items():
            if timeline is not None and t is not None:
                out[name] = timeline.position_at(name, t)
            else:
                out[name] = (float(agent["pos"][0]), float(agent["pos"][1]))
        return out

    def _draw_agents(
        self,
        surface: pygame.Surface,
        origin: tuple[int, int],
        state: State,
        timeline: Timeline | None,
        t: float | None,
        selected: str | None,
    ) -> None:
        positions = self._positions(state, timeline, t)
        offsets = _spread(positions)
        self.agent_points, self.agent_rects, self.agent_badges = {}, {}, {}
        for name, pos in positions.items():
            agent = state["agents"][name]
            dx = offsets.get(name, 0.0)
            cx = origin[0] + round((pos[0] + 0.5 + dx) * self.tile)
            cy = origin[1] + round((pos[1] + 0.5) * self.tile)
            progress = self._process_progress(timeline, name, t)
            self._draw_agent(
                surface,
                name,
                (cx, cy),
                agent.get("held"),
                agent.get("finished", False),
                progress,
                name == selected,
            )

    def _process_progress(self, timeline: Timeline | None, agent: str, t: float | None) -> float | None:
        if timeline is None or t is None:
            return None
        span = timeline.span_at(agent, t)
        if span is None or span.action.get("action") != "Process" or span.end <= span.start:
            return None
        return min(1.0, max(0.0, (t - span.start) / (span.end - span.start)))

    def _draw_agent(
        self,
        surface: pygame.Surface,
        name: str,
        centre: tuple[int, int],
        held: dict | None,
        finished: bool,
        progress: float | None,
        selected: bool,
        alpha: int = 255,
    ) -> None:
        n = self.tile
        index = self.agent_index.get(name, 0)
        colour = P.agent_colour(index)
        r = max(4, int(n * 0.34))
        cx, cy = centre
        if selected:
            pygame.draw.circle(surface, (255, 255, 255), centre, r + max(3, n // 14))
            pygame.draw.circle(surface, (0, 0, 0), centre, r + max(3, n // 14), 2)
        pygame.draw.circle(surface, (20, 20, 20), centre, r)
        pygame.draw.circle(surface, colour, centre, r - max(2, n // 28))
        blit_text(
            surface,
            str(index + 1),
            centre,
            max(10, int(n * 0.42)),
            P.text_colour_on(colour),
            bold=True,
            anchor="center",
        )
        if finished:
            self._draw_flag(surface, (cx - r, cy - r))
        if held is not None:
            size = max(8, int(n * 0.46))
            icon = icons.item_icon(held, size)
            surface.blit(icon, icon.get_rect(center=(cx + int(n * 0.24), cy + int(n * 0.22))))
        if progress is not None:
            self._bar(
                surface,
                pygame.Rect(cx - r, cy - r - max(6, n // 8), 2 * r, max(5, n // 10)),
                progress,
                PROCESS_BAR,
            )
        if alpha == 255:
            self.agent_points[name] = (cx - int(n * 0.22), cy)
            self.agent_rects[name] = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
            self.agent_badges[name] = self._draw_badge(surface, (cx + r, cy - r), index, colour)

    def _draw_badge(
        self, surface: pygame.Surface, at: tuple[int, int], index: int, colour: Any
    ) -> pygame.Rect:
        """The agent's number on a chip at its token's corner: clicking it selects the agent (a
        click elsewhere on the tile is a MoveTo there)."""
        size = max(14, int(self.tile * 0.34))
        chip = pygame.Rect(0, 0, size, size)
        chip.center = at
        pygame.draw.rect(surface, (20, 20, 20), chip, border_radius=size // 3)
        pygame.draw.rect(surface, colour, chip.inflate(-4, -4), border_radius=size // 3)
        blit_text(
            surface,
            str(index + 1),
            chip.center,
            max(9, size - 4),
            P.text_colour_on(colour),
            bold=True,
            anchor="center",
        )
        return chip

    def badge_at_pixel(self, pixel: tuple[int, int]) -> str | None:
        """The agent whose badge is under pixel at the last draw()."""
        hit = None
        for name, rect in self.agent_badges.items():
            if rect.collidepoint(pixel):
                hit = name
        return hit

    def _draw_flag(self, surface: pygame.Surface, at: tuple[int, int]) -> None:
        """A small chequered flag: the agent's Finish has run."""
        s = max(3, self.tile // 14)
        x, y = at
        pygame.draw.line(surface, (20, 20, 20), (x, y), (x, y + 4 * s), 2)
        for i in range(3):
            for j in range(2):
                c = (20, 20, 20) if (i + j) % 2 else (250, 250, 250)
                pygame.draw.rect(surface, c, pygame.Rect(x + 1 + i * s, y + j * s, s, s))

    def _draw_ghost(
        self, surface: pygame.Surface, origin: tuple[int, int], name: str, ghost: Mapping[str, Any]
    ) -> None:
        n = self.tile
        layer = pygame.Surface((2 * n, 2 * n), pygame.SRCALPHA)
        self._draw_agent(layer, name, (n, n), ghost.get("held"), False, None, False, alpha=90)
        layer.set_alpha(95)
        x, y = ghost["pos"]
        surface.blit(layer, (origin[0] + x * n - n // 2, origin[1] + y * n - n // 2))

    def _bar(self, surface: pygame.Surface, rect: pygame.Rect, frac: float, colour) -> None:
        pygame.draw.rect(surface, (20, 20, 20), rect)
        inner = rect.inflate(-2, -2)
        inner.w = max(0, round(inner.w * min(1.0, max(0.0, frac))))
        pygame.draw.rect(surface, colour, inner)


def cooking_fraction(item: Mapping[str, Any], t: float | None, on_stove: bool) -> float | None:
    """How far a pot/pan has cooked (0..1) as an Interact at t would find it (the engine's
    cooking_progress: it advances between events while the cookware sits on a stove)."""
    done, required = _progress(item, t, on_stove)
    if required <= 0:
        return None
    if not item.get("cooking") and _all_cooked(item):
        return 1.0
    return min(1.0, done / required)


def _progress(item: Mapping[str, Any], t: float | None, on_stove: bool) -> tuple[float, float]:
    """(done, required); with no time, the counter as the snapshot holds it."""
    if t is None:
        return float(item.get("processed") or 0), float(item.get("required") or 0)
    return cooking_progress(dict(item), t, on_stove)


def burn_left(level: Level, item: Mapping[str, Any], t: float | None) -> float | None:
    """Time left before cooked food on a stove burns (the burn_after option), else None."""
    window = (level.options or {}).get("burn_after")
    cooked_at = item.get("cooked_at")
    if window is None or cooked_at is None or t is None:
        return None
    return max(0.0, cooked_at + window - t)


def _spread(positions: Mapping[str, tuple[float, float]]) -> dict[str, float]:
    """Horizontal offsets (in tiles) so agents sharing a tile stay visible side by side."""
    groups: dict[tuple[int, int], list[str]] = {}
    for name, (x, y) in positions.items():
        groups.setdefault((round(x * 4), round(y * 4)), []).append(name)
    out: dict[str, float] = {}
    for names in groups.values():
        if len(names) > 1:
            step = 0.32 / (len(names) - 1) if len(names) > 1 else 0
            for i, name in enumerate(names):
                out[name] = -0.16 + i * step
    return out


def _num(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


# -- tooltips -------------------------------------------------------------------------------
def describe_item(
    item: Mapping[str, Any] | None, t: float | None = None, on_stove: bool = False, rules: str | None = None
) -> str:
    """An item in words; a pot's or pan's cooking as an Interact at t would find it."""
    if item is None:
        return "nothing"
    kind = item.get("kind")
    if kind == "ingredient":
        fresh = f" (prepared at t = {_num(item['fresh_at'])})" if "fresh_at" in item else ""
        return f"{item.get('state', 'raw')} {item.get('name', '?')}{fresh}"
    if kind == "dirty_plate":
        return "dirty plate"
    inside = list(item.get("contents", ()))
    if kind in ("pan", "pot") and item.get("cooking") and t is not None and on_stove:
        done, required = _progress(item, t, on_stove)
        if done >= required:  # the next event's tick makes everything inside cooked
            inside = [{**i, "state": "cooked"} for i in inside]
    contents = ", ".join(describe_item(i) for i in inside) or "empty"
    text = f"{kind} ({contents})"
    if kind in ("pan", "pot") and (item.get("required") or 0) > 0:
        text += ", " + cooking_words(item, t, on_stove, rules)
    return text


def cooking_words(
    item: Mapping[str, Any], t: float | None = None, on_stove: bool = False, rules: str | None = None
) -> str:
    """'cooking 21/24, cooked at t = 41', 'cooked 24/24 since t = 41 (...)', 'burnt 24/24'..."""
    done, required = _progress(item, t, on_stove)
    count = f"{_num(done)}/{_num(required)}"
    if any(i.get("state") == "burnt" for i in item.get("contents", ())):
        return f"burnt {count}"
    if not item.get("cooking"):
        return f"{'cooked' if _all_cooked(item) else 'stopped'} {count}"
    processed = float(item.get("processed") or 0)
    finish = float(item.get("stamp") or 0) + required - processed
    if t is not None and on_stove and done >= required:
        return (
            f"cooked {count} since t = {_num(finish)}: an Interact now finds it cooked "
            "(the kitchen records it at its next event)"
        )
    if t is not None and on_stove:
        return f"cooking {count}, cooked at t = {_num(finish)}"
    if t is not None and rules == "documented":
        return f"paused {count} off the stove (the documented rules pause it until it is back on one)"
    if t is not None:
        return (
            f"cooking {count} as last counted; its time off the stove counts once it is back on "
            "a stove (paracook rules)"
        )
    return f"cooking {count}"


def _all_cooked(item: Mapping[str, Any]) -> bool:
    return bool(item.get("contents")) and all(i.get("state") == "cooked" for i in item["contents"])


def describe_tile(
    level: Level,
    state: State,
    pos: Pos,
    t: float | None = None,
    positions: Mapping[str, tuple[float, float]] | None = None,
    rules: str | None = None,
) -> list[str]:
    """The full detail of one tile for a tooltip: what it is, what it holds, who stands there.
    `positions`: where the agents are drawn (mid-walk, or where a cut walk got to), if not
    where the state puts them."""
    x, y = pos
    if not level.in_bounds(pos):
        return [f"({x}, {y}) is outside the kitchen"]
    tile = level.tile_at(pos)
    lines: list[str] = []
    if tile == "wall":
        lines.append(f"wall ({x}, {y})")
    elif tile is None:
        lines.append(f"floor ({x}, {y})")
    else:
        lines.append(f"{tile.name} ({tile.kind or 'unknown kind'}) at ({x}, {y})")
        if tile.provides:
            lines.append(f"gives a raw {tile.provides}")
        item = state.get("stations", {}).get(tile.name)
        lines.append(f"on it: {describe_item(item, t, tile.kind == 'stove', rules)}")
        left = burn_left(level, item, t) if item and tile.kind == "stove" else None
        if left is not None:
            lines.append(f"burns in {_num(left)} unless taken off the stove")
        lines += _return_lines(level, state, tile, t)
    for name, agent in state.get("agents", {}).items():
        at = positions.get(name) if positions else None
        here = (round(at[0]), round(at[1])) == pos if at is not None else tuple(agent["pos"]) == pos
        if here:
            done = ", finished" if agent.get("finished") else ""
            lines.append(f"{name} holds {describe_item(agent.get('held'), t, False, rules)}{done}")
    return lines


def _return_lines(level: Level, state: State, tile: Station, t: float | None) -> list[str]:
    if tile.kind != "plate_return":
        return []
    lines = [f"dirty plates waiting: {(state.get('dirty_plates') or {}).get(tile.name, 0)}"]
    returns = [s.name for s in level.stations if s.kind == "plate_return"]
    pending = state.get("pending_returns") or []
    if returns and tile.name == returns[0] and pending:
        due = ", ".join(_num(d) for d in pending)
        soon = ""
        if t is not None:  # the engine delivers a due plate at its next event, so it can be overdue
            overdue = " (due: arrives at the next event)"
            soon = f" (next in {_num(pending[0] - t)})" if pending[0] > t else overdue
        lines.append(f"coming back at t = {due}{soon}")
    return lines
