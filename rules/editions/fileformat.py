"""An edition's file: TOML a family can write by hand, checked so that each mistake is named.

``read_edition(text, bases)`` parses a file (``tomllib``), names every problem with its key and line
(never a traceback) as a :class:`~rules.phrase.Phrase` (keys ``editions.*``, said in the family's language
where it is shown: ``words.say``), fills what the file leaves out from its ``base`` (amounts scaled by the ratio of the
two editions' ``scale``) and builds the :class:`~rules.editions.model.Edition`. ``edition_data`` gives an
edition back as plain data (the whole of it, nothing inherited: what a game's journal keeps), and
``to_toml`` writes that data as a file again. docs/editions.md describes every key.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from ..board import DEEDS, SQUARES, TAX_SQUARES, Deed, Kind
from ..phrase import Phrase, Place, phrase
from .model import Edition, QuickRules, Terms, Word

BOARD_SQUARES = len(SQUARES)
MAX_SQUARE_NAME = 32
"""Characters of a square's name as the board prints it: the pages, the reports, the CSV and the printables show it
whole; the OLED shows it only where it fits :data:`MAX_DISPLAY_NAME`, else the square's short name."""
MAX_DISPLAY_NAME = 21
"""Characters of a square's name as the OLED shows it (its ``[short]`` name, else its name): one line of the display
at 6 px a character (Terminus 12 px, 127 px a line), so that a booking's confirmation carries who, what and where
("Marie-Louise baut auf / Northumberland Avenue / eine Hightech-Anlage") on its first screen."""
MAX_TITLE = 40
MAX_WORD = 20
KEY = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
SHAPES = {"classic": "", "mega": "editions.shape.mega", "ultimate-banking": "editions.shape.ultimate_banking"}
"""Board shapes a file may name (each with the key of its description); only the classic 40-square board is
played yet."""

INT, TEXT, BOOL, MONEY, RENTS = "int", "text", "bool", "money", "rents"
_TYPE_WORDS = {INT: "editions.type.int", MONEY: "editions.type.money", TEXT: "editions.type.text",
               BOOL: "editions.type.bool", RENTS: "editions.type.rents"}
"""What a value of each type is, as a family reads it: the key of its words."""

TOP: dict[str, str] = {"key": TEXT, "title": TEXT, "base": TEXT, "language": TEXT, "board": TEXT, "currency": TEXT,
                       "scale": INT,
                       "km_notation": BOOL, "start_capital": MONEY, "salary": MONEY, "jail_fine": MONEY,
                       "max_entry": MONEY, "auction_min_bid": MONEY, "speed_die_bonus": MONEY}
TABLES: dict[str, dict[str, str]] = {
    "groups": {"stations": TEXT, "utilities": TEXT},
    "stock": {"houses": INT, "hotels": INT},
    "quick": {"name": TEXT, "deeds_each": INT, "deal_paid": BOOL, "houses_per_hotel": INT, "ends_at_bankruptcy": INT},
    "rules": {"double_rent_with_mortgaged_group": BOOL, "bankruptcy_mortgage_fee": BOOL,
              "hotel_sale_returns_houses": BOOL, "building_auction_at_house_price": BOOL},
}
WORD: dict[str, str] = {"singular": TEXT, "plural": TEXT, "gender": TEXT}
OPTIONAL = ("base", "language")
"""Top keys a whole edition may leave out: no base; the board's language German, the seeds' (``Edition.language``)."""
LANGUAGE = re.compile(r"[a-z]{2}")
TERMS: dict[str, str] = {"stations": TEXT, "utilities": TEXT, "currency": TEXT, "quick": TEXT}
"""``[words.<code>]``: the board's words in another language than its own, besides ``house`` and ``hotel`` (each a
word like ``[buildings]``'); what a file gives for one of its own words (``[buildings] house``, ``[groups]``,
``currency``, ``[quick] name``) replaces what its base gave for it in every language."""
OWN_WORD = {"house": ("buildings", "house"), "hotel": ("buildings", "hotel"), "stations": ("groups", "stations"),
            "utilities": ("groups", "utilities"), "currency": ("currency", None), "quick": ("quick", "name")}
"""Where each of ``[words.<code>]``'s words stands among the board's own."""
DEED: dict[str, str] = {"price": MONEY, "rents": RENTS, "house_price": MONEY, "mortgage": MONEY}
BUILDINGS = ("house", "hotel")
GENDERS = ("m", "f", "n")
"""A building word's grammatical gender: the article a German sentence gives it (der, die, das)."""
RENT_COUNT = {Kind.STREET: 6, Kind.STATION: 4, Kind.UTILITY: 2}
DISPLAYED = frozenset((*DEEDS, *TAX_SQUARES))
"""The squares the OLED names: those a booking names, the deeds and the tax squares (never "Gehen Sie in das
Gefängnis", which only the pages show): each must have a name the display shows in one line."""


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


