"""The hands' program sets its rows straight through the solver (`lp_rows`): the very calls ortools'
algebra makes for the same row, in the same order (the simplex's path may depend on it)."""

from __future__ import annotations

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.linear_solver import pywraplp

from game.planners.solver.bound.lp_rows import add_row, minimize, minus, plus, scaled, signed, total

VARS = 4
# a side: a sum over items, each a variable's index or a plain number, times a small factor
items = st.lists(st.one_of(st.integers(0, VARS - 1), st.sampled_from([1.0, 2])), max_size=5)
sides = st.tuples(items, st.sampled_from([1, 2, -1]))
SENSES = ("==", "<=", ">=")


@pytest.fixture
def calls(monkeypatch) -> list:
    """Every call that makes or fills a row or the objective, in order."""
    log: list = []
    for owner, name in [
        (pywraplp.Solver, "RowConstraint"),
        (pywraplp.Constraint, "SetCoefficient"),
        (pywraplp.Objective, "SetCoefficient"),
        (pywraplp.Objective, "SetOffset"),
    ]:
        real = getattr(owner, name)

        def logged(self, *args, real=real, name=name):
            log.append((name, *(a.index() if isinstance(a, pywraplp.Variable) else repr(a) for a in args)))
            return real(self, *args)

        monkeypatch.setattr(owner, name, logged)
    return log


def solver():
    lp = pywraplp.Solver.CreateSolver("GLOP")
    return lp, [lp.NumVar(0.0, lp.infinity(), f"v{i}") for i in range(VARS)]


def natural(vs, side):
    picked, k = side
    return k * sum(vs[x] if isinstance(x, int) else x for x in picked)


def direct(vs, side):
    picked, k = side
    return total((vs[x] if isinstance(x, int) else x for x in picked), k)


def compare(calls, sense, build_natural, build_direct):
    calls.clear()
    lp, vs = solver()
    left, right = build_natural(vs)
    lp.Add({"==": left == right, "<=": left <= right, ">=": left >= right}[sense])
    theirs = list(calls)
    calls.clear()
    lp, vs = solver()
    add_row(lp, *build_direct(vs, sense))
    assert calls == theirs


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=sides, right=sides, sense=st.sampled_from(SENSES))
def test_a_row_is_set_as_the_algebra_sets_it(calls, left, right, sense):
    compare(
        calls,
        sense,
        lambda vs: (natural(vs, left), natural(vs, right)),
        lambda vs, sense: (direct(vs, left), sense, direct(vs, right)),
    )


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=sides, b=sides, c=sides, k=st.sampled_from([1, 3]), given_=st.sampled_from([0, 1]))
def test_sums_differences_and_factors_are_set_as_the_algebra_sets_them(calls, a, b, c, k, given_):
    compare(
        calls,
        ">=",
        lambda vs: (natural(vs, a), k * (natural(vs, b) + natural(vs, c) - natural(vs, a)) - given_),
        lambda vs, sense: (
            direct(vs, a),
            sense,
            minus(scaled(k, minus(plus(direct(vs, b), direct(vs, c)), direct(vs, a))), given_),
        ),
    )


def test_signed_terms_and_the_objective(calls):
    lp, vs = solver()
    lp.Add(sum(sign * v for sign, v in [(1, vs[0]), (-1, vs[1]), (1, 1.0), (-1, vs[0])]) == 0)
    lp.Minimize(sum(vs[:3]))
    theirs = list(calls)
    calls.clear()
    lp, vs = solver()
    add_row(lp, signed([(1, vs[0]), (-1, vs[1]), (1, 1.0), (-1, vs[0])]), "==", 0)
    minimize(lp, total(vs[:3]))
    assert calls == theirs
    assert ("RowConstraint", "-1.0", "-1.0", "''") in calls  # the constant moved to the bounds
    assert ("SetCoefficient", 0, "0.0") in calls  # a variable that cancels out is still set, to 0
