"""Interrupting a command in a child process the way a person at the terminal does (Ctrl+C),
with what the child did with the signal in the message when it does not stop."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

# a child that handles the signal stops in seconds; one that ignores it runs to its end
STOP_WITHIN_S = 90


def as_from_a_terminal() -> None:
    """`preexec_fn` for the child: SIGINT as a command typed at a terminal gets it. A test run
    started in the background of a non-interactive shell (`pytest &`, nohup, some CI runners)
    ignores SIGINT, and every child would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def sigint_state(pid: int) -> str:
    """Whether the process blocks, ignores or catches SIGINT (Linux's /proc), for a failure's message."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "unknown (no /proc entry)"
    masks = {
        k: int(v, 16)
        for k, _, v in (line.partition(":\t") for line in lines)
        if k in ("SigBlk", "SigIgn", "SigCgt")
    }
    bit = 1 << (signal.SIGINT - 1)
    return ", ".join(
        f"{k}={'yes' if masks.get(k, 0) & bit else 'no'}" for k in ("SigBlk", "SigIgn", "SigCgt")
    )


def interrupt(proc: subprocess.Popen) -> str:
    """Send Ctrl+C's signal and wait for the child to end; its stderr. Fails, saying how the child
    held the signal, when it ran on to its own end instead."""
    state = sigint_state(proc.pid)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=STOP_WITHIN_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(
            f"still running {STOP_WITHIN_S} s after SIGINT (SIGINT at the time: {state})"
        ) from None
    assert proc.returncode == 130, f"exit {proc.returncode} after SIGINT (SIGINT: {state})\n{out}\n{err}"
    return err
