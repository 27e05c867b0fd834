"""The request/response log of a run: one JSON object a line, flushed as it is written."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from game.storage import append_line

from .redact import clean_text


class RunLog:
    """Appends records to a JSONL file. Holds no secrets: callers pass only what to keep."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self.secrets: set[str] = set()  # redacted from every record (the client adds its key)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def write(self, record: dict[str, Any]) -> None:
        if self.path is None:
            return
        line = json.dumps({"at": round(time.time(), 3), **record}, ensure_ascii=False, default=repr)
        line = clean_text(line, self.secrets)  # a lone surrogate is kept as U+FFFD, not lost
        with self._lock:
            append_line(self.path, line)


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """Every record of a log file (a torn last line, from a killed run, is skipped)."""
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records
