"""`report --study` with solo and partner conditions: each condition apart per level, and each
partner condition's difference from solo, checked against figures computed by hand; the
condition comes from the sessions (exported), never from a label."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from game.cli import main
from game.report.metrics import Run, welch
from game.report.study import SHARED, compare_conditions, report_csv, report_markdown, study_report
from game.study.persist import new_session
from game.study.protocol import load_protocol

ROOT = Path(__file__).resolve().parents[1]
TWO = ROOT / "levels" / "tutorial" / "04_two_cooks.yaml"
PLANNER = "partner planner (person: agent1)"
T975_1 = 12.7062047  # t(0.975) with 1 degree of freedom


def run(who: str, task: str, time: float, served: bool, condition: str | None, **process) -> Run:
    study = {"status": "served" if served else "failed", **process}
    if condition is not None:
        study["condition"] = condition
    return Run(
        who,
        {"id": task, "difficulty": "easy", "agents": 2},
        served,
        time if served else 100,
        t_max=100,
        d_max=80,
        recorded_bound=20,
        digest=task,
        study=study,
    )


# solo: p1, p2 (p1's run of b is an older export: no condition field, so solo); planner: p3, p4
RUNS = [
    run("p1", "a", 40, True, "solo", planning_s=60),
    run("p2", "a", 50, True, "solo", planning_s=120),
    run("p3", "a", 30, True, PLANNER, planning_s=30, replans=5),
    run("p4", "a", 34, True, PLANNER, planning_s=50, replans=7),
    run("p1", "b", 0, False, None, planning_s=90),
    run("p2", "b", 70, True, "solo", planning_s=80),
    run("p3", "b", 60, True, PLANNER, planning_s=40, replans=3),
]


def test_welch_against_a_hand_computation():
    # means 45 and 32; variances 50 and 8: se^2 = 25 + 4 = 29; df = 29^2 / (25^2 + 4^2) = 1.31 -> 1
    e = welch([40, 50], [30, 34])
    assert e.value == -13 and e.n == 4
    assert e.low == pytest.approx(-13 - T975_1 * math.sqrt(29), abs=1e-3)
    assert e.high == pytest.approx(-13 + T975_1 * math.sqrt(29), abs=1e-3)
    # two groups of four, variance 20/3 each: se^2 = 2 * (20/3) / 4 = 10/3; df = (10/3)^2 /
    # (2 * (5/3)^2 / 3) = 6; t(0.975, 6) = 2.4469
    e = welch([1, 3, 5, 7], [3, 5, 7, 9])
    assert e.value == 2 and e.high - e.value == pytest.approx(2.4469 * math.sqrt(10 / 3), abs=1e-3)
    assert math.isnan(welch([1], [2, 3]).low) and welch([1], [2, 3]).value == 1.5
    assert math.isnan(welch([], [2]).value)
    assert (welch([5, 5], [7, 7]).low, welch([5, 5], [7, 7]).high) == (2, 2)


def test_each_condition_apart_per_level_and_the_differences_from_solo():
    rows, diffs = compare_conditions(RUNS)
    got = {(r.level, r.condition): r.row for r in rows}
    assert list(got) == [
        ("a", "solo"),
        ("a", PLANNER),
        ("b", "solo"),
        ("b", PLANNER),
        (SHARED, "solo"),
        (SHARED, PLANNER),
    ]
    a_solo, a_partner = got[("a", "solo")], got[("a", PLANNER)]
    assert (a_solo.participants, a_solo.metrics["pOCT"].value, a_solo.oct.value) == (2, 45, 45)
    assert (a_partner.participants, a_partner.metrics["pOCT"].value) == (2, 32)
    assert a_partner.process["replans"].value == 6 and a_partner.process["planning_s"].value == 40
    b_solo = got[("b", "solo")]
    assert b_solo.metrics["SR"].value == 50 and b_solo.metrics["pOCT"].value == 85
    assert b_solo.statuses == {"served": 1, "failed": 1, "abandoned": 0}
    d = {(x.level, x.metric): x for x in diffs}
    assert all(x.condition == PLANNER for x in diffs) and len(diffs) == 9
    poct_a = d[("a", "pOCT")].estimate
    assert poct_a.value == -13 and poct_a.low == pytest.approx(-13 - T975_1 * math.sqrt(29), abs=1e-3)
    assert (d[("a", "SR")].estimate.value, d[("a", "SR")].estimate.low) == (0, 0)
    plan_a = d[("a", "planning_s")].estimate  # 40 - 90; se^2 = 1800/2 + 200/2 = 1000; df 1.22 -> 1
    assert plan_a.value == -50 and plan_a.high == pytest.approx(-50 + T975_1 * math.sqrt(1000), abs=1e-2)
    # level b: one participant in the partner condition, so no interval
    assert d[("b", "pOCT")].estimate.value == -25 and math.isnan(d[("b", "pOCT")].estimate.low)
    assert d[("b", "SR")].estimate.value == 50 and (d[("b", "SR")].solo_n, d[("b", "SR")].other_n) == (2, 1)
    # shared levels: each participant's mean: solo 70 and 60, partner 45 and 34 (p4 played only a);
    # -25.5; se^2 = 50/2 + 60.5/2 = 55.25; df 1.98 -> 1; the low end passes -100 and is clipped there
    shared = d[(SHARED, "pOCT")].estimate
    assert shared.value == pytest.approx(-25.5)
    assert shared.low == -100 and shared.high == pytest.approx(-25.5 + T975_1 * math.sqrt(55.25), abs=1e-2)
    for x in diffs:  # never outside the range a difference can take
        bound = 100 if x.metric in ("SR", "pOCT") else math.inf
        assert math.isnan(x.estimate.low) or -bound <= x.estimate.low <= x.estimate.high <= bound


def test_one_condition_gives_no_comparison_and_the_tables_are_as_before():
    solo = [r for r in RUNS if r.study.get("condition") != PLANNER]
    assert compare_conditions(solo) == ([], [])
    text = report_markdown(study_report(solo))
    assert "Conditions, per level" not in text and "| condition |" not in text


def test_the_markdown_and_csv_say_what_they_pooled():
    report = study_report(RUNS)
    text = report_markdown(report)
    assert f"The tables above pool every condition (solo, {PLANNER}); here they are apart." in text
    assert f"| a | {PLANNER} | 2 | 2/0/0 | 100.00 [100.00, 100.00] | 32.00 [6.59, 57.41] |" in text
    assert "### Differences from solo (condition minus solo)" in text
    assert f"| b | {PLANNER} | 50.00 | -25.00 | -45.00 | 2 / 1 |" in text
    assert "Welch interval" in text and "not paired" in text
    assert f"| p3 | a | {PLANNER} | served |" in text
    lines = report_csv(report).splitlines()
    head = lines[0].split(",")
    assert "condition" in head and "against" in head
    assert sum(line.startswith("condition,") for line in lines) == 6
    assert sum(line.startswith("difference,") for line in lines) == 9


def test_a_pipe_in_a_condition_name_never_splits_a_row():
    odd = [run("p1", "a", 40, True, "solo"), run("p2", "a", 30, True, "partner x|y (person: agent1)")]
    assert "partner x\\|y (person: agent1)" in report_markdown(study_report(odd))


# -- from real sessions ---------------------------------------------------------------------------


def session(tmp_path: Path, who: str, partner: str | None, time_s: float) -> Path:
    """A participant plans 04_two_cooks (the reference plan, served at t = 40) and submits."""
    fields = {"name": "duo", "levels": [str(TWO)], **({"partner": partner} if partner else {})}
    path = tmp_path / f"{who}.json"
    path.write_text(json.dumps(fields))
    p = load_protocol(path, ROOT / "levels")
    store = new_session(tmp_path / "studies", who, list(p.levels), protocol=p.plan_for(None))
    record = store.session.level
    record.plan = json.loads((ROOT / "levels" / "tutorial" / "references" / "04_two_cooks.json").read_text())
    record.outcome = {"done": True, "time": 40, "error": None}
    record.opened = True
    record.tick(time_s)
    if partner:
        store.record_replan(["agent2"], 40.0, True)
    store.session.submit()
    store.save()
    return store.folder


def test_report_study_compares_real_sessions_by_their_recorded_condition(tmp_path, capsys):
    folders = [
        session(tmp_path, "ann", None, 100),
        session(tmp_path, "bob", None, 80),
        session(tmp_path, "cat", "planner", 20),
        session(tmp_path, "dan", "planner", 30),
    ]
    out = tmp_path / "cat-export"
    assert main(["study", "export", str(folders[2]), "--out", str(out)]) == 0
    exported = json.loads((out / "study.json").read_text())
    assert exported["study_condition"] == PLANNER and exported["partner"]["kind"] == "planner"
    assert exported["levels"][0]["replans"] == 1
    capsys.readouterr()
    assert main(["report", *map(str, folders), "--study", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["participant"]: r["condition"] for r in data["runs"]} == {
        "ann": "solo",
        "bob": "solo",
        f"cat [{PLANNER}]": PLANNER,  # the label says the condition, in every table
        f"dan [{PLANNER}]": PLANNER,
    }
    rows = {(c["group"], c["condition"]): c for c in data["conditions"]}
    level = "tutorial/04_two_cooks (tutorial)"
    assert rows[(level, "solo")]["process"]["planning_s"]["value"] == 90
    assert rows[(level, PLANNER)]["process"]["replans"]["value"] == 1
    diff = {(d["level"], d["metric"]): d for d in data["differences"]}
    planning = diff[(level, "planning_s")]  # 25 - 90; variances 200 and 50: se^2 = 125; df 1.47 -> 1
    assert planning["value"] == -65 and planning["n_solo"] == 2 and planning["n_condition"] == 2
    assert planning["low"] == pytest.approx(-65 - T975_1 * math.sqrt(125), abs=0.01)
    assert diff[(level, "pOCT")]["value"] == 0 and data["conditions_note"].startswith("Each condition's")
    capsys.readouterr()
    assert main(["report", str(folders[2])]) == 0  # without --study too
    assert f"| cat [{PLANNER}] |" in capsys.readouterr().out
