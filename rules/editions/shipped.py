"""The editions shipped with the package: the five boxes of the rule books, as TOML files beside this module.

The one place in ``rules`` that reads anything: its own package data, through ``pkgutil.get_data`` (as fixed
as the code itself; a family's files are read by the device and passed in as text). Not
``importlib.resources``: it pulls in tempfile and shutil, a tenth of a second at a Pi core's pace before READY.
"""

from __future__ import annotations

import pkgutil

from .fileformat import EditionError, read_edition
from .model import Edition

ORDER = ("banking", "classic", "schalke", "sonic", "skylanders", "classic-uk", "classic-us")
"""The shipped editions, in the order the menus list them (the five German boxes, then the English boards); each
file may name an earlier one as its base."""


def shipped_texts() -> dict[str, str]:
    """Each shipped edition's file, by key."""
    return {key: (pkgutil.get_data(__package__, f"{key}.toml") or b"").decode("utf-8") for key in ORDER}


def load_shipped() -> dict[str, Edition]:
    """The shipped editions, checked like a family's; a broken shipped file is a bug, so it raises."""
    texts = shipped_texts()
    out: dict[str, Edition] = {}
    for key in sorted(ORDER, key=lambda k: k != "classic"):  # classic first: the others are based on it
        checked = read_edition(texts[key], out)
        if checked.edition is None or checked.edition.key != key:
            raise EditionError(checked.problems)
        out[key] = checked.edition
    return {key: out[key] for key in ORDER}
