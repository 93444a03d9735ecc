"""One rule for players' names, used by the rules, the device and the web alike.

A name is what the journal keys a player by and what the OLED prints beside an amount, so it
must be short, visible and unmistakable: two names that differ only in case or in invisible
characters would book on the wrong account.
"""

from __future__ import annotations

import unicodedata

from .errors import RuleError
from .phrase import phrase

MAX_NAME = 12
"""A name must fit a line of the OLED beside an amount."""

_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
"""Control, format (zero-width), surrogate, private-use, unassigned, line and paragraph separators."""


def clean_name(raw: object) -> str:
    """The name as it will be stored (NFC, single spaces, trimmed), or RuleError(bad_command) saying why not.

    Spaces around a name are removed rather than refused: a phone's keyboard adds them.
    """
    if not isinstance(raw, str):
        raise RuleError("bad_command", phrase("rules.name.type"))
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise RuleError("bad_command", phrase("rules.name.missing"))
    if any(unicodedata.category(ch) in _INVISIBLE or (ch.isspace() and ch != " ") for ch in name):
        raise RuleError("bad_command", phrase("rules.name.invisible"))
    name = " ".join(part for part in name.split(" ") if part)
    if len(name) > MAX_NAME:
        raise RuleError("bad_command", phrase("rules.name.long", n=MAX_NAME))
    return name


def name_key(name: str) -> str:
    """Two names are the same player when their keys are equal ("anna" is "Anna")."""
    return unicodedata.normalize("NFC", name).casefold()


def check_distinct(names: list[str]) -> None:
    """Refuse a list in which two names would be the same player."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            raise RuleError("bad_command", phrase("rules.name.taken", name=name, other=seen[key]))
        seen[key] = name
