"""Replays as self-contained web pages: one run, two runs side by side, and an index of a run
folder. The data is built here in Python; the page (template.html, vanilla JS and CSS) only draws.

    export_html([replay], "run.html", ["run.json"])          # one run
    export_html([a, b], "both.html", ["a.json", "b.json"])     # two runs on one clock
    write_index(runs, "site/")                                  # site/index.html + site/runs/*.html
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from game.replay import Replay

from .data import compare_data, run_data
from .index import write_index
from .page import HtmlError, write_page

__all__ = ["HtmlError", "export_html", "write_index"]


def export_html(replays: Sequence[Replay], out: str | Path, labels: Sequence[str]) -> Path:
    """Write one run's page, or two runs' page (their levels already checked to match)."""
    if len(replays) == 1:
        return write_page(out, run_data(replays[0], Path(labels[0]).name))
    if len(replays) == 2:
        names = (Path(labels[0]).name, Path(labels[1]).name)
        return write_page(out, compare_data(replays[0], replays[1], names))
    raise HtmlError("give one or two replays")
