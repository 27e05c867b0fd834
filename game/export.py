"""Render a replay off-screen (plain Surfaces, no window): GIF or MP4 video, or one PNG.

Frame timing, precisely: at `speed` x, one kitchen time unit lasts 1/speed seconds of video.
A replay of duration D (its last event time) gives N = ceil(D * fps / speed) + 1 frames;
frame i shows t_i = min(D, i * speed / fps), so the first frame is t = 0 and the last t = D.

    export_replay(replay, "out.gif", fps=10, speed=2)   -> number of frames written
    export_replay(replay, "out.png", at=12.5)          -> 1
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from game.replay import Replay

VIDEO_SUFFIXES = (".gif", ".mp4")
IMAGE_SUFFIXES = (".png",)
HEADER_H = 32
BLOCK = 16  # frame sizes are multiples of this (video codecs want even, ideally 16)


class ExportError(ValueError):
    """Bad export arguments (unknown format, time out of range, unwritable file)."""


MAX_FRAMES = 20_000  # a video's frames: over half an hour at 10 fps


def frame_count(duration: float, fps: float, speed: float) -> int:
    return math.ceil(duration * fps / speed - 1e-9) + 1


def frame_times(duration: float, fps: float, speed: float) -> list[float]:
    return [min(float(duration), i * speed / fps) for i in range(frame_count(duration, fps, speed))]


def clock_decimals(times: list[float]) -> int:
    """Fewest decimals (>= 1) that print every frame time differently, so no two frames are
    identical (GIF writers merge identical neighbours, which would change the frame count)."""
    for d in range(1, 7):
        texts = [f"{t:.{d}f}" for t in times]
        if all(a != b for a, b in zip(texts, texts[1:], strict=False)):
            return d
    return 6


def _round_up(x: int) -> int:
    return (x + BLOCK - 1) // BLOCK * BLOCK


class FrameRenderer:
    """Title and clock, the kitchen, and the Gantt chart, on one off-screen Surface."""

    def __init__(self, replay: Replay, tile: int = 48, min_width: int = 640):
        import pygame

        from game.ui.render.gantt import Gantt
        from game.ui.render.kitchen import KitchenRenderer
        from game.ui.render.timeline_index import with_index
        from game.ui.screens.replay import error_time

        if not pygame.font.get_init():
            pygame.font.init()
        self.pygame = pygame
        self.replay = replay = with_index(replay)
        self.kitchen = KitchenRenderer(replay.level, tile)
        kw, kh = self.kitchen.size
        self.width = _round_up(max(kw + 16, min_width))
        self.gantt = Gantt(replay.timeline, replay.level.agent_names, stop=error_time(replay.result))
        gantt_h = 24 + 30 * len(replay.level.agents)
        self.height = _round_up(HEADER_H + kh + 8 + gantt_h + 4)
        self.kitchen_rect = pygame.Rect(0, HEADER_H, self.width, kh)
        self.gantt_rect = pygame.Rect(4, self.height - gantt_h - 4, self.width - 8, gantt_h)
        self.surface = pygame.Surface((self.width, self.height))

    def render(self, t: float, decimals: int = 1, speed: float | None = None) -> Any:
        from game.ui.render import palette as P
        from game.ui.render.panels import draw_error_strip, error_highlight, headline
        from game.ui.render.text import blit_text, ellipsize

        pygame = self.pygame
        s, tl, level = self.surface, self.replay.timeline, self.replay.level
        s.fill(P.PANEL)
        title = f"{level.title or level.name}: {', '.join(level.orders)}"
        blit_text(
            s,
            ellipsize(title, self.width // 2, 18),
            (8, HEADER_H // 2),
            18,
            P.TEXT,
            bold=True,
            anchor="midleft",
        )
        clock = f"t = {t:.{decimals}f} / {tl.end:g}" + (f"   {speed:g}x" if speed else "")
        blit_text(s, clock, (self.width - 8, HEADER_H // 2), 18, P.TEXT, bold=True, anchor="midright")
        if t >= tl.end:
            text, colour = headline(self.replay.result)
            blit_text(
                s,
                ellipsize(text, self.width // 2 - 140, 16),
                (self.width // 2 + 10, HEADER_H // 2),
                16,
                colour,
                anchor="midleft",
            )
        state = tl.state_at(t)
        failed = error_highlight(level, self.replay.result, state, t)
        self.kitchen.draw(s, self.kitchen_rect, state, timeline=tl, t=t, highlight=failed)
        if failed is not None:
            kx, ky = self.kitchen.origin(self.kitchen_rect)
            draw_error_strip(s, pygame.Rect((kx, ky), self.kitchen.size), self.replay.result, 15)
        self.gantt.draw(s, self.gantt_rect, t)
        return s

    def array(self, t: float, decimals: int = 1, speed: float | None = None) -> np.ndarray:
        """The frame at t as an H x W x 3 uint8 array."""
        surface = self.render(t, decimals, speed)
        return np.ascontiguousarray(self.pygame.surfarray.array3d(surface).transpose(1, 0, 2))


def export_replay(
    replay: Replay,
    out: str | Path,
    fps: float = 10,
    speed: float = 2.0,
    at: float | None = None,
    tile: int = 48,
    progress: bool = True,
) -> int:
    """Write a GIF/MP4 of the whole run, or a PNG of the moment `at`; returns frames written."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in VIDEO_SUFFIXES + IMAGE_SUFFIXES:
        raise ExportError(f"{out}: unknown format {suffix or '(none)'}; use .gif, .mp4 or .png")
    end = replay.timeline.end
    if suffix in IMAGE_SUFFIXES:
        if at is None:
            raise ExportError(f"{out}: a PNG shows one moment: give --at T (0 <= T <= {end:g})")
        if not 0 <= at <= end:
            raise ExportError(f"--at {at:g} is outside the run (0 to {end:g})")
        frames = FrameRenderer(replay, tile)
        _write_atomic(out, lambda tmp: _write_png(frames, tmp, at))
        return 1
    if not (fps > 0 and math.isfinite(fps)) or not (speed > 0 and math.isfinite(speed)):
        raise ExportError(f"--fps {fps:g} and --speed {speed:g} must both be positive numbers")
    n = frame_count(end, fps, speed) if math.isfinite(end) else math.inf
    if n > MAX_FRAMES:
        raise ExportError(
            f"{out}: the run lasts {end:g} time units, which at --fps {fps:g} and --speed {speed:g} "
            f"is {n:g} frames; the limit is {MAX_FRAMES:,} (use --speed {math.ceil(end * fps / (MAX_FRAMES - 1))} or more)"
        )
    times = frame_times(end, fps, speed)
    frames = FrameRenderer(replay, tile)
    _write_atomic(out, lambda tmp: _write_video(frames, tmp, times, fps, speed, progress))
    return len(times)


