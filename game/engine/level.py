"""The immutable description of a kitchen task: grid, stations, agents, orders, recipes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Pos = tuple[int, int]

# A station's kind is the first of these its name contains (docs/rules.md).
STATION_KINDS = (
    "table",
    "dispenser",
    "chopping_board",
    "stove",
    "serving_window",
    "sink",
    "plate_return",
    "trash",
)
START_ITEMS = ("plate", "pan", "pot")
COOKWARE_TIME = {"pot": 16, "pan": 24}
POT_INGREDIENTS = frozenset({"rice", "pasta"})
PAN_INGREDIENTS = frozenset({"meat", "chicken", "mushroom", "tomato", "fish", "prawn"})
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def station_kind(name: str) -> str | None:
    """The kind a station name stands for, or None when it names no known kind."""
    for kind in STATION_KINDS:
        if kind in name:
            return kind
    return None


def default_cookware(item: str) -> str:
    return "pot" if item in POT_INGREDIENTS else "pan"


@dataclass(frozen=True)
class Station:
    name: str
    x: int
    y: int
    provides: str | None = None
    item: str | None = None

    @property
    def kind(self) -> str | None:
        return station_kind(self.name)

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)


@dataclass(frozen=True)
class AgentStart:
    name: str
    x: int
    y: int

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)


@dataclass(frozen=True)
class RecipeIngredient:
    item: str
    state: str
    cookware: str | None = None

    @property
    def key(self) -> str:
        return f"{self.item}:{self.state}"


@dataclass(frozen=True)
class Recipe:
    name: str
    text: str
    ingredients: tuple[RecipeIngredient, ...]
    category: str = ""

    def signature(self) -> tuple[str, ...]:
        """The sorted multiset of `name:state` a plate must hold to match."""
        return tuple(sorted(i.key for i in self.ingredients))

    def to_dict(self) -> dict[str, Any]:
        ings = []
        for i in self.ingredients:
            d = {"item": i.item, "state": i.state}
            if i.cookware:
                d["cookware"] = i.cookware
            ings.append(d)
        return {"name": self.name, "category": self.category, "recipe": self.text, "ingredients": ings}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Recipe:
        ings = tuple(RecipeIngredient(i["item"], i["state"], i.get("cookware")) for i in d["ingredients"])
        return cls(d["name"], d.get("recipe", ""), ings, d.get("category", ""))


@dataclass(frozen=True, eq=False)
class Level:
    """A kitchen and what it must serve. Build it once; the simulator only reads it."""

    name: str
    width: int
    height: int
    agents: tuple[AgentStart, ...]
    stations: tuple[Station, ...]
    walls: tuple[Pos, ...]
    orders: tuple[str, ...] = ()
    recipes: tuple[Recipe, ...] = ()
    rules: str = "paracook"
    title: str = ""
    description: str = ""
    meta: dict[str, Any] = field(default_factory=dict)  # suite, category, seed, ... (free-form)
    # scenario rules; absent means the benchmark's behaviour:
    # burn_after: W, serve_within: W, can_use: {agent: [station kinds]}
    options: dict[str, Any] = field(default_factory=dict)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    # -- lookups ---------------------------------------------------------------
    @property
    def recipe_book(self) -> dict[str, Recipe]:
        book = self._cache.get("recipes")
        if book is None:
            book = self._cache["recipes"] = {r.name: r for r in self.recipes}
        return book

    @property
    def station_by_name(self) -> dict[str, Station]:
        names = self._cache.get("stations")
        if names is None:
            names = {}
            for s in self.stations:
                names.setdefault(s.name, s)
            self._cache["stations"] = names
        return names

    @property
    def agent_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.agents)

    @property
    def blocked(self) -> frozenset[Pos]:
        cells = self._cache.get("blocked")
        if cells is None:
            cells = self._cache["blocked"] = frozenset([s.pos for s in self.stations] + list(self.walls))
        return cells

    def in_bounds(self, pos: Pos) -> bool:
        return 0 <= pos[0] < self.width and 0 <= pos[1] < self.height

    def is_floor(self, pos: Pos) -> bool:
        return self.in_bounds(pos) and pos not in self.blocked

    def tile_at(self, pos: Pos) -> Station | str | None:
        """The station at pos, "wall", or None for floor."""
        for s in self.stations:
            if s.pos == pos:
                return s
        return "wall" if pos in self.walls else None

    @property
    def plate_count(self) -> int:
        return sum(1 for s in self.stations if s.item == "plate")

    # -- geometry ----------------------------------------------------------------
    def _bfs(self, source: Pos) -> dict[Pos, Pos | None]:
        """Parents of every floor tile reachable from source (deterministic order)."""
        key = ("bfs", source)
        parents = self._cache.get(key)
        if parents is None:
            parents = {source: None}
            queue = deque([source])
            while queue:
                x, y = queue.popleft()
                for dx, dy in STEPS:
                    nxt = (x + dx, y + dy)
                    if nxt not in parents and self.is_floor(nxt):
                        parents[nxt] = (x, y)
                        queue.append(nxt)
            self._cache[key] = parents
        return parents

    def distances(self, source: Pos) -> dict[Pos, int]:
        """Walking distance from source to every reachable floor tile."""
        key = ("dist", source)
        dist = self._cache.get(key)
        if dist is None:
            dist = {}
            parents = self._bfs(source)
            for pos, parent in parents.items():  # BFS order: parents come first
                dist[pos] = 0 if parent is None else dist[parent] + 1
            self._cache[key] = dist
        return dist

    def path(self, source: Pos, target: Pos) -> list[Pos] | None:
        """Tiles walked from source to target, both included; None if unreachable."""
        parents = self._bfs(source)
        if target not in parents:
            return None
        out = [target]
        while parents[out[-1]] is not None:
            out.append(parents[out[-1]])
        return out[::-1]

    def neighbours(self, pos: Pos) -> Iterable[Pos]:
        return ((pos[0] + dx, pos[1] + dy) for dx, dy in STEPS)

    # -- plain data ----------------------------------------------------------------
    def to_paracook_map(self) -> dict[str, Any]:
        """The map in the benchmark's JSON layout (what LLM prompts show)."""
        tiles: list[dict[str, Any]] = []
        for s in self.stations:
            t: dict[str, Any] = {"x": s.x, "y": s.y, "type": "station", "name": s.name}
            if s.provides is not None:
                t["provides"] = s.provides
            if s.item is not None:
                t["item"] = s.item
            tiles.append(t)
        tiles += [{"x": x, "y": y, "type": "obstacle", "name": "wall"} for x, y in self.walls]
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "agents": [{"name": a.name, "x": a.x, "y": a.y} for a in self.agents],
            "tiles": tiles,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this level, as plain JSON-able data."""
        return {
            "map": self.to_paracook_map(),
            "orders": list(self.orders),
            "recipes": [
                self.recipe_book[n].to_dict() for n in dict.fromkeys(self.orders) if n in self.recipe_book
            ],
            "rules": self.rules,
            "title": self.title,
            "description": self.description,
            "meta": dict(self.meta),
            **({"options": dict(self.options)} if self.options else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Level:
        return level_from_map(
            d["map"],
            orders=d.get("orders", ()),
            recipes=[Recipe.from_dict(r) for r in d.get("recipes", ())],
            rules=d.get("rules", "paracook"),
            title=d.get("title", ""),
            description=d.get("description", ""),
            meta=d.get("meta", {}),
            options=d.get("options", {}),
        )

    def replace(self, **changes: Any) -> Level:
        """A copy with some fields changed (and fresh caches)."""
        fields = {
            f: getattr(self, f)
            for f in (
                "name",
                "width",
                "height",
                "agents",
                "stations",
                "walls",
                "orders",
                "recipes",
                "rules",
                "title",
                "description",
                "meta",
                "options",
            )
        }
        fields.update(changes)
        return Level(**fields)

    def with_orders(self, orders: Iterable[str], recipes: Iterable[Recipe] | None = None) -> Level:
        return self.replace(
            orders=tuple(orders), recipes=tuple(recipes) if recipes is not None else self.recipes
        )

    def with_rules(self, rules: str) -> Level:
        return self.replace(rules=rules)


def level_from_map(
    data: dict[str, Any],
    orders: Iterable[str] = (),
    recipes: Iterable[Recipe] = (),
    rules: str = "paracook",
    title: str = "",
    description: str = "",
    meta: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> Level:
    """Build a Level from an already-validated ParaCook map dict."""
    stations, walls = [], []
    for t in data["tiles"]:
        if t["type"] == "obstacle":
            walls.append((int(t["x"]), int(t["y"])))
        else:
            stations.append(Station(t["name"], int(t["x"]), int(t["y"]), t.get("provides"), t.get("item")))
    agents = tuple(AgentStart(a["name"], int(a["x"]), int(a["y"])) for a in data["agents"])
    return Level(
        name=data.get("name", "kitchen"),
        width=int(data["width"]),
        height=int(data["height"]),
        agents=agents,
        stations=tuple(stations),
        walls=tuple(walls),
        orders=tuple(orders),
        recipes=tuple(recipes),
        rules=rules,
        title=title,
        description=description,
        meta=dict(meta or {}),
        options=dict(options or {}),
    )
