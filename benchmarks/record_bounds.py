"""Work out the lower bounds of the bundled levels and the ParaCook tasks, for the package to ship.

    python benchmarks/record_bounds.py            # writes game/planners/solver/bound/recorded_bounds.json
    python benchmarks/record_bounds.py --check    # works them all out again and compares

The table (`game/planners/solver/bound/recorded.py`) is read only by the code that recorded it:
after a change to the engine or the bound, or under another version of ortools, it is not
read, and every bound is worked out as before. Run this after such a change; the test suite
says when the table no longer matches the code. The benchmark's 360 tasks (the 24 of the human
study among them) come from the ParaCook data (`PARACOOK_DIR`, or ../shared/paracook); without it only the
bundled levels are recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver_bench import PARACOOK, paracook_jobs  # noqa: E402  (the benchmark's tasks, as it plans them)

from game.levels import load_level  # noqa: E402
from game.levels.errors import LevelError  # noqa: E402
from game.paths import LEVELS_DIR  # noqa: E402
from game.planners.solver.bound import recorded, routes_by_default  # noqa: E402
from game.planners.solver.bound.lower import _work_out  # noqa: E402
from game.planners.solver.bound.route_bound import route_bound_spent  # noqa: E402

OUT = ROOT / "game" / "planners" / "solver" / "bound" / recorded.TABLE
RULE_SETS = ("paracook", "documented")


def levels() -> list[tuple[str, object]]:
    """(name, level) for every bundled level and ParaCook task, each kitchen once."""
    found = []
    for f in sorted(LEVELS_DIR.rglob("*.yaml")):
        if f.name == "recipes.yaml":
            continue
        try:
            found.append((f.relative_to(LEVELS_DIR).as_posix(), load_level(f)))
        except LevelError as e:
            print(f"skipped {f}: {e}", file=sys.stderr)
    if PARACOOK.is_dir():
        tasks = {job[1]: job for job in paracook_jobs(0)}  # a job per rule set: one kitchen
        found += [
            (f"paracook/{task}", load_level(path, dishes)) for task, (_, _, path, dishes, *_) in tasks.items()
        ]
    else:
        print(f"no ParaCook data at {PARACOOK}: its tasks are not recorded", file=sys.stderr)
    seen, out = set(), []
    for name, level in found:
        key = recorded.kitchen_key(level, level.rules)
        if key not in seen and level.orders:
            seen.add(key)
            out.append((name, level))
    return out


def work_out(item: tuple[str, object]) -> tuple[dict, dict]:
    """The entries of one level: its bound, and on one-order levels the routes term per rule set."""
    _, level = item
    bound = _work_out(level)
    bounds = {recorded.kitchen_key(level, level.rules): recorded.entry_of(bound)}
    routes = {}
    if bound.finite and routes_by_default(level):
        for rules in RULE_SETS:
            routes[recorded.kitchen_key(level, rules)] = list(route_bound_spent(level, rules))
    return bounds, routes


def table(jobs: int) -> dict:
    items = levels()
    bounds: dict = {}
    routes: dict = {}
    with Pool(jobs) as pool:
        for k, (b, r) in enumerate(pool.imap(work_out, items), 1):
            bounds |= b
            routes |= r
            print(f"\r{k}/{len(items)} levels", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {**recorded.table_header(), "bounds": bounds, "routes": routes}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--check", action="store_true", help="work every entry out again and compare with the table"
    )
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)
    made = table(args.jobs)
    text = json.dumps(made, sort_keys=True, indent=1) + "\n"
    if not args.check:
        OUT.write_text(text, encoding="utf-8")
        print(f"{len(made['bounds'])} bounds and {len(made['routes'])} routes terms written to {OUT}")
        return 0
    shipped = json.loads(OUT.read_text(encoding="utf-8"))
    if shipped == made:
        print(f"the table matches: {len(made['bounds'])} bounds, {len(made['routes'])} routes terms")
        return 0
    for part in ("bounds", "routes"):
        for key in sorted(set(made[part]) | set(shipped.get(part, {}))):
            if made[part].get(key) != shipped.get(part, {}).get(key):
                print(
                    f"{part} {key}: shipped {shipped.get(part, {}).get(key)}, worked out {made[part].get(key)}"
                )
    for k in recorded.table_header():
        if shipped.get(k) != made[k]:
            print(f"{k}: shipped {shipped.get(k)}, here {made[k]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
