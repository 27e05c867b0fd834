"""The play window driven headless (SDL dummy) through real events and the app's own loop."""

from __future__ import annotations

import json

import pygame
import pytest
from conftest import HANG_S
from job_planners import salad_planner
from test_editor import salad_level

from game.engine import Action
from game.levels import load_level
from game.replay import load_replay
from game.ui import store
from game.ui.app import App
from game.ui.play import PlayOptions, PlayScreen
from game.ui.play.finish import replay_viewer_available
from game.ui.render.palette import agent_colour

SIZE = (1440, 900)
# between the frames a test runs while a background process works: a test's frame is always drawn
# (a few ms of the core that process needs), and what the test waits for is a message, not a frame
POLL_S = 0.05


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


def tutorial(n: int = 1):
    suite = pytest.importorskip("game.levels.suite")
    paths = suite.suite_levels("tutorial")
    if len(paths) < n:
        pytest.skip("the tutorial levels are not here")
    return load_level(paths[n - 1])


class Driver:
    """Posts real pygame events and runs App.step() frames."""

    def __init__(self, make_screen):
        pygame.init()
        self.surface = pygame.display.set_mode(SIZE)
        pygame.event.clear()
        self.app = App(make_screen(), self.surface)
        self.step()

    @property
    def screen(self):
        return self.app.screen

    def step(self, frames: int = 1, dt: float = 1 / 60) -> None:
        for _ in range(frames):
            self.app.step(dt)

    def post(self, kind: int, **fields) -> None:
        pygame.event.post(pygame.event.Event(kind, **fields))

    def tile_pixel(self, pos):
        return self.screen.renderer.tile_center(self.screen.layout.kitchen, pos)

    def click_at(self, pixel, button: int = 1) -> None:
        self.post(pygame.MOUSEMOTION, pos=pixel, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pixel, button=button)
        self.post(pygame.MOUSEBUTTONUP, pos=pixel, button=button)
        self.step(2)

    def click_tile(self, pos, button: int = 1) -> None:
        self.click_at(self.tile_pixel(pos), button)

    def click_station(self, name: str, button: int = 1) -> None:
        self.click_tile(self.screen.level.station_by_name[name].pos, button)

    def key(self, key: int, mod: int = 0, unicode: str = "") -> None:
        self.post(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)
        self.post(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=0)
        self.step()

    def click_button(self, button) -> None:
        self.click_at(button.rect.center)
        self.step(2)

    def pixel(self, pos) -> tuple[int, int, int]:
        return tuple(self.surface.get_at(pos))[:3]

    def agent_pixel_ok(self, agent: str, tile) -> bool:
        """The agent's colour is drawn inside the given tile."""
        screen = self.screen
        point = screen.renderer.agent_points[agent]
        top = screen.renderer.pixel_of_tile(screen.layout.kitchen, tile)
        n = screen.renderer.tile
        inside = top[0] <= point[0] < top[0] + n and top[1] <= point[1] < top[1] + n
        colour = agent_colour(screen.level.agent_names.index(agent))
        return inside and self.pixel(point) == colour


def serve_first_salad(d: Driver) -> None:
    """Tutorial 1 by mouse only: lettuce, chop, plate, serve."""
    d.click_station("dispenser1")
    d.click_station("chopping_board1")
    d.click_station("chopping_board1", button=3)
    d.click_station("table1")
    d.click_station("chopping_board1")
    d.click_station("serving_window")


