"""The CLI starts on a base install: every --help works, fast, and optional extras are named."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys

import pytest
from conftest import HANG_S, ROOT

from game.cli import COMMANDS, main
from game.commands import report

NAMES = [path.rsplit(".", 1)[1] for path in COMMANDS]


def _help(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_top_level_help_lists_every_command():
    out = _help()
    assert out.returncode == 0 and out.stderr == ""
    for name in NAMES:
        assert f"    {name}" in out.stdout


@pytest.mark.parametrize("name", NAMES)
def test_every_command_help_starts_cleanly(name):
    out = _help(name)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: paracook-kitchen {name}")
    assert "Traceback" not in out.stderr and "%%" not in out.stdout


@pytest.mark.parametrize("name", ["llm", "abstract", "run", "report"])
def test_help_does_not_load_heavy_modules(name):
    """openai and pygame are loaded by the commands that use them, not to print help."""
    code = (
        "import sys; from game.cli import main\n"
        f"try: main([{name!r}, '--help'])\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in ('openai', 'pygame', 'ortools') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_the_llm_planners_load_openai_only_to_call_an_endpoint():
    """A play window's partner, a report or a replayed run reads the LLM modules without the
    client library (a second of imports in each process)."""
    code = (
        "import sys\n"
        "import game.planners.llm.runner, game.planners.llm.partner, game.planners.llm.replayed\n"
        "from game.planners.llm.client import describe_error\n"
        "print('openai' in sys.modules, describe_error(TimeoutError('x')), 'openai' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.split() == ["False", "TimeoutError:", "x", "True"], out.stderr


def test_plot_without_matplotlib_names_the_extra(monkeypatch, capsys, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a)
    )
    args = argparse.Namespace(results=[str(tmp_path)], by="difficulty", format="md", plot="x.png")
    assert report.run(args) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == 'report: --plot needs matplotlib: pip install "paracook-kitchen[plot]" (in a clone: pip install -e ".[plot]")'
    )


def test_unknown_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["cook"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("driver", [None, ""])
def test_play_without_a_display_says_so_instead_of_waiting_unseen(tmp_path, driver):
    """With no DISPLAY, SDL falls back to its offscreen driver: the window opened unseen and the
    program waited for input forever. An empty SDL_VIDEODRIVER raised pygame's error."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env |= {"PARACOOK_KITCHEN_DATA": str(tmp_path)} | ({} if driver is None else {"SDL_VIDEODRIVER": driver})
    argv = [sys.executable, "-m", "game.cli", "play", "tutorial/01_first_salad"]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=HANG_S)
    assert out.returncode == 2, out.stderr
    assert "error: no display to open a window on" in out.stderr and "Traceback" not in out.stderr
    assert "paracook-kitchen export" in out.stderr


def test_a_display_that_does_not_answer_is_named_not_called_unset(tmp_path):
    """DISPLAY=:93 with no X server there: SDL falls back to offscreen as with no DISPLAY, but
    "DISPLAY is not set" would send the user looking for the wrong fault."""
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env |= {"PARACOOK_KITCHEN_DATA": str(tmp_path), "DISPLAY": ":93"}
    argv = [sys.executable, "-m", "game.cli", "play", "tutorial/01_first_salad"]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=HANG_S)
    assert out.returncode == 2, out.stderr
    assert "no display to open a window on (nothing answers at DISPLAY=:93)" in out.stderr
    assert "not set" not in out.stderr.replace("XDG_RUNTIME_DIR is invalid or not set", "")


def test_a_study_without_a_display_begins_no_session(tmp_path):
    """The session was made (and listed as begun) before the window found there was no display."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env |= {"PARACOOK_KITCHEN_DATA": str(tmp_path)}
    argv = [sys.executable, "-m", "game.cli", "study", "--participant", "p1", "--levels", "tutorial"]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=HANG_S)
    assert out.returncode == 2, out.stderr
    assert "error: no display to open a window on" in out.stderr and "session folder" not in out.stderr
    assert not list(tmp_path.rglob("session.json"))
