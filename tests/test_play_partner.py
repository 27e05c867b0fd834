"""Partner mode in the play window, driven headless through real events and the app's own loop:
the partner's background process is real; the partner itself is a fast stand-in (one test uses
the built-in planner)."""

from __future__ import annotations

import time

import partner_stand_ins as stand_in
import pygame
import pytest
from conftest import HANG_S
from test_editor import salad_level
from test_play import POLL_S, SIZE, Driver

from game.engine import Action
from game.ui import store
from game.ui.play import PlayScreen
from game.ui.render.palette import PARTNER


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


OPENED: list[Driver] = []  # this test's windows, closed after it as a person's would be


@pytest.fixture(autouse=True)
def windows_closed():
    """Each window a test opens is closed after it, which ends its partner's process (left
    open, every test's process would idle on until the run ends)."""
    yield
    while OPENED:
        screen = OPENED.pop().screen
        (screen.play if hasattr(screen, "play") else screen).close()


def partner_window(partner=stand_in.counting_partner, level=None) -> Driver:
    d = Driver(lambda: PlayScreen(level or salad_level(), size=SIZE, restore=False))
    d.screen.partner.function = partner
    OPENED.append(d)
    return d


def settle(d: Driver, limit: float = HANG_S) -> None:
    """Run frames until the partner has nothing to do (its answer taken, or its failure told)."""
    start = time.monotonic()
    screen = d.screen
    p = (screen.play if hasattr(screen, "play") else screen).partner
    while time.monotonic() - start < limit:
        d.step()
        if p.state.status not in ("waiting", "planning") and not (p.worker and p.worker.busy):
            return
        time.sleep(POLL_S)
    raise AssertionError(f"the partner did not settle: {p.state}")


def press(d: Driver, name: str) -> None:
    d.click_button(d.screen.partner_dialog.buttons[name])


def start_partner(d: Driver, how: str = "start") -> None:
    d.click_button(d.screen.buttons["partner"])
    assert d.screen.partner_dialog.is_open
    press(d, how)
    assert not d.screen.partner_dialog.is_open and d.screen.partner.active


def queue(d: Driver, agent: str) -> list[Action]:
    return list(d.screen.editor.queues[agent])


def waits(n: float) -> list[Action]:
    return [Action("Wait", duration=n)]


def test_the_partner_replans_agent2_when_the_person_edits_agent1():
    d = partner_window()
    play = d.screen
    start_partner(d)  # the dialog's default: agent1 is the person's
    assert play.partner.partner_agents == ["agent2"]
    settle(d)
    assert queue(d, "agent2") == waits(1) and queue(d, "agent1") == []
    d.click_station("dispenser1")  # agent1 (selected) takes a lettuce
    d.click_station("chopping_board1")  # walks to the board, puts it down
    mine = queue(d, "agent1")
    assert len(mine) == 3
    settle(d)
    assert queue(d, "agent2") == waits(4)  # planned around agent1's three actions
    assert queue(d, "agent1") == mine  # the partner's answer says Finish for agent1: not taken
    assert play.partner.state.last.changed == ["agent2"]
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)  # undo: the walk and the put-down go again
    settle(d)
    assert len(queue(d, "agent1")) == 1 and queue(d, "agent2") == waits(2)
    # drawn apart: agent2's lane is framed in the partner's colour, its column says so
    play.draw(d.surface)
    lane = play.timeline.gantt.row_rect(play.timeline.rect, 1).inflate(2, 2)
    assert d.pixel(lane.topleft) == PARTNER
    mine_lane = play.timeline.gantt.row_rect(play.timeline.rect, 0).inflate(2, 2)
    assert d.pixel(mine_lane.topleft) != PARTNER
    text, _ = play.partner.status_line()
    assert "agent2" in text and "built-in planner" in text


def test_taking_over_and_handing_over_agents():
    d = partner_window()
    play = d.screen
    start_partner(d)
    settle(d)
    d.key(pygame.K_2, unicode="2")
    d.key(pygame.K_t, unicode="t")  # take agent2 over: every agent is the person's
    assert play.partner.partner_agents == []
    settle(d)
    assert play.partner.state.status == "idle" and queue(d, "agent2") == waits(1)  # kept as it was
    d.key(pygame.K_1, unicode="1")
    d.key(pygame.K_t, unicode="t")  # hand agent1 to the partner
    assert play.partner.partner_agents == ["agent1"]
    settle(d)
    assert queue(d, "agent1") == waits(2) and queue(d, "agent2") == waits(1)  # agent2's one Wait
    # editing a partner's agent takes it over, its queue kept to start from
    d.click_station("dispenser1")
    assert play.partner.partner_agents == [] and "yours now" in play.message
    assert queue(d, "agent1") == [*waits(2), Action("Interact", "dispenser1")]


