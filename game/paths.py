"""Where the project's files live: the bundled levels and assets (inside the installed package,
or at the top of a clone) and the user's data folder.

A wheel carries `levels/` and `assets/` as `game/_levels` and `game/_assets` (setup.py maps them
at build time); a clone or an editable install reads them where they are.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

import platformdirs

ENV_DATA = "PARACOOK_KITCHEN_DATA"
APP_NAME = "paracook-kitchen"

_PACKAGE = Path(str(files("game"))).resolve()
# the clone's root when the package runs from one (None when installed from a wheel)
CHECKOUT: Path | None = (
    _PACKAGE.parent
    if (_PACKAGE.parent / "pyproject.toml").is_file() and (_PACKAGE.parent / "levels").is_dir()
    else None
)


def _bundled(name: str) -> Path:
    packed = _PACKAGE / f"_{name}"
    if packed.is_dir() or CHECKOUT is None:
        return packed
    return CHECKOUT / name


LEVELS_DIR = _bundled("levels")
ASSETS_DIR = _bundled("assets")


def data_dir() -> Path:
    """The user's data folder: $PARACOOK_KITCHEN_DATA, else the platform's convention
    (~/.local/share/paracook-kitchen on Linux, ~/Library/Application Support/... on macOS)."""
    env = os.environ.get(ENV_DATA)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
