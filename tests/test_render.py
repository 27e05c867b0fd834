"""The kitchen renderer draws what the engine says: agents where they stand (pixels), walking tile
by tile, bars filling, ingredient states told apart by shape, tooltips with the full detail.

Also home of the small kitchens the replay, viewer and export tests share."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from kitchens import it, kitchen, mv, pr, wait

from game.engine import Level, parse_plan, simulate
from game.replay import Replay, load_replay, save_replay
from game.ui.render import icons
from game.ui.render import palette as P
from game.ui.render.kitchen import PROCESS_BAR, KitchenRenderer, cooking_fraction, describe_tile, fit_tile

ROWS = ["DBTWRK#", ".1....O", "E.2...X", "C..#..."]
STATIONS = {
    "D": {"name": "dispenser1", "provides": "lettuce"},
    "B": {"name": "chopping_board1"},
    "T": {"name": "table1", "item": "plate"},
    "W": {"name": "serving_window"},
    "R": {"name": "plate_return"},
    "K": {"name": "sink"},
    "O": {"name": "stove1", "item": "pan"},
    "E": {"name": "dispenser2", "provides": "tomato"},
    "X": {"name": "trash"},
    "C": {"name": "chopping_board2"},
}
FINISH = {"action": "Finish"}


def small_level() -> Level:
    """Every station kind in a 7 x 4 kitchen with two agents and one salad to serve."""
    return kitchen(ROWS, STATIONS, ("salad_basic",))


def small_plan(failed: bool = False) -> dict:
    """agent1 serves the salad at t = 8; agent2 fries a tomato, waits (the dirty plate, due at 18,
    arrives with the event at 20), fetches it at 27, washes it and trashes what it plated.
    failed: agent1 chops the chopped lettuce again at 6."""
    a1 = [
        mv(0, 1),
        it("dispenser1"),
        mv(1, 1),
        it("chopping_board1"),
        pr("chopping_board1"),
        it("chopping_board1"),
        mv(2, 1),
        it("table1"),
        it("table1"),
        mv(3, 1),
        it("serving_window"),
        FINISH,
    ]
    if failed:
        a1[5] = pr("chopping_board1")
    a2 = [
        mv(1, 2),
        it("dispenser2"),
        mv(1, 3),
        it("chopping_board2"),
        pr("chopping_board2"),
        it("chopping_board2"),
        mv(5, 1),
        it("stove1"),
        mv(4, 1),
        wait(7),
        wait(7),
        it("plate_return"),
        mv(5, 1),
        it("sink"),
        pr("sink"),
        it("sink"),
        it("stove1"),
        mv(5, 2),
        it("trash"),
        FINISH,
    ]
    return {"agent1": a1, "agent2": a2}


def make_replay(tmp_path: Path, failed: bool = False, name: str | None = None) -> tuple[Path, Replay]:
    level = small_level()
    plan = parse_plan(small_plan(failed), level.agent_names)
    path = tmp_path / (name or ("failed.json" if failed else "ok.json"))
    save_replay(path, level, plan, simulate(level, plan), {"kind": "cli"})
    return path, load_replay(path)


@pytest.fixture(scope="module")
def pg():
    pygame.init()
    pygame.display.set_mode((64, 64))


@pytest.fixture
def run():
    level = small_level()
    return level, simulate(level, small_plan())


def draw_at(level: Level, result, t: float, tile: int = 40) -> tuple[KitchenRenderer, pygame.Surface]:
    r = KitchenRenderer(level, tile)
    surface = pygame.Surface((r.size[0] + 20, r.size[1] + 20))
    tl = result.timeline
    r.draw(surface, (10, 10), tl.state_at(t), timeline=tl, t=t)
    return r, surface


def test_the_small_run_serves_and_uses_every_station(run):
    level, result = run
    assert result.done and result.served_times == [8] and result.time == 35
    kinds = {s.kind for s in level.stations}
    assert kinds == {
        "table",
        "dispenser",
        "chopping_board",
        "stove",
        "serving_window",
        "sink",
        "plate_return",
        "trash",
    }


def test_agents_are_drawn_in_their_colour_on_their_tile_at_every_event_time(pg, run):
    level, result = run
    tl = result.timeline
    for t in tl.times:
        r, surface = draw_at(level, result, t)
        for i, name in enumerate(level.agent_names):
            x, y = tl.position_at(name, t)  # mid-walk agents stand on a tile of their path
            assert (x, y) == (int(x), int(y))
            pos = (int(x), int(y))
            point = r.agent_points[name]
            assert r.tile_at_pixel((10, 10), point) == pos, (t, name)
            assert surface.get_at(point)[:3] == P.agent_colour(i), (t, name)


def test_agents_walk_tile_by_tile_between_events(pg, run):
    level, result = run
    # agent2 walks (1, 3) -> (5, 1) from t = 6 to 12; at 9.5 it is half-way between two tiles
    x, y = result.timeline.position_at("agent2", 9.5)
    assert (x, y) != (round(x), round(y))
    r, surface = draw_at(level, result, 9.5)
    cx, cy = r.agent_points["agent2"]
    expected = r.pixel_of_tile((10, 10), (x, y))
    assert abs(cx - (expected[0] + 40 * 0.5 - round(40 * 0.22))) <= 1
    assert abs(cy - (expected[1] + 20)) <= 1
    assert surface.get_at((cx, cy))[:3] == P.agent_colour(1)
    start = r.tile_center((10, 10), (1, 3))
    assert surface.get_at(start)[:3] != P.agent_colour(1)


def test_process_bar_fills_with_time(pg, run):
    level, result = run
    # agent1 chops from t = 2 to 6: a quarter at 3, three quarters at 5
    for t, frac in ((3, 0.25), (5, 0.75)):
        r, surface = draw_at(level, result, t)
        rect = r.agent_rects["agent1"]
        bar_y = rect.y - max(6, 40 // 8) + 2
        filled = sum(1 for x in range(rect.x, rect.right) if surface.get_at((x, bar_y))[:3] == PROCESS_BAR)
        assert abs(filled - frac * (rect.w - 2)) <= 2, (t, filled)
    r, surface = draw_at(level, result, 7)
    rect = r.agent_rects["agent1"]
    row = [surface.get_at((x, rect.y - 3))[:3] for x in range(rect.x, rect.right)]
    assert PROCESS_BAR not in row


def test_cooking_advances_between_events_on_a_stove(run):
    _, result = run
    tl = result.timeline
    pan = tl.state_at(20)["stations"]["stove1"]  # chopped tomato added at 12; 24 to cook
    assert pan["cooking"] and pan["required"] == 24
    assert cooking_fraction(pan, 20, on_stove=True) == pytest.approx((20 - 12) / 24)
    assert cooking_fraction(pan, 26, on_stove=True) == pytest.approx((26 - 12) / 24)
    assert cooking_fraction(pan, 20, on_stove=False) == pytest.approx(pan["processed"] / 24)
    assert cooking_fraction({"kind": "pan", "contents": [], "required": 0}, 5, True) is None


def test_ingredient_states_differ_in_shape_not_only_colour(pg):
    def mask(name, state):
        return pygame.mask.from_surface(icons.ingredient(name, state, 48), 60)

    for name in icons.INGREDIENT_COLOURS:
        raw, chopped, cooked, burnt = (mask(name, s) for s in ("raw", "chopped", "cooked", "burnt"))
        for a, b in ((raw, chopped), (raw, cooked), (chopped, cooked), (cooked, burnt), (raw, burnt)):
            differ = a.count() + b.count() - 2 * a.overlap_area(b, (0, 0))
            assert differ > 0.1 * max(a.count(), b.count()), name


def test_every_station_kind_has_its_own_icon(pg):
    kinds = [
        "table",
        "dispenser",
        "chopping_board",
        "stove",
        "serving_window",
        "sink",
        "plate_return",
        "trash",
    ]
    images = {k: pygame.image.tobytes(icons.station(k, 40), "RGBA") for k in kinds}
    assert len(set(images.values())) == len(kinds)
    assert icons.station("dispenser", 40, "fish") is not icons.station("dispenser", 40, "tomato")


def test_items_and_plate_contents_are_drawn_on_stations(pg, run):
    level, result = run
    # at t = 7 the plate with chopped lettuce is on table1 (agent1 picks it up at 7 too: use 6.5)
    r, surface = draw_at(level, result, 6.5)
    empty = KitchenRenderer(level, 40).background()
    x, y = r.pixel_of_tile((10, 10), (2, 0))
    tile = surface.subsurface(pygame.Rect(x, y, 40, 40))
    bare = empty.subsurface(pygame.Rect(2 * 40, 0, 40, 40))
    assert pygame.image.tobytes(tile, "RGB") != pygame.image.tobytes(bare, "RGB")


def test_picking_helpers_round_trip(pg):
    level = small_level()
    r = KitchenRenderer(level, 50)
    area = pygame.Rect(100, 50, 600, 400)
    for pos in [(0, 0), (6, 3), (3, 2)]:
        px, py = r.pixel_of_tile(area, pos)
        assert r.tile_at_pixel(area, (px + 25, py + 25)) == pos
    ox, oy = r.origin(area)
    assert r.tile_at_pixel(area, (ox - 1, oy)) is None
    assert fit_tile(level, (350, 400)) == 50 and fit_tile(level, (700, 300)) == 75
    assert fit_tile(level, (7000, 4000)) == 96  # capped: huge tiles help nobody


def test_background_is_cached_per_tile_size(pg):
    r = KitchenRenderer(small_level(), 40)
    bg = r.background()
    assert r.background() is bg
    r.set_tile(60)
    assert r.background() is not bg and r.background().get_size() == (7 * 60, 4 * 60)


def test_describe_tile_gives_the_full_detail(run):
    level, result = run
    tl = result.timeline
    lines = describe_tile(level, tl.state_at(20), (6, 1), 20)
    assert lines[0] == "stove1 (stove) at (6, 1)"
    assert "chopped tomato" in lines[1] and "cooking" in lines[1]
    lines = describe_tile(level, tl.state_at(10), (4, 0), 10)
    assert "dirty plates waiting: 0" in lines and "coming back at t = 18 (next in 8)" in lines
    # returns are delivered at event times: due at 18, it arrives with the event at 20
    overdue = describe_tile(level, tl.state_at(19), (4, 0), 19)
    assert "coming back at t = 18 (due: arrives at the next event)" in overdue
    assert "dirty plates waiting: 1" in describe_tile(level, tl.state_at(20), (4, 0), 20)
    assert describe_tile(level, tl.state_at(0), (0, 0))[1] == "gives a raw lettuce"
    assert describe_tile(level, tl.state_at(1), (0, 1), 1) == ["floor (0, 1)", "agent1 holds raw lettuce"]
    assert describe_tile(level, tl.state_at(0), (6, 0)) == ["wall (6, 0)"]


def test_ghosts_and_highlight_are_drawn(pg, run):
    level, result = run
    r = KitchenRenderer(level, 40)
    surface = pygame.Surface(r.size)
    state = result.timeline.state_at(0)
    ghosts = {"agent1": {"pos": [5, 3], "held": None}}
    r.draw(surface, (0, 0), state, highlight={(3, 2): (255, 0, 0)}, ghosts=ghosts)
    assert surface.get_at((3 * 40 + 2, 2 * 40 + 20))[:3] == (255, 0, 0)
    ghost = surface.get_at(r.tile_center((0, 0), (5, 3)))[:3]
    assert ghost != P.FLOOR and ghost != P.agent_colour(0)  # faint: blended with the floor


def test_burn_after_counts_down_then_shows_burnt_food(pg):
    level = small_level().replace(options={"burn_after": 5})
    plan = {
        "agent1": [],
        "agent2": [
            mv(1, 2),
            it("dispenser2"),
            mv(1, 3),
            it("chopping_board2"),
            pr("chopping_board2"),
            it("chopping_board2"),
            mv(5, 1),
            it("stove1"),
            wait(25),
            wait(10),
        ],
    }
    result = simulate(level, plan)  # the tomato is cooked at the event at 37 and burnt at 47
    tl = result.timeline
    assert describe_tile(level, tl.state_at(40), (6, 1), 40)[2] == "burns in 2 unless taken off the stove"
    assert "burnt" in describe_tile(level, tl.state_at(47), (6, 1), 47)[1]
    for t, colour, frac in ((40, P.ERROR, 2 / 5), (47, P.ERROR, 1.0)):
        r, surface = draw_at(level, result, t)
        x, y = r.pixel_of_tile((10, 10), (6, 1))
        row = y + 2 + 4 + 1 + 1 if t == 40 else y + 4  # the thin burn bar below, or the red main bar
        red = sum(1 for px in range(x + 3, x + 37) if surface.get_at((px, row))[:3] == colour)
        assert abs(red - frac * 32) <= 2, (t, red)


def test_tooltip_names_when_an_ingredient_was_prepared():
    from game.ui.render.kitchen import describe_item

    item = {"kind": "ingredient", "name": "lettuce", "state": "chopped", "fresh_at": 8}
    assert describe_item(item) == "chopped lettuce (prepared at t = 8)"
    assert describe_item({"kind": "ingredient", "name": "fish", "state": "raw"}) == "raw fish"


def test_kept_wraps_and_ellipses_match_fresh_ones_and_are_never_shared(pg):
    """Word wraps and ellipses are kept between frames: the same answer as worked out afresh, a
    caller's list is its own, and a huge text neither is kept whole nor slows the next frame."""
    from game.ui.render import play_panels
    from game.ui.render.text import _ellipsized, ellipsize

    text = "Chop meat and fry it in a pan; plate the patty with raw bread and a raw slice of cheese."
    lines = play_panels.wrap(text, 220, 16)
    assert lines == list(play_panels._wrapped.__wrapped__(text, 220, 16)) and len(lines) > 1
    lines.append("mine")
    assert play_panels.wrap(text, 220, 16)[-1] != "mine"
    huge = "word " * 5_000
    before = play_panels._wrapped.cache_info().currsize
    assert play_panels.wrap(huge, 400, 16) == list(play_panels._wrapped.__wrapped__(huge, 400, 16))
    assert play_panels._wrapped.cache_info().currsize == before  # too long to keep
    short = ellipsize("x" * 1_000_000, 60, 15)
    assert short.endswith("…") and short == _ellipsized("x" * 61, 60, 15, False)
