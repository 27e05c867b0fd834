"""A report keeps the lower bounds it works out for the next report, keyed by the code that
works them out; a damaged, foreign or unwritable cache is worked around, never trusted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from game.cli import main
from game.engine import parse_plan, simulate
from game.levels import load_level
from game.planners.solver.bound import lower as bound_lower
from game.replay import save_replay
from game.report import bound_cache

LEVEL = ROOT / "levels" / "tutorial" / "01_first_salad.yaml"
PLAN = ROOT / "tests" / "data" / "tutorial_plans" / "01_first_salad.json"


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run folder with a replay that records no bound (as a person's or an LLM's), a fresh
    data folder, and no bound kept by this process."""
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(bound_lower, "_KNOWN", {})
    level = load_level(LEVEL)
    plan = parse_plan(json.loads(PLAN.read_text()), level.agent_names)
    save_replay(
        tmp_path / "runs" / "r.json", level, plan, simulate(level, plan, record=True), {"kind": "cli"}
    )
    return tmp_path / "runs"


def oct_over_bound(runs: Path, capsys: pytest.CaptureFixture) -> str:
    assert main(["report", str(runs), "--format", "csv"]) == 0
    rows = list(csv_rows(capsys.readouterr().out))
    (all_row,) = [r for r in rows if r["group"] == "all"]
    return all_row["OCT/LB"]


def csv_rows(text: str):
    import csv
    import io

    return csv.DictReader(io.StringIO(text))


def no_bound_work(monkeypatch: pytest.MonkeyPatch) -> list:
    """Make working out a bound fail the test's check: the calls, if any, are listed."""
    calls: list = []
    monkeypatch.setattr(bound_lower, "_KNOWN", {})
    real = bound_lower.lower_bound
    monkeypatch.setattr(bound_lower, "lower_bound", lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_the_next_report_reads_the_bound_instead_of_working_it_out(runs, capsys, monkeypatch):
    first = oct_over_bound(runs, capsys)
    assert float(first) == pytest.approx(13 / 13)  # OCT 13, bound 13 (hand-checked in the tutorial)
    (entry,) = (runs.parent / "data" / "cache" / "bounds").rglob("*.json")
    assert json.loads(entry.read_text()) == {"format": bound_cache.FORMAT, "value": 13}
    calls = no_bound_work(monkeypatch)
    assert oct_over_bound(runs, capsys) == first and calls == []


def test_other_code_or_other_rules_are_other_keys(runs, capsys, monkeypatch):
    level = load_level(LEVEL)
    before = bound_cache.entry_path(level, "paracook")
    assert bound_cache.entry_path(level, "documented") != before
    oct_over_bound(runs, capsys)
    calls = no_bound_work(monkeypatch)
    monkeypatch.setattr(bound_cache, "code_digest", lambda: "a changed engine or bound")
    assert bound_cache.entry_path(level, "paracook") != before
    oct_over_bound(runs, capsys)
    assert len(calls) == 1  # worked out again, never read back from the old code's entry


@pytest.mark.parametrize(
    "content",
    [
        b"{broken",
        b"\xff\xfe not text",
        json.dumps({"format": bound_cache.FORMAT, "value": "13"}).encode(),
        json.dumps({"format": bound_cache.FORMAT, "value": True}).encode(),
        json.dumps({"format": bound_cache.FORMAT, "value": 10**400}).encode(),
        json.dumps({"format": bound_cache.FORMAT, "value": -3}).encode(),
        b'{"format": "paracook-kitchen-bound", "value": NaN}',
        json.dumps({"format": "other", "value": 13}).encode(),
        b"[" * 2_000 + b"]" * 2_000,
        b"0" * 10_000,
    ],
)
def test_a_damaged_entry_is_worked_out_again_and_written_over(runs, capsys, content):
    level = load_level(LEVEL)
    path = bound_cache.entry_path(level, level.rules)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert float(oct_over_bound(runs, capsys)) == pytest.approx(1.0)  # worked out again ...
    assert json.loads(path.read_text())["value"] == 13  # ... and written over


def test_an_unusable_data_folder_costs_the_saving_never_the_report(runs, capsys, monkeypatch):
    blocker = runs.parent / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(blocker))
    assert float(oct_over_bound(runs, capsys)) == pytest.approx(1.0)
    import errno

    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setenv("PARACOOK_KITCHEN_DATA", str(runs.parent / "data"))
    monkeypatch.setattr(bound_cache, "write_json_atomic", full)  # a full disk
    monkeypatch.setattr(bound_lower, "_KNOWN", {})
    assert float(oct_over_bound(runs, capsys)) == pytest.approx(1.0)
    assert not (runs.parent / "data" / "cache").exists()


def test_a_kept_bound_above_a_served_oct_is_worked_out_again(runs, capsys):
    """No plan beats a lower bound: a kept 14 beside a run served at 13 is a damaged entry."""
    level = load_level(LEVEL)
    path = bound_cache.entry_path(level, level.rules)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": bound_cache.FORMAT, "value": 14}))
    assert float(oct_over_bound(runs, capsys)) == pytest.approx(1.0)  # 13 / 13, not 13 / 14
    assert json.loads(path.read_text())["value"] == 13
    path.write_text(json.dumps({"format": bound_cache.FORMAT, "value": 12}))  # below: a bound, read
    assert float(oct_over_bound(runs, capsys)) == pytest.approx(13 / 12, abs=1e-4)  # 4 decimals
