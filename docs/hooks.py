"""MkDocs hooks: the CLI reference written from the argparse parsers themselves, and every page
of docs/ that the nav does not list added under "More guides", so a new page needs no edit here."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

MARKER = "<!-- cli-reference -->"
MORE = "More guides"


def _listed(nav) -> set[str]:
    out: set[str] = set()
    for item in nav or []:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            out |= _listed(value)
        elif isinstance(value, str):
            out.add(value)
    return out


def on_config(config, **kwargs):
    # document the source next to these docs, whichever copy of the package is installed
    sys.path.insert(0, str(Path(config["config_file_path"]).resolve().parent))
    docs = Path(config["docs_dir"])
    listed = _listed(config["nav"])
    extra = sorted(
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.md")
        if p.relative_to(docs).as_posix() not in listed and p.parts[-2:-1] != ("results",)
    )
    if extra and config["nav"] is not None:
        config["nav"].append({MORE: extra})
    return config


def _sections(parser: argparse.ArgumentParser, name: str, depth: int) -> list[str]:
    heading = "#" * depth
    out = [f"{heading} `{name}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    for action in parser._actions:  # argparse keeps its subcommands here only
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                out += _sections(sub, f"{name} {sub_name}", min(depth + 1, 4))
    return out


def cli_reference() -> str:
    os.environ["COLUMNS"] = "80"  # the same line breaks on every machine, within the code box
    from game.cli import build_parser

    return "\n".join(_sections(build_parser(), "paracook-kitchen", 2))


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
