"""Reading YAML while keeping line numbers, so every complaint can say where it is.

Before a document is built, one pass over its events (libyaml's parser keeps no recursion)
refuses nesting deeper than MAX_DEPTH and documents whose aliases would expand past
MAX_YAML_NODES nodes, so no file can overflow the stack or make a tiny alias bomb explode."""

from __future__ import annotations

from typing import Any

import yaml

from game.inputs import MAX_DEPTH, MAX_YAML_NODES

from .errors import LevelError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _where(mark: Any) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""


def check_shape(text: str, source: str) -> None:
    """Refuse text nested too deep or expanding too far, before anything is built from it."""
    depth = nodes = 0
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for (aliases inside counted in)
    opened: list[tuple[str | None, int]] = []
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, _OPEN):
                depth += 1
                if depth > MAX_DEPTH:
                    where = _where(event.start_mark)
                    raise LevelError(source, [f"{where}nested deeper than {MAX_DEPTH} levels"])
                opened.append((event.anchor, nodes))
                nodes += 1
            elif isinstance(event, _CLOSE):
                depth -= 1
                anchor, start = opened.pop()
                if anchor:
                    sizes[anchor] = nodes - start
            elif isinstance(event, yaml.ScalarEvent):
                nodes += 1
                if event.anchor:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                nodes += sizes.get(event.anchor, 1)
            if nodes > MAX_YAML_NODES:
                where = _where(event.start_mark)
                raise LevelError(
                    source, [f"{where}too large: over {MAX_YAML_NODES:,} values once aliases are expanded"]
                )
    except yaml.MarkedYAMLError as e:
        if "nesting depth" in str(e.problem):  # libyaml's own limit, met while it looks ahead
            where = _where(e.problem_mark)
            raise LevelError(source, [f"{where}nested deeper than {MAX_DEPTH} levels"]) from None
        return  # the syntax error is reported, with its place, by parse_document
    except yaml.YAMLError:
        return


def parse_document(text: str, source: str) -> yaml.Node:
    """The document's root node (safe tags only); a syntax error names its line and column."""
    check_shape(text, source)
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
    except (yaml.YAMLError, TypeError, ValueError, OverflowError) as e:
        # TypeError: an unhashable key ({[1]: x}); ValueError/OverflowError: a bad date or number
        return _Unreadable(str(getattr(e, "problem", None) or e))


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
