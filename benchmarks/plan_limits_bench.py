"""Plan limits: how fast an oversized plan is refused, what the largest allowed plan costs, and a
longer run of the hostile-plan fuzz (never raises, JSON without NaN/Infinity, repeatable).

python benchmarks/plan_limits_bench.py [--fuzz 3000]
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
sys.path.insert(0, str(ROOT / "tests"))

from figures import Results  # noqa: E402
from kitchens import kitchen  # noqa: E402
from test_rules import ROWS, STATIONS  # noqa: E402

from game.engine import MAX_ACTIONS_PER_AGENT, PlanError, parse_plan, simulate  # noqa: E402
from game.replay import replay_bytes  # noqa: E402

LEVEL = kitchen(ROWS, STATIONS, ("salad_basic",))
NAMES = [s["name"] for s in STATIONS.values()] + ["wall", "wall_3", "nowhere", "agent2", "plate"]


def timed(f):
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def refuse_million(out: Results) -> None:
    text = json.dumps({"agent1": [{"action": "Wait", "duration": 1}] * 1_000_000})
    data, t_load = timed(lambda: json.loads(text))

    def parse():
        try:
            parse_plan(data, LEVEL.agent_names)
        except PlanError as e:
            return str(e)

    message, t_parse = timed(parse)
    print(
        f"10^6-action plan: {len(text) / 1e6:.1f} MB of JSON, json.loads {t_load:.2f} s, refused in {t_parse * 1000:.3f} ms"
    )
    print(f"  {message}")
    out.figure(
        f"a 10^6-action plan ({len(text) / 1e6:.1f} MB of JSON) refused, after json.loads",
        t_parse * 1000,
        "ms",
    )


def largest_allowed(out: Results) -> None:
    rng = random.Random(3)
    floor = sorted(LEVEL.distances(LEVEL.agents[0].pos))
    queue = [
        {"action": "MoveTo", "target": list(rng.choice(floor))} if rng.random() < 0.7 else {"action": "Wait"}
        for _ in range(MAX_ACTIONS_PER_AGENT)
    ]
    plan = parse_plan({"agent1": queue, "agent2": list(reversed(queue))}, LEVEL.agent_names)
    result, t_run = timed(lambda: simulate(LEVEL, plan))
    data, t_bytes = timed(lambda: replay_bytes(LEVEL, plan, result))
    print(
        f"2 x {MAX_ACTIONS_PER_AGENT} actions: simulate+record {t_run:.2f} s (t = {result.time}), "
        f"replay {len(data) / 1e6:.1f} MB in {t_bytes:.2f} s"
    )
    out.figure(
        f"the largest allowed plan (2 x {MAX_ACTIONS_PER_AGENT:,} actions) simulated and recorded", t_run, "s"
    )
    out.figure("its replay written", t_bytes, "s")
    out.figure("its replay's size", len(data) / 1e6, "MB")


def hostile_value(rng: random.Random, depth: int = 0):
    choices = [
        lambda: rng.randint(-(10**6), 10**6),
        lambda: 10 ** rng.randint(300, 500) * rng.choice([1, -1]),
        lambda: rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -0.0, 5e-324, 2.5]),
        lambda: rng.choice(NAMES + ["", "Chop", "MoveTo", "Wait", None, True]),
    ]
    if depth < 3:
        choices.append(lambda: [hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 3))])
        choices.append(
            lambda: {
                k: hostile_value(rng, depth + 1) for k in rng.sample(["action", "target", "duration"], 2)
            }
        )
    return rng.choice(choices)()


def hostile_action(rng: random.Random):
    kind = rng.choice(["MoveTo", "Interact", "Process", "Wait", "Finish", None])
    if kind is None:
        return hostile_value(rng)
    if kind == "MoveTo":
        return {"action": kind, "target": [hostile_value(rng), hostile_value(rng)]}
    if kind == "Wait":
        return {"action": kind, "duration": hostile_value(rng)}
    return {"action": kind, "target": rng.choice(NAMES + [hostile_value(rng)])}


def fuzz(cases: int, out: Results) -> None:
    rng = random.Random(11)
    failures, start = 0, time.perf_counter()
    kinds: dict[str, int] = {}
    for _ in range(cases):
        plan = {a: [hostile_action(rng) for _ in range(rng.randint(0, 15))] for a in LEVEL.agent_names}
        rules = rng.choice(["paracook", "documented"])
        try:
            parsed = parse_plan(plan, LEVEL.agent_names)
            a = json.dumps(simulate(LEVEL, parsed, rules).to_dict(), allow_nan=False)
            b = json.dumps(
                simulate(LEVEL, parse_plan(plan, LEVEL.agent_names), rules).to_dict(), allow_nan=False
            )
            assert a == b, "not repeatable"
            kind = (json.loads(a)["error_detail"] or {}).get("kind", "none")
            kinds[kind] = kinds.get(kind, 0) + 1
        except Exception as e:  # noqa: BLE001 (any exception is a failure to report)
            failures += 1
            print(f"  FAILURE {type(e).__name__}: {str(e)[:200]}")
    elapsed = time.perf_counter() - start
    print(f"hostile fuzz: {cases} plans in {elapsed:.1f} s, {failures} failures")
    out.figure(f"hostile plans that raised or gave unrepeatable or non-JSON results, of {cases:,}", failures)
    print("  stopped by: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda x: -x[1])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fuzz", type=int, default=3000, help="hostile plans to try")
    args = ap.parse_args()
    with Results("plan_limits_bench", "Plan limits", "reference/plan-format.md") as out:
        out.setting(f"{args.fuzz:,} hostile plans in the fuzz")
        refuse_million(out)
        largest_allowed(out)
        fuzz(args.fuzz, out)


if __name__ == "__main__":
    main()
