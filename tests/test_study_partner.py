"""A study's partner condition: the protocol says who plans beside the person and which agents are
the person's; the session keeps the condition and every partner re-plan, checked on load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.study.partner import Partner
from game.study.persist import SessionStore, new_session
from game.study.protocol import load_protocol
from game.study.session import Session, SessionError

ROOT = Path(__file__).resolve().parents[1]
TUT = ROOT / "levels" / "tutorial"
TWO = TUT / "04_two_cooks.yaml"  # agent1, agent2
ONE = TUT / "01_first_salad.yaml"  # agent1 alone


def write(tmp_path: Path, **fields) -> Path:
    data = {"name": "duo", "levels": [str(TWO)], "warmup": [str(ONE)], **fields}
    path = tmp_path / "duo.json"
    path.write_text(json.dumps(data))
    return path


def load(tmp_path: Path, **fields):
    return load_protocol(write(tmp_path, **fields), ROOT / "levels")


def test_a_protocol_without_a_partner_is_solo(tmp_path):
    p = load(tmp_path)
    assert p.partner is None and p.plan_for(None).partner is None


def test_the_planner_as_partner_gives_the_person_agent1_by_default(tmp_path):
    p = load(tmp_path, partner="planner")
    assert p.partner == Partner("planner", person_agents=("agent1",))
    assert p.plan_for(3).partner == p.partner and p.plan_for(3).condition == 3


@pytest.mark.parametrize(
    ("spec", "endpoint", "model", "method"),
    [
        ("http://localhost:8000/v1/llama3/cot", "http://localhost:8000/v1", "llama3", "cot"),
        ("openai/gpt-4o/io", None, "gpt-4o", "io"),
        (
            {"endpoint": "https://h.example/v1/", "model": "org/m-7b", "method": "msreact"},
            "https://h.example/v1",
            "org/m-7b",
            "msreact",
        ),
    ],
)
def test_an_llm_partner_in_its_short_and_long_forms(tmp_path, spec, endpoint, model, method):
    p = load(tmp_path, partner=spec, person_agents=["agent2"], warmup=None)
    assert p.partner is not None
    assert (p.partner.kind, p.partner.endpoint, p.partner.model, p.partner.method) == (
        "llm",
        endpoint,
        model,
        method,
    )
    assert p.partner.person_agents == ("agent2",)
    assert p.partner.llm_settings() == {
        "model": model,
        "endpoint": endpoint,
        "method": method,
        "api_key_env": "OPENAI_API_KEY",
    }


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"partner": "someone"}, "field 'partner' must be planner, <endpoint>/<model>/<method>"),
        ({"partner": "http://h/v1/m/guess"}, "field 'partner.method' must be one of io, cot, plag, msreact"),
        ({"partner": "ftp://h/v1/m/io"}, "is not an http(s) URL"),
        ({"partner": "http://u:sk-secret@h/v1/m/io"}, "the URL holds credentials"),
        ({"partner": {"model": "m", "api_key": "sk-x"}}, "unknown field(s) api_key"),
        ({"partner": {"model": "m", "api_key_env": "$(rm -rf)"}}, "must name an environment variable"),
        ({"partner": {"model": "m\x1b[31m"}}, "field 'partner.model' holds a control character"),
        ({"partner": ["planner"]}, "field 'partner' must be"),
        ({"partner": {"model": "x" * 400}}, "field 'partner.model' must be a text of 1 to 300"),
        ({"partner": "planner", "person_agents": []}, "field 'person_agents' must be a list of agent names"),
        ({"partner": "planner", "person_agents": [1]}, "field 'person_agents' must be a list"),
        ({"partner": "planner", "person_agents": ["agent1", "agent1"]}, "names an agent twice"),
        (
            {"partner": "planner", "person_agents": ["agent3"]},
            "level tutorial/04_two_cooks has no agent agent3",
        ),
        ({"partner": "planner", "person_agents": ["agent1", "agent2"]}, "none is left for the partner"),
        ({"person_agents": ["agent1"]}, "field 'person_agents' needs a 'partner'"),
    ],
)
def test_a_bad_partner_field_is_named_with_the_file(tmp_path, fields, words):
    with pytest.raises(SessionError) as e:
        load(tmp_path, **fields)
    assert words in str(e.value) and str(tmp_path / "duo.json") in str(e.value)
    assert "sk-secret" not in str(e.value)


def test_a_one_agent_warmup_is_the_persons_alone_but_a_measured_level_is_refused(tmp_path):
    assert load(tmp_path, partner="planner").warmup == (ONE,)
    with pytest.raises(SessionError, match="level tutorial/01_first_salad has no agent agent2"):
        load(tmp_path, partner="planner", person_agents=["agent2"])
    with pytest.raises(SessionError, match="level tutorial/01_first_salad: every agent is the person's"):
        load(tmp_path, partner="planner", levels=[str(ONE)])


def start(tmp_path: Path, **fields) -> SessionStore:
    p = load(tmp_path, **fields)
    return new_session(tmp_path / "sessions", "ann", list(p.levels), protocol=p.plan_for(None))


def test_the_session_keeps_the_condition_and_every_replan_beside_the_edits(tmp_path):
    store = start(tmp_path, partner="planner")
    s = store.session
    assert s.partner == {
        "kind": "planner",
        "endpoint": None,
        "model": None,
        "method": None,
        "person_agents": ["agent1"],
        "api_key_env": "OPENAI_API_KEY",
    }
    assert s.condition_name == "partner planner (person: agent1)"
    s.submit()  # past the warm-up
    s.level.tick(12.5)
    s.level.count("edit")
    store.record_replan(["agent2"], 41.0, True, plan={"agent1": [], "agent2": []})
    s.level.tick(3)
    store.record_replan([], None, False)
    again = SessionStore.open(store.folder).session
    assert again.levels[1].replans == [
        {"at": 12.5, "changed": ["agent2"], "partner_oct": 41.0, "served": True},
        {"at": 15.5, "changed": [], "partner_oct": None, "served": False},
    ]
    assert again.levels[1].stats()["replans"] == 2 and again.levels[0].replans == []
    assert again.partner == s.partner and again.repairs == []
    events = [json.loads(x) for x in (store.folder / "log.jsonl").read_text().splitlines()]
    replans = [e for e in events if e["event"] == "replan"]
    assert [r["partner_oct"] for r in replans] == [41.0, None]
    assert (
        replans[0]["plan"] == {"agent1": [], "agent2": []} and replans[0]["level"] == again.levels[1].task_id
    )
    assert events[0]["partner"]["kind"] == "planner"


def test_a_solo_session_says_so(tmp_path):
    s = start(tmp_path).session
    assert s.partner is None and s.condition_name == "solo"
    assert Session.from_dict(json.loads(json.dumps(s.to_dict()))).partner is None


@pytest.mark.parametrize(
    "bad",
    [
        {"at": -1, "changed": [], "partner_oct": 3, "served": True},
        {"at": 1, "changed": "agent2", "partner_oct": 3, "served": True},
        {"at": 1, "changed": [], "partner_oct": float("nan"), "served": True},
        {"at": 1, "changed": [], "partner_oct": 10**400, "served": True},
        {"at": 1, "changed": [], "partner_oct": 3, "served": "yes"},
        {"at": 1, "changed": [], "partner_oct": 3, "served": True, "extra": 1},
        [1, 2],
        {"at": 1, "changed": ["a" * 100], "partner_oct": 3, "served": True},
    ],
)
def test_a_hand_edited_replan_record_is_named_and_left_out(tmp_path, bad):
    store = start(tmp_path, partner="planner")
    d = store.session.to_dict()
    good = {"at": 2.0, "changed": ["agent2"], "partner_oct": 30, "served": True}
    d["levels"][1]["replans"] = [good, bad]
    s = Session.from_dict(d, "session.json")
    assert s.levels[1].replans == [good]
    assert s.repairs == ["session.json: levels[1]: field 'replans': 1 record(s) not usable (at 1); left out"]


def test_replans_that_are_not_a_list_are_left_out(tmp_path):
    d = start(tmp_path, partner="planner").session.to_dict()
    d["levels"][0]["replans"] = {"at": 1}
    s = Session.from_dict(d, "s.json")
    assert s.levels[0].replans == [] and "field 'replans' is not a list" in s.repairs[0]


@pytest.mark.parametrize(
    ("partner", "words"),
    [
        ({"kind": "robot"}, "field 'partner.kind' must be one of planner, llm"),
        ("planner", "field 'partner' must be a mapping or null"),
        ({"kind": "llm", "model": "m", "method": "io", "endpoint": "http://u:p@h/v1"}, "credentials"),
        ({"kind": "planner", "person_agents": []}, "field 'person_agents'"),
        ({"kind": "planner", "secret": 1}, "unknown field(s) secret"),
    ],
)
def test_a_damaged_condition_in_a_session_file_is_refused_not_guessed(tmp_path, partner, words):
    d = start(tmp_path, partner="planner").session.to_dict()
    d["partner"] = partner
    with pytest.raises(SessionError, match="session.json: ") as e:
        Session.from_dict(d, "session.json")
    assert words in str(e.value)


def test_a_replan_with_values_no_file_could_hold_is_refused_at_once(tmp_path):
    s = start(tmp_path, partner="planner").session
    for args in ((["agent2"], float("inf"), True), ("agent2", 3.0, True), ([], 3.0, 1)):
        with pytest.raises(ValueError):
            s.record_replan(*args)
    assert s.level.replans == []


def test_study_list_says_which_sessions_have_a_partner(tmp_path, monkeypatch, capsys):
    from game.cli import main
    from game.ui import store as ui_store

    monkeypatch.setenv(ui_store.ENV_DATA, str(tmp_path / "data"))
    for who, fields in (("ann", {"partner": "planner"}), ("bob", {})):
        p = load(tmp_path, **fields)
        new_session(tmp_path / "data" / "studies", who, list(p.levels), protocol=p.plan_for(None))
    capsys.readouterr()
    assert main(["study", "list"]) == 0
    lines = {line.split()[1]: line for line in capsys.readouterr().out.splitlines()}
    assert "(protocol duo, partner planner (person: agent1), fixed;" in lines["ann"]
    assert "(protocol duo, fixed;" in lines["bob"]


def test_study_with_a_partner_protocol_starts_a_partner_session(tmp_path, monkeypatch, capsys):
    from game.cli import main
    from game.ui import store as ui_store
    from game.ui.app import App

    monkeypatch.setenv(ui_store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setattr(App, "run", lambda self: None)  # the window is not opened
    path = write(
        tmp_path, partner="http://localhost:8000/v1/llama3/cot", person_agents=["agent2"], warmup=None
    )
    assert main(["study", "--protocol", str(path), "--participant", "eve"]) == 0
    (folder,) = (tmp_path / "data" / "studies").iterdir()
    s = SessionStore.open(folder).session
    assert s.partner["model"] == "llama3" and s.partner["person_agents"] == ["agent2"]
    assert s.condition_name == "partner llm llama3 cot (person: agent2)"
    bad = write(tmp_path, partner="http://localhost:8000/v1/llama3/guess")
    assert main(["study", "--protocol", str(bad), "--participant", "fay"]) == 2
    assert "field 'partner.method' must be one of" in capsys.readouterr().err
