"""The one clock of the time views (the play window, the replay viewer, the compare view): the
shown time t, play/pause, speed and stepping from event to event. No pygame.

    clock = Clock(end=59, events=[3, 7, 10])
    clock.toggle(); clock.advance(dt)   # dt seconds of wall time at clock.speed units a second
    clock.seek(12.5)                    # any jump pauses the animation
    clock.step_event(direction=1)       # the next event (or the end); -1: the previous one
    clock.change_speed(+1)              # through SPEEDS
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

SPEEDS = (0.25, 0.5, 1, 2, 4, 8, 16)  # kitchen time units per second of animation
DEFAULT_SPEED = 3  # index into SPEEDS: 2 units a second


class Clock:
    def __init__(self, end: float = 0.0, events: Iterable[float] = ()) -> None:
        self.t = 0.0
        self.end = float(end)
        self.playing = False
        self.speed_index = DEFAULT_SPEED
        self.events = sorted({0.0, self.end, *(float(e) for e in events)})

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

    def step_event(self, times: Sequence[float] | None = None, direction: int = 1) -> None:
        """To the next (direction > 0) or previous event of `times` (default: the clock's own)."""
        times = sorted(times) if times is not None else self.events
        if direction > 0:
            i = bisect_right(times, self.t + 1e-9)
            self.seek(times[i] if i < len(times) else self.end)
        else:
            i = bisect_left(times, self.t - 1e-9)
            self.seek(times[i - 1] if i > 0 else 0.0)

    def change_speed(self, step: int) -> None:
        self.speed_index = min(len(SPEEDS) - 1, max(0, self.speed_index + step))


def clock_text(t: float, end: float) -> str:
    """'t = 12.5 / 59': the clock as both windows print it."""
    return f"t = {t:.1f} / {end:g}"
