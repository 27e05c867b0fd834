"""Entry point: `python main.py --help` lists the commands."""

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
