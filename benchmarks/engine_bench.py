"""Engine speed: golden-plan runs per second (with and without recording) and a long plan.

python benchmarks/engine_bench.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # figures.py, also when a test imports the script

from figures import Results  # noqa: E402

from game.engine import Level, parse_plan, simulate  # noqa: E402
from game.levels import load_level  # noqa: E402

PARACOOK = ROOT.parent / "shared" / "paracook"


def golden_cases() -> list[tuple[Level, dict]]:
    orders = json.loads((PARACOOK / "orders.json").read_text())
    cases = []
    for f in sorted((PARACOOK / "human").glob("*/*/agent_num_*/orders_num_*.json")):
        cat, seed, agents, on = f.parts[-4], f.parts[-3], f.parts[-2], f.stem
        level = load_level(PARACOOK / "maps" / cat / seed / f"{agents}.json", orders[f"{cat}/{seed}/{on}"])
        cases.append((level, parse_plan(json.loads(f.read_text()), level.agent_names)))
    return cases


def rate(cases, record: bool, seconds: float) -> float:
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for level, plan in cases:
            simulate(level, plan, record=record)
        runs += len(cases)
    return runs / (time.perf_counter() - start)


def long_plan(level: Level, n: int = 200) -> dict:
    """A valid 3-agent plan of n actions: agents wander between floor tiles and wait."""
    rng = random.Random(7)
    floor = sorted(level.distances(level.agents[0].pos))
    plan = {}
    for a in level.agent_names:
        plan[a] = [
            {"action": "MoveTo", "target": list(rng.choice(floor))}
            if rng.random() < 0.7
            else {"action": "Wait", "duration": rng.randint(1, 3)}
            for _ in range(n // 3)
        ]
    return plan


def per_run_ms(level: Level, plan, record: bool, reps: int = 300) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        simulate(level, plan, record=record)
    return (time.perf_counter() - start) / reps * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    if not PARACOOK.is_dir():
        sys.exit("needs ../shared/paracook (the 24 human plans)")
    with Results("engine_bench", "The engine's speed", "rules.md") as out:
        cases = golden_cases()
        actions = sum(len(q) for _, p in cases for q in p.values())
        print(f"golden plans: {len(cases)}, {actions} actions in all")
        out.setting(
            f"the {len(cases)} recorded human plans ({actions} actions in all), {args.seconds} s each"
        )
        out.setting("a 201-action, 3-agent plan on burger seed 42, 300 runs each")
        for record in (False, True):
            runs = rate(cases, record, args.seconds)
            print(f"runs/s {'with' if record else 'without'} recording: {runs:8.0f}")
            out.figure(
                f"human plans run per second, {'recording' if record else 'not recording'}", round(runs)
            )
        level = load_level(
            PARACOOK / "maps" / "burger" / "seed_42" / "agent_num_3.json", ["burger_basic"] * 4
        )
        plan = parse_plan(long_plan(level, 201), level.agent_names)
        plain, recorded = per_run_ms(level, plan, False), per_run_ms(level, plan, True)
        print(f"201-action 3-agent plan:  {plain:6.3f} ms/run, {recorded:6.3f} ms/run recording")
        out.figure("one run of the 201-action plan, not recording", plain, "ms")
        out.figure("one run of the 201-action plan, recording", recorded, "ms")


if __name__ == "__main__":
    main()
