"""Every message of every catalogue rendered with every shipped edition, in both languages, as a person reads it:
no capitalised common noun inside an English sentence ("adds a House"), no "a" before a vowel ("a apartment"),
no German word in English ("sells a Haus", "Schnellspiel"). The values are an edition's own (its square names, its
money, its building words in every count and case); a placeholder the OLED's fit test does not know is a neutral
word."""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Literal

import oled_fit
import pytest
from babel.messages.pofile import read_po
from po_read import message_forms, message_key, plural_rule

import words
from rules.editions import EDITIONS, Edition
from rules.phrase import Cash, Many, Pieces, Place, Value

NEUTRAL = "Zed"
"""A placeholder the fit test has no kind for (a path, a state, an error): a word no check looks at."""
CASES: tuple[Literal["nom", "acc"], ...] = ("nom", "acc")
VOWEL = re.compile(r"(?<![\w-])[Aa] (?=[aeiouAEIOU])(?!one\b|uid\b|UID\b|us(?:e|ing|b|B)|u[nr]i|eu|USB|UTF|URL)")
""""a" before a word that sounds with a vowel: "a apartment" (never "a unit", "a UID", "a USB stick")."""

ONE = re.compile(r"(?<![\w.,])1 ([a-z]+s)\b")
""""1 restarts": a count said without its plural form."""
NEVER_ONE = {"config.hotspot.ssid_bytes": "count"}
"""Counts that are never 1 where the message is said (a name refused for more than 32 bytes): filled with 2."""
SINGULAR_S = {"is", "was", "has", "does", "goes", "pays", "gets", "minus", "plus", "less"}


@cache
def catalogue(code: str) -> list[tuple[str, tuple[str, ...], bool]]:
    """Every message of ``code``: its key, its text (each plural form), whether it has plural forms."""
    out = []
    for domain in words.DOMAINS:
        with open(oled_fit.catalogue_path(code, domain), "rb") as f:
            for message in read_po(f):
                if not message.id or message.id == "article.vowels":  # a list of letters, no sentence
                    continue
                out.append((message_key(message), message_forms(message), isinstance(message.id, tuple)))
    return out


def names_in(text: str) -> list[str]:
    return sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})


def options(name: str, key: str, edition: Edition) -> list[Value]:
    """What ``{name}`` may say, with ``edition``: every count and case of a building, its words in the language in
    force, its money and square names."""
    kind = oled_fit.kind_of(name, key)
    local = words.localised(edition)
    if kind == oled_fit.PIECES:
        return [Pieces(k, n, case) for k in ("house", "hotel") for n in (1, 2) for case in CASES]
    if kind == oled_fit.WORD:
        return [local.house, local.hotel]
    if kind == oled_fit.WORDS:
        return [local.houses, local.hotels]
    if kind == oled_fit.MONEY:
        return [Cash(edition.start_capital)]
    if kind == oled_fit.SQUARE:
        return [Place(39)]
    if kind == oled_fit.SQUARES:
        return [Many((Place(37), Place(39)))]
    if kind == oled_fit.PLAYER:
        return ["Anna"]
    if kind == oled_fit.PLAYERS_KIND:
        return [Many(("Anna", "Ben"))]
    if kind == oled_fit.COUNT or (kind is None and NEVER_ONE.get(key) == name):
        return [2] if NEVER_ONE.get(key) == name else [1, 2]
    if kind == oled_fit.EDITION:
        return [local.title]
    if kind == oled_fit.MODE:
        return [local.quick.name]
    return [NEUTRAL]


