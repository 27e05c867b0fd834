"""The play window's clock: the shown time t, play/pause and speed. No pygame."""

from __future__ import annotations

from collections.abc import Sequence

SPEEDS = (0.25, 0.5, 1, 2, 4, 8, 16)
DEFAULT_SPEED = 3  # index into SPEEDS: 2 time units per second


class PlayClock:
    def __init__(self) -> None:
        self.t = 0.0
        self.end = 0.0
        self.playing = False
        self.speed_index = DEFAULT_SPEED

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def set_end(self, end: float) -> None:
        self.end = float(end)
        self.t = min(self.t, self.end)

    def seek(self, t: float) -> None:
        self.t = min(max(0.0, float(t)), self.end)
        self.playing = False

    def toggle(self) -> None:
        if not self.playing and self.t >= self.end:
            self.t = 0.0
        self.playing = not self.playing

    def advance(self, dt: float) -> bool:
        """Move on while playing; True when the end was reached by this step."""
        if not self.playing:
            return False
        self.t = min(self.end, self.t + dt * self.speed)
        if self.t >= self.end:
            self.playing = False
            return True
        return False

    def step_event(self, times: Sequence[float], direction: int) -> None:
        if direction > 0:
            later = [x for x in times if x > self.t + 1e-9]
            self.seek(later[0] if later else self.end)
        else:
            earlier = [x for x in times if x < self.t - 1e-9]
            self.seek(earlier[-1] if earlier else 0.0)

    def change_speed(self, step: int) -> None:
        self.speed_index = min(len(SPEEDS) - 1, max(0, self.speed_index + step))
