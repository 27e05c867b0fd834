"""`python main.py <command>`: thin parsing; each command lives in game/commands/."""

from __future__ import annotations

import argparse
import importlib
import sys

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
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py", description="A kitchen for time-efficient multi-agent planning."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for path in COMMANDS:
        module = importlib.import_module(path)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command is None:
        if "play" in parser._subparsers._group_actions[0].choices:  # type: ignore[union-attr]
            return main(["play"])
        parser.print_help()
        return 0
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
