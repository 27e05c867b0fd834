"""`main.py replay` refuses what it cannot show with a clear message and exit code 2, before any
window opens: damaged, edited or newer replays, missing files, two different levels."""

from __future__ import annotations

import json

import pytest
from kitchens import kitchen
from test_render import ROWS, STATIONS, make_replay, small_plan

from game.cli import main
from game.engine import parse_plan, simulate
from game.replay import save_replay


def bad_copies(tmp_path, path):
    text = path.read_text()
    data = json.loads(text)
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 3])
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**data, "version": 2}))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**data, "rules": "documented"}))
    other = tmp_path / "plan.json"
    other.write_text(json.dumps({"agent1": []}))
    return [
        (cut, "damaged or truncated (line 1"),
        (newer, "newer version (replay schema 2)"),
        (edited, "checksum mismatch"),
        (other, "not a replay file"),
        (tmp_path / "missing.json", "cannot read the file"),
    ]


def test_unreadable_replays_are_refused_by_name(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    for bad, needle in bad_copies(tmp_path, path):
        assert main(["replay", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {bad}") and needle in err, err
        assert main(["replay", str(path), str(bad)]) == 2  # a bad second file too
        assert needle in capsys.readouterr().err


def test_two_different_levels_are_not_compared(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    level = kitchen(ROWS, STATIONS, ("salad_advanced",))
    plan = parse_plan(small_plan(), level.agent_names)
    other = save_replay(tmp_path / "other.json", level, plan, simulate(level, plan), {"kind": "cli"})
    assert main(["replay", str(path), str(other)]) == 2
    err = capsys.readouterr().err
    assert f"cannot compare {path} and {other}: different orders (salad_basic and salad_advanced)" in err


def test_bad_window_size_is_refused(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    assert main(["replay", str(path), "--size", "big"]) == 2
    assert "expected WIDTHxHEIGHT" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["level", "timeline"])
def test_damage_inside_a_valid_checksum_is_reported_not_raised(tmp_path, capsys, field):
    """A file whose checksum was recomputed over a broken body still gets a clear refusal."""
    import hashlib

    from game.replay.file import _canonical

    path, _ = make_replay(tmp_path)
    data = json.loads(path.read_text())
    data[field] = {"broken": True}
    body = {k: v for k, v in data.items() if k != "checksum"}
    data["checksum"] = hashlib.sha256(_canonical(body)).hexdigest()
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert "damaged replay" in capsys.readouterr().err
