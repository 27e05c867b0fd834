"""Things an agent can hold or a station can carry: ingredients, plates, cookware, dirty plates."""

from __future__ import annotations

from typing import Any

from .level import COOKWARE_TIME, PAN_INGREDIENTS, POT_INGREDIENTS

CONTAINERS = ("plate", "pan", "pot")
COOKWARE = ("pan", "pot")


class Ingredient:
    __slots__ = ("name", "state", "fresh_at")
    kind = "ingredient"

    def __init__(self, name: str, state: str = "raw", fresh_at: float | None = None):
        self.name = name
        self.state = state
        self.fresh_at = fresh_at  # first chopped or cooked (only tracked under serve_within)

    @property
    def key(self) -> str:
        return f"{self.name}:{self.state}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": "ingredient", "name": self.name, "state": self.state}
        if self.fresh_at is not None:
            d["fresh_at"] = self.fresh_at
        return d

    def __repr__(self) -> str:
        return f"{self.state} {self.name}"


class DirtyPlate:
    __slots__ = ()
    kind = "dirty_plate"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "dirty_plate"}

    def __repr__(self) -> str:
        return "dirty plate"


class Container:
    """A plate, pan or pot. Pans and pots carry the cooking counters of docs/rules.md."""

    __slots__ = ("kind", "contents", "processed", "required", "stamp", "cooking", "cooked_at")

    def __init__(self, kind: str):
        self.kind = kind
        self.contents: list[Ingredient] = []
        self.processed: float = 0
        self.required: float = 0
        self.stamp: float = 0
        self.cooking = False
        self.cooked_at: float | None = None  # when the last batch finished (only under burn_after)

    @property
    def is_cookware(self) -> bool:
        return self.kind != "plate"

    def accepts(self, ing: Ingredient) -> bool:
        if self.kind == "pan":
            return ing.state == "chopped" and ing.name in PAN_INGREDIENTS
        if self.kind == "pot":
            return ing.state == "raw" and ing.name in POT_INGREDIENTS
        return True

    def add(self, ing: Ingredient, now: float) -> None:
        """Put one ingredient in; cookware starts (or extends) its cooking."""
        self.contents.append(ing)
        if self.is_cookware:
            self.required += COOKWARE_TIME[self.kind]
            self.cooking = True
            if self.stamp == 0:
                self.stamp = now

    def advance(self, now: float) -> None:
        """One cooking step at an event time, for cookware sitting on a stove."""
        d = now - self.stamp
        self.stamp = now
        if self.processed + d >= self.required:
            # done: the counter stops at what was required (any excess is dropped), so a later
            # batch in the same cookware needs its full time counted again
            self.processed = self.required
            for ing in self.contents:
                ing.state = "cooked"
            self.cooking = False
        else:
            self.processed += d

    def reset(self) -> None:
        self.processed = self.required = self.stamp = 0
        self.cooking = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "contents": [i.to_dict() for i in self.contents]}
        if self.is_cookware:
            d.update(processed=self.processed, required=self.required, stamp=self.stamp, cooking=self.cooking)
            if self.cooked_at is not None:
                d["cooked_at"] = self.cooked_at
        return d

    def __repr__(self) -> str:
        inside = ", ".join(map(repr, self.contents)) or "empty"
        return f"{self.kind} ({inside})"


Item = Ingredient | DirtyPlate | Container


def item_from_dict(d: dict[str, Any] | None) -> Item | None:
    """Rebuild an item from its `to_dict` form (used by timelines and tests)."""
    if d is None:
        return None
    if d["kind"] == "ingredient":
        return Ingredient(d["name"], d["state"], d.get("fresh_at"))
    if d["kind"] == "dirty_plate":
        return DirtyPlate()
    c = Container(d["kind"])
    c.contents = [Ingredient(i["name"], i["state"], i.get("fresh_at")) for i in d.get("contents", ())]
    c.processed = d.get("processed", 0)
    c.required = d.get("required", 0)
    c.stamp = d.get("stamp", 0)
    c.cooking = d.get("cooking", False)
    c.cooked_at = d.get("cooked_at")
    return c


def cooking_progress(item: dict[str, Any], t: float, on_stove: bool) -> tuple[float, float]:
    """(done, required) time units of a pot's or pan's cooking as an Interact at t would find
    it. Cooking advances only at events, so a snapshot's counter lags between them; the tick that
    runs before any action at t brings it up to date. Cookware off a stove is not ticked."""
    done = float(item.get("processed", 0) or 0)
    required = float(item.get("required", 0) or 0)
    if on_stove and item.get("cooking"):
        done = min(required, done + max(0.0, t - float(item.get("stamp", 0) or 0)))
    return done, required


def describe(item: Item | None) -> str:
    return "nothing" if item is None else repr(item)
