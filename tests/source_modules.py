"""The project's modules as the source-reading tests walk them (import circles, public names)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "drivers", "device", "webui", "shapes", "bench", "words")


def modules() -> dict[str, Path]:
    """Every module of the project's packages by its dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_from(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The dotted name a ``from … import`` in ``module`` (its file ``path``) reads from, a relative one resolved
    against the module's package."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))