# -- lines ------------------------------------------------------------------------------------

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


class _Lines(Mapping[str, int]):
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


def _line(lines: Mapping[str, int], path: str) -> int | None:
    while path:
        if path in lines:
            return lines[path]
        path = path.rpartition(".")[0]
    return None


# -- reading ----------------------------------------------------------------------------------


def read_edition(text: str, bases: Mapping[str, Edition]) -> Checked:
    """The edition a file describes, or every problem it has; never raises for what the file says."""
    lines = _Lines(text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(pattern=r"\(at line (\d+), column \d+\)$", string=str(err))
        return Checked(None, [Problem("", phrase("editions.problem.toml", error=toml_problem(str(err))),
                                      int(m.group(1)) if m else None)])
    return check_data(raw, bases, lines)


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


def check_data(raw: Mapping[str, Any], bases: Mapping[str, Edition], lines: Mapping[str, int] | None = None, *,
               whole: bool = False) -> Checked:
    """Check ``raw`` (a file's table, or a journal's edition data with ``whole``: nothing inherited)."""
    lines = {} if lines is None else lines
    problems: list[Problem] = []
    clean = _structure(raw, problems)
    base = None
    if not whole and "base" in clean:
        base = bases.get(clean["base"])
        if base is None:
            problems.append(Problem("base", phrase("editions.problem.base_unknown", base=repr(clean["base"]),
                                                   known=", ".join(sorted(bases)))))
    if "base" in clean and base is None and not whole:
        return Checked(None, _with_lines(problems, lines))  # nothing to fill in from: the rest would be noise
    full, factor = _resolve(clean, base, problems)
    if whole and "base" in clean:
        full["base"] = clean["base"]  # what it was written against, for the record: nothing is taken from it
    problems += _semantics(full, whole=whole)
    problems = _with_lines(problems, lines)
    if problems:
        return Checked(None, problems, base=base)
    edition = _build(full)
    warnings = _cross_check(clean, base, factor) if base is not None else []
    for w in warnings:
        w.line = _line(lines, w.path)
    return Checked(edition, [], warnings, full, base)


def _with_lines(problems: list[Problem], lines: Mapping[str, int]) -> list[Problem]:
    for p in problems:
        p.line = p.line or _line(lines, p.path)
    return _unique(problems)


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, Phrase]] = set()
    out = []
    for p in problems:
        if (p.path, p.message) not in seen:
            seen.add((p.path, p.message))
            out.append(p)
    return out


def edition_from_data(data: Mapping[str, Any]) -> Edition:
    """The edition a journal keeps (:func:`edition_data`), checked like a file; EditionError if it is not one."""
    checked = check_data(data, {}, whole=True)
    if checked.edition is None:
        raise EditionError(checked.problems)
    return checked.edition


# -- structure: keys and types --------------------------------------------------------------------


def _typed(value: Any, kind: str, path: str, problems: list[Problem]) -> Any:
    ok = {INT: isinstance(value, int) and not isinstance(value, bool),
          MONEY: isinstance(value, int) and not isinstance(value, bool),
          TEXT: isinstance(value, str), BOOL: isinstance(value, bool),
          RENTS: isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)}[kind]
    if not ok:
        problems.append(Problem(path, phrase("editions.problem.type", expected=phrase(_TYPE_WORDS[kind]),
                                             given=_shown(value))))
        return None
    return value


