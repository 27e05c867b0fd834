"""The results page (docs/results.md) is what benchmarks/write_results.py makes of the figures the
benchmark scripts wrote to benchmarks/results/*.json: nobody retypes a figure."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import write_results  # noqa: E402
from figures import Results  # noqa: E402

FILES = sorted(write_results.RESULTS.glob("*.json"))


def test_the_page_is_what_the_committed_figures_give():
    assert FILES, "no benchmark has written its figures"
    assert write_results.PAGE.read_text(encoding="utf-8") == write_results.render(), (
        "docs/results.md is not what benchmarks/results/*.json give: run python benchmarks/write_results.py"
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_figure_file_says_what_was_run_where_and_when(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    script = ROOT / data["script"]
    assert data["name"] == path.stem and script == ROOT / "benchmarks" / f"{path.stem}.py"
    assert f'Results("{path.stem}"' in script.read_text(), "the file is not one its script writes"
    assert data["command"].split()[:2] == ["python", data["script"]]
    assert re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:\d\d UTC", data["date"])
    assert data["machine"]["cpu"] and data["machine"]["cores"] >= 1 and data["machine"]["python"]
    assert data["settings"] and (data["figures"] or data["tables"])
    if data["explained_in"]:
        assert (ROOT / "docs" / data["explained_in"]).is_file()


def test_a_script_writes_the_figures_its_section_shows(tmp_path):
    """env_bench at a tiny setting, written elsewhere: the same figures as the committed file."""
    env = {**os.environ, "BENCH_RESULTS_DIR": str(tmp_path), "SDL_VIDEODRIVER": "dummy"}
    out = subprocess.run(
        [sys.executable, "benchmarks/env_bench.py", "--steps", "50"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    fresh = json.loads((tmp_path / "env_bench.json").read_text())
    committed = json.loads((write_results.RESULTS / "env_bench.json").read_text())
    assert fresh["command"] == "python benchmarks/env_bench.py --steps 50"
    assert [f["what"] for f in fresh["figures"]] == [f["what"] for f in committed["figures"]]
    assert all(f["value"] > 0 for f in fresh["figures"])
    assert "50 steps" in fresh["settings"][0]


def test_a_section_says_the_run_the_machine_the_figures_and_their_goals(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["x.py", "--fast"])
    with Results("demo_bench", "A demo | with a bar", "rules.md") as out:
        out.setting("3 runs")
        out.figure("runs per second", 1234.56789, "runs/s", "over 1000")
        out.figure("failures", 0)
        out.table("By kind", ["kind", "n"], [["a|b", 2], ["c", None]])
    text = write_results.render(tmp_path)
    assert "## A demo | with a bar" in text
    assert "- Run: `python benchmarks/demo_bench.py --fast` on " in text
    assert "- Setting: 3 runs" in text and "- Explained in [rules.md](rules.md)" in text
    assert "| runs per second | 1,235 runs/s | over 1000 |" in text
    assert "| failures | 0 |  |" in text
    assert "| a\\|b | 2 |" in text and "| c | - |" in text


def test_a_run_that_fails_keeps_the_last_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path))
    with pytest.raises(RuntimeError), Results("demo_bench", "Demo") as out:
        out.figure("half done", 1)
        raise RuntimeError("the benchmark broke")
    assert not (tmp_path / "demo_bench.json").exists()
