"""A replay as the page's data: plain JSON, every sentence already worded by the engine's
narration and diagnosis (and the viewer's own helpers), so the page and the Pygame viewer say
the same things. The page only looks things up and draws; it words nothing itself.

    run_data(replay, label)          -> one run (kitchen frames, spans, events, why, metrics, ...)
    compare_data(a, b, labels)       -> two runs on one clock, with the first divergence
"""

from __future__ import annotations

import json
from typing import Any

from game.engine.diagnosis import Diagnosis
from game.engine.narration import narrate, num
from game.replay import Replay
from game.replay.conversation import replay_messages

from .sprites import TILE, ItemSprites, background_uri

ACTION_COLOURS = {"MoveTo": "#56b4e9", "Interact": "#f0e442", "Process": "#d55e00", "Wait": "#969696"}
FINISH_COLOUR = "#282828"


def _hex(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{int(c):02x}" for c in rgb[:3])


class _Items:
    """Distinct item states of a run, each with its sprite and (cookware) cooking counters."""

    def __init__(self, sprites: ItemSprites):
        self.sprites = sprites
        self.rows: list[list[Any]] = []
        self._index: dict[str, int] = {}

    def ref(self, item: dict[str, Any] | None) -> int:
        if item is None:
            return -1
        key = json.dumps(item, sort_keys=True)
        if key not in self._index:
            self._index[key] = len(self.rows)
            self.rows.append([self.sprites.of(item), _cooking(item)])
        return self._index[key]


def _cooking(item: dict[str, Any]) -> list[Any] | None:
    """[processed, required, stamp, cooking, all cooked, burnt]: what the page needs to show the
    progress bar game.engine.items.cooking_progress gives at any t (None: no cooking)."""
    if item.get("kind") not in ("pan", "pot") or not (item.get("required") or 0) > 0:
        return None
    contents = item.get("contents", ())
    return [
        float(item.get("processed", 0) or 0),
        float(item.get("required", 0) or 0),
        float(item.get("stamp", 0) or 0),
        bool(item.get("cooking")),
        bool(contents) and all(i.get("state") == "cooked" for i in contents),
        any(i.get("state") == "burnt" for i in contents),
    ]


def _frames(replay: Replay, items: _Items) -> list[list[Any]]:
    """Each recorded moment as [t, {station: item}, {agent: [x, y, held, finished]}, {return:
    dirty plates}], holding only what changed since the moment before."""
    agents = list(replay.level.agent_names)
    stations = [s.name for s in replay.level.stations]
    out: list[list[Any]] = []
    last_st: dict[str, int] = {}
    last_ag: dict[str, list[Any]] = {}
    last_dirty: dict[str, int] = {}
    for t, state in zip(replay.timeline.times, replay.timeline.states, strict=True):
        st = {name: items.ref(state.get("stations", {}).get(name)) for name in stations}
        ag = {}
        for name in agents:
            a = state.get("agents", {}).get(name, {})
            x, y = a.get("pos", (0, 0))
            ag[name] = [x, y, items.ref(a.get("held")), bool(a.get("finished"))]
        dirty = {k: int(v) for k, v in (state.get("dirty_plates") or {}).items()}
        out.append(
            [
                t,
                {stations.index(k): v for k, v in st.items() if last_st.get(k) != v},
                {agents.index(k): v for k, v in ag.items() if last_ag.get(k) != v},
                {k: v for k, v in dirty.items() if last_dirty.get(k) != v},
            ]
        )
        last_st, last_ag, last_dirty = st, ag, dirty
    return out


def _spans(replay: Replay, story: Any) -> list[list[Any]]:
    from game.ui.render.gantt import short_text, span_lines

    agents = list(replay.level.agent_names)
    out = []
    for s in replay.timeline.spans:
        name = str(s.action.get("action", "?"))
        out.append(
            [
                agents.index(s.agent) if s.agent in agents else 0,
                s.index,
                s.start,
                s.end,
                s.status,
                s.path or 0,
                ACTION_COLOURS.get(name, FINISH_COLOUR),
                short_text(s.action) or story.label(s.agent, s.index),
                span_lines(s, story),
            ]
        )
    return out


def _events(replay: Replay, story: Any) -> list[list[Any]]:
    agents = list(replay.level.agent_names)
    return [
        [e.time, e.kind, agents.index(e.agent) if e.agent in agents else -1, e.station or "", e.sentence()]
        for e in story.events
    ]


def _why(result: dict[str, Any]) -> dict[str, Any] | None:
    raw = result.get("diagnosis")
    if not isinstance(raw, dict):
        return None
    d = Diagnosis.from_dict(raw)
    return {
        "error": d.kind,
        "summary": d.summary,
        "need": f"Needed: {d.need}",
        "causes": [{"t": c.time, "text": c.text, "kind": c.kind} for c in d.causes],
        "jump": d.jump,
    }


def _markers(result: dict[str, Any], why: dict[str, Any] | None) -> list[list[Any]]:
    from game.ui.render.panels import run_markers

    kinds = {True: "error", False: "served"}
    out = [[m.time, kinds[m.label.startswith("error")], m.label] for m in run_markers(result)]
    if why and why["jump"] is not None:  # as the viewer marks it: the likeliest cause
        out.append([why["jump"], "cause", f"cause at t = {num(why['jump'])}: {why['causes'][0]['text']}"])
    return out


def _metrics(result: dict[str, Any], agents: list[str]) -> dict[str, Any]:
    from game.ui.render.panels import error_lines, headline, time_split

    text, colour = headline(result)
    oct_, tmax = float(result.get("time", 0)), float(result.get("t_max", 0) or 0)
    line = f"OCT {num(oct_)}    T_max {num(tmax)}    D_max {num(result.get('d_max', 0))}"
    if result.get("done") and tmax:
        line += f"    nOCT {100 * oct_ / tmax:.1f}"
    rows = []
    for agent in agents:
        md = result.get("md", result.get("agent_moving_time", {})).get(agent, 0)
        au = result.get("au", {}).get(agent)
        au_text = f"   AU {100 * au:.1f}%" if isinstance(au, int | float) else ""
        rows.append({"text": f"{agent}   MD {num(md)}{au_text}", "split": time_split(result, agent)})
    served = zip(result.get("finished_orders", []), result.get("served_times", []), strict=False)
    return {
        "headline": text,
        "colour": _hex(colour),
        "line": line,
        "agents": rows,
        "orders": [[f"{k + 1}. {name}", f"served t = {num(t)}", t] for k, (name, t) in enumerate(served)]
        + [[f"-  {name}", "not served", None] for name in result.get("remaining_orders", [])],
        "error": error_lines(result),
    }


def run_data(replay: Replay, label: str = "") -> dict[str, Any]:
    """Everything one run's page shows, as plain JSON-ready data."""
    from game.ui.render import palette as P
    from game.ui.screens.replay import source_text

    level, result = replay.level, replay.result
    agents = list(level.agent_names)
    story = narrate(level, replay.timeline, replay.rules, result.get("error_detail"))
    items = _Items(ItemSprites())
    frames = _frames(replay, items)
    why = _why(result)
    returns = [s.name for s in level.stations if s.kind == "plate_return"]
    return {
        "label": label,
        "title": level.title or level.name,
        "level": level.name,
        "rules": replay.rules,
        "source": source_text(replay),
        "end": replay.timeline.end,
        "grid": {"w": level.width, "h": level.height, "tile": TILE},
        "background": background_uri(level),
        "stations": [[s.name, s.x, s.y, s.kind or ""] for s in level.stations],
        "stoves": [s.name for s in level.stations if s.kind == "stove"],
        "returns": returns,
        "agents": agents,
        "colours": [_hex(P.agent_colour(i)) for i in range(len(agents))],
        "sprites": items.sprites.uris,
        "items": items.rows,
        "frames": frames,
        "spans": _spans(replay, story),
        "events": _events(replay, story),
        "why": why,
        "markers": _markers(result, why),
        "metrics": _metrics(result, agents),
        "messages": [[m.time, m.sender, list(m.receivers), m.text] for m in replay_messages(replay.source)],
    }


def compare_data(a: Replay, b: Replay, labels: tuple[str, str]) -> dict[str, Any]:
    """Two runs of one level on one clock, with the first instant at which they differ."""
    from game.ui.screens.compare import first_divergence, metric_differences

    agents = list(a.level.agent_names)
    t = first_divergence(a.timeline, b.timeline, agents)
    return {
        "kind": "compare",
        "runs": [run_data(a, labels[0]), run_data(b, labels[1])],
        "divergence": t,
        "divergence_text": "the runs never differ" if t is None else f"the runs differ from t = {num(t)}",
        "differences": metric_differences(a.result, b.result, agents),
    }
