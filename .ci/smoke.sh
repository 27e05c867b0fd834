#!/usr/bin/env bash
# What a user does first with the installed wheel, from a folder that is not a clone: list and
# validate the bundled levels, solve one by its id, run the plan, export a frame, open the window.
set -euo pipefail
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
here=$(pwd)
if [ -e "$here/pyproject.toml" ] || [ -d "$here/levels" ]; then
    echo "smoke: run me outside the clone (here is $here)" >&2
    exit 2
fi
export PARACOOK_KITCHEN_DATA="$here/data"
step() { echo "+ $*"; }

step paracook-kitchen --version
paracook-kitchen --version | grep -q '^paracook-kitchen [0-9]'

step paracook-kitchen levels list
paracook-kitchen levels list | tee list.txt
grep -Eq '^tutorial +5 levels' list.txt && grep -Eq '^suite +360 levels' list.txt
paracook-kitchen levels list --suite tutorial > tutorial.txt
if grep -q BROKEN tutorial.txt; then echo "smoke: a bundled level is broken" >&2; exit 1; fi

step paracook-kitchen levels validate tutorial suite/burger/seed_42
paracook-kitchen levels validate tutorial/01_first_salad suite/burger/seed_42

step paracook-kitchen solve tutorial/01_first_salad
paracook-kitchen solve tutorial/01_first_salad --time-limit 0.3 --no-progress --out plan.json --replay solved.json
test -s plan.json && test -s solved.json

step paracook-kitchen run suite/burger/seed_42/agent_num_2/orders_num_2
paracook-kitchen solve suite/burger/seed_42/agent_num_2/orders_num_2 --time-limit 0.3 --no-progress --out burger.json
paracook-kitchen run suite/burger/seed_42/agent_num_2/orders_num_2 burger.json --json --replay run.json > result.json
python -c "import json, sys; r = json.load(open('result.json')); sys.exit(0 if r['done'] else 1)"

step "the shipped bounds are read by the installed code"
python -c "from game.planners.solver.bound import recorded; assert recorded.table_is_current(), recorded.table_header()"

step paracook-kitchen export run.json frame.png --at 5
paracook-kitchen export run.json frame.png --at 5 --quiet
python -c "import sys; sys.exit(0 if open('frame.png', 'rb').read(8) == b'\x89PNG\r\n\x1a\n' else 1)"

step paracook-kitchen play tutorial/01_first_salad   "(the window closes itself after 2 s)"
python - <<'PY'
import time

import pygame

from game.cli import main

pygame.display.init()
pygame.time.set_timer(pygame.QUIT, 2000, loops=1)  # the user closes the window
start = time.monotonic()
code = main(["play", "tutorial/01_first_salad"])
assert code in (0, None), f"play exited with {code}"
assert time.monotonic() - start >= 1.5, "the window closed before the user closed it"
PY
echo "smoke: all steps passed"