def test_partner_first_plans_every_agent_and_an_edit_takes_one_over():
    d = partner_window()
    play = d.screen
    start_partner(d, "first")
    assert play.partner.partner_agents == ["agent1", "agent2"]
    settle(d)
    assert queue(d, "agent1") == waits(1) and queue(d, "agent2") == waits(1)
    d.key(pygame.K_w, unicode="w")  # agent1 (selected) waits once more: it becomes the person's
    d.key(pygame.K_RETURN)
    assert play.partner.partner_agents == ["agent2"]
    settle(d)
    assert queue(d, "agent1") == [*waits(1), *waits(1)] and queue(d, "agent2") == waits(3)


def test_a_replan_can_be_cancelled_and_the_queues_stay():
    d = partner_window(stand_in.sleeping_partner)
    play = d.screen
    d.click_station("dispenser1")
    mine = queue(d, "agent1")
    start_partner(d)
    start = time.monotonic()
    while play.partner.state.status != "planning" and time.monotonic() - start < HANG_S:
        d.step()
        time.sleep(POLL_S)
    assert play.toolbar.cancel.visible
    worker = play.partner.worker
    assert worker._proc is not None
    while not worker._proc.started and time.monotonic() - start < HANG_S:  # started off the window's thread
        d.step()
        time.sleep(POLL_S)
    assert worker._proc.started
    process = worker._proc.process
    d.click_button(play.toolbar.cancel)
    assert play.partner.state.status == "cancelled" and "cancelled" in play.message
    settle(d)
    assert not play.toolbar.cancel.visible
    process.join(30)  # it did not stop when asked: its process was ended
    assert not process.is_alive()
    assert queue(d, "agent1") == mine and queue(d, "agent2") == []


@pytest.mark.parametrize(
    "partner, why",
    [
        (stand_in.broken_partner, "RuntimeError: no kitchen like this one"),
        (stand_in.nonsense_partner, "its plan cannot be used: agent2"),
    ],
)
def test_a_failing_partner_says_why_and_keeps_the_queues(partner, why):
    d = partner_window(partner)
    play = d.screen
    d.click_station("dispenser1")
    d.key(pygame.K_2, unicode="2")
    d.key(pygame.K_w, unicode="w")
    d.key(pygame.K_RETURN)
    before = {a: queue(d, a) for a in ("agent1", "agent2")}
    start_partner(d)
    settle(d)
    assert play.partner.state.status == "failed"
    assert why in play.message and "Your queues are unchanged" in play.message
    text, _ = play.partner.status_line()
    assert why in text
    assert {a: queue(d, a) for a in ("agent1", "agent2")} == before
    d.key(pygame.K_1, unicode="1")
    d.click_station("chopping_board1")  # the window goes on; the partner is asked again, fails again
    settle(d)
    assert play.partner.state.status == "failed" and len(play.partner.state.history) == 2


def test_a_partner_that_finds_no_plan_leaves_its_queues_as_they_were():
    d = partner_window()
    play = d.screen
    start_partner(d)
    settle(d)
    assert queue(d, "agent2") == waits(1)
    play.partner.stop()  # the same choice, another partner function: one that finds nothing
    play.partner.function = stand_in.planless_partner
    start_partner(d)
    d.click_station("dispenser1")
    settle(d)
    assert play.partner.state.status == "failed" and play.partner.state.found_none
    assert "no plan for agent2 around the fixed queues found in 9 runs" in play.message
    assert queue(d, "agent2") == waits(1) and queue(d, "agent1") == [Action("Interact", "dispenser1")]
    assert "no new plan for agent2" in play.partner.status_line()[0]


def test_a_partner_without_a_new_plan_keeps_queues_that_still_serve():
    from test_editor import cook_salad

    from game.ui.editor import PlanEditor

    level = salad_level()
    ed = PlanEditor(level)
    cook_salad(ed)  # agent1 serves the salad alone
    ed.select_agent("agent2")
    ed.queue_wait(3)
    d = Driver(lambda: PlayScreen(level, ed.plan, size=SIZE, restore=False))
    OPENED.append(d)
    play = d.screen
    play.partner.function = stand_in.planless_partner
    start_partner(d)
    settle(d)
    assert play.partner.state.status == "ready" and play.partner.state.last.changed == []
    assert play.partner.state.last.served and play.partner.state.last.partner_oct == 14
    assert "keeps its queues" in play.message and queue(d, "agent2") == waits(3)


