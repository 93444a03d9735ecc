"""What one module uses of another is public: no ``_name`` taken across a module's border.

A leading underscore tells the next reader "only this module relies on me: change me freely". A private name
another module imports (``from .journal import _crc``) or reaches (``display._qr``) breaks that promise silently:
the change compiles, and the other module fails. Read from the source of every module of the project's packages,
type-only imports included. ruff's ``PLC2701`` says the same of ``from x import _y`` only, and only in preview.
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_modules import imported_from, modules


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


OTHERS_PUBLIC = frozenset({"_asdict", "_replace", "_fields", "_make"})
"""Names with an underscore that are public all the same: a named tuple's documented methods."""


def _defined(tree: ast.Module) -> set[str]:
    """The private names a module makes itself: its functions, classes, variables and attributes."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
    return {name for name in own if _private(name)}


def _own_object(node: ast.expr) -> bool:
    """``self._x``, ``cls._x`` and ``super()._x``: a class's own or its base's (argparse's hooks, gpiozero's)."""
    return (isinstance(node, ast.Name) and node.id in ("self", "cls")) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super")


def taken(module: str, path: Path, known: dict[str, Path]) -> list[str]:
    """Each private name of another project module that ``module`` imports or reaches, as ``line: module.name``;
    and each ``thing._name`` of an object that is not the module's own (no class of it makes ``_name``): the
    object is another module's, as ``self._daemon._set_pin`` was the service's."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: dict[str, str] = {}  # a local name → the project module it stands for
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = imported_from(module, path, node)
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
                elif source in known and source != module and _private(alias.name):
                    found.append(f"{node.lineno}: {source}.{alias.name}")
    own = _defined(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        head = _dotted(node.value)
        first, _, rest = (head or "").partition(".")
        target = bound.get(first, "") + (f".{rest}" if rest else "")
        if target in known:
            if target != module:
                found.append(f"{node.lineno}: {target}.{node.attr}")
        elif node.attr not in own | OTHERS_PUBLIC and not _own_object(node.value):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda hit: int(hit.split(":")[0]))


def test_the_reader_finds_a_private_name_either_way(tmp_path: Path) -> None:
    here = tmp_path / "device" / "store"
    here.mkdir(parents=True)
    (here / "salvage.py").write_text("from .journal import _crc\nimport drivers.display as d\nd._qr(1)\n"
                                     "from drivers import display\ndisplay._box\nself._own\nself._d._set_pin()\n", encoding="utf-8")
    known = {"device.store.journal": here, "drivers.display": here, "drivers": here}
    assert taken("device.store.salvage", here / "salvage.py", known) == [
        "1: device.store.journal._crc", "3: drivers.display._qr", "5: drivers.display._box", "7: self._d._set_pin"]


def test_no_module_takes_a_private_name_of_another() -> None:
    known = modules()
    taking = {module: hits for module, path in known.items() if (hits := taken(module, path, known))}
    assert taking == {}
