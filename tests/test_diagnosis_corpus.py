"""The labelled corpus: every broken plan gets its labelled cause among its first two causes,
and the corpus covers every error kind, the multi-agent cause kinds and both rule sets."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import MISSING_PARACOOK, PARACOOK
from diagnosis_corpus import Case, load_cases, rank, run

from game.engine import ERROR_KINDS

CASES = load_cases()
MUST_COVER = ("plan_error", "same_instant", "not_ready", "moved_away", "wrong_order", "missing_step")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_labelled_cause_is_among_the_first_two(case: Case):
    if case.needs_paracook and not PARACOOK.is_dir():
        pytest.skip(MISSING_PARACOOK)
    result = run(case)
    assert not result.done
    found = rank(case, result)
    causes = [(c["kind"], c["agent"], c["t"], c.get("short_by")) for c in result.diagnosis["causes"]]
    assert found is not None and found <= 2, (case.expect, result.diagnosis["error"], causes)


def test_the_corpus_covers_every_error_kind_and_cause_kind():
    errors = {c.expect["error"] for c in CASES}
    assert set(ERROR_KINDS) <= errors and "unfinished" in errors
    assert set(MUST_COVER) <= {c.expect["cause"] for c in CASES}
    assert Counter(c.rules for c in CASES)["documented"] >= 5
    places = {c.level.split("/")[1] for c in CASES if not c.needs_paracook}
    assert {"tutorial", "suite", "scenarios", "collab"} <= places
    assert len([c for c in CASES if not c.needs_paracook]) >= 40
    assert len({c.id for c in CASES}) == len(CASES)


def test_a_case_that_is_not_broken_has_no_diagnosis():
    case = Case("whole", "levels/tutorial/04_two_cooks.yaml", "tests/data/tutorial_plans/04_two_cooks.json")
    result = run(case)
    assert result.done and result.diagnosis is None
