"""Writing files so that no work is lost: atomic replacement, appends that survive a torn line,
a lock per data item held by one process at a time, and a copy kept before user work is replaced.

Every writer of the data folder, study sessions, run folders and exports goes through here, so a
full disk, a kill or a second window never leaves half a file, glues two records together or lets
one window silently replace what another saved. Errors are `OSError`s; `disk_message` turns one
into the line shown to the user."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:  # POSIX: advisory locks the kernel drops when the holder dies (no stale lock possible)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


def write_atomic(path: str | Path, data: bytes | str, check: Callable[[Path], None] | None = None) -> Path:
    """Write `data` to a temporary file of its own beside `path` (a unique name, so concurrent
    writers never share one), flush it to disk, run `check` on it, then rename it over `path`.
    On any failure the temporary file is removed and `path` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    tmp = Path(name)
    try:
        _keep_mode(fd, path)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if check is not None:
            check(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path


def _keep_mode(fd: int, path: Path) -> None:
    """Give the new file the old one's permissions (a temporary file starts private)."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    with contextlib.suppress(OSError, AttributeError):  # no fchmod on Windows
        os.fchmod(fd, mode)


def json_text(data: Any, indent: int | None = 1) -> str:
    """The JSON text every writer uses: never NaN or Infinity, and always encodable as UTF-8 (text
    holding a lone surrogate, which an endpoint can send, is written with \\u escapes)."""
    text = json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, indent=indent, ensure_ascii=True, allow_nan=False)
    return text + "\n" if indent is not None else text


def write_json_atomic(path: str | Path, data: Any) -> Path:
    return write_atomic(path, json_text(data))


@contextlib.contextmanager
def temp_beside(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """A unique temporary path beside `path` (same folder, so a rename is atomic) for writers that
    need a file name (video encoders); removed afterwards unless it was renamed away."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=f".part{suffix}")
    _keep_mode(fd, path)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_through(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Let `write` fill a temporary file beside `path` (for writers that need a file name: plots,
    images), then rename it over `path`; on failure nothing is left and `path` is unchanged."""
    path = Path(path)
    with temp_beside(path, path.suffix) as tmp:
        write(tmp)
        os.replace(tmp, path)
    return path


def append_line(path: str | Path, line: str) -> None:
    """Append one line, with a single write. When the file ends in a torn line (a full disk or a
    kill cut the last write short), the new line starts on a line of its own instead of being
    glued to the fragment and lost with it."""
    path = Path(path)
    raw = (line.rstrip("\n") + "\n").encode("utf-8")
    with path.open("ab") as f:
        _wait_lock(f.fileno())  # appenders of other processes wait: the check below stays true
        if f.seek(0, os.SEEK_END) > 0 and _last_byte(path) != b"\n":
            raw = b"\n" + raw
        f.write(raw)


def _last_byte(path: Path) -> bytes:
    with path.open("rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1)


# -- locks -------------------------------------------------------------------------------------------
class Locked(OSError):
    """Another process holds the lock; `holder` says who (pid, host, since) when it is known."""

    def __init__(self, path: Path, holder: dict[str, Any]):
        self.path, self.holder = path, holder
        super().__init__(errno.EAGAIN, f"{path} is in use by {describe_holder(holder)}")


def describe_holder(holder: dict[str, Any], since: bool = True) -> str:
    if not holder.get("pid"):
        return "another process"
    since_text = f" since {holder['since']}" if since and holder.get("since") else ""
    return f"process {holder['pid']} on {holder.get('host') or 'this computer'}{since_text}"


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _wait_lock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
    else:  # pragma: no cover - Windows
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)


class HolderLock:
    """A long-held lock on one data item (a level's autosave, a study participant): `<item>.lock`
    holds the holder's pid and host. The operating system releases it when the holder exits or
    is killed, so a lock file left behind by a dead process never blocks anyone."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> HolderLock:
        """Take the lock or raise Locked naming the holder (OSError when the folder is unusable)."""
        if self._fd is not None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            os.close(fd)
            raise Locked(self.path, read_holder(self.path))
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.strftime("%Y-%m-%d %H:%M:%S")}
        with contextlib.suppress(OSError, AttributeError):  # the lock holds without its note (no pwrite)
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(me).encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        os.close(self._fd)  # closing drops the lock
        self._fd = None

    def __enter__(self) -> HolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


_CLAIMED: dict[Path, HolderLock] = {}


def claim(path: str | Path) -> HolderLock:
    """This process's lock on `path`, taken once and kept until released: a screen reopened in
    the same window finds the lock it already holds (Locked when another process holds it)."""
    key = Path(os.path.abspath(path))
    lock = _CLAIMED.get(key)
    if lock is None or not lock.held:
        lock = HolderLock(key).acquire()
        _CLAIMED[key] = lock
    return lock


def unclaim(path: str | Path) -> None:
    """Let go of this process's lock on `path` (another window may take it)."""
    lock = _CLAIMED.pop(Path(os.path.abspath(path)), None)
    if lock is not None:
        lock.release()


def read_holder(path: Path) -> dict[str, Any]:
    """Who holds a lock, from its file ({} when unknown or unreadable)."""
    try:
        with path.open("rb") as f:
            data = json.loads(f.read(4096).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@contextlib.contextmanager
def updating(path: str | Path) -> Iterator[None]:
    """Hold `<path>.lock` for a short read-modify-write of `path` (waits for other writers), so
    two processes updating one file (a scoreboard) never lose each other's changes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _wait_lock(fd)
        yield
    finally:
        os.close(fd)


# -- keeping user work ------------------------------------------------------------------------------
def backup(path: str | Path) -> Path | None:
    """Copy `path` to `<stem>.before-<time>[-n]<suffix>` before it is replaced; the copy, or None
    when there is nothing to keep."""
    path = Path(path)
    if not path.is_file():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.before-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.stem}.before-{stamp}-{n}{path.suffix}")
    shutil.copyfile(path, target)
    return target


def failed_path(e: OSError, target: str | Path) -> str | Path:
    """What to name for a failed write of `target`: the file or folder the system named, unless
    that is the temporary file beside `target` (`.name.XXXX.part`), which the user never chose."""
    if e.filename and not Path(e.filename).name.startswith(f".{Path(target).name}."):
        return e.filename
    return target


def disk_message(e: OSError, target: str | Path, kept: str = "") -> str:
    """One line for a failed write: the file, the reason (`No space left on device`) and what
    was kept."""
    reason = e.strerror or str(e)
    if e.errno == errno.ENOSPC:
        reason = "No space left on device"
    line = f"cannot write {target}: {reason}"
    return f"{line}; {kept}" if kept else line


def folder_message(folder: str | Path, e: OSError) -> str:
    """One line for an output folder that cannot be made or written: a file where it should
    be, or the system's reason."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        return f"{folder}: a file, not a folder; choose another --out folder"
    return f"{disk_message(e, e.filename or folder)}; choose another --out folder"