def test_tutorial_planned_by_mouse_serves_and_reaches_the_result_card(data_home):
    level = tutorial(1)
    d = Driver(lambda: PlayScreen(level, size=SIZE))
    serve_first_salad(d)
    ed = d.screen.editor
    names = [(a.name, a.target) for a in ed.queues["agent1"]]
    assert [n for n, _ in names if n != "MoveTo"] == [
        "Interact",
        "Interact",
        "Process",
        "Interact",
        "Interact",
        "Interact",
    ]
    assert all(level.is_floor(t) for n, t in names if n == "MoveTo")
    assert ed.result.done and ed.error is None
    final = ed.result.timeline.states[-1]
    assert final["served"] == [["salad_basic", ed.result.time]]
    card = d.screen.card
    assert card is not None and card.rows[0] == ("Completion time (OCT)", f"{ed.result.time:g}")
    assert d.pixel(d.screen._card_rect().midleft) == (0, 158, 115)  # the card's green border
    replay = load_replay(card.replay)
    assert replay.result["time"] == ed.result.time and replay.source["kind"] == "human"
    assert card.replay.parent == data_home / "replays"
    assert store.best_time(level) == ed.result.time
    # the agent is drawn where the engine says it stands at the end, and at its start at t = 0
    d.key(pygame.K_ESCAPE)
    assert d.screen.card is None
    d.key(pygame.K_RETURN)  # Enter opens it again
    assert d.screen.card is card
    d.key(pygame.K_ESCAPE)
    assert d.screen.card is None
    d.key(pygame.K_END)
    end_pos = tuple(final["agents"]["agent1"]["pos"])
    assert d.agent_pixel_ok("agent1", end_pos)
    d.key(pygame.K_HOME)
    assert d.screen.t == 0 and d.agent_pixel_ok("agent1", level.agents[0].pos)


