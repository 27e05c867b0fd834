"""`replay`: watch a saved run on a timeline; with two files, compare them side by side."""

from __future__ import annotations

import argparse
import os
import sys

from game.commands import ranges
from game.replay import Replay, ReplayError, load_replay

NAME = "replay"
HELP = "Watch a saved replay (two replays of one level: compare them side by side)."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a replay JSON (saved by play, run --replay, the LLM runner or the solver)")
    p.add_argument("file2", nargs="?", help="a second replay of the same level: compare the two runs")
    p.add_argument(
        "--size", metavar="WxH", help="window size (default: the largest preset that fits the screen)"
    )


def load_all(paths: list[str]) -> list[Replay]:
    """Every replay, or ReplayError for the first that cannot be opened or shown."""
    return [viewable(load_replay(p), p) for p in paths]


def viewable(replay: Replay, path: str) -> Replay:
    if not replay.timeline.times:
        raise ReplayError(f"{path}: the replay has no recorded moments to show")
    return replay


def display_problem(env: dict[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why no window can be shown here (None when one can)."""
    env = dict(os.environ) if env is None else env
    driver = env.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return f"SDL_VIDEODRIVER is {driver!r}: there is no screen to show the viewer on"
    on_linux = (platform or sys.platform).startswith("linux")
    if (
        on_linux
        and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
        and driver not in ("kmsdrm", "fbcon")
    ):
        return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def no_window(why: str, path: str) -> int:
    print(
        f"error: {why}. The replay viewer needs a window; render the run off-screen instead:\n"
        f"  paracook-kitchen export {path} run.mp4      (or run.gif, or moment.png --at T)",
        file=sys.stderr,
    )
    return 2


def parse_size(text: str | None) -> tuple[int, int] | None:
    """The window size asked for (None: the largest that fits the screen); ValueError naming the range."""
    if text is None:
        return None
    w, h = ranges.size(text)
    return (max(960, w), max(640, h))


def run(args: argparse.Namespace) -> int:
    paths = [args.file] + ([args.file2] if args.file2 else [])
    try:
        size = parse_size(args.size)
        replays = load_all(paths)
    except (ReplayError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from game.ui.screens.compare import level_difference

    if len(replays) == 2:
        why = level_difference(replays[0].level, replays[1].level)
        if why:
            print(f"error: cannot compare {paths[0]} and {paths[1]}: {why}", file=sys.stderr)
            return 2
    why = display_problem()
    if why:
        return no_window(why, paths[0])
    import pygame

    from game.ui.app import MIN_SIZE, App, NoDisplay, open_window

    try:
        surface = open_window(size, "ParaCook Kitchen - replay")
    except (pygame.error, NoDisplay) as e:
        return no_window(f"no window could be opened ({e})", paths[0])
    _keep_minimum_size(MIN_SIZE)
    if len(replays) == 2:
        from game.ui.screens.compare import CompareScreen

        screen = CompareScreen(replays[0], replays[1], labels=(paths[0], paths[1]))
    else:
        from game.ui.screens.replay import ReplayScreen

        screen = ReplayScreen(replays[0], label=paths[0])
    App(screen, surface, remember=size is None).run()
    return 0


def _keep_minimum_size(size: tuple[int, int]) -> None:
    """Below this the layout would clip; the window refuses to shrink further."""
    import pygame

    try:
        pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):  # an older pygame-ce: the app clamps resizes instead
        pass
