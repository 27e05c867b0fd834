"""Why a multi-agent plan failed, in the views, on golden human plans broken the way LLM plans
break: the replay viewer's why box (every cause with its own Go-to button, wrapped, never cut),
the compare view's why box per side and its named first difference, an agent whose walk the
run's end cut, and cooking progress between events. Real events through the app's own loop."""

from __future__ import annotations

import copy
import json

import pygame
import pytest
from conftest import PARACOOK, need_paracook

from game.engine import parse_plan, simulate
from game.levels import load_level
from game.replay import load_replay, save_replay
from game.ui.app import App
from game.ui.render.kitchen import cooking_fraction
from game.ui.render.text import font
from game.ui.render.why_panel import BACK, BAR_W, PAD
from game.ui.screens.compare import CompareScreen, action_differences, metric_differences
from game.ui.screens.replay import ReplayScreen, tile_lines


def human(cat: str, seed: int) -> tuple:
    root = need_paracook()
    orders = json.loads((root / "orders.json").read_text())
    data = json.loads((root / f"human/{cat}/seed_{seed}/agent_num_2/orders_num_2.json").read_text())
    level = load_level(
        root / f"maps/{cat}/seed_{seed}/agent_num_2.json", orders[f"{cat}/seed_{seed}/orders_num_2"]
    )
    return level, copy.deepcopy(data["plan"])


def lost_wait(plan):  # agent2 loses its Wait 6: it reaches the window with agent1, at t = 53
    del plan["agent2"][21]


def pan_taken(plan):  # agent1 picks the pan back up from stove1 at t = 22 and never returns it
    plan["agent1"].insert(8, {"action": "Interact", "target": "stove1"})


def waited_too_little(plan):  # agent1 takes the meat out after Wait 3 instead of Wait 8
    plan["agent1"][14]["duration"] = 3


def same_plate(plan):  # salad: agent1 reaches table2 at t = 26 for the plate agent2 picks up then
    move = [{"action": "MoveTo", "target": [1, 3]}, {"action": "Wait", "duration": 2}]
    plan["agent1"][8:8] = [*move, {"action": "Interact", "target": "table2"}]


BREAKS = {
    "lost_wait": lost_wait,
    "same_plate": same_plate,
    "pan_taken": pan_taken,
    "waited_too_little": waited_too_little,
}


def replay_of(tmp_path, name: str, seed: int = 42):
    level, plan = human("salad" if name == "same_plate" else "burger", seed)
    if name in BREAKS:
        BREAKS[name](plan)
    parsed = parse_plan(plan, level.agent_names)
    path = tmp_path / f"{name}.json"
    save_replay(path, level, parsed, simulate(level, parsed), {"kind": "test"})
    return load_replay(path)


def display(size):
    pygame.init()
    return pygame.display.set_mode(size)


def step_events(app: App, *events: pygame.event.Event) -> None:
    for e in events:
        pygame.event.post(e)
    app.step(0.0)
    app.step(0.0)


def move(app: App, pos) -> None:
    step_events(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def click(app: App, pos) -> None:
    move(app, pos)
    step_events(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    )


def wheel(app: App, pos, dy: int) -> None:
    move(app, pos)
    step_events(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False))


