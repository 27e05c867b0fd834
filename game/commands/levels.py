"""`levels`: list suites, validate level files, import ParaCook data, regenerate the suite."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.inputs import InputError
from game.levels import LevelError, load_level
from game.levels.files import level_files, validate_files
from game.levels.ids import level_id
from game.levels.suite import SUITE_DIR, SUITES, NotInstalled, suite_levels

NAME = "levels"
HELP = "List, validate, import and generate level files."


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="levels_command", metavar="ACTION", required=True)
    ls = sub.add_parser("list", help="list the suites, or the levels of one")
    ls.add_argument("--suite", metavar="NAME", help=f"one of {', '.join(SUITES)}, or a folder")
    ls.set_defaults(levels_handler=cmd_list)
    va = sub.add_parser("validate", help="check level files (exit 1 if any is broken)")
    va.add_argument("paths", nargs="+", metavar="PATH", help="level files or folders")
    va.set_defaults(levels_handler=cmd_validate)
    im = sub.add_parser("import-paracook", help="turn a ParaCook data folder into level files")
    im.add_argument("source", metavar="DIR", help="folder with maps/, orders.json and recipes/")
    im.add_argument(
        "--out",
        metavar="DIR",
        help="where to write the level files (default: the data folder, where the browser lists them)",
    )
    im.set_defaults(levels_handler=cmd_import)
    ge = sub.add_parser("generate", help="regenerate the 360-task benchmark suite")
    ge.add_argument("--out", metavar="DIR", default=str(SUITE_DIR), help="default: levels/suite")
    ge.add_argument("--check", action="store_true", help="only compare with the files there")
    ge.set_defaults(levels_handler=cmd_generate)


def run(args: argparse.Namespace) -> int:
    return args.levels_handler(args)


def cmd_list(args: argparse.Namespace) -> int:
    if not args.suite:
        for name, what in SUITES.items():
            try:
                count = f"{len(suite_levels(name)):4} levels"
            except NotInstalled:
                count = "not installed"
            print(f"{name:10} {count}  {what}")
        return 0
    try:
        paths = suite_levels(args.suite)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        try:
            level = load_level(path)
        except LevelError as e:
            print(f"{path}: BROKEN ({len(e.problems)} problem(s); see `levels validate`)")
            continue
        # what to type to name it: a file outside the bundled and imported levels by its path (a
        # copy keeps the `id` of the level it was copied from, which names that one instead)
        ident = level_id(path) or str(path)
        print(f"{ident:45} {len(level.agents)} agent(s) {len(level.orders)} order(s)  {level.title}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    try:
        files = level_files([Path(p) for p in args.paths])
    except (FileNotFoundError, InputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    errors = validate_files(files)
    for message in errors.values():
        print(message)
    print(f"{len(files)} level file(s) checked, {len(errors)} with errors")
    return 1 if errors or not files else 0


def cmd_import(args: argparse.Namespace) -> int:
    from game.levels.importer import import_paracook

    out = Path(args.out) if args.out else _install_dir()
    try:
        written, problems = import_paracook(Path(args.source), out)
    except LevelError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {e.filename or out}: cannot write there ({e.strerror or e})", file=sys.stderr)
        return 2
    for p in problems:
        print(f"problem: {p}", file=sys.stderr)
    print(f"{len(written)} level file(s) written to {out}")
    if not args.out and written:
        print("the level browser now lists them under 'ParaCook benchmark'")
    return 1 if problems else 0


def _install_dir() -> Path:
    from game.ui.store import installed_paracook_dir

    return installed_paracook_dir()


def cmd_generate(args: argparse.Namespace) -> int:
    from game.levels.generator import check_suite, write_suite

    out = Path(args.out)
    try:
        if args.check:
            differing = check_suite(out)
            for path in differing:
                print(f"differs: {path}")
            print(f"{len(differing)} file(s) differ from the generator's output")
            return 1 if differing else 0
        print(f"{len(write_suite(out))} level file(s) written to {out}")
    except OSError as e:
        verb = "read" if args.check else "write"
        print(f"error: {e.filename or out}: cannot {verb} there ({e.strerror or e})", file=sys.stderr)
        return 2
    return 0
