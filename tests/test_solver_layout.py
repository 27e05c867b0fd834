"""The built-in planner's house rules, read from its source: three parts (`schedule`, `bound`,
`exact`) that never import one another, under `planner`; no import circles, none dodged by an
import inside a function; short functions; private names kept in their files; the decoder's
contract with its step classes (`schedule.contract`) complete both ways."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import game.planners.solver as solver_package

SOLVER = Path(solver_package.__file__).parent
PARTS = ("schedule", "bound", "exact")
MAX_LINES = 60


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path) -> dict[str, list[tuple[str, bool]]]:
    """Per module of the package at `root`: the modules of that package it imports, each with
    whether the import sits inside a function."""
    out: dict[str, list[tuple[str, bool]]] = {}
    for path in sorted(root.rglob("*.py")):
        name = module_name(root, path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {
            id(n)
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            for n in ast.walk(f)
        }
        got = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom | ast.Import):
                continue
            for target in targets(node, package, root.name):
                got.append((target, id(node) in inner))
        out[name] = got
    return out


def targets(node: ast.ImportFrom | ast.Import, package: str, top: str) -> list[str]:
    """The modules of the package (named from `top`) that the import statement loads."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
        # `from . import x` may load the submodule x
        names = [module] + [f"{module}.{a.name}" for a in node.names]
    else:
        module = node.module or ""
        names = [module] + [f"{module}.{a.name}" for a in node.names]
    found = []
    for n in names:
        parts = n.split(".")
        if top in parts:  # game.planners.solver.x -> solver.x
            found.append(".".join(parts[parts.index(top) :]))
    return found


def circles(graph: dict[str, list[tuple[str, bool]]]) -> list[list[str]]:
    """Every import circle found by a depth-first search (each reported once, as a path)."""
    edges = {m: sorted({t for t, _ in deps if t in graph and t != m}) for m, deps in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in edges[m]:
            if state.get(t) == 1:
                found.append(stack[stack.index(t) :] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    return found


def package_with(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "solver"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checker_finds_a_planted_circle_and_a_hidden_import(tmp_path):
    root = package_with(
        tmp_path,
        {
            "__init__.py": "",
            "bound/__init__.py": "",
            "bound/a.py": "from .b import x\n",
            "bound/b.py": "def f():\n    from .c import y\n",
            "bound/c.py": "from game.planners.solver.bound import a\n",
        },
    )
    graph = imports(root)
    assert circles(graph) == [["solver.bound.a", "solver.bound.b", "solver.bound.c", "solver.bound.a"]]
    assert ("solver.bound.c", True) in graph["solver.bound.b"]
    fixed = package_with(tmp_path, {"bound/c.py": "y = 1\n"})
    assert circles(imports(fixed)) == []


@cache
def solver_imports() -> dict[str, list[tuple[str, bool]]]:
    """`imports(SOLVER)`, read once for the tests that ask it (they only read it)."""
    return imports(SOLVER)


def test_the_solver_has_no_import_circle():
    assert circles(solver_imports()) == []


def test_no_solver_module_is_imported_inside_a_function():
    hidden = [(m, t) for m, deps in solver_imports().items() for t, inside in deps if inside]
    assert hidden == []


def test_the_three_parts_never_import_one_another():
    graph = solver_imports()
    for part in PARTS:
        assert (SOLVER / part / "__init__.py").is_file()
        for m, deps in graph.items():
            if not m.startswith(f"solver.{part}"):
                continue
            for t, _ in deps:
                others = [p for p in PARTS if p != part and t.startswith(f"solver.{p}")]
                assert not others, f"{m} imports {t}"
                assert not t.startswith(("solver.planner", "solver.proven")), f"{m} imports {t}"


@cache
def solver_sources() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(SOLVER.rglob("*.py"))]


def test_no_function_is_longer_than_sixty_lines():
    long = [
        f"{p.relative_to(SOLVER)}:{n.lineno} {n.name} ({n.end_lineno - n.lineno + 1} lines)"
        for p, tree in solver_sources()
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.end_lineno - n.lineno + 1 > MAX_LINES
    ]
    assert long == []


def own_names(tree: ast.Module) -> set[str]:
    """Names a file defines: its functions, classes, assignments and attributes set on self."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
            out.add(n.attr)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


def test_private_names_stay_in_their_files():
    crossing = []
    for p, tree in solver_sources():
        own = own_names(tree)
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom):
                crossing += [f"{p.name} imports {a.name}" for a in n.names if a.name.startswith("_")]
            elif isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__"):
                if n.attr not in own:
                    crossing.append(f"{p.name}:{n.lineno} uses {n.attr}")
    assert crossing == []


def self_uses(tree: ast.Module) -> set[str]:
    return {
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    }


def protocol_members(tree: ast.Module, name: str) -> set[str]:
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    out = set()
    for n in cls.body:
        if isinstance(n, ast.FunctionDef):
            out.add(n.name)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


@pytest.mark.parametrize("steps", ["prep_steps.py", "plate_steps.py", "ware_moves.py"])
def test_a_step_class_uses_of_the_decoder_only_what_the_contract_says(steps):
    contract = ast.parse((SOLVER / "schedule" / "contract.py").read_text(encoding="utf-8"))
    host = protocol_members(contract, "StepHost")
    tree = ast.parse((SOLVER / "schedule" / steps).read_text(encoding="utf-8"))
    assert self_uses(tree) - own_names(tree) - host == set()


def test_a_decoder_keeps_its_side_of_the_contract():
    from kitchens import kitchen

    from game.planners.solver.model import KitchenModel
    from game.planners.solver.schedule import Decoder, Search, build_tasks
    from game.planners.solver.schedule.contract import StepHost, Steps

    stations = {
        "L": {"name": "dispenser1", "provides": "lettuce"},
        "C": {"name": "chopping_board1"},
        "P": {"name": "table1", "item": "plate"},
        "W": {"name": "serving_window"},
    }
    level = kitchen(["#L#C#", "#1..W", "#P###"], stations, ("salad_basic",))
    model = KitchenModel(level, "paracook")
    tasks = build_tasks(model)
    decoder = Decoder(model, tasks)
    genome = Search(model, tasks, 50, 0).start_genomes()[0]
    assert decoder.decode(genome) is not None  # reset: the state the steps read is there
    assert isinstance(decoder, StepHost) and isinstance(decoder, Steps)
    tree = ast.parse((SOLVER / "schedule" / "decoder.py").read_text(encoding="utf-8"))
    contract = ast.parse((SOLVER / "schedule" / "contract.py").read_text(encoding="utf-8"))
    # every effect the steps may ask for is one the decoder or a step class defines
    for member in protocol_members(contract, "StepHost") | protocol_members(contract, "Steps"):
        assert getattr(decoder, member, None) is not None, member
    assert {n for n in own_names(tree) if n.startswith("effect_")} <= set(dir(decoder))
