"""The generated 360-task suite: committed files, byte-identical regeneration, the paper's layout."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from game.engine import Level
from game.levels import load_catalog, load_level
from game.levels.generator import (
    HEIGHT,
    WIDTH,
    category_needs,
    check_suite,
    generate_kitchen,
    generate_orders,
    write_suite,
)
from game.levels.suite import CATEGORIES, SEEDS, SUITE_DIR, SUITES, suite_levels, suite_tasks
from game.levels.task import task_info


@pytest.fixture(scope="module")
def suite() -> dict[str, Level]:
    return {p.relative_to(SUITE_DIR).with_suffix("").as_posix(): load_level(p) for p in suite_levels("suite")}


def test_regeneration_is_byte_identical(tmp_path: Path):
    written = write_suite(tmp_path)
    assert len(written) == 360
    committed = sorted(p.relative_to(SUITE_DIR) for p in SUITE_DIR.rglob("*.yaml"))
    assert sorted(p.relative_to(tmp_path) for p in written) == committed
    for rel in committed:
        assert (tmp_path / rel).read_bytes() == (SUITE_DIR / rel).read_bytes(), rel
    assert check_suite(tmp_path) == []


def test_check_suite_spots_an_edited_file(tmp_path: Path):
    write_suite(tmp_path)
    victim = tmp_path / "salad/seed_42/agent_num_1/orders_num_1.yaml"
    victim.write_text(victim.read_text().replace("rules: paracook", "rules: documented"))
    assert check_suite(tmp_path) == [victim]


def test_all_360_tasks_load_with_their_grouping_facts(suite: dict[str, Level]):
    assert len(suite) == 360
    counts = Counter()
    for ident, level in suite.items():
        info = task_info(level)
        assert info["id"] == ident == level.meta["id"]
        assert level.meta["suite"] == "suite"
        assert ident.startswith(f"{info['category']}/seed_{info['seed']}/agent_num_{info['agents']}/")
        assert ident.endswith(f"orders_num_{info['orders']}")
        counts[(info["difficulty"], info["category"])] += 1
    assert counts == {
        (d, c): 60
        for d, c in [
            ("easy", "salad"),
            ("easy", "sashimi"),
            ("medium", "pasta"),
            ("medium", "burrito"),
            ("hard", "sushi"),
            ("hard", "burger"),
        ]
    }


def test_kitchens_follow_the_benchmark_configuration(suite: dict[str, Level]):
    for ident, level in suite.items():
        category = level.meta["category"]
        items, cookware = category_needs(category)
        assert (level.width, level.height) == (WIDTH, HEIGHT)
        kinds = Counter(s.kind for s in level.stations)
        assert kinds["dispenser"] == len(items) and kinds["chopping_board"] == 2
        assert kinds["stove"] == 2 * len(cookware)
        assert kinds["serving_window"] == kinds["sink"] == kinds["plate_return"] == 1
        assert kinds["table"] == 4 and level.plate_count == 2 and len(level.walls) == 2
        assert sorted(s.provides for s in level.stations if s.kind == "dispenser") == sorted(items)
        assert Counter(s.item for s in level.stations if s.kind == "stove") == {c: 2 for c in cookware}
        border = {
            (x, y) for x in range(WIDTH) for y in range(HEIGHT) if x in (0, WIDTH - 1) or y in (0, HEIGHT - 1)
        }
        for s in level.stations:
            assert (s.pos in border) == (s.kind != "table"), (ident, s)
        assert not border & set(level.walls)
        for a in level.agents:
            reach = level.distances(a.pos)
            assert all(any(n in reach for n in level.neighbours(s.pos)) for s in level.stations), ident


def test_one_kitchen_per_category_and_seed(suite: dict[str, Level]):
    for c in CATEGORIES:
        for s in SEEDS:
            maps = [
                suite[f"{c}/seed_{s}/agent_num_{k}/orders_num_{n}"].to_paracook_map()
                for k in (1, 2, 3)
                for n in (1, 2, 3, 4)
            ]
            assert all(m["tiles"] == maps[0]["tiles"] for m in maps)
            three = maps[-1]["agents"]
            for m in maps:
                assert m["agents"] == three[: len(m["agents"])]


def test_orders_come_from_the_category_and_grow_by_prefix(suite: dict[str, Level]):
    book = load_catalog()
    for c in CATEGORIES:
        for s in SEEDS:
            full = generate_orders(c, s, 4)
            assert all(book[d].category == c for d in full)
            for n in (1, 2, 3, 4):
                assert list(suite[f"{c}/seed_{s}/agent_num_2/orders_num_{n}"].orders) == full[:n]


def test_the_generator_is_seeded_and_different_seeds_differ():
    a = generate_kitchen("pasta", 42).to_paracook_map()
    assert generate_kitchen("pasta", 42).to_paracook_map() == a
    assert generate_kitchen("pasta", 84).to_paracook_map() != a
    dishes = {tuple(generate_orders(c, s, 4)) for c in CATEGORIES for s in SEEDS}
    assert len(dishes) > 20


def test_named_suites():
    assert len(suite_levels("suite")) == 360 and all(p.is_file() for p in suite_levels("suite"))
    human = suite_levels("suite24")
    assert len(human) == 24
    ids = {p.relative_to(SUITE_DIR).with_suffix("").as_posix() for p in human}
    assert "burger/seed_42/agent_num_2/orders_num_3" in ids
    assert "salad/seed_126/agent_num_2/orders_num_2" in ids
    assert all("/agent_num_2/" in i for i in ids)
    assert {i.split("/")[1] for i in ids} == {"seed_42", "seed_84", "seed_126"}
    assert len(suite_levels("hard")) == 120 and len(suite_levels("sushi")) == 60
    assert len(suite_levels("tutorial")) >= 5
    assert set(SUITES) >= {"suite", "human24", "suite24", "tutorial"}
    with pytest.raises(ValueError, match="no suite called"):
        suite_levels("nonsense")


def test_task_ids_match_the_task_table():
    assert [t.path() for t in suite_tasks()] == suite_levels("suite")