def test_error_shows_at_once_with_agent_action_reason_and_highlight():
    level = tutorial(1)
    d = Driver(lambda: PlayScreen(level, size=SIZE))
    d.click_station("chopping_board1", button=3)  # Process on an empty board
    ed = d.screen.editor
    assert ed.error is not None and ed.error.agent == "agent1"
    assert ed.queues["agent1"][ed.error.action_index].name == "Process"
    status = d.screen.layout.status
    assert d.pixel((status.x + 3, status.y + 3)) == (110, 30, 30)  # the red error line
    rows = [r for r in d.screen.rows if r.index == ed.error.action_index]
    assert rows and d.pixel((rows[0].rect.x + 20, rows[0].rect.y + 2)) == (120, 36, 36)
    board = level.station_by_name["chopping_board1"].pos
    top = d.screen.renderer.pixel_of_tile(d.screen.layout.kitchen, board)
    assert d.pixel((top[0] + 2, top[1] + d.screen.renderer.tile // 2)) == (220, 50, 47)
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.error is None and ed.action_count == 0


def test_keyboard_planning_agents_waits_selection_undo():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    ed = d.screen.editor
    d.key(pygame.K_2, unicode="2")
    assert ed.agent == "agent2"
    d.key(pygame.K_TAB)
    assert ed.agent == "agent1"
    d.key(pygame.K_w, unicode="w")
    d.key(pygame.K_3, unicode="3")
    d.key(pygame.K_RETURN)
    assert ed.queues["agent1"] == [Action("Wait", duration=3)]
    d.click_tile((3, 2))
    assert ed.queues["agent1"][1] == Action("MoveTo", (3, 2))
    d.key(pygame.K_UP)
    d.key(pygame.K_UP)
    assert ed.selected == 0
    d.key(pygame.K_EQUALS, unicode="=")
    d.key(pygame.K_EQUALS, unicode="=")
    assert ed.queues["agent1"][0].duration == 5
    d.key(pygame.K_MINUS, unicode="-")
    assert ed.queues["agent1"][0].duration == 4
    d.post(pygame.MOUSEMOTION, pos=d.tile_pixel((1, 0)), rel=(0, 0), buttons=(0, 0, 0))
    d.key(pygame.K_i, unicode="i")  # Interact with the dispenser under the mouse, before the Wait
    assert [a.name for a in ed.queues["agent1"][:2]] == ["Interact", "Wait"]
    d.key(pygame.K_DELETE)  # deletes the selected Wait
    assert [a.name for a in ed.queues["agent1"]] == ["Interact", "MoveTo"]
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert [a.name for a in ed.queues["agent1"]] == ["Interact", "Wait", "MoveTo"]
    d.key(pygame.K_y, mod=pygame.KMOD_CTRL)
    assert [a.name for a in ed.queues["agent1"]] == ["Interact", "MoveTo"]
    d.key(pygame.K_F1)
    assert d.screen.show_help
    d.key(pygame.K_SLASH, mod=pygame.KMOD_SHIFT, unicode="?")
    assert not d.screen.show_help


def test_an_edit_narrates_the_run_once_for_its_diagnosis_and_its_timeline(monkeypatch):
    """An unfinished plan is diagnosed (which narrates the run) and drawn on the timeline (which
    shows the same narration): one narration per edit, not two."""
    from game.engine import narration

    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    ed = d.screen.editor
    worked_out = []
    real = narration._narrated
    monkeypatch.setattr(narration, "_narrated", lambda *a: worked_out.append(a[1]) or real(*a))
    for n, tile in enumerate([(3, 2), (2, 2), (3, 2)], 1):
        d.click_tile(tile)  # a MoveTo: the agent arrives, an event
        assert ed.action_count == n and ed.result.diagnosis is not None  # unfinished: diagnosed
        assert worked_out == [ed.result.timeline] and d.screen.timeline.story.events
        worked_out.clear()


def test_clicking_an_agent_selects_it_and_queue_rows_select_actions():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    ed = d.screen.editor
    d.click_tile((4, 3))  # agent2 stands there: still a MoveTo for the selected agent1
    assert ed.agent == "agent1" and [(a.name, a.target) for a in ed.queues["agent1"]] == [("MoveTo", (4, 3))]
    assert ed.queues["agent2"] == []
    d.click_at(d.screen.renderer.agent_badges["agent2"].center)  # its badge selects agent2
    assert ed.agent == "agent2" and ed.action_count == 1
    d.click_tile((4, 3))  # the selected agent's own tile: a MoveTo
    d.click_tile((2, 2))
    assert [a.target for a in ed.queues["agent2"]] == [(4, 3), (2, 2)]
    row = next(r for r in d.screen.rows if r.agent == "agent2" and r.index == 1)
    d.click_at(row.rect.center)
    assert ed.selected == 1
    d.click_station("sink")
    assert [a.name for a in ed.queues["agent2"]] == ["MoveTo", "MoveTo", "Interact", "MoveTo"]
    assert d.screen.renderer.badge_at_pixel(d.screen.renderer.agent_badges["agent1"].center) == "agent1"
    d.key(pygame.K_RETURN)  # no card to reopen: said, not silent
    assert d.screen.card is None and "no result card" in d.screen.message
    header = next(r for r in d.screen.rows if r.agent == "agent1" and r.index is None)
    d.click_at(header.rect.center)
    assert ed.agent == "agent1"


def test_animation_walks_tile_by_tile_and_pauses():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_tile((5, 1))  # agent1 walks 4 tiles from (1,1)
    screen = d.screen
    assert screen.editor.result.time == 4
    d.key(pygame.K_HOME)
    d.key(pygame.K_SPACE)
    assert screen.playing
    t0 = screen.t  # the key's own frame already played 1/60 s
    d.step(1, dt=1.0 / screen.speed)  # one more time unit
    assert screen.t == pytest.approx(t0 + 1.0)
    assert d.agent_pixel_ok("agent1", (2, 1))
    d.key(pygame.K_SPACE)
    paused = screen.t
    d.step(5, dt=1.0)
    assert not screen.playing and screen.t == paused
    d.key(pygame.K_RIGHTBRACKET)
    d.key(pygame.K_SPACE)
    d.step(10, dt=1.0)
    assert screen.t == 4 and not screen.playing
    assert d.agent_pixel_ok("agent1", (5, 1))


def test_scrub_bar_click_seeks():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_tile((5, 3))
    screen = d.screen
    end = screen.editor.result.time
    from game.ui.render.play_panels import scrub_track

    track = scrub_track(screen.layout.scrub)
    d.click_at((track.x + track.w // 2, track.centery))
    assert screen.t == pytest.approx(end / 2, abs=0.05)


def test_save_and_open_through_the_file_dialog(data_home):
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_station("dispenser1")
    plan = d.screen.editor.plan
    d.key(pygame.K_s, mod=pygame.KMOD_CTRL)
    dialog = d.screen.dialog
    assert dialog is not None
    d.click_button(dialog.ok_button)
    path = d.screen.plan_path
    assert not d.screen.dialog_open and path is not None and path.is_file()
    assert json.loads(path.read_text())["plan"]["agent1"] == [{"action": "Interact", "target": "dispenser1"}]
    d.key(pygame.K_DELETE)
    assert d.screen.editor.action_count == 0
    d.key(pygame.K_o, mod=pygame.KMOD_CTRL)
    d.click_button(d.screen.dialog.ok_button)
    assert d.screen.editor.plan == plan


def test_a_plan_that_does_not_fit_is_refused_with_reasons(data_home):
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_station("dispenser1")
    before = d.screen.editor.plan
    bad = data_home / "other.json"
    bad.write_text(
        json.dumps({"agent1": [{"action": "Interact", "target": "stove3"}], "agent7": [{"action": "Wait"}]})
    )
    d.screen.load(bad)
    d.step()
    title, lines = d.screen.notice
    assert title == "This plan does not fit the level"
    text = "\n".join(lines)
    assert "agent7: no such agent" in text and "Your current plan is unchanged." in text
    assert d.screen.editor.plan == before
    d.key(pygame.K_SPACE)
    assert d.screen.notice is None


def test_autosave_keeps_the_plan_across_a_close(data_home):
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, size=SIZE))
    d.click_station("dispenser1")
    d.click_station("chopping_board1")
    plan = d.screen.editor.plan
    d.screen.autosaver.flush()  # written by its own thread at once
    assert store.load_autosave(level) == plan  # saved after every edit, before any close
    d.post(pygame.QUIT)
    assert not d.app.step(1 / 60)
    again = Driver(lambda: PlayScreen(level, size=SIZE))
    assert again.screen.editor.plan == plan
    assert "autosaved" in again.screen.message


def test_levels_button_opens_the_browser_and_back():
    level = tutorial(1)
    from game.ui.screens.browser import BrowserScreen

    d = Driver(lambda: BrowserScreen(size=SIZE))
    browser = d.screen
    first = browser.tutorials[0]
    d.click_at(first.rect.center)
    assert isinstance(d.screen, PlayScreen) and d.screen.level.title == level.title
    serve_first_salad(d)
    d.key(pygame.K_ESCAPE)
    d.click_button(d.screen.buttons["back"])
    assert d.screen is browser
    d.step(2)
    assert browser.best[first.level_id] == pytest.approx(store.best_time(level))


def test_result_card_opens_the_replay_viewer_and_escape_comes_back():
    pytest.importorskip("game.ui.screens.replay")
    d = Driver(lambda: PlayScreen(tutorial(1), size=SIZE))
    serve_first_salad(d)
    play = d.screen
    assert "viewer" in play.card_buttons
    d.click_button(play.card_buttons["viewer"])
    from game.ui.screens.replay import ReplayScreen

    assert isinstance(d.screen, ReplayScreen)
    assert d.screen.replay.result["time"] == play.editor.result.time
    d.key(pygame.K_ESCAPE)
    d.step(5)
    assert d.screen is play and play.card is None


def slow_planner(level, rules):
    import time

    time.sleep(60)
    return {}


def broken_planner(level, rules):
    raise RuntimeError("no kitchen like this one")


def wait_for_job(d: Driver, limit: float = HANG_S) -> int:
    """Run frames until the planner job ends; returns how many frames were drawn meanwhile."""
    import time

    frames, start = 0, time.monotonic()
    while d.screen.job is not None and time.monotonic() - start < limit:
        d.step()
        frames += 1
        time.sleep(POLL_S)
    assert d.screen.job is None, "the planner job did not end"
    return frames


def test_strong_plan_runs_in_the_background_and_shows_its_plan_apart(monkeypatch):
    from game.ui import planner_job as strong

    monkeypatch.setattr(strong, "solver_available", lambda: True)
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, size=SIZE, restore=False))
    play = d.screen
    play.planner = salad_planner
    d.click_tile((3, 2))
    mine = play.editor.plan
    d.click_button(play.buttons["strong"])
    assert play.job is not None and play.buttons["strong"].text == "Cancel plan"
    d.key(pygame.K_w, unicode="w")  # the window keeps answering while the planner works
    d.key(pygame.K_RETURN)
    mine = play.editor.plan
    assert len(mine["agent1"]) == 2
    frames = wait_for_job(d)
    assert frames >= 1 and d.screen is play  # no jump to another screen
    assert store.best_time(level, source="planner") == 14
    assert store.best_time(level) is None  # the player's own board is untouched
    assert play.card is not None and play.card.title == "Built-in planner: done in 14"
    assert play.editor.plan == mine
    d.click_button(play.card_buttons["view"])
    assert play.viewing is not None and play.shown.result.time == 14
    theirs = play.viewing.plan
    d.click_tile((5, 2))  # the planner's plan is not edited
    assert play.viewing.plan == theirs and play.editor.plan == mine and play.message_error
    d.key(pygame.K_ESCAPE)
    assert play.viewing is None and play.editor.plan == mine
    if replay_viewer_available():  # the viewer opens only when asked
        d.click_button(play.buttons["strong"])
        wait_for_job(d)
        d.click_button(play.card_buttons["viewer"])
        assert type(d.screen).__name__ == "ReplayScreen" and d.screen.replay.source == {"kind": "solver"}


