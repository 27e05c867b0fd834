"""The 24 recorded human plans replay to their recorded results, field for field."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REFERENCE_FIELDS, ROOT, human_cases, need_paracook

from game.engine import simulate
from game.levels import load_level

CASES = human_cases()


@pytest.mark.parametrize("case", CASES, ids=[str(c[0].relative_to(c[0].parents[3])) for c in CASES])
def test_human_plan_matches_record(case):
    human, map_file, orders = case
    expected = json.loads(human.read_text())
    result = simulate(load_level(map_file, orders), expected).to_dict()
    assert {k: result[k] for k in REFERENCE_FIELDS} == {k: expected[k] for k in REFERENCE_FIELDS}


def test_all_24_cases_present():
    need_paracook()
    assert len(CASES) == 24


def test_batch_cli_matches_every_record(tmp_path):
    need_paracook()
    lines = [
        json.dumps({"level": str(m), "orders": o, "plan": json.loads(h.read_text())["plan"]})
        for h, m, o in CASES
    ]
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n".join(lines) + "\n")
    out = subprocess.run(
        [sys.executable, "main.py", "run", "--batch", str(cases)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(out) == 24
    for (human, _, _), line in zip(CASES, out, strict=True):
        expected, got = json.loads(human.read_text()), json.loads(line)
        assert {k: got[k] for k in REFERENCE_FIELDS} == {k: expected[k] for k in REFERENCE_FIELDS}
