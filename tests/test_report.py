"""The metrics report: the paper's human row, hand-checked failures, intervals, formats, files."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from game.cli import main
from game.engine import parse_plan, simulate
from game.levels import load_level
from game.levels.task import task_info
from game.replay import save_replay
from game.report.files import ResultError, load_runs
from game.report.metrics import (
    Run,
    mean_ci,
    metrics,
    report_rows,
    t_quantile,
    to_csv,
    to_json,
    to_markdown,
    wilson,
)

PAPER_HUMAN_ROW = {  # Table 6: pOCT, nOCT, pMD, AU
    "easy": (53.12, 21.07, 37.69, 91.62),
    "medium": (81.50, 15.86, 64.50, 89.42),
    "hard": (77.00, 15.83, 60.56, 91.68),
}


def test_human_results_give_the_papers_row(paracook_dir: Path):
    runs, skipped = load_runs([paracook_dir / "human"])
    assert len(runs) == 24 and skipped == []
    rows = {r.group: r for r in report_rows(runs, "difficulty")}
    for difficulty, expected in PAPER_HUMAN_ROW.items():
        row = rows[difficulty]
        got = tuple(round(row.metrics[m].value, 2) for m in ("pOCT", "nOCT", "pMD", "AU"))
        assert got == expected, difficulty
        assert row.tasks == 8 and row.metrics["SR"].value == 100
    assert rows["all"].tasks == 24 and all(r.label == "human" for r in rows.values())


def test_report_command_prints_the_human_row(paracook_dir: Path, capsys):
    assert main(["report", str(paracook_dir / "human")]) == 0
    out = capsys.readouterr().out
    # SR, then PR (every human run re-simulated from its plan: all complete), then pOCT
    assert "| human | easy | 8 | 100.00 [67.56, 100.00] | 100.00 [100.00, 100.00] | 53.12 [" in out
    assert "| 81.50 [" in out and "| 15.86 [" in out and "| 60.56 [" in out and "| 91.68 [" in out
    assert "(a)" not in out and "(b)" not in out


def test_human_results_get_their_progress_by_re_simulation(paracook_dir: Path):
    runs, _ = load_runs([paracook_dir / "human"])
    assert {(r.progress, r.progress_source) for r in runs} == {(1.0, "simulated")}


def _run(
    done: bool,
    time: float,
    moving: dict,
    execution: dict,
    waiting: dict,
    progress: float | None = None,
    **task,
) -> Run:
    return Run(
        "m",
        {"difficulty": "easy", "category": "salad", "agents": len(moving), "orders": 2, **task},
        done,
        time,
        t_max=100,
        d_max=80,
        moving=moving,
        execution=execution,
        waiting=waiting,
        progress=progress,
    )


def test_failures_are_charged_as_rules_say():
    ok = _run(True, 40, {"a": 10, "b": 20}, {"a": 40, "b": 30}, {"a": 10, "b": 0})
    failed = _run(False, 12, {"a": 3, "b": 5}, {"a": 12, "b": 12}, {"a": 0, "b": 0})
    m = metrics([ok, failed])
    assert m["SR"].value == 50
    assert m["PR"].value == 100 and m["PR"].n == 1  # the failure's progress is unknown: left out
    assert m["pOCT"].value == (40 + 100) / 2  # a failure counts T_max
    assert m["nOCT"].value == 40  # successes only: 40 / 100
    assert m["pMD"].value == (10 + 20 + 40 + 40) / 4  # a failure: D_max / M per agent
    assert m["AU"].value == pytest.approx((75 + 100) / 2)  # agents of successes only
    assert (m["pMD"].n, m["AU"].n, m["nOCT"].n) == (4, 2, 1)


def test_nothing_to_average_is_not_a_number():
    failed = _run(False, 12, {"a": 3}, {"a": 12}, {"a": 0})
    m = metrics([failed])
    assert m["SR"].value == 0 and math.isnan(m["nOCT"].value) and math.isnan(m["AU"].value)
    assert "| - |" in to_markdown(report_rows([failed]))


def test_intervals():
    assert t_quantile(0.975, 1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile(0.975, 7) == pytest.approx(2.365, abs=1e-3)
    assert t_quantile(0.975, 1000) == pytest.approx(1.960, abs=1e-3)
    e = mean_ci([1, 2, 3, 4])
    half = 3.182 * math.sqrt(5 / 3) / 2
    assert (e.value, e.n) == (2.5, 4)
    assert (e.low, e.high) == (pytest.approx(2.5 - half, abs=1e-3), pytest.approx(2.5 + half, abs=1e-3))
    single = mean_ci([7])
    assert single.value == 7 and math.isnan(single.low)
    w = wilson(8, 8)
    assert w.value == 100 and w.high == 100 and w.low == pytest.approx(67.56, abs=0.01)
    assert wilson(0, 10).low == 0


def test_progress_rate_is_the_mean_progress_with_an_interval():
    runs = [_run(False, 9, {"a": 1}, {"a": 1}, {"a": 0}, progress=p) for p in (0.25, 0.5, 0.75)]
    runs.append(_run(True, 30, {"a": 1}, {"a": 1}, {"a": 0}, progress=1.0))
    pr = metrics(runs)["PR"]
    assert (pr.value, pr.n) == (62.5, 4)
    half = t_quantile(0.975, 3) * math.sqrt(sum((v - 62.5) ** 2 for v in (25, 50, 75, 100)) / 3) / 2
    assert pr.low == pytest.approx(62.5 - half) and 62.5 + half > 100 and pr.high == 100  # clipped
    assert (metrics(runs[:1] * 5)["PR"].low, metrics(runs[:1] * 5)["PR"].high) == (25, 25)  # no spread


def test_grouping_and_formats():
    runs = [
        _run(True, 30, {"a": 1}, {"a": 1}, {"a": 0}, difficulty="hard", category="sushi"),
        _run(False, 9, {"a": 1}, {"a": 1}, {"a": 0}, difficulty="easy", category="salad"),
        _run(
            True,
            20,
            {"a": 1, "b": 2},
            {"a": 1, "b": 2},
            {"a": 0, "b": 0},
            difficulty="easy",
            category="salad",
        ),
    ]
    rows = report_rows(runs, "difficulty")
    assert [(r.group, r.tasks) for r in rows] == [("easy", 2), ("hard", 1), ("all", 3)]
    assert [r.group for r in report_rows(runs, "agents")] == ["1", "2", "all"]
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert table[0]["group"] == "easy" and float(table[0]["SR"]) == 50 and table[1]["pOCT_low"] == ""
    # neither run has a recorded progress: the success counts 1, the failure is left out
    assert (float(table[0]["PR"]), table[0]["PR_n"]) == (100, "1")
    assert (table[0]["PR_assumed"], table[0]["PR_missing"]) == ("1", "1")
    data = json.loads(to_json(rows))
    assert data[2]["metrics"]["pOCT"]["value"] == pytest.approx((30 + 100 + 20) / 3, abs=1e-4)
    assert data[2]["progress_sources"] == {"assumed": 2, "unknown": 1}
    table_md = to_markdown(rows)
    assert "| easy | 2 | 50.00 [" in table_md and "| 100.00 (a) (b) |" in table_md
    assert "(a) PR: 2 successful run(s) had no recorded progress" in table_md
    assert "(b) PR: 1 failed run(s) had no recorded progress" in table_md
    with pytest.raises(ValueError, match="cannot group by"):
        report_rows(runs, "colour")


def _result_file(tmp_path: Path, name: str, **extra) -> Path:
    level = load_level(Path("levels/tutorial/01_first_salad.yaml"))
    plan = json.loads(Path("tests/data/tutorial_plans/01_first_salad.json").read_text())
    data = simulate(level, plan).to_dict() | {"task": task_info(level), "plan": plan} | extra
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_runner_results_replays_and_labels(tmp_path: Path, capsys):
    _result_file(tmp_path, "a.json", model="m1", method="cot")
    _result_file(tmp_path, "b.json", model="m1", method="cot", done=False)
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    level = load_level(Path("levels/tutorial/01_first_salad.yaml"))
    plan = json.loads(Path("tests/data/tutorial_plans/01_first_salad.json").read_text())
    parsed = parse_plan(plan, level.agent_names)
    save_replay(tmp_path / "r.json", level, parsed, simulate(level, parsed, record=True), {"kind": "solver"})
    runs, skipped = load_runs([tmp_path])
    assert sorted(r.label for r in runs) == ["cot m1", "cot m1", "solver"]
    assert skipped == [str(tmp_path / "notes.json")]
    cot = [r for r in runs if r.label == "cot m1"]
    assert metrics(cot)["pOCT"].value == (13 + 40) / 2  # the failure costs T_max = 40
    assert main(["report", str(tmp_path), "--by", "orders", "--format", "csv", "--dedupe", "all"]) == 0
    out = capsys.readouterr()
    assert "cot m1,orders,1,2,50.0," in out.out and "skipped 1" in out.err
    assert "1 task(s) appear more than once under one label" in out.err and "all kept" in out.err


def test_runs_under_other_rules_are_kept_apart_never_taken_for_repeats(tmp_path: Path, capsys):
    """One label, one task, two rule sets: two rows (times under other rules are not comparable),
    even with --pool, and a run under one rule set never stands in for a repeat of the other."""
    _result_file(tmp_path, "a.json", model="m1", method="cot")  # paracook, served at 13
    _result_file(tmp_path, "b.json", model="m1", method="cot", done=False)  # paracook, failed: T_max 40
    _result_file(tmp_path, "c.json", model="m1", method="cot", rules="documented")  # served at 13
    for pool in ([], ["--pool"]):
        argv = ["report", str(tmp_path), "--by", "orders", "--format", "csv", "--dedupe", "all", *pool]
        assert main(argv) == 0
        rows = {
            r[0]: r for r in csv.reader(io.StringIO(capsys.readouterr().out)) if r[1:3] == ["orders", "1"]
        }
        assert sorted(rows) == ["cot m1 (documented rules)", "cot m1 (paracook rules)"]
        para, doc = rows["cot m1 (paracook rules)"], rows["cot m1 (documented rules)"]
        assert (para[3], para[4], doc[3], doc[4]) == ("2", "50.0", "1", "100.0")  # tasks, SR (%)
    assert main(["report", str(tmp_path), "--format", "json"]) == 0  # --dedupe best: one run per rule set
    rows = [r for r in json.loads(capsys.readouterr().out) if r["group"] == "all"]
    assert {r["run"]: r["metrics"]["pOCT"]["value"] for r in rows} == {
        "cot m1 (documented rules)": 13,
        "cot m1 (paracook rules)": 13,  # the best of 13 and the failure's 40
    }


TUTORIAL = "levels/tutorial/01_first_salad.yaml"


def _partial_result(cut: int, **fields) -> dict:
    """A failed run of the first tutorial with its plan cut after `cut` actions, saved without
    its progress (as older result files are)."""
    level = load_level(Path(TUTORIAL))
    plan = {
        "agent1": json.loads(Path("tests/data/tutorial_plans/01_first_salad.json").read_text())["agent1"][
            :cut
        ]
    }
    data = simulate(level, plan).to_dict() | {"task": task_info(level), "plan": plan} | fields
    del data["progress"]
    return data


@pytest.mark.parametrize("cut, expected", [(4, 0), (5, 1 / 3), (8, 2 / 3)])
def test_missing_progress_is_re_simulated_from_the_named_level(tmp_path: Path, cut: int, expected: float):
    (tmp_path / "r.json").write_text(json.dumps(_partial_result(cut, level=TUTORIAL)))
    (run,), _ = load_runs([tmp_path])
    assert (run.progress, run.progress_source) == (pytest.approx(expected), "simulated")
    assert metrics([run])["PR"].value == pytest.approx(100 * expected)


def test_missing_progress_without_level_or_plan(tmp_path: Path, capsys):
    no_level = _partial_result(8)
    gone = _partial_result(8, level=str(tmp_path / "deleted.yaml"))
    wrong = _partial_result(8, level="levels/tutorial/02_chopping.yaml")  # another kitchen
    success = _partial_result(11)
    del success["plan"]
    for i, data in enumerate([no_level, gone, wrong, success]):
        (tmp_path / f"{i}.json").write_text(json.dumps(data))
    runs, _ = load_runs([tmp_path])
    assert [(r.progress, r.progress_origin) for r in runs] == [(None, "unknown")] * 3 + [(None, "assumed")]
    assert metrics(runs)["PR"].n == 1 and metrics(runs)["PR"].value == 100
    assert main(["report", str(tmp_path), "--dedupe", "all"]) == 0
    out = capsys.readouterr().out
    assert "(a) PR: 1 successful run(s)" in out and "(b) PR: 3 failed run(s)" in out


def test_recorded_progress_wins_and_a_replay_is_re_simulated(tmp_path: Path):
    recorded = _partial_result(5) | {"progress": 0.5}  # trusted as written
    (tmp_path / "a.json").write_text(json.dumps(recorded))
    level = load_level(Path(TUTORIAL))
    plan = parse_plan(_partial_result(8)["plan"], level.agent_names)
    replay = save_replay(tmp_path / "replay.json", level, plan, simulate(level, plan), {"kind": "cli"})
    data = json.loads(replay.read_text())
    del data["result"]["progress"]  # a replay from before progress was recorded
    replay.write_text(json.dumps(data))
    runs = {r.label: r for r in load_runs([tmp_path])[0]}
    assert (runs["results"].progress, runs["results"].progress_source) == (0.5, "recorded")
    assert (runs["cli"].progress, runs["cli"].progress_source) == (pytest.approx(2 / 3), "simulated")


def test_jsonl_and_lists(tmp_path: Path):
    one = json.loads(_result_file(tmp_path, "x.json").read_text())
    (tmp_path / "x.json").unlink()
    (tmp_path / "batch.jsonl").write_text(json.dumps(one) + "\n\n" + json.dumps(one) + "\n")
    (tmp_path / "list.json").write_text(json.dumps([one, one, one]))
    runs, _ = load_runs([tmp_path])
    assert len(runs) == 5


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"done": true, "time": 3', "line 1, column"),
        ('{"done": "yes", "time": 3, "task": {"id": "x"}, "t_max": 1, "d_max": 1}', "'done' must be"),
        ('{"done": true, "time": 3, "t_max": 1, "d_max": 1}', "no 'task' field"),
        ('{"done": true, "time": 3, "task": {"id": "x"}}', "no 't_max'/'d_max'"),
        (
            '{"done": true, "time": 3, "task": {}, "t_max": 1, "d_max": 1, "agent_moving_time": [1]}',
            "'agent_moving_time' must map",
        ),
        (
            '{"done": false, "time": 3, "task": {}, "t_max": 1, "d_max": 1, "progress": 1.5}',
            "field 'progress' must be a number from 0 to 1, not 1.5",
        ),
        (
            '{"done": false, "time": 3, "task": {}, "t_max": 1, "d_max": 1, "progress": "half"}',
            "field 'progress' must be a number from 0 to 1",
        ),
    ],
)
def test_bad_result_files_are_named(tmp_path: Path, content: str, message: str, capsys):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ResultError, match=message):
        load_runs([path])
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "Traceback" not in err


def test_report_without_results(tmp_path: Path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "no results" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing")]) == 2


def test_plot(paracook_dir: Path, tmp_path: Path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "plot.png"
    assert main(["report", str(paracook_dir / "human"), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


@pytest.mark.parametrize("name", ["plot", "plot.jpg", "plot.part"])
def test_a_plot_name_it_cannot_write_is_refused_before_the_table(tmp_path: Path, capsys, name):
    """A name without .png, .svg or .pdf once ended in matplotlib's traceback (it read the format
    from the temporary file's '.part'); it is refused first, and nothing is written."""
    _result_file(tmp_path, "a.json", model="m1", method="cot")
    assert main(["report", str(tmp_path / "a.json"), "--plot", str(tmp_path / name)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"--plot {tmp_path / name}: give a .png, .svg, .pdf file name" in err
    assert not (tmp_path / name).exists() and "Traceback" not in err


def test_plot_without_matplotlib(paracook_dir: Path, tmp_path: Path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.delitem(sys.modules, "game.report.plot", raising=False)
    assert main(["report", str(paracook_dir / "human"), "--plot", str(tmp_path / "p.png")]) == 2
    assert "needs matplotlib" in capsys.readouterr().err


def test_a_paper_cell_reads_the_same_in_markdown_and_latex():
    from game.report.metrics import Estimate
    from game.report.paper import cell

    e = Estimate(61.25, 55.0, 67.4, 5)
    assert cell(e) == "61.2 [55.0, 67.4]"
    assert cell(e, latex=True) == "61.2 {\\scriptsize [55.0, 67.4]}"
    assert (cell(None), cell(None, latex=True)) == ("-", "--")
    assert cell(Estimate(3.0, float("nan"), float("nan"), 1), 2) == "3.00"


def test_report_html_writes_over_its_own_site_never_over_other_files(tmp_path, capsys):
    level_file = Path(__file__).parents[1] / "levels" / "tutorial" / "01_first_salad.yaml"
    plan_file = Path(__file__).parent / "data" / "tutorial_plans" / "01_first_salad.json"
    level = load_level(level_file)
    plan = parse_plan(json.loads(plan_file.read_text()), level.agent_names)
    runs = tmp_path / "runs"
    save_replay(runs / "r.json", level, plan, simulate(level, plan, record=True), {"kind": "cli"})
    site = tmp_path / "site"
    assert main(["report", str(runs), "--html", str(site)]) == 0
    pages = sorted(p.relative_to(site) for p in site.rglob("*.html"))
    assert len(pages) == 2  # the index and the run's page
    assert main(["report", str(runs), "--html", str(site)]) == 0  # an earlier report's: written over
    capsys.readouterr()
    for theirs in ("index.html", pages[-1]):  # a person's own page of one of our names
        other = tmp_path / f"other-{len(str(theirs))}"
        (other / theirs).parent.mkdir(parents=True, exist_ok=True)
        (other / theirs).write_text("<html><p>my own page</p></html>")
        assert main(["report", str(runs), "--html", str(other)]) == 2
        err = capsys.readouterr().err
        assert f"{other / theirs}: already there and not written by paracook-kitchen" in err
        assert "nothing was written" in err and "Traceback" not in err
        assert (other / theirs).read_text() == "<html><p>my own page</p></html>"
        assert [p.name for p in other.rglob("*") if p.is_file()] == [Path(theirs).name]