def test_the_partner_searches_longer_at_first_and_when_asked_with_r():
    from game.ui.partner_job import PATIENT_S

    d = partner_window(stand_in.patience_partner)
    start_partner(d)
    settle(d)
    assert queue(d, "agent2") == waits(PATIENT_S)  # nothing of the partner's to show yet
    d.click_station("dispenser1")
    settle(d)
    assert queue(d, "agent2") == waits(0)  # after an edit: its usual short search
    d.key(pygame.K_r, unicode="r")
    settle(d)
    assert queue(d, "agent2") == waits(PATIENT_S)


def test_each_replan_is_given_the_partners_previous_plan_as_its_hint():
    d = partner_window(stand_in.hint_partner)
    start_partner(d)
    settle(d)
    assert queue(d, "agent2") == waits(1)  # no earlier plan: no hint
    d.click_station("dispenser1")
    settle(d)
    assert queue(d, "agent2") == waits(1) * 2  # the plan before the edit came back as the hint


def test_the_dialog_needs_a_model_for_an_llm_and_stops_the_partner():
    d = partner_window()
    play = d.screen
    d.click_button(play.buttons["partner"])
    press(d, "kind:llm")
    press(d, "method")
    assert play.partner_dialog.method == "cot"
    press(d, "start")  # no model named: the dialog stays, saying why
    assert play.partner_dialog.is_open and not play.partner.active
    assert "model" in play.partner_dialog.note.text
    d.key(pygame.K_ESCAPE)
    assert not play.partner_dialog.is_open
    start_partner(d)
    settle(d)
    d.click_button(play.buttons["partner"])
    press(d, "stop")
    assert not play.partner.active and play.partner.worker is None
    d.click_station("dispenser1")
    assert play.partner.state.status == "off"


def test_a_study_session_with_a_partner_records_every_replan(tmp_path, monkeypatch):
    from test_study import Driver as StudyDriver
    from test_study_partner import TWO

    from game.study.partner import Partner
    from game.study.persist import StudyPlan, new_session
    from game.ui.play import partner as partner_mode
    from game.ui.screens.study import StudyIntroScreen, StudyLevelScreen

    asked = []

    def function_of(partner, steady=False):
        asked.append(steady)
        return stand_in.counting_partner

    monkeypatch.setattr(partner_mode, "function_of", function_of)
    plan = StudyPlan("duo", partner=Partner("planner", person_agents=("agent1",)))
    session_store = new_session(tmp_path / "studies", "p01", [TWO], "fixed", protocol=plan)
    d = StudyDriver(StudyIntroScreen(session_store, None, SIZE))
    OPENED.append(d)
    assert (
        "You plan agent1; your partner, the built-in planner, plans the other agents" in d.screen.shown_text()
    )
    d.press("begin")
    level_screen = d.screen
    assert isinstance(level_screen, StudyLevelScreen)
    play = level_screen.play
    assert play.partner.locked and play.partner.partner_agents == ["agent2"]
    assert asked == [True]  # a study's built-in partner: its budget decides, never the clock
    assert not play.buttons["partner"].visible and not play.buttons["strong"].visible
    settle(d)
    record = session_store.session.level
    assert len(record.replans) == 1 and record.replans[0]["changed"] == ["agent2"]
    d.station("dispenser1")  # agent1's first action: the partner re-plans agent2
    settle(d)
    assert [r["changed"] for r in record.replans] == [["agent2"], ["agent2"]]
    assert record.replans[1]["served"] is False and record.replans[1]["partner_oct"] is None
    assert record.edits == 1  # the partner's re-plans are not the person's edits
    n = 1 + len(play.editor.queues["agent1"])  # the stand-in's answer to agent1's queue
    assert record.plan["agent2"] == [{"action": "Wait", "duration": n}]
    logged = [e for e in session_store.read_log() if e["event"] == "replan"]
    assert len(logged) == 2 and logged[-1]["plan"]["agent2"] == [{"action": "Wait", "duration": n}]
    # the partner's agent is not the person's to edit or take over
    d.key(pygame.K_2, unicode="2")
    d.station("dispenser2")
    assert "planned by the partner in this study" in play.message
    d.key(pygame.K_t, unicode="t")
    assert play.partner.partner_agents == ["agent2"] and play.editor.queues["agent2"] == waits(n)
    # saved: a resumed session has them
    again = type(session_store).open(session_store.folder).session
    assert len(again.level.replans) == 2


def test_the_built_in_planner_plans_around_the_persons_queue():
    pytest.importorskip("game.planners.solver")
    d = partner_window(stand_in.first_plan_partner)
    play = d.screen
    start_partner(d)
    settle(d, limit=120)  # agent1 has nothing yet: agent2 serves the salad on its own
    assert play.partner.state.status == "ready", play.partner.state
    assert queue(d, "agent1") == [] and play.editor.result.done
    d.key(pygame.K_w, unicode="w")  # agent1 waits a moment: the partner plans around that
    d.key(pygame.K_RETURN)
    settle(d, limit=120)
    assert play.partner.state.status == "ready" and len(play.partner.state.history) == 2
    assert queue(d, "agent1") == waits(1)
    assert play.editor.result.done and play.partner.state.last.partner_oct == play.editor.result.time
    text, _ = play.partner.status_line()
    assert f"agent2 planned, served at t = {play.editor.result.time:g}" in text


