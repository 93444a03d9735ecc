"""What the values of a whole edition must be: money on its scale, names the board and the display can print,
words a sentence can say, deeds whose rents rise, counts the game can play with. Each check sees only values of
the right types (:mod:`rules.editions.schema` left out the others) and says each mistake with its key."""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from ..board import DEEDS, Kind
from ..phrase import phrase
from .problems import Problem
from .schema import (
    BOARD_SQUARES,
    BUILDINGS,
    DISPLAYED,
    GENDERS,
    KEY,
    LANGUAGE,
    MAX_DISPLAY_NAME,
    MAX_SQUARE_NAME,
    MAX_TITLE,
    MAX_WORD,
    MONEY,
    RENT_COUNT,
    TOP,
    WORD,
    missing,
    missing_board,
)

SHAPES = {"classic": "", "mega": "editions.shape.mega", "ultimate-banking": "editions.shape.ultimate_banking"}
"""Board shapes a file may name (each with the key of its description); only the classic 40-square board is
played yet."""
RANGES = (("quick", "deeds_each", 1, 3, "editions.problem.between"),
          ("quick", "houses_per_hotel", 1, 4, "editions.problem.between"),
          ("quick", "ends_at_bankruptcy", 1, 7, "editions.problem.between"),
          ("stock", "houses", 1, 99, "editions.problem.stock"), ("stock", "hotels", 1, 99, "editions.problem.stock"))
"""The counts a game can play with: a table's key, its least and its most, and the words that say so."""
LENGTHS = (("groups", "stations", MAX_SQUARE_NAME), ("groups", "utilities", MAX_SQUARE_NAME),
           ("quick", "name", MAX_WORD))
"""The edition's own words in tables, each at least one character and at most as many as given here."""


def check_values(full: dict[str, Any], *, whole: bool = False) -> list[Problem]:
    """Every mistake in the values of ``full``, a whole edition (its base filled in); a journal's (``whole``)
    keeps names as the game was started with them."""
    out = missing(full)
    if out:
        return out + missing_board(full)
    if not KEY.fullmatch(full["key"]):
        out.append(key_problem(full["key"], full["title"]))
    if full["board"] not in SHAPES:
        out.append(Problem("board", phrase("editions.problem.board_unknown", board=repr(full["board"]),
                                           known="classic")))
    elif full["board"] != "classic":
        out.append(Problem("board", phrase("editions.problem.board_later", board=phrase(SHAPES[full["board"]]))))
    if len(full["title"]) > MAX_TITLE or not full["title"].strip():
        out.append(Problem("title", phrase("editions.problem.length", least=1, most=MAX_TITLE)))
    if len(full["currency"]) > MAX_WORD:
        out.append(Problem("currency", phrase("editions.problem.length_most", most=MAX_WORD)))
    out += _money(full)
    lacking = missing_board(full)
    out += lacking
    if "language" in full and not LANGUAGE.fullmatch(full["language"]):
        out.append(Problem("language", phrase("editions.problem.language", code=repr(full["language"]))))
    out += _terms(full)
    for part, check in (("names", _names), ("buildings", _words), ("deeds", _deeds)):
        if not [p for p in lacking if p.path.startswith(part)]:
            out += check(full)
    if not [p for p in lacking if p.path.startswith("names")]:
        out += _short(full, whole=whole)
    for table, key, low, high, said in RANGES:
        if not low <= full[table][key] <= high:
            out.append(Problem(f"{table}.{key}", phrase(said, least=low, most=high, given=full[table][key])))
    return out + [Problem(f"{table}.{key}", phrase("editions.problem.length", least=1, most=high))
                  for table, key, high in LENGTHS if not 1 <= len(full[table][key]) <= high]


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
                continue
            most = MAX_SQUARE_NAME if name in ("stations", "utilities") else MAX_WORD
            if not 1 <= len(value.strip()) <= most:
                out.append(Problem(path, phrase("editions.problem.length", least=1, most=most)))
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
