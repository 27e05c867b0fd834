"""Error kinds a run can stop with, and the exception the simulator raises internally."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Start-time errors: the failing action is not counted as started.
UNKNOWN_TARGET = "unknown_target"  # no tile has that name
NOT_A_STATION = "not_a_station"  # the name is a tile of no known kind
NO_PROCESS = "no_process"  # Process on a station that cannot process (or an empty stove)
NOT_ADJACENT = "not_adjacent"  # agent not 4-adjacent to the station
STATION_IN_USE = "station_in_use"  # another agent's Process runs there (exclusive stations)
UNREACHABLE = "unreachable"  # MoveTo target off the grid, not floor, or not connected
BAD_DURATION = "bad_duration"  # Wait duration negative, not a number, or longer than MAX_WAIT
INVALID_ACTION = "invalid_action"  # the action could not be read (unknown type, missing field, ...)
TIME_LIMIT = "time_limit"  # the action would end after MAX_TIME
NOT_ALLOWED = "not_allowed"  # the level's can_use option forbids this agent that station kind
# Completion-time errors: the action counts as started.
BAD_INTERACT = "bad_interact"  # what the hand and the station hold do not combine
COOKWARE_REJECTS = "cookware_rejects"  # pan or pot does not take that ingredient
PROCESS_FAILED = "process_failed"  # nothing suitable to chop or wash, or Process on a stove
SERVE_TOO_EARLY = "serve_too_early"  # serving at time 0
NOT_A_PLATE = "not_a_plate"  # serving without holding a plate
NO_ORDER_LEFT = "no_order_left"  # serving when every order is served
WRONG_DISH = "wrong_dish"  # the plate does not match the first unserved order
STALE_DISH = "stale_dish"  # served later than the level's serve_within allows

ERROR_KINDS = (
    UNKNOWN_TARGET,
    NOT_A_STATION,
    NO_PROCESS,
    NOT_ADJACENT,
    STATION_IN_USE,
    UNREACHABLE,
    BAD_DURATION,
    INVALID_ACTION,
    TIME_LIMIT,
    NOT_ALLOWED,
    BAD_INTERACT,
    COOKWARE_REJECTS,
    PROCESS_FAILED,
    SERVE_TOO_EARLY,
    NOT_A_PLATE,
    NO_ORDER_LEFT,
    WRONG_DISH,
    STALE_DISH,
)

# What the failing action did, as the end of "agent2's Interact serving_window (action 21) ...";
# a refused serve or cookware that refuses took nothing (the engine checks first): "tried to ..."
ERROR_WORDS = {
    UNKNOWN_TARGET: "names a target that does not exist",
    NOT_A_STATION: "targets a tile that is not a station",
    NO_PROCESS: "had nothing that can be processed",
    NOT_ADJACENT: "was not next to its station",
    STATION_IN_USE: "found the station in use by another agent",
    UNREACHABLE: "cannot reach its target",
    BAD_DURATION: "has an invalid Wait duration",
    INVALID_ACTION: "could not be read",
    TIME_LIMIT: "would end after the longest run allowed",
    NOT_ALLOWED: "is not allowed for this agent by the level",
    BAD_INTERACT: "could not combine what the agent held with what the station held",
    COOKWARE_REJECTS: "tried to put into a pot or pan what it does not take",
    PROCESS_FAILED: "had nothing suitable to process",
    SERVE_TOO_EARLY: "tried to serve at t = 0",
    NOT_A_PLATE: "tried to serve without a plate",
    NO_ORDER_LEFT: "tried to serve with no order left",
    WRONG_DISH: "tried to serve a plate that is not the next order",
    STALE_DISH: "tried to serve food that was no longer fresh",
}


def label(action: dict[str, Any]) -> str:
    """' (MoveTo)' after 'agent1 action 3' when the action names its type, else ''."""
    name = action.get("action")
    return f" ({name})" if isinstance(name, str) else ""


class ActionFailed(Exception):
    """Raised by an action's check or effect; the simulator turns it into the run's error."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class ErrorDetail:
    agent: str
    action_index: int
    action: dict[str, Any]
    time: float
    kind: str
    reason: str

    def message(self) -> str:
        return f"{self.agent} action {self.action_index}{label(self.action)}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "action_index": self.action_index,
            "action": self.action,
            "time": self.time,
            "kind": self.kind,
            "reason": self.reason,
        }
