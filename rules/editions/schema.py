"""The keys an edition's file may write, as data, and the one walk that checks a file's table against them.

A file's table is walked by :data:`FILE`: each key it knows is kept with its value, when that is of the key's
type; each unknown key (with the nearest known one as a guess) and each wrong type is a problem, and left out,
so that the checks of the values (:mod:`rules.editions.values`) see only values of the right types. A journal's
data (JSON) walks the same way. Plain classes, not dataclasses or NamedTuples: ``rules`` is imported before the
device is ready, and each of those costs milliseconds at a Pi core's pace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..board import DEEDS, SQUARES, TAX_SQUARES, Kind
from ..phrase import Phrase, Place, phrase
from .problems import Problem

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
LANGUAGE = re.compile(r"[a-z]{2}")
BUILDINGS = ("house", "hotel")
GENDERS = ("m", "f", "n")
"""A building word's grammatical gender: the article a German sentence gives it (der, die, das)."""
RENT_COUNT = {Kind.STREET: 6, Kind.STATION: 4, Kind.UTILITY: 2}
DISPLAYED = frozenset((*DEEDS, *TAX_SQUARES))
"""The squares the OLED names: those a booking names, the deeds and the tax squares (never "Gehen Sie in das
Gefängnis", which only the pages show): each must have a name the display shows in one line."""

