"""What a run returns: the reference's result fields plus details and task metrics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ErrorDetail
from .timeline import Timeline

REFERENCE_FIELDS = (
    "done",
    "time",
    "finished_orders",
    "remaining_orders",
    "agent_progress",
    "agent_all_execution_time",
    "agent_waiting_time",
    "agent_moving_time",
    "agent_processing_time",
    "error",
)


@dataclass
class Result:
    done: bool
    time: float
    finished_orders: list[str]
    remaining_orders: list[str]
    agent_progress: dict[str, str]
    agent_all_execution_time: dict[str, float]
    agent_waiting_time: dict[str, float]
    agent_moving_time: dict[str, float]
    agent_processing_time: dict[str, float]
    error: str | None
    error_detail: ErrorDetail | None
    last_serve_time: float | None
    served_times: list[float]
    rules: str
    t_max: int
    d_max: int
    md: dict[str, float]
    au: dict[str, float]
    progress: float
    timeline: Timeline | None = field(default=None, repr=False, compare=False)
    # why it failed or stayed unfinished (diagnosis.Diagnosis.to_dict()); recording runs only
    diagnosis: dict[str, Any] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able result; the reference fields come first, in the reference's order."""
        d: dict[str, Any] = {name: getattr(self, name) for name in REFERENCE_FIELDS}
        d.update(
            error_detail=None if self.error_detail is None else self.error_detail.to_dict(),
            last_serve_time=self.last_serve_time,
            served_times=self.served_times,
            rules=self.rules,
            t_max=self.t_max,
            d_max=self.d_max,
            md=self.md,
            au=self.au,
            progress=self.progress,
            diagnosis=self.diagnosis,
        )
        return d
