"""Rows of the hands' program set through the solver's own calls, as its algebra would set them.

ortools' algebraic API (`lp.Add(sum(vs) <= k * sum(ws))`) builds a tree of expression objects
for every row and walks it again to read the coefficients: most of the time spent building the
program. These helpers set the same rows straight away, and exactly as that API does: the same
bounds, an empty row where both sides are plain numbers, and the coefficients set in the order in
which their variables first appear from left to right, repeats added up. The simplex's path, so
the optimal vertex it returns, the cuts found from it and in the end the bound, may depend on
that order.

A side of a row is a list of (variable, coefficient), in that left-to-right order with repeats
kept, and a constant; a side with no variable is a plain number, as `sum([])` is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

Side = tuple[list[tuple[Any, float]], float]
Number = int | float


def total(items: Iterable, k: Number = 1) -> Side:
    """k times the sum of these variables (a plain number among them is added to the constant)."""
    terms: list[tuple[Any, float]] = []
    const = 0.0
    for x in items:
        if isinstance(x, int | float):
            const += x * k
        else:
            terms.append((x, 1.0 * k))
    return terms, const


def signed(pairs: Iterable[tuple[int, Any]]) -> Side:
    """The sum of sign times each variable (or number) of these pairs."""
    terms: list[tuple[Any, float]] = []
    const = 0.0
    for sign, x in pairs:
        if isinstance(x, int | float):
            const += sign * x
        else:
            terms.append((x, 1.0 * sign))
    return terms, const


def plus(*sides: Side | Number) -> Side:
    terms: list[tuple[Any, float]] = []
    const = 0.0
    for side in sides:
        more, c = _side(side)
        terms += more
        const += c
    return terms, const


def scaled(k: Number, side: Side | Number) -> Side:
    terms, const = _side(side)
    return [(v, c * k) for v, c in terms], const * k


def minus(a: Side | Number, b: Side | Number) -> Side:
    return plus(a, scaled(-1, b))


def add_row(lp: Any, left: Side | Number, sense: str, right: Side | Number) -> None:
    """The row `left sense right` (sense "==", "<=" or ">="), as `lp.Add(left sense right)`."""
    lterms, lconst = _side(left)
    rterms, rconst = _side(right)
    if lterms and rterms:  # (left - right) sense 0
        terms = lterms + [(v, -c) for v, c in rterms]
        _row(lp, terms, lconst - rconst, sense, 0.0)
    elif lterms:
        _row(lp, lterms, lconst, sense, rconst)
    elif rterms:  # Python turns `number <= expression` into `expression >= number`
        _row(lp, rterms, rconst, {"==": "==", "<=": ">=", ">=": "<="}[sense], lconst)
    else:  # two numbers: the API adds an empty row, satisfied or not
        holds = {"==": lconst == rconst, "<=": lconst <= rconst, ">=": lconst >= rconst}[sense]
        lp.RowConstraint(0, 0, "") if holds else lp.RowConstraint(1, 1, "")


def minimize(lp: Any, side: Side | Number) -> None:
    """The objective, as `lp.Minimize(side)`."""
    objective = lp.Objective()
    objective.Clear()
    objective.SetMinimization()
    terms, const = _side(side)
    objective.SetOffset(const)
    for v, c in _merged(terms).items():
        objective.SetCoefficient(v, c)


def _side(side: Side | Number) -> Side:
    if isinstance(side, int | float):
        return [], side
    return side


def _merged(terms: list[tuple[Any, float]]) -> dict:
    coeffs: dict = {}
    for v, c in terms:
        coeffs[v] = coeffs.get(v, 0.0) + c
    return coeffs


def _row(lp: Any, terms: list, const: float, sense: str, value: Number) -> None:
    lb = value - const if sense in ("==", ">=") else -math.inf
    ub = value - const if sense in ("==", "<=") else math.inf
    row = lp.RowConstraint(lb, ub, "")
    for v, c in _merged(terms).items():
        row.SetCoefficient(v, float(c))
