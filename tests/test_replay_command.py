"""`replay` without a display says so at once and points to `export` (no invisible window)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT
from test_render import make_replay

from game.cli import main
from game.commands.replay import display_problem


def test_no_display_is_reported_with_the_export_command(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    assert main(["replay", str(path)]) == 2  # the tests run with SDL_VIDEODRIVER=dummy
    err = capsys.readouterr().err
    assert "needs a window" in err and f"paracook-kitchen export {path} run.mp4" in err


def test_display_detection():
    assert display_problem({"SDL_VIDEODRIVER": "dummy"}, "linux")
    assert "DISPLAY" in display_problem({}, "linux")
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({}, "win32") is None


def test_without_a_display_the_command_exits_at_once(tmp_path):
    path, _ = make_replay(tmp_path)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    if "PYTHONDONTWRITEBYTECODE" in os.environ:  # no bytecode in the tree where the user wants none
        env["PYTHONDONTWRITEBYTECODE"] = os.environ["PYTHONDONTWRITEBYTECODE"]
    proc = subprocess.run(
        [sys.executable, "main.py", "replay", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "no display" in proc.stderr and "export" in proc.stderr
