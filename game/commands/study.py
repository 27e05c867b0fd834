"""`study`: run a timed study session for one participant; `study export` writes its files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from game.commands.ranges import whole
from game.study.levels import HUMAN_STUDY

NAME = "study"
HELP = "Run a study session (timed, planner hidden) over a list of levels, or export one."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--levels",
        nargs="+",
        metavar="SPEC",
        default=[HUMAN_STUDY],
        help=f"suite names, level files or folders, or {HUMAN_STUDY} (the paper's 24 tasks; default)",
    )
    p.add_argument("--participant", metavar="NAME", help="start (or resume) this participant's session")
    p.add_argument(
        "--protocol",
        metavar="FILE",
        help="a study protocol (YAML or JSON: levels, order, warm-up, instructions, time limit, "
        "partner and the person's agents); "
        "needs --participant; see docs/human-study.md",
    )
    p.add_argument("--order", choices=("fixed", "shuffled"), default="shuffled", help="level order")
    p.add_argument(
        "--seed", type=whole(0, 2**32 - 1), help="seed of the shuffled order (default: from the clock)"
    )
    p.add_argument("--new", action="store_true", help="start anew even if the participant has a session open")
    p.add_argument(
        "--size", metavar="WxH", help="window size, e.g. 1024x700 (default: the largest that fits the screen)"
    )
    sub = p.add_subparsers(dest="study_command", metavar="ACTION")
    ex = sub.add_parser("export", help="write a session's results, replays and log")
    ex.add_argument(
        "session", metavar="SESSION_DIR", help="the session's folder (under the data folder's studies/)"
    )
    ex.add_argument("--out", metavar="DIR", help="default: SESSION_DIR/export")
    ls = sub.add_parser("list", help="list the sessions in the data folder")
    ls.set_defaults(study_command="list")


def run(args: argparse.Namespace) -> int:
    if args.study_command == "export":
        return cmd_export(args)
    if args.study_command == "list":
        return cmd_list()
    return cmd_session(args)


def cmd_export(args: argparse.Namespace) -> int:
    from game.study.export import export_session
    from game.study.persist import SessionStore
    from game.study.session import SessionError

    folder = Path(args.session)
    out = Path(args.out) if args.out else folder / "export"
    try:
        written, problems = export_session(SessionStore.open(folder), out)
    except SessionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {e.filename or out}: cannot write the export ({e.strerror or e})", file=sys.stderr)
        return 2
    for p in problems:
        print(f"problem: {p}", file=sys.stderr)
    print(f"{len(written)} level(s) exported to {out} (results/, replays/, log.jsonl, study.json)")
    return 1 if problems else 0


def cmd_list() -> int:
    from game.study.persist import SESSION_FILE, SessionStore
    from game.study.session import STATUSES, SessionError
    from game.ui.screens.study import studies_dir

    root = studies_dir()
    found = sorted(root.glob(f"*/{SESSION_FILE}")) if root.is_dir() else []
    if not found:
        print(f"no study sessions in {root}")
    for f in found:
        try:
            s = SessionStore.open(f.parent).session
        except SessionError as e:
            print(f"{f.parent}: {e}")
            continue
        state = "finished" if s.finished else f"at level {s.current + 1} of {len(s.levels)}"
        counts = {k: sum(r.status == k for r in s.levels) for k in STATUSES}
        said = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        how = s.order + (f" row {s.condition + 1}" if s.condition is not None else "")
        how += f" seed {s.seed}" if s.seed is not None else ""
        protocol = f"protocol {s.protocol}, " if s.protocol else ""
        partner = f"{s.condition_name}, " if s.partner else ""
        print(f"{f.parent}  {s.participant}  {state}  ({protocol}{partner}{how}; {said})")
    return 0


def cmd_session(args: argparse.Namespace) -> int:
    from game.commands.play import parse_size
    from game.study.levels import resolve_levels
    from game.study.persist import SessionStore, unfinished_sessions
    from game.study.session import SessionError
    from game.ui import store
    from game.ui.app import App, NoDisplay, init_display, open_window
    from game.ui.screens.study import StudyIntroScreen, StudySetupScreen, open_session, studies_dir

    try:
        size = parse_size(args.size)
    except ValueError as e:
        print(f"study: {e}", file=sys.stderr)
        return 2
    try:  # before a session is made or claimed: one that never opened would be listed as begun
        init_display()
    except NoDisplay as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    protocol = None
    try:
        if args.protocol:
            from game.study.protocol import load_protocol

            if not args.participant:
                raise SessionError("--protocol needs --participant NAME")
            protocol = load_protocol(Path(args.protocol), store.installed_paracook_dir())
            files = list(protocol.levels)
        else:
            files = resolve_levels(args.levels, store.installed_paracook_dir())
    except SessionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    root = studies_dir()
    if args.participant:
        mine = [
            f
            for f in (unfinished_sessions(root) if root.is_dir() else [])
            if SessionStore.open(f).session.participant == args.participant.strip()
            and SessionStore.open(f).session.protocol == (protocol.name if protocol else "")
        ]
        if mine and not args.new:
            try:
                SessionStore.open(mine[0]).claim()
            except SessionError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            print(f"resuming {mine[0]}", file=sys.stderr)
            screen_factory = lambda: open_session(mine[0], None, size)  # noqa: E731
        else:
            try:
                session_store = _new(root, args, files, protocol)
            except (SessionError, OSError) as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            print(f"session folder: {session_store.folder}", file=sys.stderr)
            screen_factory = lambda: StudyIntroScreen(session_store, None, size)  # noqa: E731
    else:
        screen_factory = lambda: StudySetupScreen(files, None, size, root)  # noqa: E731
    try:
        surface = open_window(size)
    except NoDisplay as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    App(screen_factory(), surface, remember=size is None).run()
    return 0


def _new(root: Path, args: argparse.Namespace, files: list[Path], protocol: Any) -> Any:
    from game.study.persist import new_session
    from game.study.protocol import next_condition

    if protocol is None:
        return new_session(root, args.participant, files, args.order, _seed(args))
    condition = (
        next_condition(root, protocol.name, args.participant) if protocol.order == "counterbalanced" else None
    )
    return new_session(
        root,
        args.participant,
        files,
        protocol.order,
        protocol.seed_for(args.participant),
        protocol.idle_after,
        protocol.plan_for(condition),
    )


def _seed(args: argparse.Namespace) -> int | None:
    if args.order != "shuffled":
        return None
    if args.seed is not None:
        return args.seed
    import time

    return int(time.time()) % 100000
