"""An edition file's bytes as text: the one reader of every way a file comes in (the /admin upload, the
command line, the state folder), so that one file gets one verdict wherever it is read.

UTF-8 is the format's encoding; a byte-order mark in front (Windows' Notepad writes one) is read and dropped.
A file that is no UTF-8 but reads as Windows-1252 (which includes Latin-1's letters: what older editors on
Windows and macOS save) is converted, with a note that says so and shows a word as it was read ("München"),
so the family can see its umlauts survived: refusing would only send it to an editor it may not have. A file
that is neither (UTF-16, a picture, a zip) is refused with the way to save it as UTF-8. Nothing is ever read
with replacement characters: a "�" is refused by the checks wherever it comes from.
"""

from __future__ import annotations

import codecs
import re

from ..phrase import phrase
from .problems import Problem

MAX_BYTES = 40 * 1024
"""The largest file read: a whole commented edition is about 8 KB, and an upload of 40 KB still fits the web's
request limit of 64 KB as base64."""
REPLACEMENT = "\ufffd"
"""What an editor or a browser writes for a character it could not read: never saved as a name."""

_UTF16 = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_WORD = re.compile(r"\w*[^\x00-\x7f]\w*")


class Decoded:
    """A file's text (None when it cannot be read), what stops it being read, and notes on how it was read."""

    __slots__ = ("notes", "problems", "text")

    def __init__(self, text: str | None, problems: list[Problem] | None = None,
                 notes: list[Problem] | None = None) -> None:
        self.text = text
        self.problems = problems or []
        self.notes = notes or []


def decode(data: bytes) -> Decoded:
    """The text of a file's bytes, or why not (too large, empty, no text): see the module's words."""
    if len(data) > MAX_BYTES:
        return too_big()
    if data.startswith(_UTF16) or b"\x00" in data:
        return Decoded(None, [Problem("", phrase("editions.problem.encoding_utf16"))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            return Decoded(None, [Problem("", phrase("editions.problem.encoding"))])
        sample = _WORD.search(text)
        note = Problem("", phrase("editions.warning.cp1252", word=sample.group(0) if sample else ""), warning=True)
        return _checked(text, [note])
    return _checked(text, [])


def too_big() -> Decoded:
    """A file over :data:`MAX_BYTES`, said with the limit."""
    return Decoded(None, [Problem("", phrase("editions.problem.too_big", size=MAX_BYTES // 1024))])


def _checked(text: str, notes: list[Problem]) -> Decoded:
    """Empty (or comments only) is said as that, not as the sixty keys a file without them lacks."""
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return Decoded(None, [Problem("", phrase("editions.problem.empty"))])
    return Decoded(text, [], notes)


def replacement_problems(text: str) -> list[Problem]:
    """Each line with a "�": a character lost before the text came here (a browser or an editor read the file in
    the wrong encoding); saving it would keep the loss."""
    return [Problem("", phrase("editions.problem.replacement"), line=number)
            for number, line in enumerate(text.splitlines(), 1) if REPLACEMENT in line]
