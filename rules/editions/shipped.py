"""The editions shipped with the package: the five boxes of the rule books, as TOML files beside this module.

The one place in ``rules`` that reads anything: its own package data, through ``pkgutil.get_data`` (as fixed
as the code itself; a family's files are read by the device and passed in as text). Not
``importlib.resources``: it pulls in tempfile and shutil, a tenth of a second at a Pi core's pace before READY.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .model import Edition
from .problems import EditionError

ORDER = ("banking", "classic", "schalke", "sonic", "skylanders", "classic-uk", "classic-us")
"""The shipped editions, in the order the menus list them (the five German boxes, then the English boards); each
file may name an earlier one as its base."""


def shipped_text(key: str) -> str:
    """One shipped edition's file."""
    import pkgutil  # with importlib.util: when an edition is first read, after READY

    return (pkgutil.get_data(__package__, f"{key}.toml") or b"").decode("utf-8")


def shipped_texts() -> dict[str, str]:
    """Each shipped edition's file, by key."""
    return {key: shipped_text(key) for key in ORDER}


class Shipped(Mapping[str, Edition]):
    """The shipped editions by key, each read and checked on its first use (with the edition it names as its base).

    Reading all seven files and checking them cost about 46 M instructions at every start, ≈ 0.17 s at a Pi core's
    pace, before READY; a start needs one or two of them (the game's, the classic board's names). The keys, their
    order and ``in`` need no file. A broken shipped file is a bug: it raises where it is first used."""

    def __init__(self) -> None:
        self._read: dict[str, Edition] = {}

    def __getitem__(self, key: str) -> Edition:
        edition = self._read.get(key)
        if edition is None:
            if key not in ORDER:
                raise KeyError(key)
            from .fileformat import read_edition  # the file's checks: on first use, after READY

            checked = read_edition(shipped_text(key), self)
            if checked.edition is None or checked.edition.key != key:
                raise EditionError(checked.problems)
            edition = self._read[key] = checked.edition
        return edition

    def __contains__(self, key: object) -> bool:
        return key in ORDER

    def __iter__(self) -> Iterator[str]:
        return iter(ORDER)

    def __len__(self) -> int:
        return len(ORDER)


def load_shipped() -> dict[str, Edition]:
    """The shipped editions, every one read and checked now."""
    shipped = Shipped()
    return {key: shipped[key] for key in ORDER}
