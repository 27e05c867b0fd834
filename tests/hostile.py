"""Hostile inputs for every place untrusted data enters, and the check each must pass.

tests/test_hostile.py runs them at a size CI affords; benchmarks/fuzz.py runs them long. Each
`check_*` function takes one case and raises AssertionError (or lets an unexpected exception
out) when the program misbehaves: a traceback, a crash, a hang, a lost plan or a leaked key."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
LEVEL_FILE = ROOT / "levels" / "tutorial" / "01_first_salad.yaml"
LEVEL_TEXT = LEVEL_FILE.read_text(encoding="utf-8")
PLAN_FILE = ROOT / "tests" / "data" / "tutorial_plans" / "01_first_salad.json"
SECRET = "sk-hostile-secret-9876543210"


def leaked_part(text: str, secret: str = SECRET, n: int = 8) -> str | None:
    """The first piece of `secret` (n characters or more) found in `text`, or None."""
    return next((secret[i : i + n] for i in range(len(secret) - n + 1) if secret[i : i + n] in text), None)


# -- building blocks ------------------------------------------------------------------------------
ODD_TEXT = [
    "",
    " ",
    "\u200b",
    "\u200b\u200b",
    "\u0301",
    "\ufeff",
    "\x00",
    "\t",
    "\u202e",
    "é",
    "🍅" * 3,
    "a" * 300,
    "<think>",
    "Infinity",
]
odd_text = st.sampled_from(ODD_TEXT) | st.text(max_size=12)
numbers = (
    st.integers(-(10**6), 10**6)
    | st.sampled_from([0, -1, 10**18, 10**400, 2**63])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([1e308, -1e308, 5e-324, 0.1])
)
scalars = st.none() | st.booleans() | numbers | odd_text
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=4),
    max_leaves=12,
)


def nested(depth: int, open_: str = "[", close: str = "]") -> str:
    return open_ * depth + close * depth


ALIAS_BOMB = "\n".join(
    [
        'a: &a ["x","x","x","x","x","x","x","x","x"]',
        *(f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)),
    ]
)
YAML_FRAGMENTS = [
    nested(30_000),
    "{a: " * 5000 + "1" + "}" * 5000,
    "- " * 3000 + "x",
    ALIAS_BOMB,
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "{[1]: 2}",
    "{1: a, b: 2}",
    "? [a, b]\n: c",
    "&x [*x]",
    "*nowhere",
    "!!python/object:os.system x",
    "!custom x",
    "[1, 2",
    "'unclosed",
    '"\\u200b"',
    "1e400",
    "0x" + "f" * 500,
    "1" * 5000,
    ".nan",
    "-.inf",
    "~",
    "|\n  \u200b",
    "[" + ", ".join(["[]"] * 20) + "]",
]


# -- levels -------------------------------------------------------------------------------------------
@st.composite
def level_bytes(draw: Any) -> bytes:
    """The tutorial level with one to three edits: a field's value replaced by odd YAML or
    text, lines inserted, dropped or repeated, the file cut short, or a byte made non-UTF-8."""
    lines = LEVEL_TEXT.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["value", "line", "insert", "drop", "repeat", "grid", "meta"]))
        if how == "value" and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            lines[i] = f"{key}: {draw(st.sampled_from(YAML_FRAGMENTS) | odd_text.map(json.dumps))}"
        elif how == "line":
            lines[i] = draw(st.sampled_from(YAML_FRAGMENTS) | odd_text)
        elif how == "insert":
            lines.insert(i, draw(st.sampled_from(YAML_FRAGMENTS) | odd_text))
        elif how == "drop" and len(lines) > 1:
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "grid":
            lines.insert(
                i,
                "  "
                + " ".join(
                    draw(st.sampled_from(["..", "##", "T1", "a1", "D1", "\u200b"]))
                    for _ in range(draw(st.integers(0, 12)))
                ),
            )
        elif how == "meta":
            meta = json.dumps({"id": draw(json_values), "x": draw(json_values)})
            lines = [ln for ln in lines if not ln.startswith("meta:")] + [f"meta: {meta}"]
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    cut = draw(st.none() | st.integers(0, len(data)))
    if cut is not None and draw(st.booleans()):
        data = data[:cut]
    if draw(st.integers(0, 9)) == 0 and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + b"\xff" + data[at + 1 :]
    return data


def check_level_bytes(data: bytes, folder: Path, draw_window: bool = True) -> str:
    """Load the bytes as a level file: a Level or a LevelError, nothing else; a Level loaded is
    usable everywhere (JSON, the engine, levels list, the play window). Returns what happened."""
    from game.engine import simulate
    from game.levels import LevelError, load_level
    from game.levels.task import task_info

    path = folder / "level.yaml"
    path.write_bytes(data)
    try:
        level = load_level(path)
    except LevelError as e:
        assert str(path) in str(e), e
        return "refused"
    json.dumps(level.to_dict(), allow_nan=False)
    task_info(level)
    ident = level.meta.get("id") or path.stem
    f"{ident:45} {level.title}"  # noqa: B018 - what `levels list` prints
    simulate(level, {}, level.rules)
    if draw_window:
        _draw_play_window(level)
    return "loaded"


def _draw_play_window(level: Any) -> None:

    from game.ui.screens.play import PlayScreen

    surface = _display()
    screen = PlayScreen(level, size=surface.get_size(), restore=False)
    screen.draw(surface)
    screen.show_help = True
    screen.draw(surface)


def _display() -> Any:
    import pygame

    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.get_surface()
    return surface if surface is not None else pygame.display.set_mode((1024, 700))


# -- replays --------------------------------------------------------------------------------------
_BASE_REPLAY: dict[str, Any] = {}


def base_replay() -> dict[str, Any]:
    """A real replay (the first tutorial, solved) as plain data."""
    if not _BASE_REPLAY:
        from game.engine import parse_plan, simulate
        from game.levels import load_level
        from game.replay import replay_dict

        level = load_level(LEVEL_FILE)
        plan = parse_plan(json.loads(PLAN_FILE.read_text()), level.agent_names)
        _BASE_REPLAY.update(
            json.loads(json.dumps(replay_dict(level, plan, simulate(level, plan, level.rules))))
        )
    return copy.deepcopy(_BASE_REPLAY)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += _paths(v, (*prefix, i))
    return out


def with_checksum(data: dict[str, Any]) -> dict[str, Any]:
    """The file as someone who edits it and recomputes the checksum would write it."""
    import hashlib

    from game.replay.file import _canonical

    body = {k: v for k, v in data.items() if k != "checksum"}
    try:
        data["checksum"] = hashlib.sha256(_canonical(body)).hexdigest()
    except (TypeError, ValueError):
        pass
    return data


@st.composite
def edited_replays(draw: Any) -> dict[str, Any]:
    """A replay with one to three values replaced (by any JSON, odd text, a huge map size) or
    removed, and its checksum recomputed."""
    data = base_replay()
    paths = [p for p in _paths(data) if p and p[0] != "checksum"]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            how = draw(st.sampled_from(["replace", "replace", "delete", "huge"]))
            if how == "delete" and isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif how == "huge":
                parent[path[-1]] = draw(st.sampled_from([100_000, 10**400, 1e308, nested(200)]))
            else:
                parent[path[-1]] = draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue
    return with_checksum(data)


def check_replay(data: dict[str, Any], folder: Path) -> str:
    """Load the edited replay: a Replay or a ReplayError; one loaded exports frames."""
    from game.replay import ReplayError, load_replay

    path = folder / "replay.json"
    try:
        path.write_text(json.dumps(data))
    except ValueError:  # NaN/Infinity would be non-standard JSON: write it as Python would
        path.write_text(json.dumps(data, allow_nan=True))
    try:
        replay = load_replay(path)
    except ReplayError as e:
        assert str(path) in str(e), e
        return "refused"
    from game.export import FrameRenderer

    _display()
    frames = FrameRenderer(replay, size=(320, 240))
    end = replay.timeline.end
    for t in (0, end / 2, end):
        frames.render(t)
    return "loaded"


# -- result files read by report and collab ------------------------------------------------------------
def base_result() -> dict[str, Any]:
    """A real result (the first tutorial, solved) as the runners write it, naming its level."""
    from game.engine import simulate
    from game.levels import load_level
    from game.levels.task import task_info

    level = load_level(LEVEL_FILE)
    plan = json.loads(PLAN_FILE.read_text())
    result = simulate(level, plan, level.rules).to_dict()
    return {**result, "task": task_info(level), "plan": plan, "level": str(LEVEL_FILE), "model": "m"}


RAW_RESULTS = [
    b"\xff\xfe{}",
    "{}".encode("utf-16"),
    b"\xef\xbb\xbf{}",
    b"[" * 5000 + b"]" * 5000,
    b'{"done": true, "time": 1' + b"0" * 400 + b"}",
    b'{"done": true, "time": ' + b"9" * 5000 + b"}",
    b'{"done": true, "time": NaN, "task": {}, "t_max": 1, "d_max": 1}',
    b'{"done": true, "time": Infinity, "task": {}, "t_max": 1, "d_max": 1}',
    b"\x00",
    b"",
]


@st.composite
def result_files(draw: Any) -> bytes:
    """Result or replay file bytes: a real one with one to three fields replaced, a replay
    claiming a huge map or many orders, or raw hostile bytes."""
    kind = draw(st.sampled_from(["result", "result", "replay", "raw"]))
    if kind == "raw":
        return draw(st.sampled_from(RAW_RESULTS))
    data = base_result() if kind == "result" else base_replay()
    paths = [p for p in _paths(data) if p and p[0] != "checksum"]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = draw(
                json_values
                | st.sampled_from([10**6, 10**400, -1, True, "\u00b2", 1e308, [None] * 3, nested(100)])
            )
        except (KeyError, IndexError, TypeError):
            continue
    try:  # the level may itself have been replaced above
        if kind == "replay" and draw(st.booleans()):
            data["level"]["map"]["width"] = data["level"]["map"]["height"] = 10**6
        if kind == "replay" and draw(st.booleans()):
            data["level"]["orders"] = ["salad"] * 100_000
    except (KeyError, IndexError, TypeError):
        pass
    if kind == "replay":
        data = with_checksum(data)
    return json.dumps(data, allow_nan=True).encode("utf-8", "surrogatepass")


def check_result_file(raw: bytes, folder: Path) -> str:
    """report (md and json) and collab (json) on one result file: a table or a refusal naming the
    file, never a traceback; a JSON output is strict JSON (no NaN or Infinity)."""
    import contextlib
    import io

    from game.cli import main

    path = folder / "r.json"
    path.write_bytes(raw)
    codes = []
    for argv in (
        ["report", str(path), "--format", "json"],
        ["report", str(path), "--by", "agents", "--format", "json"],
        ["report", str(path), "--by", "orders"],
        ["collab", str(path), "--format", "json", "--time-limit", "0.2"],
    ):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        assert code in (0, 1, 2), (argv, code)
        assert "Traceback" not in err.getvalue()
        if code == 0 and "json" in argv:
            json.loads(out.getvalue(), parse_constant=_strict)
        elif code != 0:
            assert (
                str(path) in err.getvalue() or "no results" in err.getvalue() or "no runs" in err.getvalue()
            ), err.getvalue()
        codes.append(code)
    return "read" if codes[0] == 0 else "refused"


def _strict(name: str) -> None:
    raise AssertionError(f"{name} in a JSON output")


# -- batch lines --------------------------------------------------------------------------------------
actions = st.fixed_dictionaries(
    {"action": st.sampled_from(["MoveTo", "Interact", "Process", "Wait", "Finish"]) | odd_text},
    optional={"target": json_values | st.sampled_from(["table1", [1, 1], "dispenser1"]), "duration": numbers},
)
plans = st.dictionaries(
    st.sampled_from(["agent1", "agent2", "plan"]) | odd_text, st.lists(actions, max_size=5), max_size=3
)


@st.composite
def batch_lines(draw: Any) -> bytes:
    """One line of a batch file: a case with odd level, orders, plan or rules, or junk."""
    kind = draw(st.sampled_from(["case", "case", "case", "json", "bytes", "deep"]))
    if kind == "bytes":
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if kind == "deep":
        return nested(draw(st.integers(60, 50_000)), '{"a":', "}").encode()
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    case = {
        "level": draw(st.sampled_from([str(LEVEL_FILE), "missing.yaml", str(ROOT)]) | json_values),
        "plan": draw(plans | json_values),
    }
    if draw(st.booleans()):
        case["orders"] = draw(st.sampled_from([[1], [None], ["salad_basic"], []]) | json_values)
    if draw(st.booleans()):
        case["rules"] = draw(st.sampled_from(["paracook", "documented"]) | json_values)
    return json.dumps(case).encode()


def check_batch_lines(lines: list[bytes], folder: Path) -> str:
    """The batch prints one JSON result per non-empty line, whatever the lines hold (a file
    without any is refused: no cases)."""
    import contextlib
    import io

    from game.commands.run import run_batch

    path = folder / "cases.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert run_batch(path, None) == (0 if any(x.strip() for x in lines) else 2)
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(results) == sum(1 for x in lines if x.strip()), out.getvalue()
    for r in results:
        assert isinstance(r, dict) and "done" in r
        assert r["done"] or r.get("error") or r.get("remaining_orders"), r
    return "ran"


# -- LLM replies ----------------------------------------------------------------------------------------
REPLY_PIECES = [
    "<think>",
    "</think>",
    "```json\n",
    "```",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    ",",
    ":",
    "//",
    "/*",
    "*/",
    "\n",
    '"agent1": ',
    '{"action": "Wait", "duration": ',
    '{"action": "MoveTo", "target": [1, 1]}',
    "9" * 5000,
    "1" + "0" * 400,
    "1e999",
    "NaN",
    "True",
    "None",
    nested(5000),
    nested(3000, "{", "}"),
    "\u200b",
    json.dumps(json.loads(PLAN_FILE.read_text())),
]
replies = st.lists(st.sampled_from(REPLY_PIECES) | st.text(max_size=20), max_size=30).map("".join)


def check_reply(text: str) -> str:
    """read_plan never raises: a checked plan, or feedback for the model."""
    from game.planners.llm.methods import read_plan

    level = _tutorial_level()
    plan, feedback = read_plan(level, text)
    assert (plan is None) != (feedback is None)
    assert feedback is None or isinstance(feedback, str)
    return "plan" if plan is not None else "feedback"


_LEVELS: dict[str, Any] = {}


def _tutorial_level() -> Any:
    from game.levels import load_level

    if "tutorial" not in _LEVELS:
        _LEVELS["tutorial"] = load_level(LEVEL_FILE)
    return _LEVELS["tutorial"]


# -- event storms ----------------------------------------------------------------------------------------
KEYS = None


def storm_events(rng: random.Random, size: tuple[int, int], n: int) -> list[Any]:
    """n random real pygame events: clicks, drags, wheels, keys (with Ctrl and Shift), typed
    text (zero-width characters too) and window resizes."""
    import pygame

    keys = [
        pygame.K_SPACE, pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_TAB, pygame.K_BACKSPACE,
        pygame.K_DELETE, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_HOME,
        pygame.K_END, pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_F1, pygame.K_LEFTBRACKET,
        pygame.K_RIGHTBRACKET, pygame.K_PLUS, pygame.K_MINUS, pygame.K_EQUALS, pygame.K_QUESTION,
        *(getattr(pygame, f"K_{c}") for c in "abcdeghijklmnpqrstuvwxyz0123456789"),
    ]  # fmt: skip
    out = []
    for _ in range(n):
        pos = (rng.randrange(-5, size[0] + 5), rng.randrange(-5, size[1] + 5))
        kind = rng.random()
        if kind < 0.3:
            out.append(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(rng.random() < 0.3, 0, 0)
                )
            )
        elif kind < 0.5:
            button = rng.choice([1, 1, 1, 2, 3, 4, 5])
            out.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
            out.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
        elif kind < 0.55:
            out.append(
                pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-3, -1, 1, 3]), flipped=False)
            )
        elif kind < 0.85:
            key = rng.choice(keys)
            mod = rng.choice([0, 0, 0, pygame.KMOD_LCTRL, pygame.KMOD_LSHIFT])
            uni = chr(key) if 32 <= key < 127 and not mod else ""
            out.append(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=uni, scancode=0))
            out.append(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=uni, scancode=0))
        elif kind < 0.97:
            out.append(
                pygame.event.Event(pygame.TEXTINPUT, text=rng.choice(ODD_TEXT[:12] + ["a", "7", "/", "."]))
            )
        else:
            w, h = rng.choice([(1600, 1000), (1440, 900), (1024, 700)])
            out.append(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
    return out


def run_storm(app: Any, events: list[Any], per_frame: int = 4) -> int:
    """Post the events through the app's own loop, a few per frame; returns frames run."""
    import pygame

    frames = 0
    for i in range(0, len(events), per_frame):
        for event in events[i : i + per_frame]:
            pygame.event.post(event)
        if not app.step(1 / 30):
            break
        frames += 1
    return frames


