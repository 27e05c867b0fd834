"""A study protocol runs every participant in the planned condition: counterbalanced orders
differ between participants, warm-ups come first and are never scored, the time limit submits,
`study list` says who did what, and a bad protocol is named, not a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.study.persist import SessionStore
from game.study.protocol import load_protocol
from game.ui import store
from game.ui.app import App
from game.ui.screens.study import StudyIntroScreen, StudyLevelScreen, studies_dir
from tests.test_study import Driver

ROOT = Path(__file__).resolve().parents[1]
TUT = ROOT / "levels" / "tutorial"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


@pytest.fixture
def started(monkeypatch):
    """`study` opens its first screen and returns (no window loop); the screens it opened."""
    screens = []

    def run(self):
        screens.append(self.screen)

    monkeypatch.setattr(App, "run", run)
    return screens


def protocol(tmp_path: Path, **fields) -> Path:
    text = {
        "name": "pilot",
        "levels": [
            f"../levels/tutorial/0{i}_{n}.yaml" for i, n in ((2, "chopping"), (3, "cook_while_you_chop"))
        ]
        + ["tutorial/04_two_cooks"],
        "order": "counterbalanced",
        "warmup": [str(TUT / "01_first_salad.yaml")],
        "instructions": "Plan each kitchen as fast as you can serve it.",
        "time_limit": 120,
        **fields,
    }
    (tmp_path / "levels" / "tutorial").mkdir(parents=True, exist_ok=True)
    for i, n in ((2, "chopping"), (3, "cook_while_you_chop")):
        (tmp_path / "levels" / "tutorial" / f"0{i}_{n}.yaml").write_text((TUT / f"0{i}_{n}.yaml").read_text())
    folder = tmp_path / "protocols"
    folder.mkdir(exist_ok=True)
    path = folder / "pilot.json"
    path.write_text(json.dumps(text))
    return path


def sessions() -> dict[str, SessionStore]:
    return {
        s.session.participant: s
        for s in (SessionStore.open(f.parent) for f in studies_dir().glob("*/session.json"))
    }


def test_counterbalanced_participants_get_different_orders_after_the_same_warmup(
    tmp_path, started, monkeypatch, capsys
):
    monkeypatch.setattr(store, "installed_paracook_dir", lambda: ROOT / "levels")  # ids resolve here
    path = protocol(tmp_path)
    assert main(["study", "--protocol", str(path), "--participant", "ann"]) == 0
    assert main(["study", "--protocol", str(path), "--participant", "bob"]) == 0
    assert all(isinstance(s, StudyIntroScreen) for s in started)
    got = sessions()
    orders = {who: [r.task_id for r in s.session.levels] for who, s in got.items()}
    assert orders["ann"][0] == orders["bob"][0] == "tutorial/01_first_salad"  # the warm-up first
    assert orders["ann"][1:] != orders["bob"][1:] and sorted(orders["ann"]) == sorted(orders["bob"])
    ann = got["ann"].session
    assert ann.levels[0].warmup and not any(r.warmup for r in ann.levels[1:])
    assert (ann.protocol, ann.condition, got["bob"].session.condition, ann.time_limit) == ("pilot", 0, 1, 120)
    # the same participant again resumes rather than taking the next row
    assert main(["study", "--protocol", str(path), "--participant", "ann"]) == 0
    assert len(sessions()) == 2
    capsys.readouterr()
    assert main(["study", "list"]) == 0
    listing = capsys.readouterr().out
    assert (
        "ann  at level 1 of 4  (protocol pilot, counterbalanced row 1; 3 not_attempted, 1 warmup)" in listing
    )
    assert "counterbalanced row 2" in listing


def test_the_intro_shows_the_protocol_text_and_the_time_limit_submits(tmp_path, started, monkeypatch):
    monkeypatch.setattr(store, "installed_paracook_dir", lambda: ROOT / "levels")
    path = protocol(tmp_path, order="fixed", time_limit=30)
    assert main(["study", "--protocol", str(path), "--participant", "cy"]) == 0
    session_store = sessions()["cy"]
    d = Driver(StudyIntroScreen(session_store, None, (1024, 700)))
    assert "Plan each kitchen as fast as you can serve it." in d.screen.shown_text()
    d.press("begin")
    warm = d.screen
    assert isinstance(warm, StudyLevelScreen) and "Warm-up 1 of 1 (not scored)" in warm.play.level.title
    d.step(31, dt=1.0)  # the limit runs out: the level is submitted as it stands
    assert isinstance(d.screen, StudyLevelScreen) and d.screen is not warm
    assert "Level 1 of 3" in d.screen.play.level.title and "0:30 min to plan" in d.screen.play.level.title
    assert session_store.session.levels[0].status == "warmup"
    out = tmp_path / "export"
    assert main(["study", "export", str(session_store.folder), "--out", str(out)]) == 0
    statuses = [e["status"] for e in json.loads((out / "study.json").read_text())["levels"]]
    assert statuses == ["warmup", "abandoned", "not_attempted", "not_attempted"]
    assert not (out / "replays" / "tutorial" / "01_first_salad.json").exists()  # practice is not scored
    events = [json.loads(x)["event"] for x in (session_store.folder / "log.jsonl").read_text().splitlines()]
    assert "time_limit" in events


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"order": "random"}, "field 'order' must be one of"),
        ({"levels": []}, "field 'levels' must be a list"),
        ({"levels": ["no/such/level"]}, "no/such/level"),
        ({"time_limit": -5}, "field 'time_limit'"),
        ({"time_limit": True}, "field 'time_limit'"),
        ({"colour": "red"}, "unknown field(s) colour"),
        ({"seed": 1.5}, "field 'seed'"),
    ],
)
def test_a_bad_protocol_is_named_with_its_field(tmp_path, started, capsys, monkeypatch, fields, words):
    monkeypatch.setattr(store, "installed_paracook_dir", lambda: ROOT / "levels")
    path = protocol(tmp_path, **fields)
    assert main(["study", "--protocol", str(path), "--participant", "x"]) == 2
    err = capsys.readouterr().err
    assert words in err and str(path) in err
    assert started == []


def test_an_unreadable_protocol_file_is_named(tmp_path, started, capsys):
    bad = tmp_path / "p.yaml"
    for content in (b"\xff\xfe", b"levels: [a\n", b"- just a list\n", b"[" * 5000):
        bad.write_bytes(content)
        assert main(["study", "--protocol", str(bad), "--participant", "x"]) == 2
        assert str(bad) in capsys.readouterr().err
    assert main(["study", "--protocol", str(bad)]) == 2
    assert "--participant" in capsys.readouterr().err
    with pytest.raises(Exception, match="not valid YAML"):
        bad.write_text("levels: [a\n")
        load_protocol(bad, ROOT / "levels")
    pygame.display.quit()


def test_the_intro_offers_the_tutorials_first_and_records_nothing_there(tmp_path):
    from game.study.persist import new_session
    from game.ui.play import PlayScreen
    from game.ui.screens.study import TutorialPicker

    session_store = new_session(tmp_path / "studies", "dee", [TUT / "02_chopping.yaml"], "fixed")
    d = Driver(StudyIntroScreen(session_store, None, (1024, 700)))
    text = d.screen.shown_text()
    assert "Chopping takes 4 time units" in text and "never block each other" in text
    intro = d.screen
    d.press("tutorials")
    assert isinstance(d.screen, TutorialPicker)
    d.press("0")
    play = d.screen
    assert isinstance(play, PlayScreen) and "salad" in play.level.title.lower()
    assert not play.buttons["strong"].visible  # no planner while practising
    d.click_at(play.buttons["back"].rect.center)
    assert isinstance(d.screen, TutorialPicker)
    d.press("back")
    assert d.screen is intro
    assert not (tmp_path / "replays").exists()
    assert session_store.session.levels[0].opened is False  # practice touched no level of the session


def test_a_shuffled_protocol_seeds_each_participant_apart_and_the_same_name_alike(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "installed_paracook_dir", lambda: ROOT / "levels")
    p = load_protocol(protocol(tmp_path, order="shuffled", seed=11), ROOT / "levels")
    seeds = {who: p.seed_for(who) for who in ("a", "b", "c", "d")}
    assert len(set(seeds.values())) == 4 and p.seed_for(" a ") == seeds["a"]
    fixed = load_protocol(protocol(tmp_path, order="fixed"), ROOT / "levels")
    assert fixed.seed_for("a") is None and [f.name for f in fixed.levels][0] == "02_chopping.yaml"
