"""Importing a ParaCook data folder: 360 tasks whose kitchens match the source maps exactly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.levels import LevelError, load_level
from game.levels.importer import import_paracook


def test_import_yields_360_tasks_matching_the_maps(paracook_dir: Path, tmp_path: Path):
    written, problems = import_paracook(paracook_dir, tmp_path)
    assert problems == []
    assert len(written) == 360
    orders = json.loads((paracook_dir / "orders.json").read_text())
    for path in written:
        cat, seed, agents, on = path.relative_to(tmp_path).with_suffix("").parts
        level = load_level(path)
        source = json.loads((paracook_dir / "maps" / cat / seed / f"{agents}.json").read_text())
        assert level.to_paracook_map() == source, path
        assert list(level.orders) == [o.split("/")[-1] for o in orders[f"{cat}/{seed}/{on}"]]
        assert level.meta["id"] == f"{cat}/{seed}/{agents}/{on}"
        assert level.meta["suite"] == "paracook" and level.meta["seed"] == int(seed[5:])


def _small_copy(src: Path, dst: Path) -> Path:
    (dst / "maps" / "salad" / "seed_42").mkdir(parents=True)
    shutil.copy(src / "maps/salad/seed_42/agent_num_2.json", dst / "maps/salad/seed_42/")
    orders = json.loads((src / "orders.json").read_text())
    (dst / "orders.json").write_text(
        json.dumps({k: v for k, v in orders.items() if k.startswith("salad/seed_42/")})
    )
    (dst / "recipes").mkdir()
    shutil.copy(src / "recipes/salad.json", dst / "recipes/")
    return dst


def test_import_reports_recipes_the_catalog_makes_differently(paracook_dir: Path, tmp_path: Path):
    src = _small_copy(paracook_dir, tmp_path / "src")
    recipes = json.loads((src / "recipes/salad.json").read_text())
    recipes[0]["ingredients"][0]["state"] = "raw"
    recipes.append({"name": "salad_pizza", "recipe": "", "ingredients": []})
    (src / "recipes/salad.json").write_text(json.dumps(recipes))
    written, problems = import_paracook(src, tmp_path / "out")
    assert len(written) == 4
    assert any("salad_basic" in p and "differ" in p for p in problems)
    assert any("no dish 'salad_pizza'" in p for p in problems)


def test_import_reports_a_broken_map_and_goes_on(paracook_dir: Path, tmp_path: Path):
    src = _small_copy(paracook_dir, tmp_path / "src")
    bad = src / "maps/salad/seed_42/agent_num_1.json"
    data = json.loads((src / "maps/salad/seed_42/agent_num_2.json").read_text())
    data["agents"][0]["x"], data["agents"][0]["y"] = data["tiles"][0]["x"], data["tiles"][0]["y"]
    bad.write_text(json.dumps(data))
    written, problems = import_paracook(src, tmp_path / "out")
    assert len(written) == 4
    assert any("agent_num_1.json" in p and "agents[agent1]: starts on" in p for p in problems)


def test_import_refuses_a_folder_without_maps(tmp_path: Path):
    with pytest.raises(LevelError, match="needs maps/ and orders.json"):
        import_paracook(tmp_path, tmp_path / "out")
