"""`export`: render a replay without a window, as a GIF/MP4 video or one PNG frame; two
replays of one level are drawn side by side on one clock."""

from __future__ import annotations

import argparse
import os
import sys

from game.commands import ranges
from game.commands.ranges import number, text
from game.commands.replay import viewable
from game.engine import MAX_TIME
from game.inputs import MAX_TITLE_CHARS
from game.replay import ReplayError, load_replay

NAME = "export"
HELP = (
    "Render a replay off-screen: OUT.gif or OUT.mp4 (whole run), or OUT.png --at T (one moment); "
    "A.json B.json OUT draws two runs side by side."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "files",
        nargs="+",
        metavar="REPLAY",
        help="one or two replay JSONs, then OUT.gif, OUT.mp4, OUT.png or OUT.html (a page to open in a browser)",
    )
    p.add_argument("--fps", type=number(0.1, 120), default=10, help="video frames per second (default 10)")
    p.add_argument(
        "--speed",
        type=number(0.001, 1_000_000),
        default=2.0,
        help="kitchen time units per video second (default 2: a run of 60 lasts 30 s)",
    )
    p.add_argument("--at", type=number(0, MAX_TIME), metavar="T", help="the moment a PNG shows (PNG only)")
    p.add_argument("--size", default="1280x720", metavar="WxH", help="output size (default 1280x720)")
    p.add_argument(
        "--hold",
        type=number(0, 60),
        default=2.0,
        metavar="S",
        help="seconds the last frame stays (default 2)",
    )
    p.add_argument(
        "--title",
        type=text(MAX_TITLE_CHARS, "a title"),
        help="a caption for the header (default: the level and its orders)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_size(value: str) -> tuple[int, int]:
    return ranges.size(value)  # then export checks the sizes it draws (160x160 to 3840x2160)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # off-screen: never open a window
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.export import ExportError, export_replays

    if len(args.files) not in (2, 3):
        print(
            "error: give one or two replays and then the output file (OUT.gif, OUT.mp4 or OUT.png)",
            file=sys.stderr,
        )
        return 2
    *paths, out = args.files
    try:
        size = parse_size(args.size)
        replays = [viewable(load_replay(p), p) for p in paths]
        if len(replays) == 2:
            from game.ui.screens.compare import level_difference

            why = level_difference(replays[0].level, replays[1].level)
            if why:
                raise ExportError(f"cannot draw {paths[0]} and {paths[1]} side by side: {why}")
        if out.lower().endswith(".html"):
            from game.html import HtmlError, export_html

            try:
                export_html(replays, out, paths)
            except HtmlError as e:
                raise ExportError(str(e)) from None
            print(f"wrote {out} (open it in a browser)")
            return 0
        n = export_replays(
            replays,
            out,
            fps=args.fps,
            speed=args.speed,
            at=args.at,
            size=size,
            hold=args.hold,
            title=args.title,
            labels=paths,
            progress=not args.quiet,
        )
    except (ReplayError, ExportError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    what = "1 frame" if n == 1 else f"{n} frames"
    print(f"wrote {out} ({what})")
    return 0
