"""The edition form speaks form: a problem of what the form sent is said with the field as the form labels it
("Feld 39 (Schlossallee), Mieten: die Mieten müssen steigen …"), never with the file's line or TOML key (the family
on the form never sees a file), and the numbers typed are read as the page's language writes them.

Numbers: a small exact reader of CLDR's separators for the two languages (German "1.500" and "12,5", English
"1,500" and "12.5") rather than Babel at run time: two languages need two pairs of symbols, and Babel's lenient
parsing would need its strict mode and the package on every box for what fits in a few lines here. A number with
a fraction where a whole one is needed, or with its groups wrong ("1.50", or "0.500": an English half, in German),
is left as typed: the check then says it is no whole number, never shifts it ("12,5" never becomes 125). What it
reads, Babel's strict CLDR reading reads alike (tests/test_edition_form.py holds it to that).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import words
from rules import DEEDS
from rules.editions import Edition, Problem
from rules.editions.fileformat import MAX_DISPLAY_NAME
from rules.phrase import Phrase, phrase
from shapes.editions import Said

SEPARATORS = {"de": (".", ","), "en": (",", ".")}
"""CLDR's group and decimal symbols of each language's numbers (de: "1.234,5"; en: "1,234.5")."""

FORM_WORDS = {"editions.problem.name_needs_short": "editions.form.name_needs_short",
              "editions.problem.type": "editions.form.type", "editions.type.rents": "editions.form.type_rents",
              "editions.problem.missing_top": "editions.form.missing", "editions.problem.missing":
              "editions.form.missing", "editions.problem.shipped_key": "editions.form.shipped_key"}
"""A file's words (a table, a key, a TOML list) and the form's words for the same problem."""

FIELDS = {"key": "editions.form.key", "title": "editions.page.name", "currency": "editions.page.currency",
          "start_capital": "editions.page.start_capital", "salary": "editions.page.salary",
          "jail_fine": "editions.page.jail_fine", "max_entry": "editions.page.max_entry",
          "price": "editions.page.price", "rents": "editions.page.rents", "house_price": "editions.page.house_price",
          "mortgage": "editions.page.mortgage", "house": "editions.page.house", "hotel": "editions.page.hotel",
          "singular": "editions.page.singular", "plural": "editions.page.plural", "gender": "editions.page.gender"}
"""The label of each field of the form, by the file's key."""

WHOLE = ("start_capital", "salary", "jail_fine", "max_entry")
DEED_WHOLE = ("price", "house_price", "mortgage")


def whole_number(typed: str, language: str) -> int | str:
    """``typed`` as a whole number in ``language``'s way of writing it, or as typed when it is none."""
    group, decimal = SEPARATORS.get(language, SEPARATORS["en"])
    text = typed.strip()  # a space inside is no separator of de or en: "50 200" is two rents, never 50200
    sign = -1 if text.startswith("-") else 1
    digits = text.removeprefix("-")
    if re.fullmatch(pattern=r"\d+", string=digits):
        return sign * int(digits)
    if decimal in digits:
        return typed  # a fraction: no whole number, said so by the check
    parts = digits.split(group)  # the first group never starts with 0: "0.500" on a German page is an English half
    if len(parts) > 1 and re.fullmatch(pattern=r"[1-9]\d{0,2}", string=parts[0]) and \
            all(re.fullmatch(pattern=r"\d{3}", string=p) for p in parts[1:]):
        return sign * int("".join(parts))
    return typed


def read_numbers(data: dict[str, Any], language: str) -> dict[str, Any]:
    """The form's data with each number field that was typed as text read as the language writes it."""
    out = dict(data)
    for key in WHOLE:
        if isinstance(out.get(key), str):
            out[key] = whole_number(out[key], language)
    if isinstance(out.get("taxes"), dict):
        out["taxes"] = {sq: whole_number(v, language) if isinstance(v, str) else v for sq, v in out["taxes"].items()}
    if isinstance(out.get("deeds"), dict):
        deeds = {}
        for sq, deed in out["deeds"].items():
            deed = dict(deed) if isinstance(deed, dict) else deed
            if isinstance(deed, dict):
                for key in DEED_WHOLE:
                    if isinstance(deed.get(key), str):
                        deed[key] = whole_number(deed[key], language)
                if isinstance(deed.get("rents"), str):
                    deed["rents"] = _rents(deed["rents"], language)
            deeds[sq] = deed
        out["deeds"] = deeds
    return out


def _rents(typed: str, language: str) -> list[int] | str:
    """Rents as typed in one field: separated by ";", by a comma and a space, or by spaces ("2, 10, 30";
    "1.500; 2.000"; "50 200 600"); "2,10,30" is one German number with a fraction, refused, never 21030."""
    parts = [p for p in re.split(pattern=r";|,\s+|\s+", string=typed.strip()) if p.strip()]
    numbers = [whole_number(p, language) for p in parts]
    return [n for n in numbers if isinstance(n, int)] if all(isinstance(n, int) for n in numbers) else typed


def _form_phrase(said: Phrase) -> Phrase:
    """The phrase in the form's words: its key and any phrase among its values."""
    values = {name: _form_phrase(v) if isinstance(v, Phrase) else v for name, v in said.values}
    return phrase(FORM_WORDS.get(said.key, said.key), **values)


def _square(sq: int, data: Mapping[str, Any]) -> str:
    names = data.get("names", {})
    name = names.get(sq, names.get(str(sq))) if isinstance(names, Mapping) else None
    return words.text("editions.form.square", square=sq, name=name) if isinstance(name, str) and name.strip() \
        else words.text("editions.page.square", square=sq)


def field_of(path: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """The square (or "") and the field as the form labels them, by a problem's key in the file."""
    parts = path.split(".")
    if parts[0] in ("names", "short", "deeds", "taxes") and len(parts) > 1 and parts[1].isdigit():
        sq = int(parts[1])
        square = _square(sq, data)
        if parts[0] == "names":
            return square, words.text("editions.form.name")
        if parts[0] == "short":
            return square, words.text("editions.page.short", most=MAX_DISPLAY_NAME)
        if parts[0] == "taxes":
            return square, words.text("editions.page.tax")
        field = parts[2] if len(parts) > 2 else ""
        return square, words.text(FIELDS[field]) if field in FIELDS and sq in DEEDS else ""
    if parts[0] == "buildings" and len(parts) > 1 and parts[1] in FIELDS:
        building = words.text(FIELDS[parts[1]])
        if len(parts) > 2 and parts[2] in FIELDS:
            return "", words.text(FIELDS[parts[2]], building=building)
        return "", building
    return "", words.text(FIELDS[parts[0]]) if parts[0] in FIELDS else ""


def form_problem(problem: Problem, names: Edition, data: Mapping[str, Any]) -> Said:
    """A problem for the form: ``message`` beside its field (the field named: several under one square stay
    apart), ``text`` for the list (the square and the field named), no line, and whether it is only a note;
    ``names`` the edition whose names say a square the problem names."""
    message = words.say(_form_phrase(problem.message), names)
    square, field = field_of(problem.path, data)
    beside = words.text("editions.form.at", field=field, message=message) if field else message
    listed = words.text("editions.form.at_square", square=square, field=field, message=message) \
        if square and field else words.text("editions.form.at", field=square, message=message) if square else beside
    return {"path": problem.path, "line": None, "code": problem.message.key, "message": beside, "text": listed,
            "note": problem.warning}
