"""The HTML replay page of a 2,000-action run: its size, how long Chromium takes to load and draw
it, and how long a seek takes to redraw (kitchen, scrub bar, Gantt cursor, event log).

python benchmarks/html_bench.py [--seeks 200] [--loads 5]

Needs Playwright (pip install -e ".[test]") and Debian's chromium at /usr/bin/chromium. Load time
is from navigation to the page saying it is ready (its sprites decoded and the first frame drawn);
a seek is timed inside the page (performance.now around window.paracook.seek), to random times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script
sys.path.insert(0, str(ROOT / "tests"))

from figures import Results  # noqa: E402
from kitchens import it, kitchen, mv, wait  # noqa: E402
from test_render import ROWS, STATIONS  # noqa: E402

from game.engine import parse_plan, simulate  # noqa: E402
from game.html import export_html  # noqa: E402
from game.replay import load_replay, save_replay  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
ARGS += ["--disable-component-update", "--disable-sync"]


def long_replay(folder: Path, loops: int = 250) -> tuple[Path, int]:
    """agent1 fetches lettuce and throws it away, agent2 walks and waits: 4 actions a loop each."""
    level = kitchen(ROWS, STATIONS, ("salad_basic",))
    a1 = [mv(0, 1), it("dispenser1"), mv(5, 2), it("trash")] * loops
    a2 = [mv(4, 3), wait(1), mv(2, 2), wait(1)] * loops
    raw = {"agent1": a1 + [{"action": "Finish"}], "agent2": a2 + [{"action": "Finish"}]}
    plan = parse_plan(raw, level.agent_names)
    result = simulate(level, plan)
    path = save_replay(folder / "long.json", level, plan, result, {"kind": "bench"})
    return path, len(a1) + len(a2) + 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeks", type=int, default=200, help="seeks to time (default 200)")
    parser.add_argument("--loads", type=int, default=5, help="page loads to time (default 5)")
    args = parser.parse_args()
    with Results("html_bench", "The HTML replay page", "html-replay.md") as figures:
        measure(args, figures)


def measure(args: argparse.Namespace, figures: Results) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, actions = long_replay(folder)
        replay = load_replay(path)
        out = folder / "long.html"
        begin = time.perf_counter()
        export_html([replay], out, [str(path)])
        export_s = time.perf_counter() - begin
        size = out.stat().st_size
        print(
            f"replay: {actions} actions, {len(replay.timeline.times)} moments, run end t = {replay.timeline.end:g}"
        )
        print(f"page: {size / 1e6:.3f} MB (limit 1.5 MB), written in {export_s:.2f} s")
        figures.setting(
            f"a replay of {actions:,} actions (2 agents), {args.loads} page loads and {args.seeks} seeks "
            "in headless Chromium at 1440x900"
        )
        figures.figure(f"page size for a {actions:,}-action run", size / 1e6, "MB", "under 1.5 MB")
        figures.figure("page written in", export_s, "s")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            loads, in_page = [], []
            for _ in range(args.loads):
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                begin = time.perf_counter()
                page.goto(out.as_uri())
                # polled from here: the page's content security policy forbids wait_for_function's eval
                while page.evaluate("document.body ? document.body.dataset.ready : null") != "1":
                    pass
                loads.append(time.perf_counter() - begin)
                in_page.append(float(page.evaluate("document.body.dataset.readyAt")) / 1000)
                if len(loads) < args.loads:
                    page.close()
            rng = random.Random(41)
            times = [round(rng.uniform(0, replay.timeline.end), 3) for _ in range(args.seeks)]
            seeks = page.evaluate(
                # the seek's script and the style and layout it causes (reading a size forces them)
                """times => times.map(t => { const a = performance.now(); window.paracook.seek(t);
                   void document.body.offsetHeight; return performance.now() - a; })""",
                times,
            )
            browser.close()
    print(
        f"load (navigation to first frame drawn): median {statistics.median(loads) * 1000:.0f} ms, "
        f"max {max(loads) * 1000:.0f} ms over {len(loads)} loads (limit 1000 ms); "
        f"inside the page (navigation start to ready): median {statistics.median(in_page) * 1000:.0f} ms"
    )
    seeks.sort()
    p95 = seeks[int(0.95 * (len(seeks) - 1))]
    figures.figure(
        "load, navigation to the first frame drawn, median",
        1000 * statistics.median(loads),
        "ms",
        "under 1000 ms",
    )
    figures.figure("seek redraw inside the page, p95", p95, "ms", "under 16 ms")
    print(
        f"seek redraw: median {statistics.median(seeks):.2f} ms, "
        f"95th percentile {p95:.2f} ms, max {seeks[-1]:.2f} ms "
        f"over {len(seeks)} seeks (limit 16 ms)"
    )


if __name__ == "__main__":
    main()
