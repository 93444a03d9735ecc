"""What is wrong with an edition's file, as data: each problem a key, a phrase and a line, so that a family reads
it in its own language (``words.say``) and a program can tell one problem from another."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..phrase import Phrase, phrase

if TYPE_CHECKING:
    from .model import Edition


class Problem:
    """One thing wrong (or, as a warning, worth a second look) in an edition's file. A plain class, not a
    dataclass: every dataclass costs milliseconds at a Pi core's pace when ``rules`` is imported.

    ``message`` is a phrase (``editions.problem.*``), said in the family's language where it is shown;
    :attr:`said` is the whole line, with its line number and key. A square in it is a :class:`Place`: say it
    with the edition the file was written against (its ``base``)."""

    __slots__ = ("line", "message", "path", "warning")

    def __init__(self, path: str, message: Phrase, line: int | None = None, warning: bool = False) -> None:
        self.path = path
        """The key: ``deeds.39.rents``; "" for the file as a whole."""
        self.message = message
        self.line = line
        self.warning = warning

    @property
    def said(self) -> Phrase:
        """The problem as a family reads it: "Zeile 15, deeds.39.rents: die Mieten müssen steigen …"."""
        if self.line and self.path:
            return phrase("editions.where.line_key", line=self.line, path=self.path, message=self.message)
        if self.line:
            return phrase("editions.where.line", line=self.line, message=self.message)
        if self.path:
            return phrase("editions.where.key", path=self.path, message=self.message)
        return self.message

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and (self.path, self.message, self.line, self.warning) == \
            (other.path, other.message, other.line, other.warning)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Problem({self.path!r}, {self.message!r}, line={self.line})"

    def __str__(self) -> str:
        """For a programmer's eye (a log of the rules, a failing test): line, key and the message's key and
        values, in no language; ``words.say(problem.said, edition)`` is what a family reads."""
        values = ", ".join(f"{k}={v!r}" for k, v in self.message.values)
        where = ":".join(str(part) for part in (self.line, self.path) if part)
        return f"{where}: {self.message.key}({values})" if where else f"{self.message.key}({values})"


class EditionError(Exception):
    """An edition's data that cannot be played; ``problems`` names each mistake."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


class Checked:
    """What reading a file gave: the edition (None if it has problems), its problems and its warnings, and the
    whole edition as data (base filled in) when it has no problems; ``base`` is the edition the file names as
    its base, when there is one: the squares of its problems are said by that edition's names."""

    __slots__ = ("base", "data", "edition", "problems", "warnings")

    def __init__(self, edition: Edition | None, problems: list[Problem] | None = None,
                 warnings: list[Problem] | None = None, data: dict[str, Any] | None = None,
                 base: Edition | None = None) -> None:
        self.edition = edition
        self.problems = problems or []
        self.warnings = warnings or []
        self.data = data
        self.base = base
