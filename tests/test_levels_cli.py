"""`python main.py levels ...`: list, validate, import-paracook, generate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from game.cli import main
from game.levels.suite import SUITE_DIR

BROKEN = """\
orders: [salad_basic, pizza]
grid: |
  D1 .. ## ..
  .. a1 ..
legend:
  a1: {agent: agent1}
  D1: {station: dispenser1, provides: lettuce}
"""


def test_validate_good_files_exits_0(capsys):
    assert main(["levels", "validate", "levels/tutorial", str(SUITE_DIR / "salad")]) == 0
    assert "65 level file(s) checked, 0 with errors" in capsys.readouterr().out
    assert main(["levels", "validate", "levels"]) == 0  # every level; the dish catalog is skipped
    assert "0 with errors" in capsys.readouterr().out


def test_validate_broken_file_exits_1_with_lines(tmp_path: Path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    assert main(["levels", "validate", str(bad), "levels/tutorial"]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:" in out
    assert "line 4, grid row 1: has 3 cells, but row 0 has 4" in out
    assert "line 1, orders[1]: no dish called 'pizza'" in out
    assert "1 with errors" in out


def test_validate_missing_path_exits_2(tmp_path: Path, capsys):
    assert main(["levels", "validate", str(tmp_path / "nope.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_validate_a_paracook_map(paracook_dir: Path, capsys):
    assert main(["levels", "validate", str(paracook_dir / "maps/salad/seed_42/agent_num_1.json")]) == 0


def test_list_suites_and_one_suite(capsys):
    assert main(["levels", "list"]) == 0
    out = capsys.readouterr().out
    assert "suite" in out and "360 levels" in out and "human24" in out
    assert main(["levels", "list", "--suite", "suite24"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 24 and lines[0].startswith("suite/burger/seed_42/agent_num_2/orders_num_2")
    assert main(["levels", "list", "--suite", "nope"]) == 2


def test_generate_into_a_folder_and_check(tmp_path: Path, capsys):
    assert main(["levels", "generate", "--out", str(tmp_path)]) == 0
    assert main(["levels", "generate", "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "sushi/seed_84/agent_num_3/orders_num_2.yaml").unlink()
    assert main(["levels", "generate", "--out", str(tmp_path), "--check"]) == 1
    assert "1 file(s) differ" in capsys.readouterr().out
    (tmp_path / "a-file").write_text("")
    assert main(["levels", "generate", "--out", str(tmp_path / "a-file" / "suite")]) == 2  # no traceback
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'a-file'}" in err and "cannot write there (Not a directory)" in err


def test_import_paracook_command(paracook_dir: Path, tmp_path: Path, capsys):
    """The command on a ParaCook folder holding one of its kitchens (salad, seed 42: three team
    sizes, four order lists); test_levels_import imports all 360 tasks and checks each."""
    src = tmp_path / "paracook"
    shutil.copytree(paracook_dir / "maps" / "salad" / "seed_42", src / "maps" / "salad" / "seed_42")
    shutil.copytree(paracook_dir / "recipes", src / "recipes")
    orders = json.loads((paracook_dir / "orders.json").read_text())
    kept = {task: dishes for task, dishes in orders.items() if task.startswith("salad/seed_42/")}
    (src / "orders.json").write_text(json.dumps(kept))
    out = tmp_path / "levels"
    assert main(["levels", "import-paracook", str(src), "--out", str(out)]) == 0
    assert "12 level file(s) written" in capsys.readouterr().out
    assert main(["levels", "validate", str(out)]) == 0
    assert main(["levels", "import-paracook", str(tmp_path / "nothing"), "--out", str(out)]) == 2
