"""The play window's timeline, same-instant order, insertion point, dialogs, autosave restore and
the idle loop, driven through real events and the app's own loop."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from conftest import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_editor import salad_level
from test_play import SIZE, Driver, serve_first_salad, tutorial

from game.engine import Action
from game.ui import store
from game.ui.editor import PlanEditor
from game.ui.play import PlayScreen, instant
from game.ui.play.help import HELP, SAME_INSTANT_RULE
from game.ui.play.status import error_text


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


def meeting_plan(split_wait: bool) -> dict:
    """agent1 chops lettuce on chopping_board1 from 4 to 8; agent2 waits beside the board and
    takes from it at 8. With one Wait (begun at 3) agent2 acts first at t = 8; split in two (the
    second begun at 4, like agent1's Process) the tie goes to agent1, in map order."""
    waits = (
        [Action("Wait", duration=1), Action("Wait", duration=4)]
        if split_wait
        else [Action("Wait", duration=5)]
    )
    return {
        "agent1": [
            Action("Interact", "dispenser1"),
            Action("Wait", duration=2),
            Action("MoveTo", (3, 1)),
            Action("Interact", "chopping_board1"),
            Action("Process", "chopping_board1"),
        ],
        "agent2": [Action("MoveTo", (3, 1)), *waits, Action("Interact", "chopping_board1")],
    }


def bar_centre(screen: PlayScreen, agent: str, index: int) -> tuple[int, int]:
    tl = screen.timeline
    span = screen.shown.span(agent, index)
    lane = tl.gantt.row_rect(tl.rect, screen.level.agent_names.index(agent))
    return tl.gantt.span_rect(tl.rect, lane, span).center


def drag(d: Driver, start: tuple[int, int], end: tuple[int, int]) -> None:
    d.post(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
    d.post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    d.step()
    for k in range(1, 5):
        x = start[0] + (end[0] - start[0]) * k // 4
        d.post(pygame.MOUSEMOTION, pos=(x, end[1]), rel=(0, 0), buttons=(1, 0, 0))
        d.step()
    d.post(pygame.MOUSEBUTTONUP, pos=end, button=1)
    d.step()


def test_clicking_a_bar_selects_that_action_as_the_insertion_point():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    for tile in ((2, 1), (3, 2), (4, 2), (5, 2)):
        d.click_tile(tile)
    ed = d.screen.editor
    d.key(pygame.K_2, unicode="2")
    assert ed.agent == "agent2"
    d.click_at(bar_centre(d.screen, "agent1", 1))  # agent1's MoveTo(3, 2) on the timeline
    assert ed.agent == "agent1" and ed.selected == 1
    assert d.screen.clock.t == ed.span("agent1", 1).start
    d.click_station("dispenser1", button=1)  # goes in before action 1, walking back first
    assert [a.name for a in ed.queues["agent1"]][:3] == ["MoveTo", "MoveTo", "Interact"]
    assert ed.queues["agent1"][-1] == Action("MoveTo", (5, 2))


def test_dragging_the_end_of_a_wait_changes_its_length_in_one_undo_step():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_tile((2, 1))
    d.key(pygame.K_w, unicode="w")
    d.key(pygame.K_3, unicode="3")
    d.key(pygame.K_RETURN)
    d.click_tile((2, 2))
    ed, tl = d.screen.editor, d.screen.timeline
    wait = ed.span("agent1", 1)
    assert (wait.start, wait.end) == (1, 4)
    lane = tl.gantt.row_rect(tl.rect, 0)
    start = (tl.gantt.x_of(tl.rect, wait.end), lane.centery)
    end = (tl.gantt.x_of(tl.rect, wait.start + 6), lane.centery)
    drag(d, start, end)
    assert ed.queues["agent1"][1] == Action("Wait", duration=6)
    assert ed.span("agent1", 2).start == 7 and ed.result.time == 8
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.queues["agent1"][1] == Action("Wait", duration=3)


def test_dragging_the_timeline_background_moves_the_time_cursor_and_keeps_rows_in_view():
    level = salad_level()
    plan = {"agent1": [Action("MoveTo", (x, 1 + x % 3)) for x in (1, 2, 3, 4, 5)] * 8}
    d = Driver(lambda: PlayScreen(level, plan, size=SIZE, restore=False))
    screen = d.screen
    screen.editor.select_action(30, "agent1")  # the selected row, far down the queue
    tl = screen.timeline
    lane = tl.gantt.row_rect(tl.rect, 1)  # agent2's lane is empty: background
    x0, x1 = tl.gantt.x_of(tl.rect, 1), tl.gantt.x_of(tl.rect, screen.clock.end - 1)
    screen.queues.scroll["agent1"] = 0
    drag(d, (x0, lane.centery), (x1, lane.centery))
    assert screen.clock.t == pytest.approx(tl.time_at(x1), abs=0.01)
    rows = [r.index for r in screen.rows if r.agent == "agent1" and r.index is not None]
    assert 30 in rows  # scrubbing keeps the selected row in view
    drag(d, (x1, lane.centery), (x0, lane.centery))
    assert screen.clock.t == pytest.approx(tl.time_at(x0), abs=0.01)
    assert 30 in [r.index for r in screen.rows if r.agent == "agent1" and r.index is not None]


def test_hovering_a_bar_says_what_the_action_did_and_options_hear_every_edit():
    from test_editor import cook_salad

    from game.ui.play import PlayOptions

    heard: list[str] = []
    level = salad_level()
    d = Driver(
        lambda: PlayScreen(level, size=SIZE, restore=False, options=PlayOptions(on_event=heard.append))
    )
    cook_salad(d.screen.editor)
    d.screen.refresh()
    d.step()
    d.post(pygame.MOUSEMOTION, pos=bar_centre(d.screen, "agent1", 2), rel=(0, 0), buttons=(0, 0, 0))
    d.step()
    span = d.screen.timeline.span_at(d.screen.mouse)
    assert (span.agent, span.index) == ("agent1", 2)
    assert "agent1 puts the raw lettuce on chopping_board1" in d.screen.timeline.tooltip(
        d.screen.editor, span
    )
    d.key(pygame.K_ESCAPE)
    d.click_tile((2, 2))  # the plan still serves: a finished plan, its card
    assert heard == ["edit", "finish"] and d.screen.card is not None
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_z, mod=pygame.KMOD_CTRL)  # back to the plan made without the window: its card
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_SPACE)
    assert heard == ["edit", "finish", "undo", "finish", "preview"]