# -- a misbehaving endpoint ---------------------------------------------------------------------------------
MAX_TRICKLE_S = 20  # a trickling answer stops by itself, so nothing can hang for long


class HostileLLM:
    """A chat-completions endpoint on 127.0.0.1 that misbehaves as told, per request, by
    `modes` (a list taken in turn; the last repeats). Modes: ok (a good plan), invalid_json (200
    with a body that is not JSON), null_message, no_choices, deep (a reply nested 5,000 deep),
    huge_int (a Wait of 5,000 digits), echo_key (401 echoing the key and Authorization header),
    trickle (headers, then one byte a second), html (200 text/html), echo_key_deep (500 with the
    key after 270 characters of error), key_everywhere (200 whose text, station and action names,
    message, finish reason and usage all carry the key), surrogate (a reply with a lone surrogate)."""

    def __init__(self, modes: list[str], good_reply: str = "") -> None:
        self.modes = list(modes)
        self.good_reply = good_reply
        self.served: list[str] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with owner.lock:
                    mode = owner.modes.pop(0) if len(owner.modes) > 1 else owner.modes[0]
                    owner.served.append(mode)
                try:
                    owner.answer(self, mode)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> HostileLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()

    def completion(self, content: Any) -> dict[str, Any]:
        return {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }

    def keyed(self) -> dict[str, Any]:
        """A completion planting the key in every field an endpoint controls."""
        reply = {
            "actions": [
                {"action": SECRET},
                {"action": "Move", "to": SECRET},
                {"action": "Process", "station": SECRET},
            ],
            "messages": [{"to": "all", "text": f"key {SECRET}"}],
            "agent1": [{"action": "Process", "station": SECRET}, {"action": SECRET}],
            "agent2": [{"action": "Move", "to": SECRET}],
            "note": SECRET,
        }
        body = self.completion(f"My key is {SECRET}.\n```json\n{json.dumps(reply)}\n```\n{SECRET}")
        body["choices"][0]["finish_reason"] = SECRET
        body["usage"] = {
            "prompt_tokens": SECRET,
            "completion_tokens": 3,
            "total_tokens": SECRET,
            "note": SECRET,
        }
        body["model"] = body["id"] = SECRET
        return body

    def answer(self, h: BaseHTTPRequestHandler, mode: str) -> None:
        auth = h.headers.get("Authorization", "")
        bodies: dict[str, tuple[int, str, bytes]] = {
            "ok": (200, "application/json", json.dumps(self.completion(self.good_reply)).encode()),
            "invalid_json": (200, "application/json", b'{"choices": [{"message": '),
            "null_message": (200, "application/json", json.dumps({**self.completion(""), "choices": [{"index": 0, "message": None, "finish_reason": "stop"}]}).encode()),
            "no_choices": (200, "application/json", json.dumps({**self.completion(""), "choices": []}).encode()),
            "deep": (200, "application/json", json.dumps(self.completion("```json\n" + nested(5000, "{\"a\":", "}") + "\n```")).encode()),
            "huge_int": (200, "application/json", json.dumps(self.completion('{"agent1": [{"action": "Wait", "duration": ' + "9" * 5000 + "}]}")).encode()),
            "big_int": (200, "application/json", json.dumps(self.completion('{"agent1": [{"action": "Wait", "duration": 1' + "0" * 400 + "}]}")).encode()),
            "echo_key": (401, "application/json", json.dumps({"error": {"message": f"Incorrect API key provided: {SECRET}. You sent Authorization: {auth}", "type": "invalid_request_error"}}).encode()),
            "html": (200, "text/html", b"<html>busy</html>"),
            "echo_key_deep": (500, "application/json", json.dumps({"error": {"message": "x" * 270 + SECRET + " " + auth, "type": SECRET}}).encode()),
            "key_everywhere": (200, "application/json", json.dumps(self.keyed()).encode()),
            "surrogate": (200, "application/json", json.dumps(self.completion("\ud800 " + self.good_reply)).encode()),
        }  # fmt: skip
        if mode == "trickle":
            body = json.dumps(self.completion(self.good_reply)).encode()
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            start = time.monotonic()
            for byte in body:
                if self.stop.is_set() or time.monotonic() - start > MAX_TRICKLE_S:
                    return
                h.wfile.write(bytes([byte]))
                h.wfile.flush()
                time.sleep(1.0)
            return
        code, kind, body = bodies[mode]
        h.send_response(code)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)


