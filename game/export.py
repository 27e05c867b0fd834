"""Render replays off-screen (plain Surfaces, no window): GIF or MP4 video, or one PNG.

Frame timing, precisely: at `speed` x, one kitchen time unit lasts 1/speed seconds of video.
A replay of duration D (its last event time) gives N = ceil(D * fps / speed) + 1 frames;
frame i shows t_i = min(D, i * speed / fps), so the first frame is t = 0 and the last t = D.
The last frame is then held `hold` seconds (an MP4 repeats it round(hold * fps) times; a GIF
shows it longer), so a looping video lingers on the outcome.

Frames are laid out for slides: 1280 x 720 by default. Everything is drawn on a canvas 720
lines high and scaled to the output size, so text grows with the video. The outcome and the
error sit in their own band under the kitchen, never over it. Two replays of one level are
drawn side by side on one clock.

    export_replay(replay, "out.gif", fps=10, speed=2)        -> frames in the file
    export_replays([a, b], "out.mp4", title="Human vs LLM")  -> frames in the file
    export_replay(replay, "out.png", at=12.5)                -> 1
"""

from __future__ import annotations

import errno
import math
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from game.replay import Replay
from game.storage import disk_message, temp_beside

VIDEO_SUFFIXES = (".gif", ".mp4")
IMAGE_SUFFIXES = (".png",)
DEFAULT_SIZE = (1280, 720)
CANVAS_H = 720  # every frame is laid out at this height, then scaled to the output size
BLOCK = 8  # frame sizes are multiples of this (video codecs want even sizes)
HEADER_H = 44
BAND_H = 58
BAND_TEXT = 20  # a failed run's summary, wrapped in its band, at this size when there is room
GAP = 8


class ExportError(ValueError):
    """Bad export arguments (unknown format, time out of range, unwritable file)."""


DISK_NEARLY_FULL = 1024 * 1024  # bytes free under which a file cut short is put down to a full disk
MAX_FRAMES = 20_000  # a video's frames: over half an hour at 10 fps


def frame_count(duration: float, fps: float, speed: float) -> int:
    return math.ceil(duration * fps / speed - 1e-9) + 1


def frame_times(duration: float, fps: float, speed: float) -> list[float]:
    return [min(float(duration), i * speed / fps) for i in range(frame_count(duration, fps, speed))]


def hold_frames(hold: float, fps: float) -> int:
    return max(0, round(hold * fps))


def clock_decimals(times: list[float]) -> int:
    """Fewest decimals (>= 1) that print every frame time differently, so no two frames are
    identical (GIF writers merge identical neighbours, which would change the frame count)."""
    for d in range(1, 7):
        texts = [f"{t:.{d}f}" for t in times]
        if all(a != b for a, b in zip(texts, texts[1:], strict=False)):
            return d
    return 6


