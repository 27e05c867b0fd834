"""Off-screen export: frame counts of GIF and MP4, a PNG at a given time, clear refusals."""

from __future__ import annotations

import math
import subprocess
import sys

import imageio.v2 as iio2
import imageio.v3 as iio
import numpy as np
import pytest
from conftest import ROOT
from test_render import make_replay

from game.cli import main
from game.export import ExportError, FrameRenderer, clock_decimals, export_replay, frame_count, frame_times
from game.replay import load_replay
from game.ui.render import palette as P


def test_frame_count_is_duration_times_fps_over_speed_plus_the_first_frame():
    assert frame_count(35, 5, 4) == math.ceil(35 * 5 / 4) + 1 == 45
    assert frame_count(40, 10, 2) == 201  # exact multiple: frames at 0, 0.2, ..., 40
    times = frame_times(35, 5, 4)
    assert times[0] == 0 and times[-1] == 35 and times[1] == pytest.approx(0.8)
    assert all(b > a for a, b in zip(times, times[1:], strict=False))


def test_clock_decimals_keep_every_frame_distinct():
    assert clock_decimals(frame_times(35, 5, 4)) == 1
    assert clock_decimals(frame_times(10, 30, 0.25)) >= 3
    times = frame_times(10, 30, 0.25)
    d = clock_decimals(times)
    assert len({f"{t:.{d}f}" for t in times}) == len(times)


def test_gif_has_one_frame_per_step_and_shows_the_run(tmp_path):
    _, replay = make_replay(tmp_path)
    out = tmp_path / "run.gif"
    n = export_replay(replay, out, fps=5, speed=20, progress=False)  # a frame every 4 time units
    frames = iio.imread(out, index=None)
    assert n == len(frames) == frame_count(35, 5, 20) == 10
    assert frames.shape[1:3] == (720, 1280)  # slide-ready by default
    # the first frame shows agent1 (orange) on its start tile; GIF colours are quantised
    fr = FrameRenderer(replay)
    fr.render(0)
    x, y = fr.kitchen.agent_points["agent1"]
    assert np.abs(frames[0][y, x, :3].astype(int) - P.agent_colour(0)).max() <= 12
    assert not (tmp_path / ".run.part.gif").exists()


def test_mp4_frame_count_and_rate(tmp_path):
    _, replay = make_replay(tmp_path, failed=True)  # stops at t = 10
    out = tmp_path / "run.mp4"
    n = export_replay(replay, out, fps=8, speed=12, progress=False)
    reader = iio2.get_reader(out)
    try:
        # the run's frames, then the last one held 2 s (16 frames at 8 fps)
        assert n == reader.count_frames() == frame_count(10, 8, 12) + 16 == 24
        assert reader.get_meta_data()["fps"] == 8
        w, h = reader.get_meta_data()["size"]
        assert (w, h) == (1280, 720)
    finally:
        reader.close()


def test_png_at_a_time_shows_that_moment(tmp_path):
    _, replay = make_replay(tmp_path)
    out = tmp_path / "at.png"
    assert export_replay(replay, out, at=9.5) == 1
    png = iio.imread(out)
    fr = FrameRenderer(replay)
    assert np.array_equal(png, fr.array(9.5, 2))
    x, y = fr.kitchen.agent_points["agent2"]  # half-way along its walk at 9.5
    assert tuple(png[y, x, :3]) == P.agent_colour(1)
    tile = fr.kitchen.tile_at_pixel(fr.kitchen_rect, (x, y))
    px, py = replay.timeline.position_at("agent2", 9.5)
    assert tile in {(math.floor(px), math.floor(py)), (math.ceil(px), math.ceil(py))}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["out.png"], "give --at T"),
        (["out.png", "--at", "99"], "outside the run (0 to 35)"),
        (["out.avi"], "unknown format .avi"),
        (["out.gif", "--fps", "0"], "argument --fps: must be a number from 0.1 to 120, not 0"),
        (["missing/out.gif"], "does not exist"),
        (["out.gif", "--at", "3"], "--at picks one moment"),
        (["out.mp4", "--at", "3"], "write a .png"),
        (["out.gif", "--size", "big"], "expected WIDTHxHEIGHT"),
        (["out.gif", "--size", "100x5000"], "use 160x160 to 3840x2160"),
        (["out.gif", "--hold", "-1"], "argument --hold: must be a number from 0 to 60, not -1"),
    ],
)
def test_bad_export_arguments_are_refused(tmp_path, capsys, monkeypatch, args, needle):
    path, _ = make_replay(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["export", str(path), *args, "--quiet"]) == 2
    assert needle in capsys.readouterr().err
    assert not list(tmp_path.glob("out.*"))