def test_strong_plan_can_be_cancelled_and_failures_are_told(monkeypatch):
    from game.ui import planner_job as strong

    monkeypatch.setattr(strong, "solver_available", lambda: True)
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    play = d.screen
    play.planner = slow_planner
    d.click_button(play.buttons["strong"])
    job = play.job
    d.step(3)
    assert job.wait_started(HANG_S) and job.process.is_alive()
    d.click_button(play.buttons["strong"])  # now "Cancel plan"
    assert play.job is None and "cancelled" in play.message
    job.process.join(30)
    assert not job.process.is_alive()
    play.planner = broken_planner
    d.click_button(play.buttons["strong"])
    wait_for_job(d)
    title, lines = play.notice
    assert title == "The built-in planner failed" and "RuntimeError: no kitchen like this one" in lines[0]


def test_strong_plan_uses_the_real_planner_under_the_level_rules():
    pytest.importorskip("game.planners.solver")
    # the two cooks' kitchen: a plan made under the default rules fails under these
    level = tutorial(4).replace(rules="documented")
    d = Driver(lambda: PlayScreen(level, size=SIZE, restore=False))
    d.click_button(d.screen.buttons["strong"])
    wait_for_job(d)
    planner = d.screen.planner_editor
    assert planner.rules == "documented" and planner.result.done
    assert d.screen.card.title == f"Built-in planner: done in {planner.result.time:g}"


