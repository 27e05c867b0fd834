"""`export`: render a replay without a window, as a GIF/MP4 video or one PNG frame."""

from __future__ import annotations

import argparse
import os
import sys

from game.commands.replay import viewable
from game.replay import ReplayError, load_replay

NAME = "export"
HELP = "Render a replay off-screen: OUT.gif or OUT.mp4 (whole run), or OUT.png --at T (one moment)."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("replay", help="a replay JSON")
    p.add_argument("out", help="OUT.gif, OUT.mp4 or OUT.png")
    p.add_argument("--fps", type=float, default=10, help="video frames per second (default 10)")
    p.add_argument(
        "--speed",
        type=float,
        default=2.0,
        help="kitchen time units per video second (default 2: a run of 60 lasts 30 s)",
    )
    p.add_argument("--at", type=float, metavar="T", help="the moment a PNG shows")
    p.add_argument("--tile", type=int, default=48, help="pixels per kitchen tile (default 48)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # off-screen: never open a window
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.export import ExportError, export_replay

    if not 8 <= args.tile <= 256:
        print(f"error: --tile {args.tile}: use 8 to 256 pixels", file=sys.stderr)
        return 2
    try:
        replay = viewable(load_replay(args.replay), args.replay)
        n = export_replay(
            replay,
            args.out,
            fps=args.fps,
            speed=args.speed,
            at=args.at,
            tile=args.tile,
            progress=not args.quiet,
        )
    except (ReplayError, ExportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    what = "1 frame" if n == 1 else f"{n} frames"
    print(f"wrote {args.out} ({what})")
    return 0