def _shown(value: Any) -> str | Phrase:
    """A value as the file wrote it (TOML's own words), a table or a list by what it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return phrase("editions.given.table")
    if isinstance(value, list):
        return phrase("editions.given.list")
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def _unknown(key: str, known: list[str], path: str) -> Problem:
    import difflib  # only when a file has a typo: not at every start

    guess = difflib.get_close_matches(key, known, n=1)
    if guess:
        return Problem(path, phrase("editions.problem.key_unknown_meant", meant=repr(guess[0])))
    return Problem(path, phrase("editions.problem.key_unknown", known=", ".join(known)))


def _table(value: Any, path: str, problems: list[Problem]) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.append(Problem(path, phrase("editions.problem.table", path=path, given=_shown(value))))
        return None
    return value


def _fields(value: Any, schema: Mapping[str, str], path: str, problems: list[Problem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    table = _table(value, path, problems)
    for key, v in (table or {}).items():
        if key not in schema:
            problems.append(_unknown(key, list(schema), f"{path}.{key}"))
        elif (typed := _typed(v, schema[key], f"{path}.{key}", problems)) is not None:
            out[key] = typed
    return out


def _square(raw: Any, path: str, problems: list[Problem]) -> int | None:
    key = str(raw)
    if not key.isdigit():
        problems.append(Problem(path, phrase("editions.problem.square_number", first=Place(0),
                                             last=Place(BOARD_SQUARES - 1))))
        return None
    sq = int(key)
    if sq >= BOARD_SQUARES:
        key = "editions.problem.square_mega" if sq < 52 else "editions.problem.square_none"
        problems.append(Problem(path, phrase(key, square=sq, last=BOARD_SQUARES - 1)))
        return None
    return sq


def _structure(raw: Mapping[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """The file's keys with the right types; each unknown key and wrong type is a problem, and left out."""
    out: dict[str, Any] = {}
    known = [*TOP, *TABLES, "buildings", "words", "names", "short", "taxes", "deeds"]
    for key, value in raw.items():
        if key in TOP:
            if (typed := _typed(value, TOP[key], key, problems)) is not None:
                out[key] = typed
        elif key in TABLES:
            out[key] = _fields(value, TABLES[key], key, problems)
        elif key == "buildings":
            table = _table(value, key, problems) or {}
            out[key] = {}
            for name, word in table.items():
                if name not in BUILDINGS:
                    problems.append(_unknown(name, list(BUILDINGS), f"buildings.{name}"))
                else:
                    out[key][name] = _fields(word, WORD, f"buildings.{name}", problems)
        elif key == "words":
            out[key] = {}
            for code, given in (_table(value, key, problems) or {}).items():
                if not LANGUAGE.fullmatch(code):
                    problems.append(Problem(f"words.{code}", phrase("editions.problem.language", code=repr(code))))
                    continue
                table = _table(given, f"words.{code}", problems) or {}
                words = _fields({k: v for k, v in table.items() if k not in BUILDINGS}, TERMS, f"words.{code}",
                                problems)
                for name in BUILDINGS:
                    if name in table:
                        words[name] = _fields(table[name], WORD, f"words.{code}.{name}", problems)
                out[key][code] = words
        elif key in ("names", "short", "taxes"):
            out[key] = {}
            for k, v in (_table(value, key, problems) or {}).items():
                sq = _square(k, f"{key}.{k}", problems)
                if sq is None:
                    continue
                if key == "taxes" and sq not in TAX_SQUARES:
                    problems.append(Problem(f"taxes.{k}", phrase("editions.problem.not_a_tax", square=Place(sq),
                                                                 first=TAX_SQUARES[0], last=TAX_SQUARES[-1])))
                elif (typed := _typed(v, MONEY if key == "taxes" else TEXT, f"{key}.{k}", problems)) is not None:
                    out[key][sq] = typed
        elif key == "deeds":
            out[key] = {}
            for k, v in (_table(value, key, problems) or {}).items():
                sq = _square(k, f"deeds.{k}", problems)
                if sq is None:
                    continue
                if sq not in DEEDS:
                    problems.append(Problem(f"deeds.{k}", phrase("editions.problem.no_deed", number=sq,
                                                                 square=Place(sq))))
                    continue
                out[key][sq] = _fields(v, DEED, f"deeds.{k}", problems)
        else:
            problems.append(_unknown(key, known, key))
    if "key" not in out and "key" not in raw:
        problems.append(Problem("key", phrase("editions.problem.key_missing")))
    return out


# -- filling in from the base ---------------------------------------------------------------------------


def _resolve(clean: dict[str, Any], base: Edition | None, problems: list[Problem]) -> tuple[dict[str, Any], int]:
    """The whole edition: what the file gives, the rest from the base, its amounts scaled to this edition."""
    if base is None:
        full: dict[str, Any] = {}
        factor = 1
    else:
        full = edition_data(base)
        full["base"] = base.key
        factor = 1
        scale = clean.get("scale", base.scale)
        if scale < 1 or scale % base.scale:
            problems.append(Problem("scale", phrase("editions.problem.scale_base", scale=base.scale,
                                                    base=base.key)))
        else:
            factor = scale // base.scale
        full = _scaled(full, factor)
    if base is not None:  # a base's short name belongs to its name: a square the file renames drops it
        renamed = {sq for sq, name in clean.get("names", {}).items() if name != base.names[sq]}
        full["short"] = {sq: v for sq, v in full.get("short", {}).items() if sq not in renamed}
    for key, value in clean.items():
        if key in ("names", "short", "taxes", "deeds"):
            merged = dict(full.get(key, {}))
            for sq, v in value.items():
                merged[sq] = {**merged.get(sq, {}), **v} if key == "deeds" else v
            full[key] = merged
        elif key in TABLES:
            full[key] = {**full.get(key, {}), **value}
        elif key == "buildings":
            full[key] = {**full.get(key, {}), **value}  # a word is given whole: singular, plural and gender
        elif key == "words":
            continue  # after the board's own words: below
        else:
            full[key] = value
    if base is None and "base" in full:
        del full["base"]  # a base nobody knows (named above), or none needed: the data is whole
    full["words"] = _words_resolved(full.get("words", {}), clean)
    if not full["words"]:
        del full["words"]
    return full, factor


