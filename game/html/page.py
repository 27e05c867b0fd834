"""One self-contained HTML file: the template with the page data inlined as JSON.

The data sits in a <script type="application/json"> element; `<`, `>`, `&` and the line
separators U+2028/U+2029 are written as JSON escapes, so no text from a replay (a level title, an
agent's name, a plan, an LLM's message) can close the element or be read as markup."""

from __future__ import annotations

import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

PLACEHOLDER = "__PAGE_DATA__"
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_TABLE = str.maketrans(_ESCAPES)


class HtmlError(ValueError):
    """A page that cannot be written (the message names the file and why)."""


def embedded_json(data: Any) -> str:
    """The data as JSON that is safe inside a <script> element."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError as e:  # NaN or infinity: JSON.parse would refuse the page
        raise HtmlError(f"the page data holds a number JSON cannot carry ({e})") from None
    return text.translate(_TABLE)


GENERATOR = '<meta name="generator" content="paracook-kitchen">'  # in the template's head


def written_here(path: Path) -> bool:
    """Whether an existing file is one of our pages (its head names us), so that writing a
    site over it loses nobody's work."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return GENERATOR.encode() in head


def template() -> str:
    return files("game.html").joinpath("template.html").read_text(encoding="utf-8")


def page_html(data: Any) -> str:
    page = template()
    assert page.count(PLACEHOLDER) == 1
    return page.replace(PLACEHOLDER, embedded_json(data))


def write_page(path: str | Path, data: Any) -> Path:
    """Write the page atomically (a half-written page never replaces a good one)."""
    path = Path(path)
    html = page_html(data)
    tmp = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        if tmp.parent.is_dir():
            tmp.unlink(missing_ok=True)
        raise HtmlError(f"{path}: cannot write the page ({e.strerror or e})") from None
    return path