def test_same_instant_order_is_explained_in_the_error_the_tooltip_and_the_help():
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, meeting_plan(False), size=SIZE, restore=False))
    ed = d.screen.editor
    assert ed.error.kind == "station_in_use" and ed.error.time == 8
    text = error_text(ed)
    assert "at t = 8 agent2 is handled before agent1" in text.lower()
    assert "agent2's action began at t = 3, agent1's at t = 4, and the earlier start goes first" in text
    # the timeline marks the meeting and its tooltip tells the order
    meeting = d.screen.timeline.meetings[0]
    assert (meeting.t, meeting.station, meeting.agents) == (8, "chopping_board1", ["agent2", "agent1"])
    span = ed.span("agent1", 4)
    lines = d.screen.timeline.tooltip(ed, span)
    assert any("agent2 is handled before agent1" in line for line in lines)
    failed = d.screen.timeline.tooltip(ed, ed.span("agent2", 2))  # the error's bar: why it failed
    assert "Needed: chopping_board1 free of another agent's Process" in failed
    d.post(pygame.MOUSEMOTION, pos=bar_centre(d.screen, "agent1", 4), rel=(0, 0), buttons=(0, 0, 0))
    d.step()
    assert d.screen.timeline.span_at(d.screen.mouse) == span
    d.key(pygame.K_F1)
    assert d.screen.show_help and any(what == SAME_INSTANT_RULE for _, keys in HELP for _, what in keys)
    # the same plan with the Wait split: both actions began at 4, the tie goes to agent1 first
    fine = PlanEditor(level, meeting_plan(True))
    assert fine.error is None
    turns = instant.turns_at(fine.result.timeline, level.agent_names, 8)
    assert [t.agent for t in turns] == ["agent1", "agent2"]
    sentence = instant.order_sentence(turns[0], turns[1], 8)
    assert (
        sentence
        == "at t = 8 agent1 is handled before agent2: both actions began at t = 4, and ties go in map order"
    )


def test_switching_agents_returns_to_appending_and_the_hint_names_the_insertion_point():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    for tile in ((2, 1), (3, 1), (4, 1)):
        d.click_tile(tile)
    ed = d.screen.editor
    row = next(r for r in d.screen.rows if r.agent == "agent1" and r.index == 1)
    d.click_at(row.rect.center)
    assert ed.selected == 1
    d.post(pygame.MOUSEMOTION, pos=d.tile_pixel((5, 3)), rel=(0, 0), buttons=(0, 0, 0))
    d.step()
    assert "agent1 before action 1 MoveTo(5, 3)" in d.screen._hint()[0]
    d.key(pygame.K_2, unicode="2")
    d.key(pygame.K_1, unicode="1")
    assert ed.agent == "agent1" and ed.selected is None
    d.click_tile((5, 3))
    assert ed.queues["agent1"][-1] == Action("MoveTo", (5, 3))