def _words_resolved(inherited: Mapping[str, Mapping[str, Any]], clean: Mapping[str, Any]) -> dict[str, Any]:
    """The base's words in other languages, less those of a word this file gives itself (a family's "Speicher"
    is no Banking "apartment" in English: English then says its own word), with the file's ``[words.<code>]``
    over them."""
    given = {name for name, (table, key) in OWN_WORD.items()
             if (key is None and table in clean) or (key is not None and key in clean.get(table, {}))}
    out = {code: {k: v for k, v in terms.items() if k not in given} for code, terms in inherited.items()}
    for code, terms in clean.get("words", {}).items():
        out[code] = {**out.get(code, {}), **terms}
    return {code: terms for code, terms in out.items() if terms}


def _scaled(data: dict[str, Any], factor: int) -> dict[str, Any]:
    if factor == 1:
        return data
    out = {k: (v * factor if TOP.get(k) == MONEY else v) for k, v in data.items()}
    out["taxes"] = {sq: v * factor for sq, v in data["taxes"].items()}
    out["deeds"] = {sq: {"price": d["price"] * factor, "mortgage": d["mortgage"] * factor,
                         "house_price": d["house_price"] * factor,
                         "rents": [r * factor for r in d["rents"]] if DEEDS[sq].kind is not Kind.UTILITY
                         else list(d["rents"])}
                    for sq, d in data["deeds"].items()}
    return out


# -- what the values must be ------------------------------------------------------------------------------


def _semantics(full: dict[str, Any], *, whole: bool = False) -> list[Problem]:
    out: list[Problem] = []
    for key, kind in TOP.items():
        if key not in full and key not in OPTIONAL:
            out.append(Problem(key, phrase("editions.problem.missing_top", expected=phrase(_TYPE_WORDS[kind]))))
    for table, schema in TABLES.items():
        for key in schema:
            if key not in full.get(table, {}):
                out.append(Problem(f"{table}.{key}", phrase("editions.problem.missing")))
    if out:
        return out + _missing_board(full)
    if not KEY.fullmatch(full["key"]):
        out.append(key_problem(full["key"], full["title"]))
    if full["board"] not in SHAPES:
        out.append(Problem("board", phrase("editions.problem.board_unknown", board=repr(full["board"]),
                                           known="classic")))
    elif full["board"] != "classic":
        out.append(Problem("board", phrase("editions.problem.board_later", board=phrase(SHAPES[full["board"]]))))
    for key in ("title", "currency"):
        limit = MAX_TITLE if key == "title" else MAX_WORD
        if len(full[key]) > limit or (key == "title" and not full[key].strip()):
            out.append(Problem(key, phrase("editions.problem.length", least=1, most=limit) if key == "title"
                               else phrase("editions.problem.length_most", most=limit)))
    out += _money(full)
    missing = _missing_board(full)
    out += missing
    if "language" in full and not LANGUAGE.fullmatch(full["language"]):
        out.append(Problem("language", phrase("editions.problem.language", code=repr(full["language"]))))
    out += _terms(full)
    for part, check in (("names", _names), ("buildings", _words), ("deeds", _deeds)):
        if not [p for p in missing if p.path.startswith(part)]:
            out += check(full)
    if not [p for p in missing if p.path.startswith("names")]:
        out += _short(full, whole=whole)
    quick = full["quick"]
    for key, low, high in (("deeds_each", 1, 3), ("houses_per_hotel", 1, 4), ("ends_at_bankruptcy", 1, 7)):
        if not low <= quick[key] <= high:
            out.append(Problem(f"quick.{key}", phrase("editions.problem.between", least=low, most=high,
                                                      given=quick[key])))
    for key in ("houses", "hotels"):
        if not 1 <= full["stock"][key] <= 99:
            out.append(Problem(f"stock.{key}", phrase("editions.problem.stock", least=1, most=99,
                                                      given=full["stock"][key])))
    for key in ("stations", "utilities", ):
        if not 1 <= len(full["groups"][key]) <= MAX_SQUARE_NAME:
            out.append(Problem(f"groups.{key}", phrase("editions.problem.length", least=1, most=MAX_SQUARE_NAME)))
    if not 1 <= len(full["quick"]["name"]) <= MAX_WORD:
        out.append(Problem("quick.name", phrase("editions.problem.length", least=1, most=MAX_WORD)))
    return out


