"""No import circle among the project's modules, read from the source.

A circle works only as long as one side imports the other late (inside a function): move that import to the top
and the program fails at start, and neither module can be read or tested without the other. An import counts at
the top of a module and inside a function; one under ``if TYPE_CHECKING:`` never runs and names a type only, so it
is left out. ``from a import b`` is an import of ``a.b`` when ``b`` is a module, else of ``a``.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

from source_modules import imported_from, modules


def _for_types_only(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports that run: everywhere in the text but the body of ``if TYPE_CHECKING:``."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    for child in ast.iter_child_nodes(node):
        if _for_types_only(child):
            assert isinstance(child, ast.If)
            for other in child.orelse:
                yield from _run_imports(other)
        else:
            yield from _run_imports(child)


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``module`` imports when it runs."""
    names: set[str] = set()
    for node in _run_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
            continue
        source = imported_from(module, path, node)
        names |= {f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source for alias in node.names}
    return {name for name in names if name in known and name != module}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {module: imported(module, path, known) for module, path in known.items()}


def test_the_walk_sees_the_imports_that_run() -> None:
    """The reader itself: a relative import and one in a function are found, one for type checking only is not."""
    edges = graph()
    assert "device.store.cards" in edges["device.daemon.web"]  # ``from ..store.cards import Refused``
    assert "webui.app" in edges["device.daemon.web"]  # inside ``load_web()``
    assert "device.daemon.service" not in edges["device.daemon.web"]  # ``Daemon``, under TYPE_CHECKING only
    assert "drivers.board" in edges["device.daemon.cli"]  # ``from drivers.board import on_raspberry_pi`` in _run
    assert "rules.commands" in edges["rules.game"]  # ``from . import commands as cmds``
    assert "device.scenes.inputs" in edges["device.scenes"]  # a package's ``from .inputs import WIRE_KEYS``


def test_no_module_imports_itself_round_a_circle() -> None:
    try:
        graphlib.TopologicalSorter(graph()).prepare()
    except graphlib.CycleError as err:
        raise AssertionError(f"an import circle: {' → '.join(err.args[1])}") from None
