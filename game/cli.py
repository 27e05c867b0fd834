"""`paracook-kitchen <command>` (`python main.py <command>` in a clone): thin parsing; each
command lives in game/commands/."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from game import __version__

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the console script skips main.py
PROG = "paracook-kitchen"
# Each module defines NAME, HELP, add_arguments(parser) and run(args) -> exit code.
COMMANDS = (
    "game.commands.run",
    "game.commands.llm",
    "game.commands.abstract",
    "game.commands.levels",
    "game.commands.report",
    "game.commands.play",
    "game.commands.replay",
    "game.commands.export",
    "game.commands.solve",
    "game.commands.study",
    "game.commands.collab",
)


def _command_name(path: str) -> str:
    return path.rsplit(".", 1)[1]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that command's module is imported (fast start-up)."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A kitchen for time-efficient multi-agent planning."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for path in COMMANDS:
        if only is not None and _command_name(path) != only:
            continue
        module = importlib.import_module(path)
        # argparse %-formats a subcommand's help line, but not a description without %(prog)s
        p = sub.add_parser(module.NAME, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    names = [_command_name(p) for p in COMMANDS]
    if not argv and "play" in names:
        argv = ["play"]
    only = argv[0] if argv and argv[0] in names else None
    try:
        args = build_parser(only).parse_args(argv)
    except SystemExit as e:  # a command's option out of its range (said in one line): exit code 2
        if only is None or e.code != 2:
            raise
        return 2
    if args.command is None:
        build_parser().print_help()
        return 0
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `main.py levels list | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