def _missing_board(full: dict[str, Any]) -> list[Problem]:
    out = []
    names, deeds, words = full.get("names", {}), full.get("deeds", {}), full.get("buildings", {})
    if unnamed := [str(sq) for sq in range(BOARD_SQUARES) if sq not in names]:
        out.append(Problem("names", phrase("editions.problem.names_missing", squares=", ".join(unnamed))))
    for sq in DEEDS:
        if lacking := [key for key in DEED if key not in deeds.get(sq, {})]:
            out.append(Problem(f"deeds.{sq}", phrase("editions.problem.deed_lacks", keys=", ".join(lacking))))
    for sq in TAX_SQUARES:
        if sq not in full.get("taxes", {}):
            out.append(Problem(f"taxes.{sq}", phrase("editions.problem.missing")))
    for word in BUILDINGS:
        for key in WORD:
            if key not in words.get(word, {}):
                said = "editions.problem.gender_missing" if key == "gender" else "editions.problem.missing"
                out.append(Problem(f"buildings.{word}.{key}", phrase(said)))
    return out


def _money(full: dict[str, Any]) -> list[Problem]:
    out = []
    scale = full["scale"]
    if scale < 1:
        return [Problem("scale", phrase("editions.problem.scale_least"))]
    if full["km_notation"] and scale % 1000:
        out.append(Problem("scale", phrase("editions.problem.scale_km", scale=scale)))
    amounts = [(key, full[key]) for key, kind in TOP.items() if kind == MONEY]
    amounts += [(f"taxes.{sq}", v) for sq, v in full.get("taxes", {}).items()]
    for sq, d in full.get("deeds", {}).items():
        amounts += [(f"deeds.{sq}.{k}", d[k]) for k in ("price", "house_price", "mortgage") if k in d]
        if DEEDS[sq].kind is not Kind.UTILITY:
            amounts += [(f"deeds.{sq}.rents", r) for r in d.get("rents", [])]
    for path, value in amounts:
        if value < 0:
            out.append(Problem(path, phrase("editions.problem.negative", amount=value)))
        elif value % scale:
            out.append(Problem(path, phrase("editions.problem.off_scale", amount=value, scale=scale)))
    for key in ("start_capital", "salary", "max_entry", "auction_min_bid"):
        if full[key] < 1:
            out.append(Problem(key, phrase("editions.problem.positive")))
    if full["max_entry"] > 9_990_000_000:
        out.append(Problem("max_entry", phrase("editions.problem.too_large")))
    if full["km_notation"] and full["max_entry"] % 1000 == 0 and len(_km(full["max_entry"])) > 5:
        out.append(Problem("max_entry", phrase("editions.problem.reader_width", amount=_km(full["max_entry"]),
                                               width=5)))
    return out


_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa"})


def suggest_key(text: str) -> str:
    """A key a family can type, from what it typed or from a title ("München" → "muenchen", "MONOPOLY Bad Tölz" →
    "monopoly-bad-toelz"): umlauts spelled out as a German writes them without, other accents dropped, spaces a
    "-"; "" when nothing of it is left."""
    import unicodedata

    spelled = unicodedata.normalize("NFKD", text.lower().translate(_SPELLED))
    plain = "".join(c for c in spelled if not unicodedata.combining(c))
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", plain)).strip("-")[:32].rstrip("-")


def key_problem(key: str, title: str = "") -> Problem:
    """A key that is no key, with the nearest one that is, from the key typed, else from the title (the form and
    the command line refuse alike)."""
    suggested = suggest_key(key) or suggest_key(title.removeprefix("MONOPOLY "))
    if suggested:
        return Problem("key", phrase("editions.problem.key_suggest", key=repr(key), most=32, suggest=suggested))
    return Problem("key", phrase("editions.problem.key_form", key=repr(key), most=32))


def _km(amount: int) -> str:
    unit, suffix = (1_000_000, "M") if amount >= 1_000_000 else (1_000, "K")
    whole, rest = divmod(amount, unit)
    return f"{whole}{('.' + str(rest).rjust(len(str(unit)) - 1, '0').rstrip('0')) if rest else ''}{suffix}"


def _blank(name: str) -> bool:
    """A name (or a short name) that is empty, or begins or ends with a space: refused (a blank name already)."""
    return not name.strip() or name != name.strip()


def _names(full: dict[str, Any]) -> list[Problem]:
    out = []
    seen: dict[str, int] = {}
    for sq in range(BOARD_SQUARES):
        name = full["names"][sq]
        if _blank(name):
            out.append(Problem(f"names.{sq}", phrase("editions.problem.name_blank")))
        elif len(name) > MAX_SQUARE_NAME:
            out.append(Problem(f"names.{sq}", phrase("editions.problem.name_long", length=len(name),
                                                     most=MAX_SQUARE_NAME)))
        if sq in DEEDS:
            key = name.casefold()
            if key in seen:
                out.append(Problem(f"names.{sq}", phrase("editions.problem.name_twice", name=name,
                                                         number=seen[key])))
            seen[key] = sq
    return out