def _write_atomic(out: Path, write) -> None:
    """Write next to out, then rename: an interrupted export never leaves a broken file."""
    if out.parent and not out.parent.exists():
        raise ExportError(f"{out}: the folder {out.parent} does not exist")
    tmp = out.with_name(f".{out.stem}.part{out.suffix}")
    try:
        write(tmp)
        os.replace(tmp, out)
    except OSError as e:
        raise ExportError(f"{out}: cannot write ({e.strerror or e})") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def _write_png(frames: FrameRenderer, path: Path, at: float) -> None:
    import imageio.v3 as iio

    iio.imwrite(path, frames.array(at, 2))


def _write_video(
    frames: FrameRenderer, path: Path, times: list[float], fps: float, speed: float, progress: bool
) -> None:
    from tqdm import tqdm

    decimals = clock_decimals(times)
    bar = tqdm(
        total=len(times), desc=f"export {path.suffix[1:]}", unit="frame", disable=not progress, leave=False
    )
    try:
        if path.suffix.lower() == ".gif":
            _write_gif(frames, path, times, fps, speed, decimals, bar)
        else:
            _write_mp4(frames, path, times, fps, speed, decimals, bar)
    finally:
        bar.close()


def _write_gif(frames, path, times, fps, speed, decimals, bar) -> None:
    import imageio.v3 as iio

    with iio.imopen(path, "w", plugin="pillow", extension=".gif") as f:
        for t in times:  # frames are quantised one by one (8 bits) to keep memory small
            f.write(frames.array(t, decimals, speed), duration=1000 / fps, loop=0, bits=8, is_batch=False)
            bar.update(1)


def _write_mp4(frames, path, times, fps, speed, decimals, bar) -> None:
    import imageio.v2 as iio2

    writer = iio2.get_writer(
        path,
        format="FFMPEG",
        mode="I",
        fps=fps,
        codec="libx264",
        quality=7,
        macro_block_size=BLOCK,
        ffmpeg_log_level="error",
    )
    try:
        for t in times:
            writer.append_data(frames.array(t, decimals, speed))
            bar.update(1)
    finally:
        writer.close()
