"""Autosave, plan files, the local scoreboard, replays and exports of the play window."""

from __future__ import annotations

import json

import pytest
from conftest import human_cases, need_paracook
from test_editor import cook_salad, salad_level

from game.engine import Action, simulate
from game.levels import load_level
from game.replay import load_replay
from game.ui import store
from game.ui.editor import PlanEditor


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


def test_data_dir_follows_env_and_xdg(tmp_path, monkeypatch):
    assert store.data_dir() == tmp_path / "data"
    monkeypatch.delenv(store.ENV_DATA)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert store.data_dir() == tmp_path / "xdg" / "paracook-kitchen"


def test_autosave_round_trip_and_damaged_file_set_aside():
    level = salad_level()
    assert store.load_autosave(level) is None
    ed = PlanEditor(level)
    cook_salad(ed)
    path = store.autosave(level, ed.plan)
    assert path.parent.parent == store.data_dir()
    assert store.load_autosave(level) == ed.plan
    path.write_text("{ half a fi")
    assert store.load_autosave(level) is None
    assert not path.exists() and len(list(path.parent.glob("*.bad-*"))) == 1


def test_level_key_follows_content_not_title():
    a, b = salad_level(), salad_level().replace(title="Other title")
    assert store.content_digest(a) == store.content_digest(b)
    assert store.level_key(a) != store.level_key(salad_level(("salad_basic", "salad_basic")))


def test_plan_file_round_trip_and_misfit_reasons(tmp_path):
    level = salad_level()
    ed = PlanEditor(level)
    cook_salad(ed)
    path = store.save_plan(tmp_path / "p.json", level, ed.plan)
    plan, note = store.load_plan(path, level)
    assert plan == ed.plan and note is None
    other = salad_level(("salad_basic", "salad_basic"))
    plan, note = store.load_plan(path, other)
    assert plan == ed.plan and "saved for Test salad" in note
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"agent1": [{"action": "Interact", "target": "stove2"}], "agent3": []}))
    with pytest.raises(store.StoreError) as e:
        store.load_plan(bad, level)
    assert "bad.json does not fit this level" in str(e.value)
    assert "agent3: no such agent" in str(e.value)
    (tmp_path / "broken.json").write_text('{"agent1": [')
    with pytest.raises(store.StoreError, match=r"broken.json: line 1, column \d+: not valid JSON"):
        store.load_plan(tmp_path / "broken.json", level)
    with pytest.raises(store.StoreError, match="cannot read"):
        store.load_plan(tmp_path / "missing.json", level)


def test_scoreboard_records_best_time_and_survives_damage():
    level = salad_level()
    assert store.best_time(level) is None
    ed = PlanEditor(level)
    cook_salad(ed)
    store.record_score(level, ed.result)
    slow = simulate(
        level, {"agent1": ed.plan["agent1"][:1] + (Action("Wait", duration=5),) + ed.plan["agent1"][1:]}
    )
    store.record_score(level, slow)
    assert slow.time == 19 and store.best_time(level) == 14
    assert store.best_time(salad_level(("salad_basic", "salad_basic"))) is None
    store.scores_path().write_text("[1, 2")
    assert store.best_time(level) is None
    assert list(store.data_dir().glob("scores.json.bad-*"))


def test_replay_and_export_of_a_finished_plan(data_home):
    level = salad_level()
    ed = PlanEditor(level)
    cook_salad(ed)
    path = store.save_play_replay(level, ed.plan, ed.result)
    assert path.parent == data_home / "replays"
    rp = load_replay(path)
    assert rp.result["time"] == 14 and rp.source == {"kind": "human"}
    out = store.export_result(data_home / "out.json", level, ed.plan, ed.result)
    data = json.loads(out.read_text())
    assert data["done"] and data["time"] == 14 and data["plan"] == ed.plan_dict()
    assert data["task"]["orders"] == 1 and data["task"]["agents"] == 2
    assert simulate(level, data).time == 14  # the exported file runs as a plan


def test_human_time_for_human_study_kitchens():
    need_paracook()
    f, map_path, orders = human_cases()[0]
    level = load_level(map_path, orders)
    assert store.human_time(level) == json.loads(f.read_text())["time"]
    assert store.human_time(salad_level()) is None
