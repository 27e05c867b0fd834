"""The controls overlay (F1): every input of the play window and the rule of same-instant order."""

from __future__ import annotations

from game.engine.diagnosis import SAME_INSTANT_RULE

HELP: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Agents",
        [
            ("click an agent", "select it (its queue gets the new actions)"),
            ("1-9, Tab", "select agent n / the next agent; new actions go at its queue's end"),
        ],
    ),
    (
        "Planning",
        [
            ("click floor", "queue a MoveTo to that tile"),
            ("click station", "queue an Interact; walks next to it first when needed"),
            ("right-click, P", "queue a Process (chop, wash) at the station under the mouse"),
            ("I / M", "Interact with / MoveTo the tile under the mouse"),
            ("Shift+click", "MoveTo even where another agent stands"),
            ("W", "queue a Wait: type its length, +/- adjust, Enter queues"),
            ("F", "queue a Finish"),
            ("+ / -", "lengthen / shorten the selected Wait"),
            ("click an action", "select it (in a queue or on the timeline): new actions go before it"),
            ("drag a Wait's end", "on the timeline: change how long it waits"),
            ("Up / Down", "select the previous / next action in the queue"),
            ("Esc", "deselect: new actions go at the end"),
            ("Delete, Backspace", "delete the selected action (or the last one)"),
            ("Ctrl+Z / Ctrl+Y", "undo / redo any edit"),
        ],
    ),
    (
        "Time",
        [
            ("Space", "play / pause the plan as an animation"),
            ("[ / ]", "slower / faster"),
            ("Left / Right", "previous / next event"),
            ("Home / End", "start / end of the plan"),
            ("drag the bar", "show the kitchen at any moment (the timeline too)"),
            ("same instant", SAME_INSTANT_RULE),
        ],
    ),
    (
        "Files",
        [
            ("Ctrl+S", "save the plan (Ctrl+Shift+S: save as)"),
            ("Ctrl+O", "open a saved plan (type a path or double-click a file)"),
            ("Ctrl+E", "export the run as ParaCook JSON (result and plan)"),
            ("Enter / Esc", "confirm / cancel any dialog"),
            ("autosave", "the plan and its undo history are saved after every edit"),
        ],
    ),
    (
        "Window",
        [
            ("F1, ?", "show / hide this help"),
            ("hover", "a tile, or a bar of the timeline: what is there, what it does"),
        ],
    ),
]
