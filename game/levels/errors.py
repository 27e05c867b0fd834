"""The one error every level loader raises: what is wrong, in which file, where."""

from __future__ import annotations


class LevelError(ValueError):
    """A level (or its orders) that cannot be used; each problem names its place."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        super().__init__(
            f"{source}: " + "; ".join(problems)
            if len(problems) == 1
            else f"{source}:\n" + "\n".join(f"  - {p}" for p in problems)
        )
