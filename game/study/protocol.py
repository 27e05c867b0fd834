"""A study protocol: the file that fixes every participant's condition.

    name: pilot                     # sessions started from this file carry its name
    levels: [human-study]           # suite names, level files or folders, installed paper task ids
    order: counterbalanced          # fixed | shuffled (seeded per participant) | counterbalanced
    seed: 7                         # the shuffle's seed (shuffled only)
    warmup: [tutorial]              # practice levels first, never scored (optional)
    instructions: |                 # shown on the intro page above the rules (optional)
      Plan each kitchen as well as you can.
    time_limit: 600                 # seconds of planning per level (optional)
    idle_after: 30                  # seconds without input before planning counts as idle
    partner: planner                # a partner condition (optional; see game/study/partner.py):
                                    #   planner, or <endpoint>/<model>/<method>
    person_agents: [agent1]         # the person's agents when a partner is set (default agent1)

Relative paths are read from the protocol file's folder. A counterbalanced order gives the n-th
participant of the protocol (in the order they started) row n of a balanced Latin square.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game.inputs import InputError, read_bytes
from game.levels import LevelError, load_level
from game.levels.ids import level_id

from .levels import resolve_levels
from .partner import Partner, PartnerSpecError, agents_problem, partner_of, person_agents
from .persist import StudyPlan
from .session import IDLE_AFTER, ORDERS, SessionError

MAX_BYTES = 1_000_000
FIELDS = ("name", "levels", "order", "seed", "warmup", "instructions", "time_limit", "idle_after")
FIELDS += ("partner", "person_agents")


@dataclass(frozen=True)
class Protocol:
    path: Path
    name: str
    levels: tuple[Path, ...]
    order: str = "fixed"
    seed: int = 0
    warmup: tuple[Path, ...] = ()
    instructions: str = ""
    time_limit: float | None = None
    idle_after: float = IDLE_AFTER
    partner: Partner | None = None  # a partner condition; None: the person plans every agent

    def seed_for(self, participant: str) -> int | None:
        """A shuffled order's seed for this participant: the protocol's, mixed with the name
        (each participant a different order, the same one again if re-run)."""
        if self.order != "shuffled":
            return None
        digest = hashlib.sha256(f"{self.seed}:{participant.strip()}".encode()).hexdigest()
        return int(digest[:8], 16)

    def plan_for(self, condition: int | None) -> StudyPlan:
        return StudyPlan(self.name, self.warmup, self.instructions, self.time_limit, condition, self.partner)


def _text(path: Path) -> Any:
    try:
        raw = read_bytes(path, MAX_BYTES)
    except InputError as e:
        raise SessionError(f"cannot read the protocol: {e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SessionError(f"{path}: not UTF-8 text (byte {e.start})") from None
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except json.JSONDecodeError as e:
        raise SessionError(f"{path}: line {e.lineno}: not valid JSON ({e.msg})") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise SessionError(f"{path}: {where}not valid YAML ({getattr(e, 'problem', None) or e})") from None
    except RecursionError:
        raise SessionError(f"{path}: nested too deeply") from None


def _specs(path: Path, data: dict[str, Any], key: str, required: bool) -> list[str]:
    value = data.get(key)
    if value is None and not required:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise SessionError(f"{path}: field {key!r} must be a list of level names, files or folders")
    here = path.parent
    return [str(here / v) if (here / v).exists() else v for v in value]


def _seconds(path: Path, data: dict[str, Any], key: str, default: float | None) -> float | None:
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or not 0 < v <= 86400:
        raise SessionError(f"{path}: field {key!r} must be a number of seconds from 1 to 86400, not {v!r}")
    return float(v)


def load_protocol(path: Path, installed: Path) -> Protocol:
    """Read and check a protocol file; raises SessionError naming the file and the field."""
    data = _text(path)
    if not isinstance(data, dict):
        raise SessionError(f"{path}: a protocol is a mapping of {', '.join(FIELDS)}")
    unknown = sorted(str(k) for k in data if k not in FIELDS)
    if unknown:
        raise SessionError(f"{path}: unknown field(s) {', '.join(unknown)} (known: {', '.join(FIELDS)})")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise SessionError(f"{path}: field 'name' must be a short text")
    order = data.get("order", "fixed")
    if order not in ORDERS:
        raise SessionError(f"{path}: field 'order' must be one of {', '.join(ORDERS)}, not {order!r}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > 2**63:
        raise SessionError(f"{path}: field 'seed' must be a whole number")
    text = data.get("instructions", "")
    if not isinstance(text, str) or len(text) > 4000:
        raise SessionError(f"{path}: field 'instructions' must be a text of at most 4000 characters")
    limit = _seconds(path, data, "time_limit", None)
    idle_after = _seconds(path, data, "idle_after", IDLE_AFTER) or IDLE_AFTER
    levels, warmup = (_levels(path, data, key, installed) for key in ("levels", "warmup"))
    partner = _partner(path, data, levels, warmup)
    return Protocol(path, name.strip(), levels, order, seed, warmup, text.strip(), limit, idle_after, partner)


def _partner(
    path: Path, data: dict[str, Any], levels: tuple[Path, ...], warmup: tuple[Path, ...]
) -> Partner | None:
    """The partner condition, checked against every level: each has the person's agents, and a
    measured level leaves the partner at least one (a warm-up may be the person's alone)."""
    if data.get("partner") is None:
        if data.get("person_agents") is not None:
            raise SessionError(
                f"{path}: field 'person_agents' needs a 'partner' (who plans the other agents)"
            )
        return None
    try:
        partner = partner_of(data["partner"])
        partner = Partner(**{**partner.to_dict(), "person_agents": person_agents(data.get("person_agents"))})
    except PartnerSpecError as e:
        raise SessionError(f"{path}: {e}") from None
    for file, measured in [(f, True) for f in levels] + [(f, False) for f in warmup]:
        try:
            level = load_level(file)
        except LevelError as e:
            raise SessionError(f"{path}: cannot use this level: {e}") from None
        problem = agents_problem(partner, level_id(Path(file)) or str(file), level.agent_names, measured)
        if problem:
            raise SessionError(f"{path}: field 'person_agents': {problem}")
    return partner


def _levels(path: Path, data: dict[str, Any], key: str, installed: Path) -> tuple[Path, ...]:
    specs = _specs(path, data, key, key == "levels")
    try:
        return tuple(resolve_levels(specs, installed))
    except SessionError as e:
        raise SessionError(f"{path}: field {key!r}: {e}") from None


def next_condition(root: Path, protocol: str, participant: str) -> int:
    """The counterbalancing row for a participant: how many others started this protocol before."""
    from .persist import SESSION_FILE, SessionStore

    seen: list[tuple[str, str]] = []
    for f in sorted(root.glob(f"*/{SESSION_FILE}")) if root.is_dir() else []:
        try:
            s = SessionStore.open(f.parent).session
        except SessionError:
            continue
        if s.protocol == protocol and s.participant != participant.strip():
            seen.append((s.started, s.participant))
    return len({who for _, who in seen})
