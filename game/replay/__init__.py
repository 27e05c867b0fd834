"""Replay files: write, read, verify."""

from .file import (
    FORMAT,
    VERSION,
    Replay,
    ReplayError,
    load_replay,
    parse_replay,
    replay_bytes,
    replay_dict,
    save_replay,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "Replay",
    "ReplayError",
    "load_replay",
    "parse_replay",
    "replay_bytes",
    "replay_dict",
    "save_replay",
]