def rendered(code: str, edition: Edition) -> Iterator[tuple[str, str]]:
    """``(key, text)`` for every message, every form, every combination of its placeholders' options."""
    rule = plural_rule(words.catalogue(code))
    for key, forms, plural in catalogue(code):
        names = [name for name in names_in(forms[0] + (forms[-1] if plural else "")) if not (plural and name == "n")]
        choices = [options(name, key, edition) for name in names]
        for combo in itertools.islice(itertools.product(*choices), 64):
            said = {name: str(words._value(value, edition)) for name, value in zip(names, combo, strict=True)}
            for n in ((1, 2) if plural else (None,)):
                form = forms[rule(n)] if n is not None else forms[0]
                yield key, form.format(**said, **({"n": n} if n is not None else {}))


def own_words(edition: Edition) -> set[str]:
    """An edition's words in its board's language (what a table of another language must not read)."""
    found = {edition.house, edition.houses, edition.hotel, edition.hotels, edition.stations, edition.utilities,
             edition.quick.name}
    if any(c.isalpha() for c in edition.currency):
        found.add(edition.currency)
    return found


def german_words() -> set[str]:
    """The German boards' own words and German's words for them, less those English writes the same ("Hotel")."""
    with words.speaking("de"):
        catalogued = own_words(words.localised(EDITIONS["classic-uk"]))
    found = catalogued | {w for e in EDITIONS.values() if e.language == "de" for w in own_words(e)}
    with words.speaking("en"):
        english = {w.casefold() for e in EDITIONS.values() for w in own_words(words.localised(e))}
    return {w for w in found if w.casefold() not in english}


def without_names(text: str, edition: Edition) -> str:
    """``text`` less the board's square names and its title: a German board's names stay German in English."""
    for name in sorted({*edition.names, *edition.short_names, edition.title}, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def english_problems(key: str, text: str, edition: Edition, german: set[str]) -> list[str]:
    out = []
    if VOWEL.search(text):
        out.append(f"{key}: 'a' before a vowel: {text!r}")
    local = words.localised(edition)
    for noun in own_words(local) - {local.quick.name}:
        capital = noun[:1].upper() + noun[1:]
        if capital != noun and re.search(rf"[a-z,] {re.escape(capital)}\b", text):
            out.append(f"{key}: capitalised {capital!r} inside a sentence: {text!r}")
    plain = without_names(text, edition)
    for word in german:
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", plain):
            out.append(f"{key}: German {word!r} in English: {text!r}")
    if (one := ONE.search(plain)) and one[1] not in SINGULAR_S:
        out.append(f"{key}: a count of 1 with a plural noun: {text!r}")
    if re.search(r"[äöüßÄÖÜ]", plain):
        out.append(f"{key}: a German letter in English: {text!r}")
    return out


@pytest.mark.parametrize("key", sorted(EDITIONS))
def test_every_english_message_reads_as_english_with_every_edition(key: str) -> None:
    edition = EDITIONS[key]
    german = german_words()
    with words.speaking("en"):
        found = sorted({p for k, text in rendered("en", edition) for p in english_problems(k, text, edition, german)})
    assert found == []


@pytest.mark.parametrize("key", sorted(EDITIONS))
def test_every_german_message_renders_with_every_edition(key: str) -> None:
    """Every German message fills in with every edition (no placeholder unknown to it) and says no English
    building word of the English boards."""
    edition = EDITIONS[key]
    with words.speaking("de"):
        texts = list(rendered("de", edition))
    english = {"house", "houses", "railroads"}
    assert [t for _, t in texts if any(re.search(rf"\b{w}\b", without_names(t, edition)) for w in english)] == []


def test_the_checks_find_what_they_look_for() -> None:
    """The scan itself can fail: a capitalised word, "a" before a vowel and a German word are each found."""
    uk, classic = EDITIONS["classic-uk"], EDITIONS["classic"]
    with words.speaking("en"):
        assert english_problems("k", "Anna adds a House to Mayfair", uk, set())
        assert english_problems("k", "Anna adds a apartment", uk, set())
        assert english_problems("k", "Anna sells a Haus from Turmstraße", classic, german_words())
        assert not english_problems("k", "Anna sells a house from Turmstraße", classic, german_words())
