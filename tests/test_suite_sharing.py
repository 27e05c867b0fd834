"""The test suite's own machinery: sharing (conftest.run_shared), an answer worked out once and read
back; and the property tests' profiles (conftest.examples) with the sweeps' share of their
cases (conftest.some_of)."""

from __future__ import annotations

import pytest
from conftest import _from_folder, examples, some_of


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


@pytest.mark.parametrize(
    "profile, counts",
    [("suite", {300: 102, 150: 51, 25: 8, 8: 3, 4: 2, 2: 2, 1: 1}), ("thorough", {300: 300, 4: 4, 1: 1})],
)
def test_the_quick_profile_draws_a_third_of_each_tests_examples_but_two_and_the_thorough_one_all(
    profile, counts
):
    assert {n: examples(n, profile) for n in counts} == counts


@pytest.mark.parametrize(
    "n, picked",
    [
        (24, [2, 5, 8, 11, 14, 17, 20, 23]),
        (12, [2, 5, 8, 11]),
        (6, [2, 5]),
        (5, [1, 4]),
        (3, [0, 2]),  # every third would be one case: the first and the last instead
        (2, [0, 1]),
        (1, [0]),
        (0, []),  # no benchmark data here: the sweep has no case
    ],
)
def test_a_sweep_takes_every_third_case_back_from_the_last_but_two_in_the_quick_run(n, picked):
    assert some_of(range(n), "suite") == picked
    assert some_of(range(n), "thorough") == list(range(n))