def test_strong_plan_button_hidden_without_a_planner(monkeypatch):
    from game.ui import planner_job as strong

    monkeypatch.setattr(strong, "solver_available", lambda: False)
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    assert not d.screen.buttons["strong"].visible
    d = Driver(
        lambda: PlayScreen(salad_level(), size=SIZE, restore=False, options=PlayOptions(planner=False))
    )
    assert not d.screen.buttons["strong"].visible


def test_export_through_the_dialog_writes_paracook_json(data_home):
    d = Driver(lambda: PlayScreen(tutorial(1), size=SIZE))
    serve_first_salad(d)
    d.click_button(d.screen.card_buttons["export"])
    d.click_button(d.screen.dialog.ok_button)
    files = list((data_home / "data" / "exports").glob("*.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text())
    assert data["done"] and data["time"] == d.screen.editor.result.time
    assert data["plan"] == d.screen.editor.plan_dict() and data["task"]["orders"] == 1


def test_end_of_queue_is_shown_faintly():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    centre = d.tile_pixel((5, 2))
    empty = d.pixel(centre)
    d.click_tile((5, 2))
    d.key(pygame.K_HOME)
    assert d.screen.t == 0 and d.agent_pixel_ok("agent1", (1, 1))
    ghost = d.pixel(centre)
    assert ghost != empty  # agent1's faint end-of-queue marker
    assert ghost != agent_colour(0)  # faint, not the agent itself


def test_play_command_refuses_bad_input_with_a_message(tmp_path, capsys):
    from game.cli import main

    assert main(["play", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml: cannot read the file" in capsys.readouterr().err
    level = tmp_path / "level.json"
    level.write_text(
        json.dumps(
            {
                "name": "k",
                "width": 3,
                "height": 1,
                "agents": [{"name": "agent1", "x": 0, "y": 0}],
                "tiles": [{"x": 2, "y": 0, "type": "station", "name": "table1"}],
            }
        )
    )
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"agent1": [{"action": "Interact", "target": "stove1"}]}))
    assert main(["play", str(level), "--orders", "salad_basic", "--plan", str(plan)]) == 2
    assert "no station called 'stove1'" in capsys.readouterr().err
    assert main(["play", "--size", "big"]) == 2


def test_a_role_restricted_agent_shows_what_it_may_use():
    level = tutorial(4).replace(options={"can_use": {"agent2": ["table", "stove"]}})
    d = Driver(lambda: PlayScreen(level))
    assert not any("may use only" in text for text, _ in d.screen.agent_info_lines())
    d.post(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2")
    d.step()
    assert d.screen.agent_info_lines()[0][0] == "may use only: table, stove"