def _short(full: dict[str, Any], *, whole: bool = False) -> list[Problem]:
    """The names as the OLED shows them: a short name like a name, but in one line of the display; a name the OLED
    shows (:data:`DISPLAYED`) and longer than that line needs one. Not for a journal's data (``whole``): a game
    started before ``[short]`` existed replays with its names as they were (each its own short name)."""
    out = []
    names, short = full["names"], full.get("short", {})
    for sq, name in sorted(short.items()):
        if _blank(name):
            out.append(Problem(f"short.{sq}", phrase("editions.problem.short_blank")))
        elif len(name) > MAX_DISPLAY_NAME:
            out.append(Problem(f"short.{sq}", phrase("editions.problem.short_long", length=len(name),
                                                     most=MAX_DISPLAY_NAME)))
    if whole:
        return out
    seen: dict[str, int] = {}
    for sq in sorted(DISPLAYED):
        name = names[sq]
        if sq not in short and MAX_DISPLAY_NAME < len(name) <= MAX_SQUARE_NAME and not _blank(name):
            out.append(Problem(f"names.{sq}", phrase("editions.problem.name_needs_short", length=len(name),
                                                     most=MAX_DISPLAY_NAME, number=sq)))
        if sq in DEEDS:  # on the OLED a deed is known by the name it shows alone (a trade's list, a confirmation)
            shown = short.get(sq, name)
            other = seen.setdefault(shown.casefold(), sq)
            if other != sq and (sq in short or other in short):  # the same two names: "name_twice" says it
                here, there = (sq, other) if sq in short else (other, sq)
                out.append(Problem(f"short.{here}", phrase("editions.problem.short_twice", name=shown,
                                                           number=there)))
    return out


def _words(full: dict[str, Any]) -> list[Problem]:
    out = []
    for name in BUILDINGS:
        out += _word(full["buildings"][name], f"buildings.{name}")
    return out


def _word(word: Mapping[str, Any], path: str) -> list[Problem]:
    out = []
    for key in WORD:
        if key not in word:
            out.append(Problem(f"{path}.{key}", phrase("editions.problem.missing")))
    if out:
        return out
    if word["gender"] not in GENDERS:
        out.append(Problem(f"{path}.gender", phrase("editions.problem.gender", gender=repr(word["gender"]))))
    for key in ("singular", "plural"):
        if not 1 <= len(word[key].strip()) <= MAX_WORD:
            out.append(Problem(f"{path}.{key}", phrase("editions.problem.length", least=1, most=MAX_WORD)))
    return out


def _terms(full: dict[str, Any]) -> list[Problem]:
    """``[words.<code>]``: each word as long as the board's own may be."""
    out = []
    for code, terms in full.get("words", {}).items():
        for name, value in terms.items():
            path = f"words.{code}.{name}"
            if name in BUILDINGS:
                out += _word(value, path)
            elif not 1 <= len(value.strip()) <= (MAX_SQUARE_NAME if name in ("stations", "utilities") else MAX_WORD):
                out.append(Problem(path, phrase("editions.problem.length", least=1, most=MAX_WORD)))
    return out


def _deeds(full: dict[str, Any]) -> list[Problem]:
    out = []
    for sq, d in sorted(full["deeds"].items()):
        kind, path = DEEDS[sq].kind, f"deeds.{sq}"
        rents = d["rents"]
        if len(rents) != RENT_COUNT[kind]:
            what = {Kind.STREET: "editions.rents.street", Kind.STATION: "editions.rents.station",
                    Kind.UTILITY: "editions.rents.utility"}[kind]
            out.append(Problem(f"{path}.rents", phrase("editions.problem.rent_count", expected=RENT_COUNT[kind],
                                                       what=phrase(what), given=len(rents))))
        else:
            if rents and rents[0] < 1:
                out.append(Problem(f"{path}.rents", phrase("editions.problem.rent_least")))
            for low, high in pairwise(rents):
                if high <= low:
                    out.append(Problem(f"{path}.rents", phrase("editions.problem.rents_rise", low=low,
                                                               high=high)))
                    break
        if d["price"] < 1:
            out.append(Problem(f"{path}.price", phrase("editions.problem.price_least")))
        if d["mortgage"] > d["price"]:
            out.append(Problem(f"{path}.mortgage", phrase("editions.problem.mortgage_above",
                                                          mortgage=d["mortgage"], price=d["price"])))
        if d["mortgage"] < 1:
            out.append(Problem(f"{path}.mortgage", phrase("editions.problem.mortgage_least")))
        if kind is Kind.STREET and d["house_price"] < 1:
            out.append(Problem(f"{path}.house_price", phrase("editions.problem.house_price_least")))
        if kind is not Kind.STREET and d["house_price"]:
            out.append(Problem(f"{path}.house_price", phrase("editions.problem.house_price_street")))
    return out


