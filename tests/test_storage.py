"""game/storage.py: atomic writes under unique names, appends after a torn line, locks held by one
process (released when it dies), copies kept before user work is replaced; and two real
processes writing one data folder without losing an update."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hostile import WRITER, Holder, python

from game import storage


def test_an_atomic_write_leaves_no_temporary_file_and_keeps_the_mode(tmp_path):
    target = tmp_path / "a.json"
    target.write_text("old")
    target.chmod(0o640)
    storage.write_json_atomic(target, {"x": 1})
    assert json.loads(target.read_text()) == {"x": 1}
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_a_failed_check_keeps_the_old_file_and_removes_the_temporary_one(tmp_path):
    target = tmp_path / "a.mp4"
    target.write_bytes(b"good")

    def refuse(path: Path) -> None:
        assert path != target and path.read_bytes() == b"bad"
        raise OSError("unplayable")

    with pytest.raises(OSError, match="unplayable"):
        storage.write_atomic(target, b"bad", check=refuse)
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["a.mp4"]


def test_nan_and_infinity_are_never_written_and_a_lone_surrogate_is_escaped(tmp_path):
    with pytest.raises(ValueError):
        storage.json_text({"t": float("inf")})
    text = storage.json_text({"t": "a\ud800b", "u": "é"})
    assert json.loads(text) == {"t": "a\ud800b", "u": "é"}
    text.encode("utf-8")  # writable


def test_an_append_after_a_torn_line_starts_on_a_line_of_its_own(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"a": 1}\n{"b": 2, "cut sh')  # the disk filled up mid-line
    storage.append_line(log, '{"c": 3}')
    storage.append_line(log, '{"d": 4}')
    lines = log.read_text().splitlines()
    assert lines == ['{"a": 1}', '{"b": 2, "cut sh', '{"c": 3}', '{"d": 4}']


def test_a_lock_names_its_holder_and_is_free_once_the_holder_is_gone(tmp_path):
    path = tmp_path / "item.lock"
    holder = Holder(path)
    with pytest.raises(storage.Locked) as e:
        storage.HolderLock(path).acquire()
    assert e.value.holder["pid"] == holder.proc.pid
    assert f"process {holder.proc.pid} on " in str(e.value)
    holder.kill()  # killed: the lock file stays, the lock does not
    assert path.exists()
    with storage.HolderLock(path) as lock:
        assert lock.held and storage.read_holder(path)["pid"] == os.getpid()


def test_a_backup_never_replaces_an_earlier_one(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("1")
    first = storage.backup(path)
    path.write_text("2")
    second = storage.backup(path)
    assert first != second and first.read_text() == "1" and second.read_text() == "2"
    assert storage.backup(tmp_path / "none.json") is None


def test_two_processes_writing_one_data_folder_lose_nothing(tmp_path):
    env = {**os.environ, "PARACOOK_KITCHEN_DATA": str(tmp_path / "data")}
    scores, lines = 150, 1500
    procs = [python(WRITER, str(scores), str(lines), tag, env=env) for tag in ("a", "b")]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    data = tmp_path / "data"
    board = json.loads((data / "scores.json").read_text())
    (slot,) = board["levels"].values()
    runs = [(r["source"], r["time"]) for r in slot["runs"]]
    assert sorted(runs) == sorted((t, i) for t in "ab" for i in range(scores))  # 300 updates, none lost
    for name in ("study.jsonl", "log.jsonl"):
        records = [json.loads(line) for line in (data / name).read_text().splitlines()]
        assert sorted((r["tag"], r["i"]) for r in records) == sorted(
            (t, i) for t in "ab" for i in range(lines)
        )
    assert not list(data.glob("*.part")) and not list(data.glob(".*.part"))
