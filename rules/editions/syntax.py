"""An edition's file as TOML text: what tomllib finds wrong with it, said in the family's words, and the line of
each key the file writes, so that a problem of its values is named where it stands."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from ..phrase import Phrase, phrase
from .problems import Problem

_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _dotted(text: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in text.split("."))


def line_numbers(text: str) -> dict[str, int]:
    """The line of each key the file writes (``deeds.39.rents`` → 14), for naming a problem where it is."""
    out: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), 1):
        if m := _HEADER.match(line):
            table = _dotted(m.group(1))
            out.setdefault(table, number)
        elif m := _ASSIGN.match(line):
            key = _dotted(m.group(1))
            out.setdefault(f"{table}.{key}" if table else key, number)
    return out


class Lines(Mapping[str, int]):
    """:func:`line_numbers` of a text, worked out only when a problem needs its line (a good file never does)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: dict[str, int] | None = None

    def _all(self) -> dict[str, int]:
        if self._lines is None:
            self._lines = line_numbers(self._text)
        return self._lines

    def __getitem__(self, key: str) -> int:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def line_of(lines: Mapping[str, int], path: str) -> int | None:
    """The line of ``path``, else of the nearest table that holds it (a key the file inherits has none)."""
    while path:
        if path in lines:
            return lines[path]
        path = path.rpartition(".")[0]
    return None


TOML_ERRORS: tuple[tuple[str, str], ...] = (
    ("Unterminated string", "editions.toml.string"),
    ("Illegal character '\\n'", "editions.toml.string"),  # a line ends inside a text
    ("Expected '=' after a key in a key/value pair", "editions.toml.equals"),
    ("Expected ']' at the end of a table declaration", "editions.toml.table"),
    ("Expected ']]' at the end of an array declaration", "editions.toml.table"),
    ("Expected newline or end of document after a statement", "editions.toml.newline"),
    ("Cannot overwrite a value", "editions.toml.twice"),
    ("Cannot declare ", "editions.toml.twice"),
    ("Cannot redefine namespace ", "editions.toml.twice"),
    ("Duplicate inline table key ", "editions.toml.twice"),
    ("Invalid value", "editions.toml.value"),
    ("Invalid date or datetime", "editions.toml.value"),
    ("Invalid initial character for a key part", "editions.toml.key"),
    ("Invalid statement", "editions.toml.key"),
    ("Unclosed array", "editions.toml.array"),
    ("Unclosed inline table", "editions.toml.inline"),
    ("Found invalid character ", "editions.toml.character"),
    ("Illegal character ", "editions.toml.character"),
)
"""tomllib's own messages (the standard library's, in English; a message's head, where it names a key or a
character after it) and the key of ours that says each in the family's language."""


def toml_problem(error: str) -> Phrase:
    """What tomllib found, said in the family's words with its column; a message of a later Python that we have
    no words for keeps tomllib's own (``editions.toml.other``)."""
    m = re.fullmatch(pattern=r"(.*?)\s*\((?:at line \d+, column (\d+)|at end of document)\)", string=error,
                     flags=re.S)
    head, column = (m.group(1), int(m.group(2)) if m.group(2) else 0) if m else (error, 0)
    key = next((key for start, key in TOML_ERRORS if head == start or (start.endswith(" ") and head.startswith(start))),
               "editions.toml.other")
    said = phrase(key, text=head) if key == "editions.toml.other" else phrase(key)
    return phrase("editions.toml.at", what=said, column=column) if column else said


def parse(text: str) -> dict[str, Any] | Problem:
    """The file's table, or its first TOML mistake with its line (tomllib stops at the first)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(pattern=r"\(at line (\d+), column \d+\)$", string=str(err))
        return Problem("", phrase("editions.problem.toml", error=toml_problem(str(err))),
                       int(m.group(1)) if m else None)
