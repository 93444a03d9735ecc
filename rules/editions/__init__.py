"""The editions as data: each MONOPOLY box is a TOML file (``rules/editions/*.toml``), every rule difference
between the books a named key of it (docs/editions.md). A family's own edition is a file of the same format,
read by the device and checked here (:func:`read_edition`).
"""

from __future__ import annotations

from .fileformat import (
    Checked,
    EditionError,
    Problem,
    check_data,
    edition_data,
    edition_from_data,
    journal_data,
    read_edition,
    to_toml,
)
from .model import Edition, Gender, Mode, QuickRules, Word
from .shipped import load_shipped

EDITIONS: dict[str, Edition] = load_shipped()
"""The shipped editions by key."""

SCHNELLSPIEL: QuickRules = EDITIONS["banking"].quick
"""Seed 000: 2 paid deeds, 3 Apartments → Hotel, ends when the second player is bankrupt (from banking.toml)."""
KURZES_SPIEL: QuickRules = EDITIONS["skylanders"].quick
"""Seed 004: 3 free deeds, 3 Hütten → Schloss, ends at the first bankruptcy (from skylanders.toml)."""


__all__ = ["EDITIONS", "KURZES_SPIEL", "SCHNELLSPIEL", "Checked", "Edition", "EditionError", "Gender", "Mode",
           "Problem", "QuickRules", "Word", "check_data", "edition_data", "edition_from_data", "journal_data",
           "read_edition", "to_toml"]