def press(app: App, key: int) -> None:
    step_events(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def open_viewer(replay, size=(1024, 700)) -> tuple[App, ReplayScreen]:
    surface = display(size)
    pygame.event.clear()
    screen = ReplayScreen(replay)
    app = App(screen, surface)
    app.step(0.0)
    return app, screen


def click_go_to(app: App, why, area: pygame.Rect, i: int) -> None:
    """Scroll the why box until cause i's button shows, then click it."""
    for _ in range(60):
        rect = why.button_rects().get(i)
        if rect is not None and rect.h >= 20:
            click(app, rect.center)
            return
        wheel(app, area.center, -1)
    raise AssertionError(f"cause {i}'s Go-to button never came into view")


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
@pytest.mark.parametrize("name", list(BREAKS))
@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)], ids=["1024", "1440"])
def test_each_go_to_button_seeks_to_its_cause(tmp_path, name, size):
    app, screen = open_viewer(replay_of(tmp_path, name), size)
    causes = screen.diagnosis.causes
    assert screen.tab == "why" and len(causes) >= 2
    for i, cause in enumerate(causes):
        press(app, pygame.K_HOME)
        assert screen.t == 0
        click_go_to(app, screen.why, screen.rects["panel"], i)
        assert screen.t == cause.time, (i, cause.kind)
    # every cause is marked on the scrub bar, the likeliest on top
    assert sorted(m.time for m in screen.markers if "cause" in m.label) == sorted(c.time for c in causes)


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
@pytest.mark.parametrize("name", list(BREAKS))
def test_why_box_texts_are_wrapped_and_never_cut_at_1024x700(tmp_path, name):
    app, screen = open_viewer(replay_of(tmp_path, name), (1024, 700))
    panel = screen.rects["panel"]
    rows = screen.why.rows(panel.w)
    room = panel.w - 2 * PAD - BAR_W
    for row in rows:
        text = row.after if row.cause is not None else row.text
        assert row.indent + font(15, row.bold).size(text)[0] <= room, text
    shown = " ".join(r.text for r in rows if r.cause is None).split()
    d = screen.diagnosis
    whole = " ".join([d.summary, f"Needed: {d.need}", *(c.text for c in d.causes)]).split()
    it = iter(shown)
    assert all(word in it for word in whole)  # every word, in order: nothing cut
    # a box taller than its room scrolls with the wheel to its very end; a shorter one stays
    for _ in range(80):
        wheel(app, panel.center, -3)
    assert screen.why.offset == max(0, screen.why.height_for(panel.w) - panel.h)
    if name == "lost_wait":  # the same-instant story is the long one
        assert screen.why.offset > 0
    assert (len(d.causes) - 1) in screen.why.button_rects()  # the last Go-to reachable


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_the_same_instant_cause_is_first_and_names_both_agents(tmp_path):
    _, screen = open_viewer(replay_of(tmp_path, "lost_wait"))
    first = screen.diagnosis.causes[0]
    assert first.kind == "same_instant" and first.time == 53 and first.fields["first"] == "agent2"
    assert "agent2 was handled first" in first.text
    assert "action 16 (MoveTo (3, 1))" in first.text  # what the cut agent was doing, from the plan
    assert "its next action was Interact serving_window" in first.text
    _, screen = open_viewer(replay_of(tmp_path, "same_plate"))
    first = screen.diagnosis.causes[0]
    assert first.kind == "same_instant" and first.time == 26 and first.fields["first"] == "agent2"
    assert "agent2 and agent1 acted at the same instant, t = 26" in first.text
    assert first.fields["rule"] in first.text
    rows = " ".join(r.after or r.text for r in screen.why.rows(screen.rects["panel"].w)).split()
    words = iter(rows)
    assert all(w in words for w in first.text.split())  # the viewer says the whole sentence


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_an_agent_cut_on_its_way_is_drawn_and_described_where_it_walked(tmp_path):
    replay = replay_of(tmp_path, "lost_wait")
    app, screen = open_viewer(replay, (1440, 900))
    press(app, pygame.K_END)
    assert screen.t == 53
    tl = replay.timeline
    assert tl.state_at(53)["agents"]["agent1"]["pos"] == [1, 6]  # the engine never applied the arrival
    assert tl.position_at("agent1", 53) == (3.0, 1.0)  # but it had walked the whole way
    renderer, kitchen = screen.renderer, screen.rects["kitchen"]
    point = renderer.agent_points["agent1"]
    assert renderer.tile_at_pixel(kitchen, point) == (3, 1)
    move(app, point)
    lines = screen._tooltip(None, screen.shown_state(), screen.t)
    assert lines[0].startswith("agent1 at (3, 1), holding the plate")
    assert lines[1] == (
        "on its way to (3, 1), stopped at t = 53: the run ended before its action 16 (MoveTo (3, 1)) completed"
    )
    assert "idle" not in " ".join(lines)
    # a moment before the stop it is walking, a step away, and says so
    screen.seek(52.5)
    assert tl.position_at("agent1", 52.5) == (3.0, 1.5)
    # the tile's tooltip lists it where it is drawn, not where its walk began
    assert any(line.startswith("agent1 holds") for line in tile_lines(replay, tl.state_at(53), (3, 1), 53))
    assert not any(line.startswith("agent1") for line in tile_lines(replay, tl.state_at(53), (1, 6), 53))


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_cooking_progress_between_events_is_what_an_interact_would_find(tmp_path):
    replay = replay_of(tmp_path, "golden")
    tl = replay.timeline
    # the meat went into the pan on stove2 at t = 17 (agent2's action 7); a pan needs 24: done at 41
    assert 41 not in tl.times and 43 not in tl.times and 45 in tl.times
    app, screen = open_viewer(replay, (1440, 900))
    stove = replay.level.station_by_name["stove2"].pos
    kitchen = screen.rects["kitchen"]
    for t, expected in (
        (30, "on it: pan (chopped meat), cooking 13/24, cooked at t = 41"),
        (43, "on it: pan (cooked meat), cooked 24/24 since t = 41: an Interact now finds it cooked"),
    ):
        screen.seek(t)
        move(app, screen.renderer.tile_center(kitchen, stove))
        lines = screen._tooltip(None, screen.shown_state(), screen.t)
        assert any(line.startswith(expected) for line in lines), (t, lines)
    pan = tl.state_at(30)["stations"]["stove2"]
    assert cooking_fraction(pan, 30, True) == pytest.approx(13 / 24)
    assert cooking_fraction(tl.state_at(43)["stations"]["stove2"], 43, True) == 1.0
    cooked = [e for e in screen.story.events if e.kind == "cooked" and e.station == "stove2"]
    assert cooked[0].time == 45 and "(done since t = 41, recorded at this event)" in cooked[0].text


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_compare_shows_both_why_boxes_and_names_the_differing_action(tmp_path):
    a = replay_of(tmp_path, "lost_wait")
    b = replay_of(tmp_path, "waited_too_little")
    surface = display((1024, 700))
    pygame.event.clear()
    screen = CompareScreen(a, b)
    app = App(screen, surface)
    app.step(0.0)
    assert all(side.why for side in screen.sides)
    for side in screen.sides:  # each side draws its own why box, the error first
        box = side.rects["why"]
        assert surface.get_at((box.x + 3, box.bottom - 6))[:3] == BACK
        assert side.why.rows(box.w)[0].text.startswith(f"Failed at t = {side.replay.result['time']}")
    diff = action_differences(a, b)
    assert [d.text() for d in diff] == ["agent1 action 14: Wait 8 -> Wait 3"]
    assert diff[0].time == 38
    assert "agent1 action 14: Wait 8 -> Wait 3" in screen.difference_lines()[1]
    # B's likeliest cause: the meat taken out early; its button seeks the shared clock there
    side_b = screen.sides[1]
    assert side_b.diagnosis.causes[0].kind == "not_ready"
    click_go_to(app, side_b.why, side_b.rects["why"], 0)
    assert screen.transport.t == side_b.diagnosis.causes[0].time == 41
    # the same-instant sentence A's box says is the viewer's, word for word
    _, viewer = open_viewer(a)
    assert screen.sides[0].diagnosis.causes[0].text == viewer.diagnosis.causes[0].text


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_a_failed_run_is_never_ranked_faster_than_a_served_one(tmp_path):
    served = replay_of(tmp_path, "golden")  # OCT 59
    failed = replay_of(tmp_path, "lost_wait")  # stopped at its error at t = 53
    agents = served.level.agent_names
    for a, b in ((served, failed), (failed, served)):
        lines = metric_differences(a.result, b.result, agents)
        assert "OCT" not in lines[0].split(" vs ")[0] or "no OCT to compare" in lines[0]
        assert "B -6" not in " ".join(lines) and "B +6" not in " ".join(lines)
    assert metric_differences(served.result, failed.result, agents)[0] == (
        "A served all at OCT 59, B failed at t = 53: no OCT to compare"
    )


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_compare_names_a_removed_or_added_action(tmp_path):
    golden, lost = replay_of(tmp_path, "golden"), replay_of(tmp_path, "lost_wait")
    assert [d.text() for d in action_differences(golden, lost)] == ["agent2 action 21: Wait 6 removed in B"]
    assert [d.text() for d in action_differences(lost, golden)] == ["agent2 action 21: Wait 6 added in B"]
    taken = replay_of(tmp_path, "pan_taken")
    assert [d.text() for d in action_differences(golden, taken)] == [
        "agent1 action 8: Interact stove1 added in B"
    ]


