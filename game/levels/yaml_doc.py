"""Reading YAML while keeping line numbers, so every complaint can say where it is."""

from __future__ import annotations

from typing import Any

import yaml

from .errors import LevelError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_document(text: str, source: str) -> yaml.Node:
    """The document's root node (safe tags only); a syntax error names its line and column."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise LevelError(source, [f"{where}not valid YAML ({e.problem or e.context})"]) from None
    except yaml.YAMLError as e:
        raise LevelError(source, [f"not valid YAML ({e})"]) from None
    if root is None:
        raise LevelError(source, ["the file is empty"])
    if not isinstance(root, yaml.MappingNode):
        raise LevelError(source, [f"line {line(root)}: a level must be a mapping of fields"])
    return root


def line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def value(node: yaml.Node) -> Any:
    """The plain Python value of a node (what yaml.safe_load would give)."""
    try:
        return yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    except yaml.YAMLError as e:
        return _Unreadable(str(getattr(e, "problem", e)))


class _Unreadable:
    """A value the safe constructor refused (e.g. an unknown tag); never a valid field."""

    def __init__(self, reason: str):
        self.reason = reason

    def __repr__(self) -> str:
        return f"<unreadable: {self.reason}>"


def entries(node: yaml.MappingNode) -> list[tuple[str, yaml.Node, yaml.Node]]:
    """(key text, key node, value node) in file order; keys are taken as written."""
    out = []
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(value(key_node))
        out.append((str(key), key_node, value_node))
    return out
