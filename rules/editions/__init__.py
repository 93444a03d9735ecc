"""The editions as data: each MONOPOLY box is a TOML file (``rules/editions/*.toml``), every rule difference
between the books a named key of it (docs/editions.md). A family's own edition is a file of the same format,
read by the device and checked here (:func:`read_edition`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .model import Edition, Gender, Mode, QuickRules, Word
from .problems import Checked, EditionError, Problem
from .shipped import Shipped

if TYPE_CHECKING:
    from .fileformat import check_data, edition_data, edition_from_data, journal_data, read_edition, to_toml

    SCHNELLSPIEL: QuickRules
    KURZES_SPIEL: QuickRules

_FILEFORMAT = frozenset(("check_data", "edition_data", "edition_from_data", "journal_data", "read_edition", "to_toml"))
"""Reading and writing an edition's file (:mod:`.fileformat`, with its schema, its TOML checks and their patterns):
imported when first asked for, as the editions themselves are read, after READY (about 8 M instructions)."""

EDITIONS: Mapping[str, Edition] = Shipped()
"""The shipped editions by key (each file read on its first use)."""

_QUICK = {"SCHNELLSPIEL": "banking", "KURZES_SPIEL": "skylanders"}
"""``SCHNELLSPIEL``, seed 000: 2 paid deeds, 3 Apartments → Hotel, ends when the second player is bankrupt (from
banking.toml). ``KURZES_SPIEL``, seed 004: 3 free deeds, 3 Hütten → Schloss, ends at the first bankruptcy (from
skylanders.toml). Each read from its edition when it is first asked for, as ``EDITIONS`` reads its files."""


def __getattr__(name: str) -> Any:
    if name in _QUICK:
        return EDITIONS[_QUICK[name]].quick
    if name in _FILEFORMAT:
        from . import fileformat

        return getattr(fileformat, name)
    raise AttributeError(name)


__all__ = ["EDITIONS", "KURZES_SPIEL", "SCHNELLSPIEL", "Checked", "Edition", "EditionError", "Gender", "Mode",
           "Problem", "QuickRules", "Word", "check_data", "edition_data", "edition_from_data", "journal_data",
           "read_edition", "to_toml"]