def test_tooltips_leave_with_the_mouse():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    at = d.tile_pixel((3, 2))
    d.post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    d.step()
    probe = (at[0] + 24, at[1] + 24)
    assert d.pixel(probe) == (250, 248, 235)  # the tooltip's paper colour
    d.post(pygame.WINDOWLEAVE)
    d.step()
    assert d.screen.mouse is None and d.pixel(probe) != (250, 248, 235)


def test_reopening_restores_the_autosave_with_a_notice_and_its_undo_history():
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, size=SIZE))
    for tile in ((2, 1), (3, 2), (4, 2)):
        d.click_tile(tile)
    before_last = d.screen.editor.plan["agent1"][:2]
    d.post(pygame.QUIT)
    assert not d.app.step(1 / 60)
    again = Driver(lambda: PlayScreen(level, size=SIZE))
    ed = again.screen.editor
    assert len(ed.queues["agent1"]) == 3
    assert "Restored your autosaved plan: 3 actions, with its undo history" in again.screen.message
    again.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.plan["agent1"] == before_last


def test_the_result_card_is_the_same_every_time_it_appears():
    d = Driver(lambda: PlayScreen(tutorial(1), size=SIZE))
    serve_first_salad(d)
    play = d.screen
    first = play.card
    buttons = list(play.card_buttons)
    assert first.replay is not None and any(str(first.replay) in n for n in first.notes)
    d.click_button(play.card_buttons["watch"])
    assert play.card is None and play.playing
    d.step(60, dt=0.25)  # the replay (13 s at twice the speed) ends at the 26th frame: the card is back
    assert play.card is first and list(play.card_buttons) == buttons


def test_dialogs_confirm_with_enter_cancel_with_escape_and_open_a_typed_path(data_home):
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_station("dispenser1")
    plan = d.screen.editor.plan
    d.key(pygame.K_s, mod=pygame.KMOD_CTRL)
    assert d.screen.dialog_open
    d.key(pygame.K_RETURN)
    path = d.screen.plan_path
    assert not d.screen.dialog_open and path is not None and path.is_file()
    d.key(pygame.K_DELETE)
    d.key(pygame.K_o, mod=pygame.KMOD_CTRL)
    assert d.screen.dialog_open
    d.key(pygame.K_ESCAPE)
    assert not d.screen.dialog_open and d.screen.editor.action_count == 0
    d.key(pygame.K_o, mod=pygame.KMOD_CTRL)
    d.screen.dialog.file_path_text_line.set_text(str(path))
    d.step()
    assert d.screen.dialog.ok_button.is_enabled  # a typed path is enough
    d.key(pygame.K_RETURN)
    assert not d.screen.dialog_open and d.screen.editor.plan == plan


def test_a_bare_name_typed_in_the_dialog_lands_in_its_folder_not_the_working_one(
    data_home, tmp_path, monkeypatch
):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_station("dispenser1")
    d.key(pygame.K_e, mod=pygame.KMOD_CTRL)
    assert d.screen.dialog_open
    folder = Path(d.screen.dialog.current_directory_path)
    d.screen.dialog.file_path_text_line.set_text("77")
    d.step()
    d.key(pygame.K_RETURN)
    assert not d.screen.dialog_open
    assert (folder / "77").is_file() and list(cwd.iterdir()) == []


def test_open_accepts_a_double_click_on_a_file(data_home):
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    d.click_station("dispenser1")
    plan = d.screen.editor.plan
    d.screen.save()
    d.key(pygame.K_RETURN)
    d.key(pygame.K_DELETE)
    d.key(pygame.K_o, mod=pygame.KMOD_CTRL)
    name = d.screen.plan_path.name
    items = d.screen.dialog.file_selection_list.item_list
    button = next(i["button_element"] for i in items if i["text"] == name)
    d.click_at(button.rect.center)
    d.click_at(button.rect.center)
    d.step(2)
    assert not d.screen.dialog_open and d.screen.editor.plan == plan


def test_station_labels_are_legible_at_1440x900():
    from game.levels import load_level
    from game.ui.render.kitchen import LABEL_MIN, label_layout
    from game.ui.render.text import font

    root = Path(__file__).resolve().parents[1]
    level = load_level(root / "levels/suite/burger/seed_42/agent_num_3/orders_num_4.yaml")
    d = Driver(lambda: PlayScreen(level, size=SIZE, restore=False))
    tile = d.screen.renderer.tile
    for station in level.stations:
        lines, size = label_layout(station.name, tile - 4, tile)
        assert size >= LABEL_MIN and font(size).get_height() >= 11, (station.name, size)
        assert all(font(size).size(line)[0] <= tile - 4 for line in lines)