def type_into(d: Driver, entry, text: str) -> None:
    d.click_at(entry.rect.center)
    d.post(pygame.TEXTINPUT, text=text)
    d.step(2)


def test_an_llm_partner_chosen_in_the_dialog_plans_through_its_endpoint(monkeypatch):
    from test_llm_partner import KEY
    from test_llm_runner import SECRET, FakeLLM, fenced, good_plan

    from game.engine import parse_plan
    from game.planners.llm.prompts import example_level

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("MY_PARTNER_KEY", SECRET)  # the partner's process has it from here
    server = FakeLLM()
    server.thread.start()
    try:
        level = example_level()
        person = parse_plan({"agent1": good_plan()["agent1"]}, level.agent_names)
        d = Driver(lambda: PlayScreen(level, person, size=SIZE, restore=False))
        OPENED.append(d)
        play = d.screen
        server.script(KEY, ("reply", fenced({"agent2": good_plan()["agent2"]})))
        d.click_button(play.buttons["partner"])
        press(d, "kind:llm")
        type_into(d, play.partner_dialog.entries["endpoint"], server.url)
        type_into(d, play.partner_dialog.entries["model"], "test-model")
        key = play.partner_dialog.entries["key"]
        assert key.get_text() == "OPENAI_API_KEY"  # the default, as for `llm --api-key-env`
        d.click_at(key.rect.center)
        d.key(pygame.K_a, mod=pygame.KMOD_CTRL)  # select it all, typed over
        d.post(pygame.TEXTINPUT, text="MY PARTNER KEY")
        d.step(2)
        press(d, "start")  # not a variable's name: said, nothing starts
        assert play.partner_dialog.is_open and not play.partner.active
        assert "key from" in play.partner_dialog.note.text
        d.click_at(key.rect.center)
        d.key(pygame.K_a, mod=pygame.KMOD_CTRL)
        d.post(pygame.TEXTINPUT, text="MY_PARTNER_KEY")
        d.step(2)
        press(d, "start")
        assert play.partner.choice.model == "test-model" and play.partner.choice.endpoint == server.url
        assert play.partner.choice.api_key_env == "MY_PARTNER_KEY"
        settle(d, limit=60)
        assert play.partner.state.status == "ready", play.partner.state
        want = parse_plan(good_plan(), level.agent_names)
        assert queue(d, "agent2") == list(want["agent2"]) and queue(d, "agent1") == list(want["agent1"])
        assert "test-model (io)" in play.partner.status_line()[0]
        # the endpoint fails: said, and nothing changes
        server.script(KEY, ("status", 500), ("status", 500))
        d.key(pygame.K_w, unicode="w")
        d.key(pygame.K_RETURN)
        mine = queue(d, "agent1")
        settle(d, limit=60)
        assert play.partner.state.status == "failed"
        assert (
            "could not be reached: HTTP 500" in play.message and "Your queues are unchanged" in play.message
        )
        assert queue(d, "agent1") == mine and queue(d, "agent2") == list(want["agent2"])
    finally:
        server.server.shutdown()
        server.server.server_close()


def test_a_studys_built_in_partner_gives_the_same_queues_the_same_plan():
    pytest.importorskip("game.planners.solver")
    from game.ui.partner_job import planner_partner

    level = salad_level()
    fixed = {"agent1": [{"action": "Wait", "duration": 2}]}
    first = planner_partner(level, level.rules, fixed, steady=True)
    again = planner_partner(level, level.rules, fixed, steady=True)
    assert first["found"] and first == again
    assert first["plan"]["agent1"] == fixed["agent1"]


def test_partner_mode_autosaves_the_partners_queues_too():
    # a crash or a close loses nothing: each partner answer is autosaved like an edit
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, size=SIZE))
    d.screen.partner.function = stand_in.counting_partner
    start_partner(d)
    settle(d)
    d.click_station("dispenser1")
    settle(d)
    assert queue(d, "agent2") == waits(2)  # the partner's answer to the person's one action
    d.screen.autosaver.flush()
    saved = store.load_autosave(level)
    assert list(saved["agent1"]) == queue(d, "agent1") and list(saved["agent2"]) == waits(2)
    d.screen.close()
    again = Driver(lambda: PlayScreen(level, size=SIZE))
    assert queue(again, "agent1") == list(saved["agent1"]) and queue(again, "agent2") == waits(2)
    again.screen.close()
