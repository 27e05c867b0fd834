"""The model's feedback after an engine error names the cause in the viewer's own words."""

from __future__ import annotations

from test_render import small_level, small_plan

from game.engine import simulate
from game.planners.llm.feedback import engine_feedback


def test_engine_feedback_names_the_earlier_event():
    level = small_level()
    text = engine_feedback(level, simulate(level, small_plan(failed=True)))
    assert "- Needed: something raw on chopping_board1 to chop" in text
    assert "chopping_board1 has held the chopped lettuce since t = 6: agent1 chops the raw lettuce" in text
    assert "\n\n\n" not in text


def test_msreact_feedback_has_the_cause_too():
    level = small_level()
    text = engine_feedback(level, simulate(level, small_plan(failed=True)), "msreact_error")
    assert "since t = 6" in text