def test_an_idle_window_is_not_redrawn_and_input_redraws_it():
    d = Driver(lambda: PlayScreen(salad_level(), size=SIZE, restore=False))
    app = d.app
    app.last_input = 0.0  # long ago
    d.step()  # a frame with dt given (tests) is drawn; let the screen settle
    pygame.event.clear()
    drawn = app.frames
    for _ in range(3):
        app.step()  # no input: the loop sleeps and draws nothing
    assert app.frames == drawn
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    app.step()
    assert app.frames == drawn + 1
    d.screen.toggle_play()  # playing: every frame is drawn without input
    app.last_input = 0.0
    app.step()
    assert app.frames == drawn + 2


def test_editor_history_round_trips_and_refuses_what_does_not_fit():
    level = salad_level()
    ed = PlanEditor(level)
    ed.queue_move((2, 1))
    ed.queue_wait(2)
    ed.undo()
    data = ed.history()
    other = PlanEditor(level, ed.plan)
    assert other.load_history(data) and other.can_undo and other.can_redo
    other.redo()
    assert other.queues["agent1"] == [Action("MoveTo", (2, 1)), Action("Wait", duration=2)]
    bad = dict(data, undo=[{"queues": [[99], []], "agent": "agent1", "cursor": [None, None]}])
    fresh = PlanEditor(level)
    assert not fresh.load_history(bad) and not fresh.can_undo


@settings(max_examples=examples(60), deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=4),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["agents", "actions", "undo", "redo", "queues", "agent", "cursor"]),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_a_damaged_history_never_raises(data):
    ed = PlanEditor(salad_level())
    assert ed.load_history(data) in (True, False)


def test_the_levels_button_makes_the_browser_when_asked_and_the_modules_import_one_way():
    import ast

    from game.ui.screens.browser import BrowserScreen

    d = Driver(
        lambda: PlayScreen(salad_level(), size=SIZE, restore=False, back=lambda: BrowserScreen(size=SIZE))
    )
    d.click_button(d.screen.buttons["back"])
    assert isinstance(d.screen, BrowserScreen)
    root = Path(__file__).resolve().parents[1] / "game" / "ui" / "play"
    for module in root.glob("*.py"):  # the play window never imports the browser: no circle
        names = [
            n.module or "" for n in ast.walk(ast.parse(module.read_text())) if isinstance(n, ast.ImportFrom)
        ]
        assert not any("browser" in name for name in names), module.name


def test_the_autosave_writer_ends_with_the_screen_and_starts_again_with_the_next_edit():
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, size=SIZE, restore=False))
    d.click_tile((2, 1))
    d.screen.close()  # as when the app hands over to another screen
    assert not d.screen.autosaver.running
    assert store.load_autosave(level)["agent1"] == (Action("MoveTo", (2, 1)),)
    d.click_tile((3, 1))  # back on this screen: the next edit is saved again
    d.screen.autosaver.flush()
    assert store.load_autosave(level)["agent1"][-1] == Action("MoveTo", (3, 1))
    d.screen.close()


# each example opens a window (0.1 s): 12 drawn ones (every kind of gesture, lists of 1 to 12), and
# two drags that surely set a Wait's length (no drawn one of the 25 drawn before did)
@settings(max_examples=examples(12), deadline=None)
@example([("down", 0.687, 0.56), ("move", 0.1, 0.56), ("up", 0.1, 0.56)])  # agent2's Wait(5) down to 0
@example([("down", 0.229, 0.2), ("move", 0.95, 0.2), ("up", 0.95, 0.2)])  # agent1's Wait(2) longer
@given(
    st.lists(
        st.tuples(st.sampled_from(["down", "move", "up", "wheel"]), st.floats(0, 1), st.floats(0, 1)),
        min_size=1,
        max_size=12,
    )
)
def test_any_mouse_on_the_timeline_keeps_the_plan_whole(gestures):
    level = salad_level()
    d = Driver(lambda: PlayScreen(level, meeting_plan(False), size=SIZE, restore=False))
    ed = d.screen.editor
    names = {a: [x.name for x in q] for a, q in ed.queues.items()}
    area = d.screen.timeline.rect
    for kind, fx, fy in gestures:
        pos = (area.x + int(fx * (area.w - 1)), area.y + int(fy * (area.h - 1)))
        if kind == "down":
            d.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        elif kind == "up":
            d.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        elif kind == "wheel":
            d.post(pygame.MOUSEWHEEL, x=0, y=1 if fx > 0.5 else -1)
        d.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
        d.step()
    d.post(pygame.MOUSEBUTTONUP, pos=area.center, button=1)
    d.step()
    assert {a: [x.name for x in q] for a, q in ed.queues.items()} == names  # only Wait lengths change
    assert all(x.duration >= 0 for q in ed.queues.values() for x in q if x.name == "Wait")
    assert 0 <= d.screen.clock.t <= d.screen.clock.end and d.screen.timeline.drag is None