INT, TEXT, BOOL, MONEY, RENTS = "int", "text", "bool", "money", "rents"
"""A value's types; an amount (``MONEY``) is an int that is scaled with the edition's money."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    INT: (_whole, "editions.type.int"), MONEY: (_whole, "editions.type.money"),
    TEXT: (lambda v: isinstance(v, str), "editions.type.text"), BOOL: (lambda v: isinstance(v, bool),
                                                                       "editions.type.bool"),
    RENTS: (lambda v: isinstance(v, list) and all(map(_whole, v)), "editions.type.rents")}
"""Each type: what a value of it is, and the key of its words as a family reads them."""


class Table:
    """A table of named keys, each a type or a table; ``later`` are keys checked after the others and never
    offered as the guess for an unknown key (``[words.<code>]``'s ``house`` and ``hotel``)."""

    __slots__ = ("fields", "later")

    def __init__(self, fields: Mapping[str, Node], later: Mapping[str, Node] | None = None) -> None:
        self.fields = fields
        self.later = later or {}


class Keyed:
    """A table keyed by square numbers (``square`` true) or by language codes, each value of one node;
    ``refuse`` is said of a square that exists but may not be given here (None: it may)."""

    __slots__ = ("of", "refuse", "square")

    def __init__(self, of: Node, *, square: bool = True, refuse: Callable[[int], Phrase | None] | None = None) -> None:
        self.of, self.square, self.refuse = of, square, refuse


Node = str | Table | Keyed

TOP: dict[str, str] = {"key": TEXT, "title": TEXT, "base": TEXT, "language": TEXT, "board": TEXT, "currency": TEXT,
                       "scale": INT, "km_notation": BOOL, "start_capital": MONEY, "salary": MONEY, "jail_fine": MONEY,
                       "max_entry": MONEY, "auction_min_bid": MONEY, "speed_die_bonus": MONEY}
"""The file's own values, in the order a written file gives them."""
OPTIONAL = ("base", "language")
"""Top keys a whole edition may leave out: no base; the board's language German, the seeds' (``Edition.language``)."""
TABLES: dict[str, dict[str, str]] = {
    "groups": {"stations": TEXT, "utilities": TEXT},
    "stock": {"houses": INT, "hotels": INT},
    "quick": {"name": TEXT, "deeds_each": INT, "deal_paid": BOOL, "houses_per_hotel": INT, "ends_at_bankruptcy": INT},
    "rules": {"double_rent_with_mortgaged_group": BOOL, "bankruptcy_mortgage_fee": BOOL,
              "hotel_sale_returns_houses": BOOL, "building_auction_at_house_price": BOOL},
}
"""The tables of named values, every key of which a whole edition gives."""
NAMED = ("base", "language", "board")
"""Top keys that are no plain value of an :class:`~rules.editions.model.Edition` (each top key else is one of the
same name); a table's key is the value of its name, ``[quick]``'s of ``Edition.quick``, but for :data:`HELD`."""
HELD = {("stock", "houses"): "houses_in_box", ("stock", "hotels"): "hotels_in_box"}
"""The table keys an :class:`~rules.editions.model.Edition` holds under another name."""
WORD: dict[str, str] = {"singular": TEXT, "plural": TEXT, "gender": TEXT}
TERMS: dict[str, str] = {"stations": TEXT, "utilities": TEXT, "currency": TEXT, "quick": TEXT}
"""``[words.<code>]``: the board's words in another language than its own, besides ``house`` and ``hotel`` (each a
word like ``[buildings]``'); what a file gives for one of its own words (``[buildings] house``, ``[groups]``,
``currency``, ``[quick] name``) replaces what its base gave for it in every language."""
DEED: dict[str, str] = {"price": MONEY, "rents": RENTS, "house_price": MONEY, "mortgage": MONEY}

_WORD = Table(WORD)
FILE = Table({
    **TOP, **{name: Table(fields) for name, fields in TABLES.items()},
    "buildings": Table(dict.fromkeys(BUILDINGS, _WORD)),
    "words": Keyed(Table(TERMS, dict.fromkeys(BUILDINGS, _WORD)), square=False),
    "names": Keyed(TEXT), "short": Keyed(TEXT),
    "taxes": Keyed(MONEY, refuse=lambda sq: None if sq in TAX_SQUARES else phrase(
        "editions.problem.not_a_tax", square=Place(sq), first=TAX_SQUARES[0], last=TAX_SQUARES[-1])),
    "deeds": Keyed(Table(DEED), refuse=lambda sq: None if sq in DEEDS else phrase(
        "editions.problem.no_deed", number=sq, square=Place(sq))),
})
"""An edition's file: every key it may write, and the type of each value."""


def structure(raw: Mapping[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """The file's keys with the right types; each unknown key and wrong type is a problem, and left out."""
    out = _fields(raw, FILE, "", problems)
    if "key" not in out and "key" not in raw:
        problems.append(Problem("key", phrase("editions.problem.key_missing")))
    return out


def _walk(value: Any, node: Node, path: str, problems: list[Problem]) -> Any:
    """``value`` as ``node`` says it must be; None for a value of another type (a table: {}, its keys left out)."""
    if isinstance(node, str):
        ok, what = TYPES[node]
        if ok(value):
            return value
        problems.append(Problem(path, phrase("editions.problem.type", expected=phrase(what), given=_shown(value))))
        return None
    if not isinstance(value, dict):
        problems.append(Problem(path, phrase("editions.problem.table", path=path, given=_shown(value))))
        return {}
    if isinstance(node, Table):
        return _fields(value, node, path, problems)
    out: dict[Any, Any] = {}
    for key, given in value.items():
        here = f"{path}.{key}"
        if not node.square:
            if not LANGUAGE.fullmatch(key):
                problems.append(Problem(here, phrase("editions.problem.language", code=repr(key))))
                continue
        elif (key := _square(key, here, problems)) is None:
            continue
        elif node.refuse and (said := node.refuse(key)):
            problems.append(Problem(here, said))
            continue
        if (typed := _walk(given, node.of, here, problems)) is not None:
            out[key] = typed
    return out


def _fields(table: Mapping[str, Any], node: Table, path: str, problems: list[Problem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        here = f"{path}.{key}" if path else key
        if key in node.fields:
            if (typed := _walk(value, node.fields[key], here, problems)) is not None:
                out[key] = typed
        elif key not in node.later:
            problems.append(_unknown(key, list(node.fields), here))
    for key, later in node.later.items():
        if key in table:
            out[key] = _walk(table[key], later, f"{path}.{key}", problems)
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


def missing(full: Mapping[str, Any]) -> list[Problem]:
    """Each value a whole edition must give and ``full`` lacks: the top keys', then the tables'."""
    out = [Problem(key, phrase("editions.problem.missing_top", expected=phrase(TYPES[kind][1])))
           for key, kind in TOP.items() if key not in full and key not in OPTIONAL]
    return out + [Problem(f"{table}.{key}", phrase("editions.problem.missing"))
                  for table, schema in TABLES.items() for key in schema if key not in full.get(table, {})]


def missing_board(full: Mapping[str, Any]) -> list[Problem]:
    """Each part of the board a whole edition must give and ``full`` lacks: names, deeds, taxes, building words."""
    out = []
    names, deeds, words = full.get("names", {}), full.get("deeds", {}), full.get("buildings", {})
    if unnamed := [str(sq) for sq in range(BOARD_SQUARES) if sq not in names]:
        out.append(Problem("names", phrase("editions.problem.names_missing", squares=", ".join(unnamed))))
    for sq in DEEDS:
        if lacking := [key for key in DEED if key not in deeds.get(sq, {})]:
            out.append(Problem(f"deeds.{sq}", phrase("editions.problem.deed_lacks", keys=", ".join(lacking))))
    out += [Problem(f"taxes.{sq}", phrase("editions.problem.missing")) for sq in TAX_SQUARES
            if sq not in full.get("taxes", {})]
    return out + [Problem(f"buildings.{word}.{key}", phrase("editions.problem.gender_missing" if key == "gender"
                                                            else "editions.problem.missing"))
                  for word in BUILDINGS for key in WORD if key not in words.get(word, {})]
