"""The wheel carries the top-level `levels/` and `assets/` folders as `game/_levels` and
`game/_assets` (read through `game.paths`); everything else is in pyproject.toml."""

from setuptools import find_packages, setup

BUNDLED = {"game._levels": "levels", "game._assets": "assets"}

setup(
    packages=find_packages(include=["game", "game.*"]) + list(BUNDLED),
    package_dir=BUNDLED,
    package_data={
        "game": ["**/*.json", "**/*.txt", "**/*.md", "**/*.html"],
        "game._levels": ["**/*.yaml", "**/*.json"],
        "game._assets": ["**/*"],
    },
)
