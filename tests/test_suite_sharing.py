"""The test suite's own sharing (conftest.run_shared): an answer worked out once and read back."""

from __future__ import annotations

from conftest import _from_folder


def test_an_answer_is_worked_out_once_then_read_from_the_shared_folder(tmp_path):
    calls = []

    def work_out():
        calls.append(1)
        return {"bound": [41, {"hands": 40}]}

    path = tmp_path / "answer.json"
    assert _from_folder(path, work_out) == {"bound": [41, {"hands": 40}]}
    assert _from_folder(path, work_out) == {"bound": [41, {"hands": 40}]} and len(calls) == 1
    assert not list(tmp_path.glob("*.part"))  # written whole, then moved into place


def test_a_damaged_answer_is_worked_out_again(tmp_path):
    path = tmp_path / "answer.json"
    path.write_text('{"bound": [4')  # half written: a worker killed mid-write
    assert _from_folder(path, lambda: 7) == 7 and path.read_text() == "7"
