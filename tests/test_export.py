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
    n = export_replay(replay, out, fps=5, speed=4, progress=False)
    frames = iio.imread(out, index=None)
    assert n == len(frames) == frame_count(35, 5, 4) == 45
    # the first frame shows agent1 (orange) on its start tile; GIF colours are quantised
    fr = FrameRenderer(replay)
    fr.render(0)
    x, y = fr.kitchen.agent_points["agent1"]
    assert np.abs(frames[0][y, x, :3].astype(int) - P.agent_colour(0)).max() <= 12
    assert not (tmp_path / ".run.part.gif").exists()


def test_mp4_frame_count_and_rate(tmp_path):
    _, replay = make_replay(tmp_path, failed=True)  # stops at t = 10
    out = tmp_path / "run.mp4"
    n = export_replay(replay, out, fps=8, speed=2, progress=False)
    reader = iio2.get_reader(out)
    try:
        assert n == reader.count_frames() == frame_count(10, 8, 2) == 41
        assert reader.get_meta_data()["fps"] == 8
        w, h = reader.get_meta_data()["size"]
        assert w % 16 == 0 and h % 16 == 0
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
        (["out.gif", "--fps", "0"], "must both be positive"),
        (["missing/out.gif"], "does not exist"),
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
    assert main(["export", str(path), str(out), "--fps", "5", "--speed", "4", "--quiet"]) == 0
    assert f"wrote {out} (45 frames)" in capsys.readouterr().out
    assert len(iio.imread(out, index=None)) == 45
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
    kx, ky = fr.kitchen.origin(fr.kitchen_rect)
    strip = (ky + fr.kitchen.size[1] - 3, kx + fr.kitchen.size[0] // 2)  # the error strip's lower edge
    assert tuple(png[strip][:3]) != tuple(before[strip][:3])
