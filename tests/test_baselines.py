"""Human baselines: a published time only on the paper's own task; the paper's tasks installed
and listed in the browser; the report's per-level rows, duplicates, labels, intervals, and the
study summary across participants."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.engine import parse_plan, simulate
from game.levels import load_level
from game.replay import save_replay
from game.report.files import load_runs
from game.report.metrics import Run, bounded, dedupe, mean_ci, metrics, report_rows
from game.report.study import study_summary, summary_markdown
from game.ui import store

SUITE_LEVEL = Path("levels/suite/salad/seed_42/agent_num_2/orders_num_2.yaml")
TASK = "salad/seed_42/agent_num_2/orders_num_2"
TUTORIAL = Path("levels/tutorial/01_first_salad.yaml")
TUTORIAL_PLAN = json.loads(Path("tests/data/tutorial_plans/01_first_salad.json").read_text())


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    monkeypatch.setattr(store, "PARACOOK_DIR", tmp_path / "no-shared-data")
    return tmp_path


def paper_data(root: Path, human_time: float = 34) -> Path:
    """A small ParaCook data folder: the suite's salad kitchen with agent1 standing elsewhere
    (so the paper's task and the suite level share an id but not a kitchen), and its human time."""
    level = load_level(SUITE_LEVEL)
    m = level.to_paracook_map()
    taken = {(a["x"], a["y"]) for a in m["agents"]}
    spot = next(
        (x, y)
        for y in range(level.height)
        for x in range(level.width)
        if level.is_floor((x, y))
        and (x, y) not in taken
        and (x, y) != (m["agents"][0]["x"], m["agents"][0]["y"])
    )
    m["agents"][0]["x"], m["agents"][0]["y"] = spot
    (root / "maps" / "salad" / "seed_42").mkdir(parents=True)
    (root / "maps/salad/seed_42/agent_num_2.json").write_text(json.dumps(m))
    (root / "orders.json").write_text(
        json.dumps({"salad/seed_42/orders_num_2": [f"salad/{o}" for o in level.orders]})
    )
    (root / "recipes").mkdir()
    human = root / "human/salad/seed_42/agent_num_2"
    human.mkdir(parents=True)
    (human / "orders_num_2.json").write_text(json.dumps({"done": True, "time": human_time, "plan": {}}))
    return root


def install(tmp_path: Path, capsys) -> Path:
    src = paper_data(tmp_path / "paracook")
    assert main(["levels", "import-paracook", str(src)]) == 0
    assert "1 level file(s) written to" in capsys.readouterr().out
    return store.installed_paracook_dir() / f"{TASK}.yaml"


def test_human_time_on_the_imported_paper_task_and_not_on_the_suite_level(tmp_path, capsys):
    paper_file = install(tmp_path, capsys)
    paper, suite = load_level(paper_file), load_level(SUITE_LEVEL)
    assert paper.meta["id"] == suite.meta["id"] == TASK  # one id, two kitchens
    assert store.human_time(paper) == 34 and store.human_reference(paper)[0] == 34
    assert store.human_time(suite) is None and store.human_reference(suite) is None
    # a different rule set is the same task; other orders are not
    assert store.human_time(paper.with_rules("documented")) == 34
    assert store.human_time(paper.with_orders(paper.orders[:1], [paper.recipe_book[paper.orders[0]]])) is None


def test_the_result_card_shows_the_human_time_only_on_the_paper_task(tmp_path, capsys):
    from game.ui.screens.play import PlayScreen

    paper_file = install(tmp_path, capsys)
    pygame.init()
    pygame.display.set_mode((1440, 900))
    for path, expected in ((paper_file, "34"), (SUITE_LEVEL, "not recorded")):
        screen = PlayScreen(load_level(path), size=(1440, 900), restore=False)
        rows = dict(screen.results.card_for(None, None).rows)
        assert rows["Human baseline"].startswith(expected), path


def test_the_browser_lists_the_paper_tasks_with_human_times(tmp_path, capsys):
    from game.ui.screens.browser import BrowserScreen

    install(tmp_path, capsys)
    pygame.init()
    surface = pygame.display.set_mode((1024, 700))
    browser = BrowserScreen(size=(1024, 700))
    browser.draw(surface)
    cells = [c for blocks in browser.paper.values() for b in blocks for c in b.cells.values()]
    assert [(c.level_id, c.human) for c in cells] == [(TASK, 34)]
    suite_cells = [c for blocks in browser.suite.values() for b in blocks for c in b.cells.values()]
    assert suite_cells and all(c.human is None for c in suite_cells)
    assert "1 human-study tasks" in browser.study[0].detail
    # the paper's section is drawn (above the suite) and its cell is clickable
    assert 0 < cells[0].rect.w and cells[0].rect.bottom < suite_cells[0].rect.top


def test_import_without_human_results_writes_no_times(tmp_path):
    from game.levels.importer import import_paracook
    from game.levels.paper import read_index

    src = paper_data(tmp_path / "p")
    (src / "human/salad/seed_42/agent_num_2/orders_num_2.json").write_text("{not json")
    written, problems = import_paracook(src, tmp_path / "out")
    assert len(written) == 1 and problems == [] and read_index(tmp_path / "out") == []


def test_real_paracook_import_marks_exactly_the_24_study_tasks(paracook_dir, tmp_path):
    from game.levels.importer import import_paracook
    from game.levels.paper import read_index

    import_paracook(paracook_dir, tmp_path / "out")
    index = read_index(tmp_path / "out")
    assert len(index) == 24 and {h.task_id.split("/")[2] for h in index} == {"agent_num_2"}
    imported = load_level(tmp_path / "out" / f"{TASK}.yaml")
    monkey_sources = [tmp_path / "out"]
    from game.levels.paper import human_time

    assert human_time(imported, monkey_sources).time == 47
    assert human_time(load_level(SUITE_LEVEL), monkey_sources) is None


# -- the report --------------------------------------------------------------------------------


def _replay(path: Path, level_file: Path, plan: dict, source: dict) -> Path:
    level = load_level(level_file)
    parsed = parse_plan(plan, level.agent_names)
    return save_replay(path, level, parsed, simulate(level, parsed, record=True), source)


def _cut(n: int) -> dict:
    return {"agent1": TUTORIAL_PLAN["agent1"][:n]}


def test_dedupe_best_last_all_with_a_warning(tmp_path, capsys):
    full, longer = TUTORIAL_PLAN, {"agent1": [{"action": "Wait", "duration": 3}, *TUTORIAL_PLAN["agent1"]]}
    _replay(tmp_path / "a.json", TUTORIAL, full, {"kind": "human"})
    _replay(tmp_path / "b.json", TUTORIAL, longer, {"kind": "human"})
    _replay(tmp_path / "c.json", TUTORIAL, _cut(5), {"kind": "human"})
    for i, name in enumerate(("a.json", "c.json", "b.json")):  # b written last
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    runs, _ = load_runs([tmp_path])
    best, repeated = dedupe(runs, "best")
    assert repeated == {("human", "tutorial/01_first_salad (tutorial)"): 3}
    assert [(r.done, r.time) for r in best] == [(True, 13)]
    (last,), _ = dedupe(runs, "last")
    assert last.time == 16 and last.where.endswith("b.json")
    assert len(dedupe(runs, "all")[0]) == 3
    assert main(["report", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "| human | all | 1 |" in out.out and "warning: 1 task(s) appear more than once" in out.err
    assert main(["report", str(tmp_path), "--dedupe", "all"]) == 0
    assert "| human | all | 3 |" in capsys.readouterr().out


def test_a_suite_level_and_the_paper_task_of_one_id_are_two_tasks(tmp_path, capsys):
    paper_file = install(tmp_path, capsys)
    plan = {"agent1": [{"action": "Wait", "duration": 1}], "agent2": []}
    runs_dir = tmp_path / "runs"
    _replay(runs_dir / "paper.json", paper_file, plan, {"kind": "human", "label": "ann"})
    _replay(runs_dir / "suite.json", SUITE_LEVEL, plan, {"kind": "human", "label": "ann"})
    _replay(runs_dir / "solver.json", paper_file, plan, {"kind": "solver", "method": "solver"})
    assert main(["report", str(runs_dir), "--by", "level", "--format", "csv"]) == 0
    out = capsys.readouterr()
    assert "more than once" not in out.err
    lines = out.out.splitlines()
    header = lines[0].split(",")
    rows = {(r[0], r[2]): dict(zip(header, r, strict=True)) for r in (x.split(",") for x in lines[1:])}
    assert header[-2:] == ["human", "planner"]
    paper_row, suite_row = rows[("ann", f"{TASK} (paracook)")], rows[("ann", f"{TASK} (suite)")]
    assert paper_row["human"] == "34.0" and suite_row["human"] == ""
    assert paper_row["tasks"] == suite_row["tasks"] == "1"
    # the planner's run failed (a Wait is no plan): no planner time to show
    assert paper_row["planner"] == ""
    assert main(["report", str(runs_dir), "--by", "level"]) == 0
    md = capsys.readouterr().out
    assert f"| ann | {TASK} (paracook) | 1 |" in md and "human time | planner time |" in md


def test_planner_time_on_level_rows(tmp_path, capsys):
    _replay(tmp_path / "h.json", TUTORIAL, _cut(11), {"kind": "human", "label": "bob"})
    _replay(tmp_path / "s.json", TUTORIAL, TUTORIAL_PLAN, {"kind": "solver", "method": "solver"})
    assert main(["report", str(tmp_path), "--by", "level"]) == 0
    out = capsys.readouterr().out
    assert "| bob | tutorial/01_first_salad (tutorial) | 1 |" in out and "| - | 13 |" in out


def _run(
    label: str, task: str, time: float, done: bool = True, agents: int = 1, difficulty: str = "easy"
) -> Run:
    moving = {f"agent{i + 1}": time / 2 for i in range(agents)}
    return Run(
        label,
        {"id": task, "difficulty": difficulty, "agents": agents},
        done,
        time,
        t_max=100,
        d_max=80,
        moving=moving,
        execution={a: time for a in moving},
        waiting={a: 0 for a in moving},
        progress=1.0 if done else 0.2,
    )


def test_intervals_stay_inside_the_metric_range_and_one_task_has_none():
    runs = [_run("m", f"t{i}", t) for i, t in enumerate((1, 1, 1, 60))]
    raw = mean_ci([1, 1, 1, 60])
    assert raw.low < 0  # the plain t interval would go below zero
    m = metrics(runs)
    assert m["pOCT"].low == 0 and m["pOCT"].high == pytest.approx(raw.high)
    assert m["pMD"].low >= 0 and m["nOCT"].low >= 0
    one = metrics([_run("m", "t", 40, agents=3)])  # three agents, one task
    assert all(math.isnan(e.low) and math.isnan(e.high) for e in one.values())
    assert one["pMD"].n == 3 and one["pMD"].value == 20
    assert bounded(mean_ci([90, 99, 100]), "AU", 3).high == 100


def test_run_label_goes_into_the_replay_and_the_report(tmp_path, capsys):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(TUTORIAL_PLAN))
    out = tmp_path / "r" / "replay.json"
    out.parent.mkdir()
    assert main(["run", str(TUTORIAL), str(plan), "--replay", str(out), "--label", "alice", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["label"] == "alice"
    data = json.loads(out.read_text())
    result = data["result"] | {"task": {"id": "x", "difficulty": "easy"}, "label": "carol"}
    (tmp_path / "r" / "result.json").write_text(json.dumps(result))
    runs, _ = load_runs([tmp_path / "r"])
    assert sorted(r.label for r in runs) == ["alice", "carol"]
    assert main(["run", str(TUTORIAL), str(plan), "--replay", str(tmp_path / "cli.json")]) == 0
    (cli,), _ = load_runs([tmp_path / "cli.json"])
    assert cli.label == "cli"


def test_study_summary_across_participants():
    runs = [
        _run("p1", "a", 40),
        _run("p1", "b", 60, difficulty="hard"),
        _run("p2", "a", 50),
        _run("p2", "b", 70, difficulty="hard"),
        _run("p3", "a", 30),
    ]
    rows = {(r.by, r.group): r for r in study_summary(runs)}
    a = rows[("level", "a")]
    assert (a.participants, a.metrics["pOCT"].value, a.best) == (3, 40, 30)
    assert a.spread == pytest.approx(10) and a.metrics["pOCT"].low < 40 < a.metrics["pOCT"].high
    assert a.metrics["SR"].low >= 0 and a.metrics["SR"].high <= 100
    everyone = rows[("difficulty", "all")]
    assert everyone.participants == 3 and everyone.tasks == 2
    assert everyone.metrics["pOCT"].value == pytest.approx((50 + 60 + 30) / 3)  # each participant's mean
    single = study_summary([_run("p1", "a", 40)])
    assert all(math.isnan(single[0].metrics[m].low) for m in ("pOCT", "nOCT")) and math.isnan(
        single[0].spread
    )
    table = summary_markdown(study_summary(runs))
    assert "| level | a | 3 |" in table and "| difficulty | easy | 3 |" in table
    assert (
        table.index("| difficulty | easy")
        < table.index("| difficulty | hard")
        < table.index("| difficulty | all")
    )


def test_report_study_flag_reads_exports_of_two_participants(tmp_path, capsys):
    for who, plan in (("p1", TUTORIAL_PLAN), ("p2", _cut(5))):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "study.json").write_text(json.dumps({"participant": who}))
        _replay(folder / "replays" / "t.json", TUTORIAL, plan, {"kind": "human", "label": who})
        (folder / "results").mkdir()
        (folder / "results" / "t.json").write_text(json.dumps({"done": True, "time": 1, "plan": {}}))
    assert main(["report", str(tmp_path / "p1"), str(tmp_path / "p2"), "--study"]) == 0
    out = capsys.readouterr().out
    assert "| level | tutorial/01_first_salad (tutorial) | 2 | 50.00 [" in out
    assert report_rows(load_runs([tmp_path])[0])[0].tasks == 1  # results/ of an export is not read twice


def test_the_browser_entry_opens_a_study_over_the_human_study_tasks(tmp_path, capsys):
    from game.ui.app import App
    from game.ui.screens.browser import BrowserScreen
    from game.ui.screens.study import StudySetupScreen

    install(tmp_path, capsys)
    pygame.init()
    surface = pygame.display.set_mode((1440, 900))
    pygame.event.clear()
    app = App(BrowserScreen(size=(1440, 900)), surface)
    app.step(1 / 60)
    entry = app.screen.study[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=entry.rect.center, button=1))
    app.step(1 / 60)
    setup = app.screen
    assert isinstance(setup, StudySetupScreen)
    assert [f.relative_to(store.installed_paracook_dir()).as_posix() for f in setup.files] == [f"{TASK}.yaml"]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.step(1 / 60)
    assert isinstance(app.screen, BrowserScreen)


def test_import_into_an_unwritable_place_is_a_message(tmp_path, capsys):
    src = paper_data(tmp_path / "p")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["levels", "import-paracook", str(src), "--out", str(blocker / "x")]) == 2
    err = capsys.readouterr().err
    assert "cannot write there" in err and "Traceback" not in err


def test_a_result_naming_its_level_gets_the_human_time_only_if_its_plan_runs_there(tmp_path, capsys):
    paper_file = install(tmp_path, capsys)
    level = load_level(paper_file)
    plan = {"agent1": [{"action": "Wait", "duration": 2}], "agent2": []}
    result = simulate(level, parse_plan(plan, level.agent_names)).to_dict()
    runs = tmp_path / "llm"
    runs.mkdir()
    base = result | {"task": {"id": TASK, "difficulty": "easy"}, "plan": plan, "model": "m", "method": "io"}
    (runs / "named.json").write_text(json.dumps(base | {"level": str(paper_file)}))
    lying = base | {"level": str(paper_file), "time": result["time"] + 5, "task": {"id": "other"}}
    (runs / "lying.json").write_text(json.dumps(lying))
    assert main(["report", str(runs), "--by", "level", "--format", "csv"]) == 0
    rows = {line.split(",")[2]: line.split(",") for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows[TASK][-2] == "34.0" and rows["other"][-2] == ""


def test_the_side_panel_shows_the_tasks_human_time_outside_a_study(tmp_path, capsys):
    from game.ui.play import PlayScreen
    from game.ui.play.options import study_options

    paper = load_level(install(tmp_path, capsys))
    pygame.init()
    surface = pygame.display.set_mode((1024, 700))
    free = PlayScreen(paper, size=(1024, 700), restore=False)
    assert free.human == (34, "ParaCook human study, this task")
    free.draw(surface)
    side = free.layout.side
    blank = PlayScreen(paper, size=(1024, 700), restore=False)
    blank.human = None
    before = surface.copy()
    blank.draw(surface)
    changed = [
        y
        for y in range(side.y, side.bottom, 2)
        if before.get_at((side.x + 30, y)) != surface.get_at((side.x + 30, y))
    ]
    assert changed  # the line is drawn
    studied = PlayScreen(paper, size=(1024, 700), restore=False, options=study_options(lambda kind: None))
    assert studied.human is None  # a participant never sees it
    assert store.human_reference(load_level(SUITE_LEVEL)) is None
