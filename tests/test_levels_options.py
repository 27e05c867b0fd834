"""Scenario options in level files: read, checked with line and field, written back losslessly."""

from __future__ import annotations

import pytest

from game.engine import errors as E
from game.engine import simulate
from game.levels import LevelError, check_level
from game.levels.format import level_from_yaml, level_to_yaml

LEVEL = """\
title: Options
orders: [burger_basic]
options:
  burn_after: 10
  serve_within: 60.5
  can_use:
    agent1: [dispenser, chopping_board, table]
    agent2: [stove, table, serving_window, trash]
grid: |
  D1 C1 S1 ## SW
  .. a1 .. a2 ..
  T1 D2 .. .. TR
legend:
  a1: {agent: agent1}
  a2: {agent: agent2}
  D1: {station: dispenser1, provides: meat}
  D2: {station: dispenser2, provides: bread}
  C1: {station: chopping_board1}
  S1: {station: stove1, item: pan}
  T1: {station: table1, item: plate}
  SW: {station: serving_window}
  TR: {station: trash}
"""


def errors_of(text: str) -> list[str]:
    with pytest.raises(LevelError) as info:
        level_from_yaml(text, "bad.yaml")
    return info.value.problems


def test_options_are_read_and_reach_the_engine():
    level = level_from_yaml(LEVEL, "ok.yaml")
    assert level.options == {
        "burn_after": 10,
        "serve_within": 60.5,
        "can_use": {
            "agent1": ["dispenser", "chopping_board", "table"],
            "agent2": ["stove", "table", "serving_window", "trash"],
        },
    }
    r = simulate(level, {"agent2": [{"action": "Interact", "target": "dispenser2"}]})
    assert r.error_detail.kind == E.NOT_ALLOWED and "agent2 may not use dispensers" in r.error


def test_options_round_trip_and_stay_out_of_the_paracook_map():
    level = level_from_yaml(LEVEL, "ok.yaml")
    text = level_to_yaml(level)
    assert (
        "options:\n  burn_after: 10\n  serve_within: 60.5\n  can_use:\n"
        "    agent1: [dispenser, chopping_board, table]\n" in text
    )
    again = level_from_yaml(text, "again.yaml")
    assert again.to_dict() == level.to_dict() and again.options == level.options
    assert level_to_yaml(again) == text
    assert "options" not in level.to_paracook_map()
    assert level.to_paracook_map() == level.replace(options={}).to_paracook_map()


def test_a_level_without_options_writes_no_options_field():
    level = level_from_yaml(LEVEL, "ok.yaml").replace(options={})
    assert "options" not in level_to_yaml(level) and "options" not in level.to_dict()


@pytest.mark.parametrize("value", [1e-05, 2.5e20, 0.25, 7])
def test_any_positive_number_round_trips(value):
    level = level_from_yaml(LEVEL, "ok.yaml").replace(options={"serve_within": value})
    assert level_from_yaml(level_to_yaml(level), "x").options == {"serve_within": value}


@pytest.mark.parametrize(
    "edit, expected",
    [
        (
            ("  burn_after: 10", "  burn_after: 10\n  cook_faster: 2"),
            "line 5, options.cook_faster: unknown option (options are burn_after, serve_within, can_use)",
        ),
        (("burn_after: 10", "burn_after: 0"), "line 4, options.burn_after: must be a positive number"),
        (("burn_after: 10", "burn_after: -3"), "line 4, options.burn_after: must be a positive number"),
        (("burn_after: 10", "burn_after: soon"), "line 4, options.burn_after: must be a positive number"),
        (("burn_after: 10", "burn_after: true"), "line 4, options.burn_after: must be a positive number"),
        (("burn_after: 10", "burn_after: .inf"), "line 4, options.burn_after: must be a positive number"),
        (("serve_within: 60.5", "serve_within: [1]"), "line 5, options.serve_within: must be a positive"),
        (
            ("TR: {station: trash}", "TR: {station: table2}"),
            "line 4, options.burn_after: burnt food must be thrown away: a kitchen with burn_after needs a trash",
        ),
        (
            ("    agent2: [stove", "    agent3: [stove"),
            "line 8, options.can_use.agent3: no agent called 'agent3' in this kitchen (agents: agent1, agent2)",
        ),
        (
            ("[dispenser, chopping_board, table]", "[dispenser, oven, table]"),
            "line 7, options.can_use.agent1[1]: 'oven' is not a station kind (kinds: table, dispenser,",
        ),
        (
            ("[dispenser, chopping_board, table]", "dispenser"),
            "line 7, options.can_use.agent1: must be a list of station kinds",
        ),
        (
            (
                "  can_use:\n    agent1: [dispenser, chopping_board, table]\n    agent2: [stove, table, "
                "serving_window, trash]",
                "  can_use: [agent1]",
            ),
            "line 6, options.can_use: must map agent names",
        ),
        (
            ("options:\n  burn_after: 10", "options: [burn_after]\nx:\n  burn_after: 10"),
            "line 3, options: must be a mapping",
        ),
        (
            ("  serve_within: 60.5", "  serve_within: 60.5\n  burn_after: 3"),
            "line 6, options.burn_after: given twice (first on line 4)",
        ),
    ],
)
def test_broken_options_name_line_and_field(edit: tuple[str, str], expected: str):
    old, new = edit
    assert old in LEVEL
    problems = errors_of(LEVEL.replace(old, new, 1))
    assert any(p.startswith(expected) for p in problems), problems


def test_options_of_a_level_built_in_code_are_checked_too():
    level = level_from_yaml(LEVEL, "ok.yaml")
    assert check_level(level) == []
    bad = level.replace(options={"burn_after": -1, "can_use": {"agent9": ["sink"]}, "colour": 1})
    assert check_level(bad) == [
        "options.colour: unknown option (options are burn_after, serve_within, can_use)",
        "options.burn_after: must be a positive number of time units, not -1",
        "options.can_use.agent9: no agent called 'agent9' in this kitchen (agents: agent1, agent2)",
    ]
    assert check_level(level.replace(options=[1])) == ["options: must be a mapping of option names to values"]
