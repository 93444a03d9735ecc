"""Which modules speak only through the catalogues, and the words in them that programs read.

One file here per surface (``doctor.py``, ``rules.py``, ``scenes.py`` …), each with ``MODULES`` (the modules
whose every text a person reads comes from the catalogue) and ``ALLOWED`` (the string constants with letters
in them that no person reads as a sentence of ours: commands, paths, JSON fields, key names). A surface is
converted beside the others without editing a shared list; tests/test_words.py scans the union.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from rules.ops import LEGAL_ROWS, REGISTRY


def surfaces() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)]


MODULES: tuple[str, ...] = tuple(sorted({m for s in surfaces() for m in s.MODULES}))
OPS: frozenset[str] = frozenset({op.name for op in REGISTRY} | {row.name for row in LEGAL_ROWS})
"""The ops of the contract and their rows of the legal moves, read off the rules' table: words programs read, in
every surface, and never listed again here."""
ALLOWED: frozenset[str] = frozenset().union(*(s.ALLOWED for s in surfaces())) | OPS