def test_export_command_writes_and_reports(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    out = tmp_path / "run.gif"
    assert (
        main(["export", str(path), str(out), "--fps", "5", "--speed", "20", "--size", "640x360", "--quiet"])
        == 0
    )
    assert f"wrote {out} (10 frames)" in capsys.readouterr().out
    assert len(iio.imread(out, index=None)) == 10
    with pytest.raises(ExportError, match="give --at"):
        export_replay(load_replay(path), tmp_path / "x.png")


def test_damaged_or_newer_replays_are_refused_without_a_traceback(tmp_path):
    path, _ = make_replay(tmp_path)
    text = path.read_text()
    truncated = tmp_path / "cut.json"
    truncated.write_text(text[: len(text) // 2])
    newer = tmp_path / "newer.json"
    newer.write_text(text.replace('"version": 1', '"version": 99', 1))
    for bad, needle in ((truncated, "damaged or truncated"), (newer, "newer version")):
        proc = subprocess.run(
            [sys.executable, "main.py", "export", str(bad), str(tmp_path / "o.gif")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2
        assert needle in proc.stderr and str(bad) in proc.stderr
        assert "Traceback" not in proc.stderr


def test_png_of_a_failed_run_at_its_error_marks_the_agent_and_says_why(tmp_path):
    _, replay = make_replay(tmp_path, failed=True)  # agent1's second chop fails at t = 10
    out = tmp_path / "error.png"
    export_replay(replay, out, at=10)
    png = iio.imread(out)
    fr = FrameRenderer(replay)
    x, y = fr.kitchen.pixel_of_tile(fr.kitchen_rect, (1, 1))
    assert tuple(png[y + fr.kitchen.tile // 2, x + 2, :3]) == P.ERROR
    before = fr.array(9.9, 2)
    assert tuple(before[y + fr.kitchen.tile // 2, x + 2, :3]) != P.ERROR
    band = fr.panels[0].band_rect  # the error band under the kitchen, from the error on
    assert tuple(png[band.centery, band.x + 4, :3]) == (90, 22, 22)
    assert tuple(before[band.centery, band.x + 4, :3]) != (90, 22, 22)


def test_gif_holds_the_last_frame(tmp_path):
    _, replay = make_replay(tmp_path, failed=True)
    out = tmp_path / "held.gif"
    export_replay(replay, out, fps=10, speed=10, hold=3, size=(640, 360), progress=False)
    from PIL import Image

    with Image.open(out) as gif:
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
    assert durations[0] == 100 and durations[-1] == 100 + 3000
    assert len(durations) == frame_count(10, 10, 10)


def _text_rows(frame: np.ndarray, rect) -> int:
    """Rows of rect holding light text pixels (the title's height on screen)."""
    area = frame[rect[1] : rect[3], rect[0] : rect[2]]
    return int((area.max(axis=2) > 200).any(axis=1).sum())


def test_text_scales_with_the_output_size(tmp_path):
    _, replay = make_replay(tmp_path)
    small = FrameRenderer(replay, (1280, 720)).array(5)
    big = FrameRenderer(replay, (2560, 1440)).array(5)
    assert small.shape == (720, 1280, 3) and big.shape == (1440, 2560, 3)
    title_small = _text_rows(small, (0, 0, 400, 44))
    title_big = _text_rows(big, (0, 0, 800, 88))
    assert title_small >= 12 and abs(title_big - 2 * title_small) <= 3
    fr = FrameRenderer(replay)  # station labels at 720p: the kitchen's tiles are big enough
    assert fr.kitchen.tile >= 60


def test_outcome_band_never_covers_the_kitchen_and_nothing_is_cut(tmp_path):
    _, replay = make_replay(tmp_path, failed=True)
    long_reason = dict(replay.result)
    detail = dict(long_reason["error_detail"])
    detail["reason"] = "a very long reason " * 12
    long_reason["error_detail"] = detail
    long_reason["error"] = detail["reason"]
    long_reason["diagnosis"] = {**long_reason["diagnosis"], "summary": "a very long summary " * 30}
    replay.result.update(long_reason)
    for size in ((1280, 720), (640, 360), (1920, 1080)):
        fr = FrameRenderer(replay, size)
        panel = fr.panels[0]
        fr.render(replay.timeline.end)
        kx, ky = panel.kitchen.origin(panel.kitchen_rect)
        kitchen = panel.kitchen_rect.clip((kx, ky, *panel.kitchen.size))
        assert kitchen.size == panel.kitchen.size  # the whole kitchen is drawn
        assert not kitchen.colliderect(panel.band_rect) and not panel.band_rect.colliderect(panel.gantt_rect)
        drawn = " ".join(text for text, _ in panel.band_text)
        summary = panel.diagnosis.summary  # the diagnosis's one sentence, as the viewer says it
        assert summary == "a very long summary " * 30
        assert drawn.split() == f"Failed at t = 10 (0/1 served) {summary}".split()
        from game.ui.render.text import font

        assert all(font(size).size(text)[0] <= panel.band_rect.w - 16 for text, size in panel.band_text)
        assert "…" not in drawn


def test_status_line_of_a_success_is_whole(tmp_path):
    _, replay = make_replay(tmp_path)
    fr = FrameRenderer(replay, (640, 360))
    fr.render(replay.timeline.end)
    assert fr.panels[0].band_text[0][0] == "Success: 1/1 orders served, OCT 35"


def test_title_caption(tmp_path):
    _, replay = make_replay(tmp_path)
    plain = FrameRenderer(replay).array(0).copy()
    titled = FrameRenderer(replay, title="Lecture 3: a salad").array(0)
    assert not np.array_equal(plain[:44, :600], titled[:44, :600])
    assert np.array_equal(plain[60:500], titled[60:500])


def test_two_replays_side_by_side_on_one_clock(tmp_path, capsys):
    ok, _ = make_replay(tmp_path)
    bad, _ = make_replay(tmp_path, failed=True)
    out = tmp_path / "pair.mp4"
    assert (
        main(["export", str(ok), str(bad), str(out), "--fps", "5", "--speed", "20", "--hold", "1", "--quiet"])
        == 0
    )
    reader = iio2.get_reader(out)
    try:
        assert reader.count_frames() == frame_count(35, 5, 20) + 5  # the longer run sets the clock
    finally:
        reader.close()
    fr = FrameRenderer([load_replay(ok), load_replay(bad)], labels=["ok.json", "failed.json"])
    a, b = fr.panels
    assert (
        a.kitchen_rect.right < b.kitchen_rect.x
        and a.label.startswith("A: ok")
        and b.label.startswith("B: failed")
    )
    frame = fr.array(20)
    # at t = 20 the failed run (over at 10) shows its error band, the other its live score
    assert tuple(frame[b.band_rect.centery, b.band_rect.x + 4]) == (90, 22, 22)
    assert tuple(frame[a.band_rect.centery, a.band_rect.x + 4]) == P.PANEL_LIGHT


def test_side_by_side_refuses_different_levels(tmp_path, capsys):
    ok, _ = make_replay(tmp_path)
    from test_narration import HANDOVER

    from game.engine import simulate
    from game.replay import save_replay

    other = tmp_path / "other.json"
    save_replay(
        other, HANDOVER, {"agent1": (), "agent2": ()}, simulate(HANDOVER, {"agent1": [], "agent2": []})
    )
    assert main(["export", str(ok), str(other), str(tmp_path / "x.gif"), "--quiet"]) == 2
    assert "side by side" in capsys.readouterr().err
