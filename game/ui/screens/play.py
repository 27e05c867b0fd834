"""The play screen lives in game.ui.play (a package of small parts); this name stays for callers."""

from game.ui.planner_job import solver_available
from game.ui.play import PlayOptions, PlayScreen
from game.ui.play.finish import open_replay_screen, replay_viewer_available

__all__ = ["PlayOptions", "PlayScreen", "open_replay_screen", "replay_viewer_available", "solver_available"]
