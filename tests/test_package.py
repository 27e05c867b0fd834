"""The package finds its own files: bundled levels by id, imported tasks by id, the data folder,
one version."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

import game
from game import paths
from game.levels import LevelError, load_level
from game.levels.files import level_files
from game.levels.ids import level_id, resolve
from game.levels.suite import HAND_MADE, suite_levels
from game.levels.validate import check_level
from game.planners.llm.tasks import resolve_levels

BUNDLED = sorted(p for p in paths.LEVELS_DIR.rglob("*.yaml") if p.name != "recipes.yaml")


def test_the_levels_folder_is_the_bundled_one():
    assert paths.LEVELS_DIR.resolve() == (ROOT / "levels").resolve()
    assert (paths.LEVELS_DIR / "recipes.yaml").is_file()
    assert len(BUNDLED) == 360 + sum(len(suite_levels(n)) for n in HAND_MADE)


def test_every_bundled_level_id_resolves_and_validates():
    broken = []
    for path in BUNDLED:
        ident = level_id(path)
        assert ident is not None and not ident.endswith(".yaml")
        assert resolve(ident) == path
        level = load_level(ident)
        if check_level(level):
            broken.append(ident)
    assert not broken


@pytest.mark.parametrize(
    "ident, title",
    [("tutorial/01_first_salad", "First salad"), ("scenarios/01_divided_salad", None)],
)
def test_an_id_loads_the_same_level_as_its_path(ident, title):
    by_id, by_path = load_level(ident), load_level(ROOT / "levels" / f"{ident}.yaml")
    assert by_id.to_paracook_map() == by_path.to_paracook_map()
    assert (by_id.orders, by_id.title, by_id.meta) == (by_path.orders, by_path.title, by_path.meta)
    assert title is None or by_id.title == title


def test_a_suite_id_names_a_benchmark_task():
    level = load_level("suite/burger/seed_42/agent_num_2/orders_num_2")
    assert level.meta["id"] == "burger/seed_42/agent_num_2/orders_num_2" and len(level.agents) == 2


def test_a_folder_id_names_its_levels():
    assert len(level_files([resolve("suite/burger/seed_42", folders=True)])) == 12
    assert suite_levels("suite/salad/seed_84/agent_num_1") == [
        ROOT / "levels/suite/salad/seed_84/agent_num_1" / f"orders_num_{n}.yaml" for n in (1, 2, 3, 4)
    ]
    assert [t.id for t in resolve_levels(["tutorial/02_chopping"])] == ["tutorial/02_chopping"]


def test_an_imported_task_is_named_by_its_id(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_DATA, str(tmp_path))
    task = tmp_path / "paracook" / "salad" / "seed_9" / "agent_num_1" / "orders_num_1.yaml"
    task.parent.mkdir(parents=True)
    task.write_bytes((ROOT / "levels/tutorial/01_first_salad.yaml").read_bytes())
    for ident in ("paracook/salad/seed_9/agent_num_1/orders_num_1", "salad/seed_9/agent_num_1/orders_num_1"):
        assert resolve(ident) == task
    assert level_id(task) == "paracook/salad/seed_9/agent_num_1/orders_num_1"
    assert load_level("salad/seed_9/agent_num_1/orders_num_1").title == "First salad"
    assert resolve("paracook", folders=True) == tmp_path / "paracook"
    assert level_files([resolve("paracook/salad", folders=True)]) == [task]


@pytest.mark.parametrize("spec", ["tutorial/99_missing", "../levels/tutorial/01_first_salad", "a\0b", ""])
def test_an_unknown_id_is_a_clear_error(spec):
    with pytest.raises(LevelError) as e:
        load_level(spec)
    assert (spec or ".") in str(e.value) or repr(spec) in str(e.value)
    assert "folder of levels" not in str(e.value)


@pytest.mark.parametrize("spec", ["suite/burger", "suite", "tutorial"])
def test_a_folder_id_where_one_level_is_wanted_is_called_a_folder(spec, capsys):
    """Not 'cannot read the file (No such file or directory)': the id names levels, just not one."""
    from game.cli import main

    with pytest.raises(LevelError, match=f"{spec}: a folder of levels, not one level") as e:
        load_level(spec)
    assert f"levels list --suite {spec}`" in str(e.value) and "No such file" not in str(e.value)
    assert main(["solve", spec, "--no-progress"]) == 2
    assert f"{spec}: a folder of levels, not one level" in capsys.readouterr().err


@pytest.mark.parametrize(
    "spec,folder,closest",
    [
        ("suite/burger/seed_42/agent_num_2/orders_num_9", "suite/burger/seed_42/agent_num_2", "orders_num_4"),
        ("tutorial/01_first_salad.json", "tutorial", "01_first_salad"),
        ("tutorial/03_pasta_pot", "tutorial", None),
    ],
)
def test_a_level_missing_from_a_folder_of_levels_names_the_folder_and_the_closest(spec, folder, closest):
    """Not 'cannot read the file (No such file or directory)': the folder is there, the name is not."""
    with pytest.raises(LevelError) as e:
        load_level(spec)
    text = str(e.value)
    assert f"no level named {spec.rsplit('/', 1)[1]!r} in {folder}" in text and "No such file" not in text
    assert f"`paracook-kitchen levels list --suite {folder}` lists them" in text
    assert (f"(closest: {folder}/{closest})" in text) if closest else "closest" not in text


def test_a_copied_level_is_listed_by_its_path_not_the_id_it_was_copied_from(tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    shutil.copy(ROOT / "levels" / "tutorial" / "01_first_salad.yaml", tmp_path / "mine" / "a.yaml")
    with pytest.raises(LevelError, match="cannot read the file"):  # a path on disk: no such file
        load_level("mine/b.yaml")
    assert main(["levels", "list", "--suite", "mine"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.split()[0] == str(Path("mine") / "a.yaml") and "tutorial/" not in line
    assert load_level(line.split()[0]).title == "First salad"  # what it shows names that file


def test_a_file_that_exists_wins_over_an_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tutorial").mkdir()
    mine = tmp_path / "tutorial" / "01_first_salad.yaml"
    text = (ROOT / "levels/tutorial/01_first_salad.yaml").read_text().replace("First salad", "My salad")
    mine.write_text(text)
    assert load_level("tutorial/01_first_salad.yaml").title == "My salad"
    assert load_level("tutorial/01_first_salad").title == "First salad"


def test_the_data_folder_follows_the_platform_unless_named(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.ENV_DATA, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert paths.data_dir() == tmp_path / "xdg" / "paracook-kitchen"
    monkeypatch.setenv(paths.ENV_DATA, str(tmp_path / "mine"))
    assert paths.data_dir() == tmp_path / "mine"


def test_the_version_comes_from_one_place():
    out = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0 and out.stdout.strip() == f"paracook-kitchen {game.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "game.__version__" in pyproject


@pytest.mark.parametrize(
    "spec", ["burger/seed_42/agent_num_2/orders_num_2", "paracook/burger/seed_42/agent_num_2/orders_num_2"]
)
def test_a_task_id_not_imported_says_how_to_import_it(tmp_path, monkeypatch, spec):
    """Not 'cannot read the file': the id is a ParaCook task's, and the data folder lacks it."""
    monkeypatch.setenv(paths.ENV_DATA, str(tmp_path))
    with pytest.raises(LevelError) as e:
        load_level(spec)
    text = str(e.value)
    assert (
        f"the paper's task burger/seed_42/agent_num_2/orders_num_2 is not imported in {tmp_path / 'paracook'}"
        in text
    )
    assert (
        "levels import-paracook" in text and "`suite/burger/seed_42/agent_num_2/orders_num_2` names" in text
    )
    assert "No such file" not in text
    with pytest.raises(LevelError) as e:  # a seed the suite lacks: no twin to point to
        load_level("salad/seed_7/agent_num_2/orders_num_2")
    assert "is not imported" in str(e.value) and "suite/" not in str(e.value)
