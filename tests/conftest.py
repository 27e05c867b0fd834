"""Shared fixtures: the benchmark data in ../shared/paracook (skips cleanly where absent)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")
REFERENCE_FIELDS = (
    "done",
    "time",
    "finished_orders",
    "remaining_orders",
    "agent_progress",
    "agent_all_execution_time",
    "agent_waiting_time",
    "agent_moving_time",
    "agent_processing_time",
    "error",
)


MISSING_PARACOOK = "../shared/paracook is not here (it exists in CI, not in a user's clone)"


def need_paracook() -> Path:
    if not PARACOOK.is_dir():
        pytest.skip(MISSING_PARACOOK)
    return PARACOOK


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests parametrized over the benchmark data say why they skip, not just 'empty parameter set'."""
    if PARACOOK.is_dir():
        return
    for item in items:
        mark = item.get_closest_marker("skip")
        if mark and str(mark.kwargs.get("reason", "")).startswith("got empty parameter set"):
            item.add_marker(pytest.mark.skip(reason=MISSING_PARACOOK), append=False)


def human_cases() -> list[tuple[Path, Path, list[str]]]:
    """(human result file, map file, orders) for the 24 recorded human plans."""
    if not PARACOOK.is_dir():
        return []
    orders = json.loads((PARACOOK / "orders.json").read_text())
    cases = []
    for f in sorted((PARACOOK / "human").glob("*/*/agent_num_*/orders_num_*.json")):
        cat, seed, agents, on = f.parts[-4], f.parts[-3], f.parts[-2], f.stem
        cases.append((f, PARACOOK / "maps" / cat / seed / f"{agents}.json", orders[f"{cat}/{seed}/{on}"]))
    return cases


@pytest.fixture
def paracook_dir() -> Path:
    return need_paracook()
