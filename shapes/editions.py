"""The family's edition files as the store answers about them and the admin's pages show them: the list, a
file's problems said, and the answers to a check, a save, a delete and a restore."""

# No ``from __future__ import annotations``: Python 3.11 counts a NotRequired key written as a string as
# required (``__required_keys__``), and what reads these types at run time would then expect a key not sent.

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from rules import Edition
    from rules.editions import Problem


class Said(TypedDict):
    """A problem of an edition as the admin's page says it: where (a file's line, a form's field), the rules' key,
    the message beside its place and the text for the list; ``note``: a form's problem that is only a warning."""

    path: str
    line: int | None
    code: str
    message: str
    text: str
    note: NotRequired[bool]


ToldAs = Callable[["Problem", "Edition"], Said]
"""How the asking page says an edition's problem, given the edition whose names say its squares."""


class EditionEntry(TypedDict):
    """An edition on the box: shipped or the family's (then its file), and the notes its file gave."""

    key: str
    title: str
    base: str | None
    family: bool
    file: str | None
    warnings: list[Said]


class BrokenFile(TypedDict):
    """A family's file that does not play, with why."""

    file: str
    problems: list[Said]


class PreviousVersion(TypedDict):
    """A replaced or deleted file kept to bring back: its name in the folder, its own name, and when."""

    name: str
    file: str
    at: str


class Overview(TypedDict):
    editions: list[EditionEntry]
    broken: list[BrokenFile]
    previous: list[PreviousVersion]


class CheckAnswer(TypedDict):
    """An edition checked (and saved, when it plays): its key, its problems and notes, and its text (the store's
    own; the web answers without it)."""

    ok: bool
    key: str | None
    problems: list[Said]
    warnings: list[Said]
    text: NotRequired[str]


class ToReplace(CheckAnswer):
    """Not saved: it would replace a file (code ``exists``); the ``question`` the page asks before it sends again."""

    code: str
    question: str


class FileRefused(TypedDict):
    """A file not deleted or brought back: not there (``no_file``), or the card refused (``not_saved``)."""

    ok: Literal[False]
    code: str
    problems: list[Said]


class Deleted(TypedDict):
    ok: Literal[True]
    kept: str


class Restored(TypedDict):
    ok: Literal[True]
    key: str | None
    file: str


class DeedData(TypedDict):
    price: int
    rents: list[int]
    house_price: int
    mortgage: int


class EditionData(TypedDict):
    """An edition's data as its file holds it (:func:`rules.editions.edition_data`), as far as the admin's form
    reads it (the rest rides along to the form's script): names, short names and taxes by square, deeds, the
    stations' and utilities' words, and the words of other languages."""

    key: str
    title: str
    base: NotRequired[str]
    language: NotRequired[str]
    currency: str
    names: dict[int, str]
    short: NotRequired[dict[int, str]]
    taxes: dict[int, int]
    deeds: dict[int, DeedData]
    groups: dict[str, str]
    words: NotRequired[dict[str, dict[str, object]]]


SaveAnswer = CheckAnswer | ToReplace
DeleteAnswer = Deleted | FileRefused
RestoreAnswer = Restored | FileRefused
