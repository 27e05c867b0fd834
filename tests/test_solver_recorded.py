"""The bounds shipped with the package (`bound/recorded.py`): read only by the code that recorded
them, equal to what that code works out, and never a way to a wrong or broken bound."""

from __future__ import annotations

import json
from collections import OrderedDict
from importlib import resources

import pytest
from conftest import PARACOOK, human_cases, sweep

from game.levels import load_level
from game.paths import LEVELS_DIR
from game.planners.solver.bound import lower, recorded, routes_by_default
from game.planners.solver.bound.route_bound import route_bound_spent

SHIPPED = json.loads(resources.files(recorded.__package__).joinpath(recorded.TABLE).read_text("utf-8"))
# a sample that covers each kind of entry at little cost: one-order levels (with their routes
# terms) for one agent and for two, two-order kitchens, a suite level with three agents
SAMPLE = [
    "tutorial/01_first_salad.yaml",
    "tutorial/04_two_cooks.yaml",
    "collab/02_chef_and_prep.yaml",
    "scenarios/01_divided_salad.yaml",
    "suite/salad/seed_84/agent_num_3/orders_num_2.yaml",
]


@pytest.fixture
def fresh(monkeypatch):
    """No bound kept in this process, and the table read anew (before and after the test)."""
    monkeypatch.setattr(lower, "_BOUNDS", OrderedDict())
    monkeypatch.setattr(lower, "_ROUTES", OrderedDict())
    table = recorded._table  # the cached reader, whatever a test puts in its place
    table.cache_clear()
    yield
    table.cache_clear()


def test_the_shipped_table_was_recorded_by_this_code():
    here = recorded.library_versions()
    if SHIPPED.get("libraries") != here:
        pytest.skip(f"the table was recorded under {SHIPPED.get('libraries')}, this is {here}: not read here")
    assert SHIPPED["code"] == recorded.code_digest(), (
        "the engine or the bound changed since the bounds were recorded: "
        "run `python benchmarks/record_bounds.py` and commit the table"
    )
    assert recorded.table_is_current()


def test_every_bundled_level_is_in_the_table():
    if not recorded.table_is_current():
        pytest.skip("the table is not read here (see the test above)")
    for f in sorted(LEVELS_DIR.rglob("*.yaml")):
        if f.name != "recipes.yaml":
            level = load_level(f)
            assert not level.orders or recorded.recorded_bound(level) is not None, f


@sweep("name", SAMPLE)
def test_recorded_entries_are_what_the_code_works_out(name):
    if not recorded.table_is_current():
        pytest.skip("the table is not read here (see the first test)")
    level = load_level(LEVELS_DIR / name)
    got = recorded.recorded_bound(level)
    assert got is not None and recorded.entry_of(got) == recorded.entry_of(lower._work_out(level))
    for rules in ("paracook", "documented") if routes_by_default(level) else ():
        assert recorded.recorded_routes(level, rules) == route_bound_spent(level, rules)


def test_a_human_study_task_is_recorded_as_the_code_works_it_out():
    if not PARACOOK.is_dir():
        pytest.skip(f"needs the ParaCook data ({PARACOOK}; set PARACOOK_DIR)")
    if not recorded.table_is_current():
        pytest.skip("the table is not read here (see the first test)")
    cases = {str(f.relative_to(PARACOOK / "human")): (m, o) for f, m, o in human_cases()}
    assert len(cases) == 24
    level = load_level(*cases["salad/seed_126/agent_num_2/orders_num_2.json"])
    got = recorded.recorded_bound(level)
    assert got is not None and recorded.entry_of(got) == recorded.entry_of(lower._work_out(level))


def test_a_title_or_description_is_not_the_kitchen_but_the_rules_are():
    level = load_level(LEVELS_DIR / SAMPLE[1])
    renamed = level.replace(title="Another name", description="Other words")
    assert recorded.kitchen_key(renamed, "paracook") == recorded.kitchen_key(level, "paracook")
    assert recorded.kitchen_key(level, "documented") != recorded.kitchen_key(level, "paracook")
    other = level.replace(orders=tuple(reversed(level.orders)) + level.orders)
    assert recorded.kitchen_key(other, "paracook") != recorded.kitchen_key(level, "paracook")


def test_the_planner_takes_a_recorded_bound_without_working_it_out(fresh, monkeypatch):
    if not recorded.table_is_current():
        pytest.skip("the table is not read here (see the first test)")
    level = load_level(LEVELS_DIR / SAMPLE[1])

    def never(*_):
        raise AssertionError("worked out although recorded")

    monkeypatch.setattr(lower, "_work_out", never)
    monkeypatch.setattr(lower, "route_bound_spent", never)
    b = lower.lower_bound(level, "paracook", routes=True)
    entry = recorded.recorded_bound(level)
    value, cost = recorded.recorded_routes(level, "paracook")
    assert b.value == max(entry.value, value or 0) and b.cost == entry.cost + cost


def test_a_table_recorded_by_other_code_is_not_read(fresh, monkeypatch):
    level = load_level(LEVELS_DIR / SAMPLE[0])
    monkeypatch.setattr(recorded, "code_digest", lambda: "another engine")
    assert not recorded.table_is_current() and recorded.recorded_bound(level) is None
    worked = []
    plain = lower._work_out
    monkeypatch.setattr(lower, "_work_out", lambda lv: worked.append(lv) or plain(lv))
    assert lower.lower_bound(level).value == plain(level).value and worked


@pytest.mark.parametrize(
    "entry",
    [
        "text",
        [1, 2, 3, 4],
        [9, "x"],
        ["9", {}, 0.1],
        [9, {"hands": "9"}, 0.1],
        [9, {"hands": 9.5}, 0.1],
        [-1, {}, 0.1],
        [10**400, {}, 0.1],
        [9, {}, float("nan")],
        [9, {}, -1],
        [9, [], 0.1],
        [True, {}, 0.1],
        None,
    ],
)
def test_a_damaged_entry_is_worked_out_instead(fresh, monkeypatch, entry):
    level = load_level(LEVELS_DIR / SAMPLE[0])
    key = recorded.kitchen_key(level, level.rules)
    monkeypatch.setattr(recorded, "_table", lambda: {"bounds": {key: entry}, "routes": {key: entry}})
    assert recorded.recorded_bound(level) is None
    assert recorded.recorded_routes(level, level.rules) is None
    assert lower.lower_bound(level).value == lower._work_out(level).value


@pytest.mark.parametrize(
    "text", ["", "{", "[]", '{"format": 1}', "\udcff", json.dumps({**SHIPPED, "bounds": []})]
)
def test_an_unreadable_table_is_no_table(fresh, monkeypatch, text):
    class Files:
        def joinpath(self, _):
            return self

        def read_text(self, encoding):
            if "\udcff" in text:
                raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            return text

    monkeypatch.setattr(recorded.resources, "files", lambda _: Files())
    assert not recorded.table_is_current()
    assert recorded.recorded_bound(load_level(LEVELS_DIR / SAMPLE[0])) is None