def _round_to_block(x: int) -> int:
    return max(BLOCK, (x + BLOCK // 2) // BLOCK * BLOCK)


class RunPanel:
    """One run in a rectangle of the canvas: its label, kitchen, outcome band and Gantt chart."""

    def __init__(self, replay: Replay, rect: Any, end: float, label: str = ""):

        from game.engine.narration import narrate
        from game.ui.render.gantt import Gantt
        from game.ui.render.timeline_index import with_index
        from game.ui.render.why_panel import run_diagnosis
        from game.ui.screens.replay import cause_marks, error_time

        self.replay = replay = with_index(replay)
        self.label = label
        self.rect = rect
        level = replay.level
        detail = replay.result.get("error_detail")
        story = narrate(level, replay.timeline, replay.rules, detail)
        self.diagnosis = run_diagnosis(replay, story)
        self.gantt = Gantt(
            replay.timeline, level.agent_names, end=end, stop=error_time(replay.result), story=story
        )
        self.gantt.marks = cause_marks(self.diagnosis)  # the cause moments, as in the viewer
        self.place(self.band_height())

    def place(self, band_h: int) -> None:
        """Lay the panel out around an outcome band of this height (side by side, both runs
        take the taller band, so their kitchens and charts line up)."""
        import pygame

        from game.ui.render.kitchen import KitchenRenderer, fit_tile

        rect, level = self.rect, self.replay.level
        label_h = 26 if self.label else 0
        gantt_h = min(int(rect.h * 0.3), 26 + 34 * len(level.agents))
        self.label_rect = pygame.Rect(rect.x, rect.y, rect.w, label_h)
        self.gantt_rect = pygame.Rect(rect.x, rect.bottom - gantt_h, rect.w, gantt_h)
        self.band_rect = pygame.Rect(rect.x, self.gantt_rect.y - band_h - GAP, rect.w, band_h)
        top = rect.y + label_h + (4 if self.label else 0)
        self.kitchen_rect = pygame.Rect(rect.x, top, rect.w, self.band_rect.y - GAP - top)
        self.kitchen = KitchenRenderer(
            level, fit_tile(level, self.kitchen_rect.size, largest=120, smallest=8)
        )

    def band_height(self) -> int:
        """The outcome band: two lines, or, for a failed run, room for its diagnosis summary at
        a readable size (at most a third of the panel; the text shrinks to fit beyond that)."""
        from game.ui.render.text import font, wrap

        rect = self.rect
        if self.diagnosis is None:
            return BAND_H
        lines = 1 + len(wrap(self.diagnosis.summary, rect.w - 16, BAND_TEXT))
        return max(BAND_H, min(rect.h // 3, lines * font(BAND_TEXT).get_linesize() + 10))

    def draw(self, s: Any, t: float) -> None:
        from game.ui.render import palette as P
        from game.ui.render.panels import error_highlight
        from game.ui.render.text import blit_text, ellipsize

        tl, level = self.replay.timeline, self.replay.level
        shown = min(t, tl.end)
        if self.label:
            blit_text(
                s,
                ellipsize(self.label, self.label_rect.w - 8, 20),
                (self.label_rect.x + 4, self.label_rect.centery),
                20,
                P.TEXT,
                bold=True,
                anchor="midleft",
            )
        state = tl.state_at(shown)
        failed = error_highlight(level, self.replay.result, state, shown)
        self.kitchen.draw(s, self.kitchen_rect, state, timeline=tl, t=shown, highlight=failed)
        self._band(s, shown)
        self.gantt.draw(s, self.gantt_rect, t)

    def _band(self, s: Any, t: float) -> None:
        """Live score during the run; the outcome and the error from the run's end on."""
        import pygame

        from game.ui.render import palette as P
        from game.ui.render.panels import error_lines, headline, num

        result, tl = self.replay.result, self.replay.timeline
        rect = self.band_rect
        served = [
            n
            for n, at in zip(result.get("finished_orders", []), result.get("served_times", []), strict=False)
            if at <= t
        ]
        total = len(result.get("finished_orders", [])) + len(result.get("remaining_orders", []))
        if t < tl.end:
            pygame.draw.rect(s, P.PANEL_LIGHT, rect, border_radius=6)
            lines = [(f"{len(served)}/{total} orders served", P.TEXT, True)]
            if served:
                lines.append((f"last: {served[-1]}", P.TEXT_DIM, False))
        elif result.get("error") or (self.diagnosis is not None and not result.get("done")):
            pygame.draw.rect(s, (90, 22, 22), rect, border_radius=6)
            err = error_lines(result) or [headline(result)[0]]
            said = self.diagnosis.summary if self.diagnosis is not None else ""
            lines = [
                (headline(result)[0], (255, 225, 220), True),
                (said or (f"{err[1]}: {err[2]}" if len(err) > 2 else err[0]), (255, 210, 200), False),
            ]
        else:
            text, colour = headline(result)
            pygame.draw.rect(s, (18, 60, 46), rect, border_radius=6)
            md = ", ".join(f"{a} {num(v)}" for a, v in result.get("md", {}).items())
            lines = [(text, (200, 250, 225), True), (f"MD (moving) {md}", (190, 230, 210), False)]
        self.band_text = _fit_lines(s, rect.inflate(-16, -8), lines)


def _fit_lines(s: Any, rect: Any, lines: list[tuple[str, Any, bool]]) -> list[tuple[str, int]]:
    """Lines of text that always fit rect: the font shrinks (to 13 px), then a long line wraps;
    nothing is cut. Returns what was drawn: (text, font size) per line."""
    from game.ui.render.text import blit_text, font, wrap

    def wrapped(size: int) -> list[tuple[str, Any, bool]]:
        return [(part, c, bold) for text, c, bold in lines for part in wrap(text, rect.w, size, bold)]

    def fits(size: int, rows: int) -> bool:
        return rows * font(size).get_linesize() <= rect.h

    size = 26  # one line each at the largest size that fits; else wrapped at the largest size
    while size > 13 and not (
        max(font(size, bold).size(text)[0] for text, _, bold in lines) <= rect.w and fits(size, len(lines))
    ):
        size -= 1
    if max(font(size, bold).size(text)[0] for text, _, bold in lines) > rect.w:
        size = BAND_TEXT
        while size > 10 and not fits(size, len(wrapped(size))):
            size -= 1
    out = wrapped(size)
    lh = min(font(size).get_linesize(), rect.h // max(1, len(out)))
    y = rect.y + (rect.h - lh * len(out)) // 2
    for text, colour, bold in out:
        blit_text(s, text, (rect.x, y), size, colour, bold=bold)
        y += lh
    return [(text, size) for text, _, _ in out]


class FrameRenderer:
    """A header (caption and clock) over one run, or two runs side by side, on one Surface of
    the output size."""

    def __init__(
        self,
        replays: Replay | Sequence[Replay],
        size: tuple[int, int] = DEFAULT_SIZE,
        title: str | None = None,
        labels: Sequence[str] = (),
    ):
        import pygame

        if not pygame.font.get_init():
            pygame.font.init()
        self.pygame = pygame
        runs = [replays] if isinstance(replays, Replay) else list(replays)
        w, h = (_round_to_block(size[0]), _round_to_block(size[1]))
        self.size = self.width, self.height = w, h
        self.scale = h / CANVAS_H
        self.canvas = pygame.Surface((round(w / self.scale), CANVAS_H))
        self.surface = self.canvas if self.scale == 1 else pygame.Surface((w, h))
        self.end = max(r.timeline.end for r in runs)
        level = runs[0].level
        self.title = title or f"{level.title or level.name}: {', '.join(level.orders)}"
        cw = self.canvas.get_width()
        body = pygame.Rect(GAP, HEADER_H + GAP, cw - 2 * GAP, CANVAS_H - HEADER_H - 2 * GAP)
        if len(runs) == 1:
            self.panels = [RunPanel(runs[0], body, self.end)]
        else:
            col = (body.w - GAP) // 2
            names = list(labels) or ["A", "B"]
            self.panels = [
                RunPanel(
                    r,
                    pygame.Rect(body.x + i * (col + GAP), body.y, col, body.h),
                    self.end,
                    _run_label(r, names[i], i),
                )
                for i, r in enumerate(runs[:2])
            ]
        band = max(p.band_height() for p in self.panels)
        for p in self.panels:
            if p.band_rect.h != band:
                p.place(band)
        self.kitchen = self.panels[0].kitchen
        self.kitchen_rect = self.panels[0].kitchen_rect

    def render(self, t: float, decimals: int = 1, speed: float | None = None) -> Any:
        from game.ui.render import palette as P
        from game.ui.render.text import blit_text, fit_size

        s = self.canvas
        s.fill(P.PANEL)
        clock = f"t = {t:.{decimals}f} / {self.end:g}" + (f"   {speed:g}x" if speed else "")
        right = blit_text(
            s, clock, (s.get_width() - GAP, HEADER_H // 2), 22, P.TEXT, bold=True, anchor="midright"
        )
        room = right.x - 3 * GAP
        size = fit_size(self.title, room, 24, 14)
        title = self.title
        if self.pygame.font.Font(None, size).size(title)[0] > room:  # very long: keep the start
            from game.ui.render.text import ellipsize

            title = ellipsize(title, room, size)
        blit_text(s, title, (GAP, HEADER_H // 2), size, P.TEXT, bold=True, anchor="midleft")
        for panel in self.panels:
            panel.draw(s, t)
        if self.scale != 1:
            self.pygame.transform.smoothscale(s, self.size, self.surface)
        return self.surface

    def array(self, t: float, decimals: int = 1, speed: float | None = None) -> np.ndarray:
        """The frame at t as an H x W x 3 uint8 array."""
        surface = self.render(t, decimals, speed)
        data = self.pygame.image.tobytes(surface, "RGB")
        return np.frombuffer(data, np.uint8).reshape(self.height, self.width, 3)


def _run_label(replay: Replay, name: str, i: int) -> str:
    src = replay.source or {}
    who = src.get("model") or src.get("kind") or ""
    tag = "AB"[i] if i < 2 else str(i + 1)
    return f"{tag}: {Path(name).stem}" + (
        f" ({who}, rules {replay.rules})" if who else f" (rules {replay.rules})"
    )


# -- writing ------------------------------------------------------------------------------------
def export_replay(
    replay: Replay,
    out: str | Path,
    fps: float = 10,
    speed: float = 2.0,
    at: float | None = None,
    size: tuple[int, int] = DEFAULT_SIZE,
    hold: float = 2.0,
    title: str | None = None,
    progress: bool = True,
) -> int:
    """Write a GIF/MP4 of the whole run, or a PNG of the moment `at`; returns frames written."""
    return export_replays([replay], out, fps, speed, at, size, hold, title, progress=progress)


def export_replays(
    replays: Sequence[Replay],
    out: str | Path,
    fps: float = 10,
    speed: float = 2.0,
    at: float | None = None,
    size: tuple[int, int] = DEFAULT_SIZE,
    hold: float = 2.0,
    title: str | None = None,
    labels: Sequence[str] = (),
    progress: bool = True,
) -> int:
    """One run, or two runs of one level side by side on one clock."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in VIDEO_SUFFIXES + IMAGE_SUFFIXES:
        raise ExportError(f"{out}: unknown format {suffix or '(none)'}; use .gif, .mp4 or .png")
    _check_size(size)
    end = max(r.timeline.end for r in replays)
    if suffix in IMAGE_SUFFIXES:
        if at is None:
            raise ExportError(f"{out}: a PNG shows one moment: give --at T (0 <= T <= {end:g})")
        if not 0 <= at <= end:
            raise ExportError(f"--at {at:g} is outside the run (0 to {end:g})")
        frames = FrameRenderer(replays, size, title, labels)
        _write_atomic(out, lambda tmp: _write_png(frames, tmp, at))
        return 1
    if at is not None:
        raise ExportError(
            f"--at picks one moment, but {out.name} is a video of the whole run: "
            f"drop --at, or write a .png (e.g. {out.with_suffix('.png').name} --at {at:g})"
        )
    if not (fps > 0 and math.isfinite(fps)) or not (speed > 0 and math.isfinite(speed)):
        raise ExportError(f"--fps {fps:g} and --speed {speed:g} must both be positive numbers")
    if not (0 <= hold <= 60 and math.isfinite(hold)):
        raise ExportError(f"--hold {hold:g}: use 0 to 60 seconds")
    held = hold_frames(hold, fps) if suffix == ".mp4" else 0  # a GIF holds its last frame by its delay
    n = frame_count(end, fps, speed) + held if math.isfinite(end) else math.inf
    if n > MAX_FRAMES:
        room = MAX_FRAMES - held - 1
        fix = f"use --speed {math.ceil(end * fps / room)} or more" if room > 0 else "use a shorter --hold"
        raise ExportError(
            f"{out}: the run lasts {end:g} time units, which at --fps {fps:g} and --speed {speed:g} "
            f"is {n:g} frames{f' with the {held:,} of --hold' if held else ''}; the limit is {MAX_FRAMES:,} ({fix})"
        )
    times = frame_times(end, fps, speed)
    frames = FrameRenderer(replays, size, title, labels)
    extra = hold_frames(hold, fps)
    _write_atomic(out, lambda tmp: _write_video(frames, tmp, times, fps, speed, extra, progress))
    return len(times) + (extra if suffix == ".mp4" else 0)


def _check_size(size: tuple[int, int]) -> None:
    w, h = size
    if not (160 <= w <= 3840 and 160 <= h <= 2160):
        raise ExportError(f"--size {w}x{h}: use 160x160 to 3840x2160")
    if w / h > 4 or h / w > 2:
        raise ExportError(f"--size {w}x{h}: too narrow a shape for a kitchen and its chart")


def _write_atomic(out: Path, write) -> None:
    """Write to a temporary file beside out, check that it is whole (a full disk can leave a
    video cut short without any error), then rename: a failed export never leaves a broken file
    nor replaces a good one."""
    if out.parent and not out.parent.exists():
        raise ExportError(f"{out}: the folder {out.parent} does not exist")
    kept = "the existing file is unchanged" if out.exists() else "nothing was written"
    try:
        with temp_beside(out, out.suffix) as tmp:
            write(tmp)
            problem = file_problem(tmp)
            if problem and shutil.disk_usage(tmp.parent).free < DISK_NEARLY_FULL:
                raise OSError(errno.ENOSPC, "No space left on device")  # why the encoder stopped short
            if problem:
                raise ExportError(f"{out}: the file written is {problem}; {kept}")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, out)
    except OSError as e:
        raise ExportError(disk_message(e, out, kept)) from None


def file_problem(path: Path) -> str | None:
    """Why an exported PNG, GIF or MP4 is not whole (empty, cut short), or None."""
    data_size = path.stat().st_size
    if data_size == 0:
        return "empty"
    suffix = path.suffix.lower()
    with open(path, "rb") as f:
        head = f.read(16)
        f.seek(-min(data_size, 16), os.SEEK_END)
        tail = f.read()
    if suffix == ".png" and not (head.startswith(b"\x89PNG") and tail.endswith(b"IEND\xaeB`\x82")):
        return "cut short (no PNG end)"
    if suffix == ".gif" and not (head.startswith(b"GIF8") and tail.endswith(b";")):
        return "cut short (no GIF end)"
    if suffix == ".mp4":
        return _mp4_problem(path, data_size)
    return None


def _mp4_problem(path: Path, data_size: int) -> str | None:
    """The MP4's top-level boxes must tile the file exactly and include the movie and its data."""
    seen, at = set(), 0
    with open(path, "rb") as f:
        while at < data_size:
            f.seek(at)
            head = f.read(16)
            if len(head) < 8:
                return "cut short (a box header is cut)"
            size, kind = int.from_bytes(head[:4], "big"), head[4:8]
            if size == 1:
                size = int.from_bytes(head[8:16], "big")
            elif size == 0:
                size = data_size - at
            if size < 8 or at + size > data_size:
                return f"cut short (its {kind.decode('latin-1')!r} box runs past the end)"
            seen.add(kind)
            at += size
    missing = [k.decode() for k in (b"moov", b"mdat") if k not in seen]
    return f"cut short (no {', '.join(missing)} box)" if missing else None


def _write_png(frames: FrameRenderer, path: Path, at: float) -> None:
    import imageio.v3 as iio

    iio.imwrite(path, frames.array(at, 2))


def _write_video(
    frames: FrameRenderer, path: Path, times: list[float], fps: float, speed: float, hold: int, progress: bool
) -> None:
    from tqdm import tqdm

    decimals = clock_decimals(times)
    bar = tqdm(
        total=len(times), desc=f"export {path.suffix[1:]}", unit="frame", disable=not progress, leave=False
    )
    try:
        if path.suffix.lower() == ".gif":
            _write_gif(frames, path, times, fps, speed, decimals, hold, bar)
        else:
            _write_mp4(frames, path, times, fps, speed, decimals, hold, bar)
    finally:
        bar.close()


class Palette:
    """One 256-colour palette for a whole GIF, and a lookup table from 15-bit colour to its
    index: quantising a frame is then one numpy gather, not a per-frame colour search."""

    def __init__(self, samples: Sequence[np.ndarray], fixed: Sequence[tuple[int, int, int]] = ()):
        from PIL import Image

        stacked = np.concatenate([s[::2, ::2] for s in samples], axis=0)
        room = 256 - len(fixed)
        quant = Image.fromarray(np.ascontiguousarray(stacked)).quantize(
            room, Image.Quantize.FASTOCTREE, dither=0
        )
        found = np.array(quant.getpalette()[: 3 * room], dtype=np.int32).reshape(-1, 3)
        colours = np.concatenate([np.array(fixed, dtype=np.int32).reshape(-1, 3), found])[:256]
        self.colours = colours
        grid = np.arange(32, dtype=np.int32) * 8 + 4
        r, g, b = np.meshgrid(grid, grid, grid, indexing="ij")
        cube = np.stack([r.ravel(), g.ravel(), b.ravel()], axis=1)
        self.lut = np.empty(len(cube), dtype=np.uint8)
        for i in range(0, len(cube), 4096):
            d = ((cube[i : i + 4096, None, :] - colours[None, :, :]) ** 2).sum(axis=2)
            self.lut[i : i + 4096] = d.argmin(axis=1)
        flat = colours.astype(np.uint8).ravel().tolist()
        self.flat = flat + [0] * (768 - len(flat))

    def indices(self, frame: np.ndarray) -> np.ndarray:
        f = frame.astype(np.uint16)
        key = ((f[..., 0] >> 3) << 10) | ((f[..., 1] >> 3) << 5) | (f[..., 2] >> 3)
        return self.lut[key]

    def image(self, frame: np.ndarray) -> Any:
        from PIL import Image

        img = Image.fromarray(self.indices(frame), mode="P")
        img.putpalette(self.flat)
        return img


def _key_colours() -> list[tuple[int, int, int]]:
    from game.ui.render import palette as P

    return [*P.AGENT_COLOURS, P.ERROR, P.OK, P.TEXT, P.PANEL, P.PANEL_LIGHT, (255, 255, 255), (0, 0, 0)]


def _write_gif(frames, path, times, fps, speed, decimals, hold, bar) -> None:
    picks = sorted({0, len(times) // 2, len(times) - 1})
    palette = Palette([frames.array(times[i], decimals, speed).copy() for i in picks], _key_colours())

    def images():
        for t in times[1:]:
            yield palette.image(frames.array(t, decimals, speed))
            bar.update(1)

    step = 1000 / fps
    durations = [round(step)] * (len(times) - 1) + [round(step * (1 + hold))]
    first = palette.image(frames.array(times[0], decimals, speed))
    bar.update(1)
    first.save(
        path, format="GIF", save_all=True, append_images=images(), duration=durations, loop=0, optimize=False
    )


def _write_mp4(frames, path, times, fps, speed, decimals, hold, bar) -> None:
    import imageio.v2 as iio2

    writer = iio2.get_writer(
        path,
        format="FFMPEG",
        mode="I",
        fps=fps,
        codec="libx264",
        quality=7,
        macro_block_size=BLOCK,
        ffmpeg_log_level="fatal",  # a failure is found by checking the file, and said in one line
        output_params=["-preset", "veryfast"],
    )
    try:
        last = None
        for t in times:
            last = frames.array(t, decimals, speed)
            writer.append_data(last)
            bar.update(1)
        for _ in range(hold):
            writer.append_data(last)
    finally:
        writer.close()
