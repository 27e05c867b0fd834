"""What the planner knows about a level: walkable tiles, exact travel times, stations by role,
and the ingredient needs of every ordered dish."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import Level
from game.engine.level import COOKWARE_TIME, default_cookware

INF = 10**9


class Unsolvable(ValueError):
    """The level cannot be served by any plan this planner knows how to build."""


@dataclass(frozen=True)
class Need:
    """One ingredient of one ordered dish, with the way it is prepared."""

    id: int
    dish: int  # index in the order list
    item: str
    kind: str  # raw | chop | pan | pot
    dispensers: tuple[str, ...]


class Geometry:
    """Floor tiles, all-pairs walking distances and the tiles next to each station."""

    def __init__(self, level: Level):
        self.level = level
        starts = [a.pos for a in level.agents]
        reach: dict[tuple[int, int], int] = {}
        for pos in starts:
            for p in level.distances(pos):
                reach.setdefault(p, len(reach))
        self.tiles = list(reach)
        self.index = reach
        n = len(self.tiles)
        self.dist = [[INF] * n for _ in range(n)]
        for i, p in enumerate(self.tiles):
            row = self.dist[i]
            for q, d in level.distances(p).items():
                j = reach.get(q)
                if j is not None:
                    row[j] = d
        self.stand: dict[str, tuple[int, ...]] = {}
        for s in level.stations:
            if s.name in self.stand:
                continue
            tiles = [reach[q] for q in level.neighbours(s.pos) if q in reach]
            self.stand[s.name] = tuple(sorted(tiles))
        # to_station[name][tile]: walking distance from a tile to the nearest stand tile
        self.to_station = {
            name: [min((self.dist[i][j] for j in tiles), default=INF) for i in range(n)]
            for name, tiles in self.stand.items()
        }
        self.agent_tiles = [reach[a.pos] for a in level.agents]

    def reachable(self, station: str) -> bool:
        return bool(self.stand.get(station))

    def station_distance(self, a: str, b: str) -> int:
        """Least walking between a tile next to a and a tile next to b."""
        to_b = self.to_station[b]
        return min((to_b[u] for u in self.stand[a]), default=INF)


class KitchenModel:
    """Stations by role and the needs of every dish, for one level and rule set."""

    def __init__(self, level: Level, rules: str):
        self.level = level
        self.rules = rules
        self.cumulative = rules == "paracook"  # cookware counters never reset
        self.geo = Geometry(level)
        geo = self.geo
        by_kind: dict[str, list[str]] = {}
        for s in level.stations:
            if s.kind and geo.reachable(s.name) and s.name not in by_kind.get(s.kind, []):
                by_kind.setdefault(s.kind, []).append(s.name)
        self.by_kind = by_kind
        self.boards = by_kind.get("chopping_board", [])
        self.windows = by_kind.get("serving_window", [])
        self.sinks = by_kind.get("sink", [])
        returns = [s.name for s in level.stations if s.kind == "plate_return"]
        self.plate_return = returns[0] if returns and geo.reachable(returns[0]) else None
        self.tables = by_kind.get("table", [])
        items = {s.name: s.item for s in level.stations}
        self.cookware = {
            kind: [s for s in by_kind.get("stove", []) if items.get(s) == kind] for kind in COOKWARE_TIME
        }
        self.plates = [
            s.name
            for s in level.stations
            if s.item == "plate" and geo.reachable(s.name) and s.kind != "stove"
        ]
        self.dispensers: dict[str, list[str]] = {}
        for s in level.stations:
            if s.kind == "dispenser" and s.provides and geo.reachable(s.name):
                self.dispensers.setdefault(s.provides, []).append(s.name)
        self.agent_names = list(level.agent_names)
        can_use = (getattr(level, "options", None) or {}).get("can_use") or {}
        self.allowed = [
            None if name not in can_use else frozenset(can_use[name]) for name in self.agent_names
        ]
        self.burn_after = (getattr(level, "options", None) or {}).get("burn_after")
        self.serve_within = (getattr(level, "options", None) or {}).get("serve_within")
        tiles = geo.agent_tiles
        self.divided = any(
            geo.to_station[name][t] >= INF for name in geo.stand for t in tiles if geo.stand[name]
        )
        # levels that need hand-overs or timing care get the slower, wider choice of moves
        self.flexible = (
            self.divided
            or any(a is not None for a in self.allowed)
            or self.burn_after is not None
            or self.serve_within is not None
        )
        self.needs = self._needs()
        self.dish_needs = [[n for n in self.needs if n.dish == d] for d in range(len(level.orders))]
        self.check()

    def _needs(self) -> list[Need]:
        needs: list[Need] = []
        for dish, order in enumerate(self.level.orders):
            recipe = self.level.recipe_book.get(order)
            if recipe is None:
                raise Unsolvable(f"order {dish + 1} ({order}) has no recipe")
            for ing in recipe.ingredients:
                if ing.state == "raw":
                    kind = "raw"
                elif ing.state == "chopped":
                    kind = "chop"
                elif ing.state == "cooked":
                    kind = ing.cookware or default_cookware(ing.item)
                else:
                    raise Unsolvable(f"{order}: cannot make {ing.item} {ing.state}")
                needs.append(Need(len(needs), dish, ing.item, kind, tuple(self.dispensers.get(ing.item, ()))))
        return needs

    def check(self) -> None:
        """Refuse levels that no plan of this planner can serve, saying why."""
        if not self.windows:
            raise Unsolvable("no reachable serving window")
        for n in self.needs:
            order = self.level.orders[n.dish]
            if not n.dispensers:
                raise Unsolvable(f"{order}: no reachable dispenser gives {n.item}")
            if n.kind in ("chop", "pan") and not self.boards:
                raise Unsolvable(f"{order}: {n.item} must be chopped but no board is reachable")
            if n.kind in ("pan", "pot") and not self.cookware[n.kind]:
                raise Unsolvable(f"{order}: {n.item} needs a {n.kind} on a reachable stove")
        dishes = len(self.level.orders)
        if dishes > len(self.plates) and (not self.sinks or self.plate_return is None):
            raise Unsolvable(f"{dishes} dishes but {len(self.plates)} plates and no way to wash one")
        if dishes and not self.plates:
            raise Unsolvable("no reachable plate")

    def may_use(self, agent: int, kinds: frozenset[str]) -> bool:
        allowed = self.allowed[agent]
        return allowed is None or kinds <= allowed

    @property
    def dishes(self) -> int:
        return len(self.level.orders)
