"""The YAML level format: lossless round trips and broken files refused with line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import AgentStart, Level, Station
from game.engine.level import STATION_KINDS
from game.levels import LevelError, load_catalog, load_level
from game.levels.format import level_from_yaml, level_to_yaml

GOOD = """\
title: Test kitchen
orders: [salad_basic]
grid: |
  D1 C1 ## SW
  .. a1 .. ..
  T1 .. .. PR
legend:
  a1: {agent: agent1}
  D1: {station: dispenser1, provides: lettuce}
  C1: {station: chopping_board1}
  T1: {station: table1, item: plate}
  SW: serving_window
  PR: {station: plate_return}
"""


def errors_of(text: str) -> list[str]:
    with pytest.raises(LevelError) as info:
        level_from_yaml(text, "bad.yaml")
    assert info.value.source == "bad.yaml"
    return info.value.problems


def test_reads_the_grid_and_legend():
    level = level_from_yaml(GOOD, "good.yaml")
    assert (level.width, level.height) == (4, 3)
    assert [(a.name, a.pos) for a in level.agents] == [("agent1", (1, 1))]
    assert [(s.name, s.pos, s.provides, s.item) for s in level.stations] == [
        ("dispenser1", (0, 0), "lettuce", None),
        ("chopping_board1", (1, 0), None, None),
        ("table1", (0, 2), None, "plate"),
        ("serving_window", (3, 0), None, None),
        ("plate_return", (3, 2), None, None),
    ]
    assert level.walls == ((2, 0),)
    assert level.orders == ("salad_basic",)
    assert level.recipe_book["salad_basic"].ingredients[0].key == "lettuce:chopped"
    assert level.rules == "paracook" and level.name == "kitchen" and level.title == "Test kitchen"


def test_load_level_dispatches_yaml_and_orders_override(tmp_path: Path):
    path = tmp_path / "k.yaml"
    path.write_text(GOOD)
    assert load_level(path).orders == ("salad_basic",)
    assert load_level(path, orders=["salad/salad_full"]).orders == ("salad_full",)
    assert load_level(path, rules="documented").rules == "documented"


def test_round_trip_of_every_paracook_map(paracook_dir: Path):
    for f in sorted((paracook_dir / "maps").rglob("*.json")):
        source = json.loads(f.read_text())
        level = load_level(f, orders=["salad_basic", "burger_full"])
        again = level_from_yaml(level_to_yaml(level), "x.yaml")
        assert again.to_paracook_map() == source, f
        assert again.to_dict() == level.to_dict()


def test_walls_out_of_reading_order_keep_their_order():
    level = level_from_yaml(GOOD, "good.yaml").replace(walls=((2, 2), (2, 0), (1, 2)))
    text = level_to_yaml(level)
    assert '"#1": wall' in text
    assert level_from_yaml(text, "x").walls == ((2, 2), (2, 0), (1, 2))


def test_agents_sharing_a_tile_keep_their_order():
    base = level_from_yaml(GOOD, "good.yaml")
    level = base.replace(
        agents=(AgentStart("agent1", 1, 1), AgentStart("agent3", 2, 1), AgentStart("agent2", 1, 1))
    )
    text = level_to_yaml(level)
    assert "  .. a1+a2 a3 ..\n" in text and "a2: {agent: agent2}" in text
    assert [(a.name, a.pos) for a in level_from_yaml(text, "x").agents] == [
        ("agent1", (1, 1)),
        ("agent3", (2, 1)),
        ("agent2", (1, 1)),
    ]
    assert "only agents can share" in errors_of(GOOD.replace(".. a1 .. ..", ".. a1+C1 .. .."))[0]


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789 ", min_size=1, max_size=12)
prose = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=300)


@st.composite
def levels(draw) -> Level:
    w, h = draw(st.integers(3, 9)), draw(st.integers(3, 7))
    cells = [(x, y) for y in range(h) for x in range(w)]
    picked = draw(st.permutations(cells))
    n_st = draw(st.integers(1, min(8, len(cells) - 2)))
    n_wall = draw(st.integers(0, (len(cells) - n_st) // 4))
    kinds = ["table", "dispenser", "chopping_board", "stove", "serving_window", "sink", "trash"]
    stations = []
    for i, (x, y) in enumerate(picked[:n_st]):
        kind = draw(st.sampled_from(kinds))
        name = draw(st.sampled_from([f"{kind}{i}", f"my {kind} {i}", f"{kind}_{i}x"] + [kind] * (i == 0)))
        provides = draw(names) if kind == "dispenser" else draw(st.none() | names)
        items = [None, "pan", "pot"] + ["plate"] * (kind != "stove")
        stations.append(Station(name, x, y, provides, draw(st.sampled_from(items))))
    walls = tuple(picked[n_st : n_st + n_wall])
    floor = picked[n_st + n_wall :]
    agents = tuple(
        AgentStart(draw(names) + str(i), *draw(st.sampled_from(floor)))
        for i in range(draw(st.integers(1, 3)))
    )
    book = load_catalog()
    orders = tuple(draw(st.lists(st.sampled_from(sorted(book)), min_size=1, max_size=4)))
    meta = draw(
        st.dictionaries(
            st.sampled_from(["id", "seed", "suite", "x y", "yes"]),
            st.integers() | names | prose | st.booleans(),
            max_size=4,
        )
    )
    return Level(
        name=draw(names),
        width=w,
        height=h,
        agents=agents,
        stations=tuple(stations),
        walls=walls,
        orders=orders,
        recipes=tuple(book[o] for o in dict.fromkeys(orders)),
        rules=draw(st.sampled_from(["paracook", "documented"])),
        title=draw(prose),
        description=draw(prose),
        meta=meta,
        options=draw(options([a.name for a in agents], any(s.kind == "trash" for s in stations))),
    )


@st.composite
def options(draw, agents: list[str], has_trash: bool) -> dict:
    """Valid scenario options: windows of any positive size, can_use for some agents."""
    window = st.integers(1, 10**6) | st.floats(1e-6, 1e12, allow_nan=False, allow_infinity=False)
    kinds = st.lists(st.sampled_from(list(STATION_KINDS)), max_size=4)
    out = {}
    if has_trash and draw(st.booleans()):
        out["burn_after"] = draw(window)
    if draw(st.booleans()):
        out["serve_within"] = draw(window)
    if draw(st.booleans()):
        out["can_use"] = draw(st.dictionaries(st.sampled_from(agents), kinds, max_size=len(agents)))
    return dict(draw(st.permutations(list(out.items()))))


@settings(max_examples=examples(150), deadline=None)
@given(levels())
def test_round_trip_of_any_level(level: Level):
    """Whatever a level holds (names with spaces, odd text, walls in any order), it comes back."""
    text = level_to_yaml(level)
    try:
        again = level_from_yaml(text, "x.yaml")
    except LevelError as e:  # a random kitchen may wall a station off; nothing else is refused
        assert all(p.endswith("no agent can reach a tile next to it") for p in e.problems), text
        return
    assert again.to_dict() == level.to_dict(), text
    assert level_to_yaml(again) == text


def test_generated_text_is_stable_and_readable():
    level = level_from_yaml(GOOD, "good.yaml")
    text = level_to_yaml(level, comment="hello")
    assert text.startswith("# hello\ntitle: Test kitchen\n")
    assert "grid: |\n  D1 C1 ## SW\n  .. a1 .. ..\n  T1 .. .. PR\n" in text
    assert level_to_yaml(level, comment="hello") == text


@pytest.mark.parametrize(
    "edit, expected",
    [
        (
            ("item: plate}", "item: plate}\n  T1: {station: table2}"),
            "line 12, legend.T1: given twice (first on line 11)",
        ),
        (
            ("C1: {station: chopping_board1}", "C1: {station: choppingboard1}"),
            "line 10, legend.C1: station 'choppingboard1': unknown station kind",
        ),
        (
            ("T1: {station: table1, item: plate}", "T1: {station: dispenser1, provides: tomato}"),
            "line 11, legend.T1: station 'dispenser1': two stations are called 'dispenser1'",
        ),
        (("  .. a1 .. ..\n", "  .. a1 ..\n"), "line 5, grid row 1: has 3 cells, but row 0 has 4"),
        (("  T1 .. .. PR", "  T1 .. XX PR"), "line 6, grid row 2, column 2: 'XX' is not in the legend"),
        (("  T1 .. .. PR", "  T1 .. .. .."), "line 13, legend.PR: station is not drawn in the grid"),
        (("  .. a1 .. ..", "  .. a1 .. a1"), "line 8, legend.a1: agent is drawn 2 times"),
        (
            ("orders: [salad_basic]", "orders: [salad_basic, pizza]"),
            "line 2, orders[1]: no dish called 'pizza' in the catalog",
        ),
        (("orders: [salad_basic]", "orders: []"), "line 2, orders: must be a non-empty list"),
        (
            ("provides: lettuce}", "provides: lettuce, colour: red}"),
            "line 9, legend.D1: unknown field 'colour'",
        ),
        (
            ("item: plate}", "item: spoon}"),
            "line 11, legend.T1: station 'table1': item 'spoon' must be one of",
        ),
        (
            ("C1: {station: chopping_board1}", "C1: {station: stove1, item: plate}"),
            "line 10, legend.C1: station 'stove1': a stove holds only a pot or a pan",
        ),
        (
            ("title: Test kitchen", "title: Test kitchen\nrules: fast"),
            "line 2, rules: unknown rule set 'fast'",
        ),
        (("title: Test kitchen", "titel: Test kitchen"), "line 1, titel: unknown field"),
        (("legend:", "meta: [1, 2]\nlegend:"), "line 7, meta: must be a mapping"),
        (
            ("D1: {station: dispenser1, provides: lettuce}", "D1: {station: dispenser1}"),
            "line 9, legend.D1: station 'dispenser1': a dispenser needs 'provides'",
        ),
        (
            ("  a1: {agent: agent1}", "  a1: {agent: agent1, speed: 2}"),
            "line 8, legend.a1: an agent entry is",
        ),
    ],
)
def test_broken_files_name_line_and_field(edit: tuple[str, str], expected: str):
    old, new = edit
    assert old in GOOD
    problems = errors_of(GOOD.replace(old, new, 1))
    assert any(p.startswith(expected) for p in problems), problems


def test_unreachable_station_is_refused_at_its_legend_line():
    text = GOOD.replace(
        "  D1 C1 ## SW\n  .. a1 .. ..\n  T1 .. .. PR", "  D1 C1 ## SW\n  .. a1 ## ..\n  T1 .. ## PR"
    )
    problems = errors_of(text)
    assert "line 12, legend.SW: station 'serving_window': no agent can reach a tile next to it" in problems
    assert "line 13, legend.PR: station 'plate_return': no agent can reach a tile next to it" in problems


def test_yaml_syntax_error_names_line_and_column():
    problems = errors_of(GOOD.replace("orders: [salad_basic]", "orders: [salad_basic"))
    assert problems[0].startswith("line ") and "not valid YAML" in problems[0]


def test_missing_grid_and_non_mapping_documents():
    missing = errors_of("orders: [salad_basic]\n")
    assert missing[0] == "line 1, grid: missing: draw the kitchen under 'grid: |'"
    assert errors_of("- just\n- a list\n")[0].startswith("line 1: a level must be a mapping")
    assert errors_of("")[0] == "the file is empty"
    assert "grid: write the rows as a block" in errors_of(GOOD.replace("grid: |", "grid: >"))[0]


def test_unsafe_tags_are_not_executed():
    text = GOOD.replace("title: Test kitchen", "title: !!python/object/apply:os.system [echo hi]")
    problems = errors_of(text)
    assert problems and ("title" in problems[0] or "not valid YAML" in problems[0])


def test_grid_as_a_list_of_rows():
    text = GOOD.replace(
        "grid: |\n  D1 C1 ## SW\n  .. a1 .. ..\n  T1 .. .. PR",
        'grid:\n  - "D1 C1 ## SW"\n  - ".. a1 .. .."\n  - "T1 .. .. PR"',
    )
    assert level_from_yaml(text, "x").to_dict() == level_from_yaml(GOOD, "x").to_dict()


def test_load_level_reports_a_missing_file(tmp_path: Path):
    with pytest.raises(LevelError, match="cannot read the file"):
        load_level(tmp_path / "nope.yaml")


def test_the_documented_example_loads():
    page = (Path(__file__).resolve().parents[1] / "docs" / "reference" / "level-format.md").read_text()
    example = page.split("```yaml\n", 1)[1].split("```", 1)[0]
    level = level_from_yaml(example, "docs/reference/level-format.md")
    assert level.title == "First salad" and level.orders == ("salad_basic",)
    tutorial = load_level(Path(__file__).resolve().parents[1] / "levels/tutorial/01_first_salad.yaml")
    assert level.to_paracook_map() == tutorial.to_paracook_map()
