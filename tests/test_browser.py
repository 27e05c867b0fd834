"""The level browser: tutorials first, the suite grouped, best times, opening a level."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from test_play import SIZE, Driver

from game.engine import simulate
from game.levels import load_level
from game.ui import store
from game.ui.screens.browser import BrowserScreen, suite_blocks, tutorial_items
from game.ui.screens.play import PlayScreen


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA, str(tmp_path / "data"))
    monkeypatch.setenv(store.ENV_REPLAYS, str(tmp_path / "replays"))
    return tmp_path


def need_levels():
    if not tutorial_items() or not suite_blocks():
        pytest.skip("the tutorial and suite levels are not here")


def test_tutorials_first_then_suite_grouped_by_difficulty_category_agents_orders():
    need_levels()
    d = Driver(lambda: BrowserScreen(size=SIZE))
    browser = d.screen
    items = browser.items()
    assert items[: len(browser.tutorials)] == browser.tutorials
    assert list(browser.suite) == ["easy", "medium", "hard"]
    easy = browser.suite["easy"]
    assert [b.title for b in easy[:3]] == ["salad  -  1 agent", "salad  -  2 agents", "salad  -  3 agents"]
    assert easy[0].seeds == [42, 84, 126, 128, 256] and easy[0].orders == [1, 2, 3, 4]
    scenarios, collab = tutorial_items("scenarios"), tutorial_items("collab")
    assert len(scenarios) >= 6 and len(collab) >= 4
    assert len(items) == len(browser.tutorials) + 1 + 360 + len(scenarios) + len(collab)
    hand_made = scenarios + collab  # drawn last, the collaboration levels at the very end
    assert [i.path for i in items[-len(hand_made) :]] == [i.path for i in hand_made]
    # everything drawn in reading order: tutorials above the suite, blocks left to right
    assert browser.tutorials[-1].rect.bottom < easy[0].rect.top
    assert easy[0].rect.x < easy[1].rect.x < easy[2].rect.x and easy[3].rect.top > easy[0].rect.bottom


def test_best_time_appears_after_a_recorded_run():
    need_levels()
    d = Driver(lambda: BrowserScreen(size=SIZE))
    browser = d.screen
    cell = browser.suite["easy"][0].cells[(42, 1)]
    assert cell.level_id not in browser.best
    level = load_level(cell.path)
    run = dataclasses.replace(simulate(level, {}), done=True, time=33)  # as if a player finished
    store.record_score(level, run)
    store.record_score(level, dataclasses.replace(run, time=35))
    d.step(2)
    assert browser.best[cell.level_id] == 33


def test_keyboard_focus_enter_opens_the_level_and_wheel_scrolls():
    need_levels()
    d = Driver(lambda: BrowserScreen(size=SIZE))
    browser = d.screen
    d.key(pygame.K_DOWN)
    assert browser.focus == 1
    d.post(pygame.MOUSEMOTION, pos=(700, 500), rel=(0, 0), buttons=(0, 0, 0))
    d.post(pygame.MOUSEWHEEL, x=0, y=-3)
    d.step()
    assert browser.scroll == 180
    d.key(pygame.K_HOME)
    assert browser.scroll == 0
    d.key(pygame.K_RETURN)
    assert isinstance(d.screen, PlayScreen)
    assert d.screen.level.meta.get("id") == browser.tutorials[1].level_id


def test_a_broken_level_file_gives_a_notice_not_a_crash(tmp_path):
    need_levels()
    d = Driver(lambda: BrowserScreen(size=SIZE))
    browser = d.screen
    bad = tmp_path / "broken.yaml"
    bad.write_text("title: [unclosed\n")
    browser.tutorials[0].path = bad
    d.click_at(browser.tutorials[0].rect.center)
    assert d.screen is browser and browser.notice is not None
    assert "broken.yaml" in " ".join(browser.notice[1])
    d.key(pygame.K_SPACE)
    assert browser.notice is None
