"""`play`: open the window on a level, or on the level browser."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.commands import ranges
from game.engine import RULESETS

NAME = "play"
HELP = "Open the play window (the level browser when no LEVEL is given)."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("level", nargs="?", help="a level file (YAML, or a ParaCook map JSON with --orders)")
    p.add_argument("--orders", nargs="+", metavar="DISH", help="dishes in order, for a ParaCook map")
    p.add_argument("--rules", choices=sorted(RULESETS), help="rule set (default: the level's)")
    p.add_argument("--plan", metavar="PLAN.json", help="start from this plan instead of the autosave")
    p.add_argument(
        "--size",
        metavar="WxH",
        default=None,
        help="window size, e.g. 1024x700 (default: the size you last resized to, or the largest "
        "of 1600x1000, 1440x900, 1280x800, 1024x700 that fits the screen)",
    )


def run(args: argparse.Namespace) -> int:
    from game.levels import LevelError, load_level
    from game.ui import store

    try:
        size = parse_size(args.size)
    except ValueError as e:
        print(f"play: {e}", file=sys.stderr)
        return 2
    level = plan = None
    if args.level:
        try:
            level = load_level(args.level, args.orders, args.rules)
        except LevelError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if not level.title:  # a ParaCook map has no title: name it after its file
            level = level.replace(title="/".join(Path(args.level).with_suffix("").parts[-3:]))
        if args.plan:
            try:
                plan, _ = store.load_plan(args.plan, level)
            except store.StoreError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
    return open_window(level, plan, size)


def parse_size(text: str | None) -> tuple[int, int] | None:
    """The window size asked for (None: the default); ValueError naming the range."""
    return ranges.size(text) if text else None


def open_window(level, plan, size) -> int:
    from game.ui.app import MIN_SIZE, App, NoDisplay, open_window
    from game.ui.play import PlayScreen
    from game.ui.screens.browser import BrowserScreen

    asked = size
    if size is not None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
    try:
        surface = open_window(size)
    except NoDisplay as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    size = surface.get_size()
    if level is None:
        screen = BrowserScreen(size=size)
    else:
        screen = PlayScreen(level, plan, size=size, back=lambda: BrowserScreen(size=surface.get_size()))
    App(screen, surface, remember=asked is None).run()
    return 0