@pytest.mark.skipif(not PARACOOK.is_dir(), reason="needs ../shared/paracook")
def test_an_export_of_a_failed_run_says_the_summary_and_marks_the_causes(tmp_path):
    from game.export import FrameRenderer

    replay = replay_of(tmp_path, "lost_wait")
    frames = FrameRenderer(replay)
    panel = frames.panels[0]
    last = frames.array(replay.timeline.end)
    drawn = " ".join(text for text, _ in panel.band_text).split()
    assert drawn == f"Failed at t = 53 (0/2 served) {panel.diagnosis.summary}".split()
    assert "agent2 was handled first" in panel.diagnosis.summary
    assert panel.diagnosis.to_dict() == replay.result["diagnosis"]  # the engine's, not reworded
    assert sorted(t for t, _ in panel.gantt.marks) == sorted(c.time for c in panel.diagnosis.causes)
    # the holding cause at t = 45 is a mark over the chart's lanes (its triangle at the top)
    x = panel.gantt.x_of(panel.gantt_rect, 45)
    y = panel.gantt.plot(panel.gantt_rect).y + 2
    assert tuple(last[y, x]) == (200, 170, 120)
    # side by side with a served run, both take the taller band: kitchens and charts line up
    pair = FrameRenderer([replay_of(tmp_path, "golden"), replay], labels=["A", "B"])
    a, b = pair.panels
    assert a.band_rect.h == b.band_rect.h > 58 and a.kitchen_rect.size == b.kitchen_rect.size


def test_a_plan_that_never_parsed_and_an_unfinished_run_open_on_why(tmp_path):
    from test_render import small_level

    level = small_level()
    empty = parse_plan({a: [] for a in level.agent_names}, level.agent_names)
    failure = {
        "error": "no_plan",
        "summary": "The model's reply never became a plan in 2 attempts: it could not read a plan.",
        "need": "a plan",
        "causes": [
            {"kind": "no_plan", "t": 0, "agent": None, "action": None, "text": "could not read a plan"}
        ],
    }
    for name, source, head in (
        ("no_plan.json", {"kind": "llm", "failure": failure}, "No plan"),
        ("unfinished.json", {"kind": "cli"}, "Unfinished"),
    ):
        save_replay(tmp_path / name, level, empty, simulate(level, empty), source)
        app, screen = open_viewer(load_replay(tmp_path / name))
        assert screen.tab == "why" and screen.diagnosis is not None
        rows = screen.why.rows(screen.rects["panel"].w)
        assert rows[0].text == head
        said = " ".join(r.text for r in rows).split()
        assert screen.diagnosis.summary.split()[:6] == said[len(head.split()) : len(head.split()) + 6]
        if name == "no_plan.json":
            assert screen.diagnosis.summary == failure["summary"]