# -- building the edition -----------------------------------------------------------------------------


def _build(full: dict[str, Any]) -> Edition:
    words = {name: Word(w["singular"], w["plural"], w["gender"]) for name, w in full["buildings"].items()}
    names = tuple(full["names"][sq] for sq in range(BOARD_SQUARES))
    short = full.get("short", {})
    printed = full["deeds"]
    deeds = {sq: Deed(sq, names[sq], card.kind, card.group, printed[sq]["price"], tuple(printed[sq]["rents"]),
                      printed[sq]["house_price"], printed[sq]["mortgage"])
             for sq, card in DEEDS.items()}
    q, r = full["quick"], full["rules"]
    return Edition(
        key=full["key"], title=full["title"], scale=full["scale"], km_notation=full["km_notation"],
        currency=full["currency"], house_word=words["house"], hotel_word=words["hotel"],
        stations=full["groups"]["stations"], utilities=full["groups"]["utilities"], names=names,
        short_names=tuple(short.get(sq, name) for sq, name in enumerate(names)),
        deeds=MappingProxyType(deeds), taxes=MappingProxyType({sq: full["taxes"][sq] for sq in TAX_SQUARES}),
        start_capital=full["start_capital"], salary=full["salary"], jail_fine=full["jail_fine"],
        max_entry=full["max_entry"], auction_min_bid=full["auction_min_bid"], speed_die_bonus=full["speed_die_bonus"],
        houses_in_box=full["stock"]["houses"], hotels_in_box=full["stock"]["hotels"],
        quick=QuickRules(q["deeds_each"], q["deal_paid"], q["houses_per_hotel"], q["ends_at_bankruptcy"], q["name"]),
        double_rent_with_mortgaged_group=r["double_rent_with_mortgaged_group"],
        bankruptcy_mortgage_fee=r["bankruptcy_mortgage_fee"],
        hotel_sale_returns_houses=r["hotel_sale_returns_houses"],
        building_auction_at_house_price=r["building_auction_at_house_price"],
        base=full.get("base"), language=full.get("language", "de"),
        words=MappingProxyType({code: _built_terms(terms) for code, terms in full.get("words", {}).items()}),
    )


def _built_terms(terms: Mapping[str, Any]) -> Terms:
    def word(name: str) -> Word | None:
        w = terms.get(name)
        return None if w is None else Word(w["singular"], w["plural"], w["gender"])

    return Terms(word("house"), word("hotel"), terms.get("stations"), terms.get("utilities"), terms.get("currency"),
                 terms.get("quick"))


def edition_data(ed: Edition) -> dict[str, Any]:
    """The whole edition as plain data (JSON and TOML alike, square numbers as ints): what a journal keeps."""
    short = {sq: s for sq, (s, name) in enumerate(zip(ed.short_names, ed.names, strict=True)) if s != name}
    out: dict[str, Any] = {
        "key": ed.key, "title": ed.title, **({"base": ed.base} if ed.base else {}), "board": "classic",
        "currency": ed.currency, "scale": ed.scale, "km_notation": ed.km_notation,
        "start_capital": ed.start_capital, "salary": ed.salary, "jail_fine": ed.jail_fine, "max_entry": ed.max_entry,
        "auction_min_bid": ed.auction_min_bid, "speed_die_bonus": ed.speed_die_bonus,
        "groups": {"stations": ed.stations, "utilities": ed.utilities},
        "stock": {"houses": ed.houses_in_box, "hotels": ed.hotels_in_box},
        "quick": {"name": ed.quick.name, "deeds_each": ed.quick.deeds_each, "deal_paid": ed.quick.deal_paid,
                  "houses_per_hotel": ed.quick.houses_per_hotel, "ends_at_bankruptcy": ed.quick.ends_at_bankruptcy},
        "rules": {"double_rent_with_mortgaged_group": ed.double_rent_with_mortgaged_group,
                  "bankruptcy_mortgage_fee": ed.bankruptcy_mortgage_fee,
                  "hotel_sale_returns_houses": ed.hotel_sale_returns_houses,
                  "building_auction_at_house_price": ed.building_auction_at_house_price},
        "buildings": {name: {"singular": w.singular, "plural": w.plural, "gender": w.gender}
                      for name, w in (("house", ed.house_word), ("hotel", ed.hotel_word))},
        "names": dict(enumerate(ed.names)),
        **({"short": short} if short else {}),  # none given: the data as before [short] existed
        "taxes": dict(ed.taxes),
        "deeds": {sq: {"price": d.price, "rents": list(d.rents), "house_price": d.house_price, "mortgage": d.mortgage}
                  for sq, d in sorted(ed.deeds.items())},
    }
    if ed.language != "de":  # the German board's data as before the boards had a language: old journals' equal
        out["language"] = ed.language
    if ed.words:
        out["words"] = {code: _terms_data(terms) for code, terms in ed.words.items()}
    return out