# -- other processes ------------------------------------------------------------------------------
def python(code: str, *args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


HOLD = """
    import sys
    from game.storage import HolderLock
    HolderLock(sys.argv[1]).acquire()
    print("held", flush=True)
    sys.stdin.read()
"""


class Holder:
    """Another process holding a lock until the test lets it go (or kills it)."""

    def __init__(self, path: Path):
        self.proc = python(HOLD, str(path))
        assert self.proc.stdout.readline().strip() == "held", self.proc.stderr.read()

    def release(self) -> None:
        self.proc.communicate("", timeout=30)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)


WRITER = """
    import sys
    from types import SimpleNamespace
    from game.levels import load_level
    from game.planners.llm.log import RunLog
    from game.storage import append_line
    from game.ui import store

    n_scores, n_lines, tag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    level = load_level("levels/tutorial/01_first_salad.yaml")
    log = RunLog(store.data_dir() / "log.jsonl")
    for i in range(max(n_scores, n_lines)):
        if i < n_scores:
            store.record_score(level, SimpleNamespace(time=i, md=0, au=0), source=tag)
        if i < n_lines:
            append_line(store.data_dir() / "study.jsonl", f'{{"tag": "{tag}", "i": {i}}}')
            log.write({"tag": tag, "i": i, "text": "x" * (i % 500)})
"""
