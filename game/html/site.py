"""`report RUN_DIR --html OUT_DIR`: the index site, with what the command prints."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .index import write_index
from .page import HtmlError


def report_site(runs: Sequence[Any], out_dir: Path) -> int:
    """Write the site; 0 when written, 2 (with the reason printed) when it could not be."""
    try:
        index, problems = write_index(runs, out_dir)
    except HtmlError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"warning: no page for {problem}", file=sys.stderr)
    print(f"index of {len(runs)} runs written to {index}", file=sys.stderr)
    return 0