def _terms_data(terms: Terms) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in terms._asdict().items():
        if isinstance(value, Word):
            out[name] = {"singular": value.singular, "plural": value.plural, "gender": value.gender}
        elif value is not None:
            out[name] = value
    return out


def journal_data(ed: Edition) -> dict[str, Any]:
    """:func:`edition_data` with string keys, as JSON keeps it (``names`` "0" …)."""
    data = edition_data(ed)
    for key in ("names", "short", "taxes", "deeds"):
        if key in data:
            data[key] = {str(k): v for k, v in data[key].items()}
    return data


# -- the cross-check against the base ----------------------------------------------------------------------


def _cross_check(clean: dict[str, Any], base: Edition, factor: int) -> list[Problem]:
    """Where a given deed value differs from the base without being one consistent scale of it: a copy error in a
    public table (a rent of 18 for 16, a mortgage in the house-price column, a neighbour's rents)."""
    values: list[tuple[str, int, int]] = []
    for sq, d in clean.get("deeds", {}).items():
        card = base.deed(sq)
        for key in ("price", "house_price", "mortgage"):
            if key in d and getattr(card, key):
                values.append((f"deeds.{sq}.{key}", d[key], getattr(card, key) * factor))
        if "rents" in d and len(d["rents"]) == len(card.rents) and card.kind is not Kind.UTILITY:
            values += [(f"deeds.{sq}.rents", v, b * factor) for v, b in zip(d["rents"], card.rents, strict=True)]
    if not values:
        return []
    ratios: dict[tuple[int, int], int] = {}
    for _, v, b in values:
        ratios[_ratio(v, b)] = ratios.get(_ratio(v, b), 0) + 1
    usual = max(ratios, key=lambda r: ratios[r])
    if ratios[usual] < max(6, len(values) // 2 + 1):
        usual = (1, 1)  # too few values to say the file is a board of another scale: the base's is expected
    out: list[Problem] = []
    for path, v, b in values:
        if _ratio(v, b) != usual and not any(w.path == path for w in out):  # one word per key
            said = phrase("editions.warning.differs", given=v, base=base.key, there=b) if usual == (1, 1) else \
                phrase("editions.warning.differs_scaled", given=v, base=base.key, there=b,
                       scaled=b * usual[0] // usual[1])
            out.append(Problem(path, said, warning=True))
    return _unique(out)


def _ratio(value: int, base: int) -> tuple[int, int]:
    from math import gcd
    g = gcd(value, base) or 1
    return value // g, base // g


# -- writing -----------------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


COMMENTED = ("key", "title", "base", "board", "currency", "scale", "km_notation", "start_capital", "max_entry",
             "auction_min_bid", "speed_die_bonus", "names", "short", "buildings", "groups", "stock", "quick", "rules",
             "taxes", "deeds")
"""The keys and tables a written file explains in a comment; the comments' words are the caller's (``words``:
``editions.comment.<key>``), in the family's language, so a file says them in the language it was made in."""


def to_toml(data: Mapping[str, Any], *, comments: Mapping[str, str] | None = None) -> str:
    """``data`` (a file's table or :func:`edition_data`) as TOML that :func:`read_edition` reads back the same;
    ``comments`` (by key, :data:`COMMENTED`) explain the keys and tables to the family editing it by hand."""
    lines: list[str] = []
    notes = comments or {}

    def note(key: str) -> str:
        return f"  # {notes[key]}" if key in notes else ""

    for key in TOP:
        if key in data:
            lines.append(f"{key} = {_toml_value(data[key])}{note(key)}")
    for table in (*TABLES, "buildings", "names", "short", "taxes"):
        if table in data:
            if table in notes:
                lines += ["", f"# {notes[table]}"]
            else:
                lines.append("")
            lines.append(f"[{table}]")
            for k, v in data[table].items():
                lines.append(f"{k} = {_toml_value(v)}")
    for code, terms in data.get("words", {}).items():
        lines += ["", f"[words.{code}]", *(f"{k} = {_toml_value(v)}" for k, v in terms.items())]
    if "deeds" in data:
        if "deeds" in notes:
            lines += ["", f"# {notes['deeds']}"]
        for sq, d in data["deeds"].items():
            name = data.get("names", {}).get(sq) or data.get("names", {}).get(str(sq))
            lines += ["", f"[deeds.{sq}]" + (f"  # {name}" if notes and name else "")]
            lines += [f"{k} = {_toml_value(v)}" for k, v in d.items()]
    return "\n".join(lines) + "\n"
