"""Where a benchmark script puts its figures: one JSON file per script in `benchmarks/results/`,
which `benchmarks/write_results.py` renders into the docs' results page (`docs/results.md`).

A script records its figures as it prints them and writes them when it ends:

    from figures import Results

    with Results("engine_bench", "The engine's speed", explained_in="rules.md") as out:
        out.setting("3 s of runs per figure")
        out.figure("golden-plan runs per second, not recording", 8500, "runs/s")
        out.table("By task", ["task", "OCT"], [["burger", 41]])

Each file says what was run (the command line and the setting), on which machine and when, so
the page can say it beside every figure. `BENCH_RESULTS_DIR` sends the file elsewhere (the tests
run a script at a tiny setting that way, leaving the committed figures alone).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
FORMAT = 1  # the file format's version


def results_dir() -> Path:
    return Path(os.environ.get("BENCH_RESULTS_DIR") or RESULTS)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):  # not on every platform
        return None


def machine() -> dict[str, Any]:
    """The machine a figure was measured on, as the page names it."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
    }


def _number(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 4)
    return value


class Results:
    """The figures of one run of one benchmark script, written to `<name>.json` on leaving the
    `with` block (not when the block raises: a failed run keeps the last good figures)."""

    def __init__(self, name: str, title: str, explained_in: str | None = None) -> None:
        self.name = name
        self.data: dict[str, Any] = {
            "format": FORMAT,
            "name": name,
            "title": title,
            "script": f"benchmarks/{name}.py",
            "command": " ".join(["python", f"benchmarks/{name}.py", *sys.argv[1:]]),
            "explained_in": explained_in,
            "settings": [],
            "figures": [],
            "tables": [],
        }

    def setting(self, text: str) -> None:
        """One line of what was run (sizes, counts, limits), in words."""
        self.data["settings"].append(text)

    def figure(self, what: str, value: Any, unit: str = "", goal: str = "") -> None:
        self.data["figures"].append({"what": what, "value": _number(value), "unit": unit, "goal": goal})

    def table(self, title: str, columns: list[str], rows: list[list[Any]]) -> None:
        self.data["tables"].append(
            {"title": title, "columns": columns, "rows": [[_number(v) for v in row] for row in rows]}
        )

    def __enter__(self) -> Results:
        self._started = time.time()
        self.data["load_before"] = _load()
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is not None:
            return
        self.data["date"] = datetime.fromtimestamp(self._started, UTC).strftime("%Y-%m-%d %H:%M UTC")
        self.data["seconds"] = round(time.time() - self._started, 1)
        self.data["machine"] = machine()
        self.write()

    def write(self) -> Path:
        folder = results_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.json"
        part = path.with_suffix(".json.part")
        part.write_text(json.dumps(self.data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(part, path)
        print(f"figures written to {path}", file=sys.stderr)
        return path
