"""Work out the lower bounds of the bundled levels and the ParaCook tasks, for the package to ship.

    python benchmarks/record_bounds.py            # writes game/planners/solver/bound/recorded_bounds.json
    python benchmarks/record_bounds.py --check    # works them all out again and compares

The table (`game/planners/solver/bound/recorded.py`) is read only by the code that recorded it:
after a change to the engine or the bound, or under other versions of ortools or numpy, it is
not read, and every bound is worked out as before. Run this after such a change; the test suite
says when the table no longer matches the code. The benchmark's 360 tasks and the 24 of the human
study come from the ParaCook data (`PARACOOK_DIR`, or ../shared/paracook); without it only the
bundled levels are recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.levels import load_level  # noqa: E402
from game.levels.errors import LevelError  # noqa: E402
from game.levels.importer import import_paracook  # noqa: E402
from game.levels.paper import human_levels  # noqa: E402
from game.paths import LEVELS_DIR  # noqa: E402
from game.planners.solver.bound import recorded, routes_by_default  # noqa: E402
from game.planners.solver.bound.lower import _work_out  # noqa: E402
from game.planners.solver.bound.route_bound import route_bound_spent  # noqa: E402

PARACOOK = Path(os.environ.get("PARACOOK_DIR") or ROOT.parent / "shared" / "paracook")
OUT = ROOT / "game" / "planners" / "solver" / "bound" / recorded.TABLE
RULE_SETS = ("paracook", "documented")


def levels() -> list[tuple[str, object]]:
    """(name, level) for every bundled level and human-study task, each kitchen once."""
    found = []
    for f in sorted(LEVELS_DIR.rglob("*.yaml")):
        if f.name == "recipes.yaml":
            continue
        try:
            found.append((f.relative_to(LEVELS_DIR).as_posix(), load_level(f)))
        except LevelError as e:
            print(f"skipped {f}: {e}", file=sys.stderr)
    if PARACOOK.is_dir():
        found += [(f"human/{task}", level) for task, level in human_levels(PARACOOK)]
        found += paracook_tasks(PARACOOK)
    else:
        print(f"no ParaCook data at {PARACOOK}: the human-study tasks are not recorded", file=sys.stderr)
    seen, out = set(), []
    for name, level in found:
        key = recorded.kitchen_key(level, level.rules)
        if key not in seen and level.orders:
            seen.add(key)
            out.append((name, level))
    return out


def paracook_tasks(root: Path) -> list[tuple[str, object]]:
    """The benchmark's 360 tasks, as `levels import-paracook` writes them and as a map file and
    its orders load (the same kitchen either way, but both are recorded if they differ)."""
    orders = json.loads((root / "orders.json").read_text())
    found = []
    for f in sorted((root / "maps").glob("*/seed_*/agent_num_*.json")):
        cat, seed = f.parts[-3], f.parts[-2]
        for key, dishes in sorted(orders.items()):
            if key.startswith(f"{cat}/{seed}/orders_num_"):
                found.append(
                    (f"paracook/{cat}/{seed}/{f.stem}/{key.rsplit('/', 1)[1]}", load_level(f, dishes))
                )
    with tempfile.TemporaryDirectory() as folder:
        written, _ = import_paracook(root, Path(folder))
        found += [(f"imported/{p.relative_to(folder).as_posix()}", load_level(p)) for p in sorted(written)]
    return found


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
