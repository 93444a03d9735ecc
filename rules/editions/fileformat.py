"""An edition's file: TOML a family can write by hand, checked so that each mistake is named.

``read_edition(text, bases)`` parses a file (``tomllib``), names every problem with its key and line
(never a traceback) as a :class:`~rules.phrase.Phrase` (keys ``editions.*``, said in the family's language
where it is shown: ``words.say``), fills what the file leaves out from its ``base`` (amounts scaled by the ratio of the
two editions' ``scale``) and builds the :class:`~rules.editions.model.Edition`. ``edition_data`` gives an
edition back as plain data (the whole of it, nothing inherited: what a game's journal keeps), and
``to_toml`` writes that data as a file again. docs/editions.md describes every key.

The steps, each in its module: the TOML text and its lines (:mod:`.syntax`), the keys and types a file may write
as data, walked once (:mod:`.schema`), what the values must be (:mod:`.values`), the problems themselves
(:mod:`.problems`) and the writing (:mod:`.writing`); here the order of the steps, the filling in from the base,
the building and the cross-check of a file's deeds against its base.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd
from types import MappingProxyType
from typing import Any

from ..board import DEEDS, TAX_SQUARES, Deed, Kind
from ..phrase import Phrase, phrase
from .model import Edition, QuickRules, Terms, Word
from .problems import Checked, EditionError, Problem
from .schema import (
    BOARD_SQUARES,
    DISPLAYED,
    HELD,
    KEY,
    MAX_DISPLAY_NAME,
    MAX_SQUARE_NAME,
    MAX_WORD,
    MONEY,
    NAMED,
    TABLES,
    TOP,
    structure,
)
from .syntax import Lines, line_of, parse, toml_problem
from .values import check_values, key_problem
from .writing import COMMENTED, edition_data, journal_data, to_toml

__all__ = ["COMMENTED", "DISPLAYED", "KEY", "MAX_DISPLAY_NAME", "MAX_SQUARE_NAME", "MAX_WORD", "Checked",
           "EditionError", "Problem", "check_data", "edition_data", "edition_from_data", "journal_data", "key_problem",
           "read_edition", "to_toml", "toml_problem"]
"""What other modules take from here: the file's limits, the checks and the writing, wherever each is kept."""

OWN_WORD = {"house": ("buildings", "house"), "hotel": ("buildings", "hotel"), "stations": ("groups", "stations"),
            "utilities": ("groups", "utilities"), "currency": ("currency", None), "quick": ("quick", "name")}
"""Where each of ``[words.<code>]``'s words stands among the board's own."""


def read_edition(text: str, bases: Mapping[str, Edition]) -> Checked:
    """The edition a file describes, or every problem it has; never raises for what the file says."""
    raw = parse(text)
    if isinstance(raw, Problem):
        return Checked(None, [raw])
    return check_data(raw, bases, Lines(text))


def check_data(raw: Mapping[str, Any], bases: Mapping[str, Edition], lines: Mapping[str, int] | None = None, *,
               whole: bool = False) -> Checked:
    """Check ``raw`` (a file's table, or a journal's edition data with ``whole``: nothing inherited)."""
    lines = {} if lines is None else lines
    problems: list[Problem] = []
    clean = structure(raw, problems)
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
    problems += check_values(full, whole=whole)
    problems = _with_lines(problems, lines)
    if problems:
        return Checked(None, problems, base=base)
    edition = _build(full)
    warnings = _cross_check(clean, base, factor) if base is not None else []
    for w in warnings:
        w.line = line_of(lines, w.path)
    return Checked(edition, [], warnings, full, base)


def _with_lines(problems: list[Problem], lines: Mapping[str, int]) -> list[Problem]:
    for p in problems:
        p.line = p.line or line_of(lines, p.path)
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


# -- building the edition -----------------------------------------------------------------------------


def _build(full: dict[str, Any]) -> Edition:
    words = {name: Word(w["singular"], w["plural"], w["gender"]) for name, w in full["buildings"].items()}
    names = tuple(full["names"][sq] for sq in range(BOARD_SQUARES))
    short = full.get("short", {})
    printed = full["deeds"]
    deeds = {sq: Deed(sq, names[sq], card.kind, card.group, printed[sq]["price"], tuple(printed[sq]["rents"]),
                      printed[sq]["house_price"], printed[sq]["mortgage"])
             for sq, card in DEEDS.items()}
    values = {key: full[key] for key in TOP if key not in NAMED}
    values |= {HELD.get((table, key), key): v for table in TABLES if table != "quick" for key, v in full[table].items()}
    return Edition(
        **values, quick=QuickRules(**full["quick"]), house_word=words["house"], hotel_word=words["hotel"],
        names=names, short_names=tuple(short.get(sq, name) for sq, name in enumerate(names)),
        deeds=MappingProxyType(deeds), taxes=MappingProxyType({sq: full["taxes"][sq] for sq in TAX_SQUARES}),
        base=full.get("base"), language=full.get("language", "de"),
        words=MappingProxyType({code: _built_terms(terms) for code, terms in full.get("words", {}).items()}),
    )


def _built_terms(terms: Mapping[str, Any]) -> Terms:
    def word(name: str) -> Word | None:
        w = terms.get(name)
        return None if w is None else Word(w["singular"], w["plural"], w["gender"])

    return Terms(word("house"), word("hotel"), terms.get("stations"), terms.get("utilities"), terms.get("currency"),
                 terms.get("quick"))


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
    g = gcd(value, base) or 1
    return value // g, base // g
