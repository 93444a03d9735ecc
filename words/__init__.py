"""Every text a person reads, by a stable key, in the language in force (docs/languages.md).

One gettext catalogue per language, ``words/locale/<code>/LC_MESSAGES/bankleser.po``, compiled by Babel
into the ``.mo`` that ships beside it and is read here with the standard library's :mod:`gettext`: a few
milliseconds at start-up, where ``fluent.runtime``'s imports alone cost ~78 ms (≈1.1 s on a Pi Zero 2 W
core; docs/measurements.md). A message id is a stable key ("doctor.disk.free"), never the German text;
its values are named placeholders (``{path}``), filled with :meth:`str.format`, so every language may put
them where its grammar wants them. Plurals follow the catalogue's ``Plural-Forms``; articles follow a
noun's grammatical gender through ``pgettext`` contexts ("gender:f"), so the building words an edition
brings (singular, plural, gender) take the right article in every language.

The language in force is one per process (the OLED's, the log's, the doctor's): :func:`use` sets it, and
is the seam for the admin page's choice that takes effect at once.
"""

from __future__ import annotations

import dataclasses
import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import cast

from rules.editions import Edition, Gender, Word
from rules.money import format_money
from rules.phrase import Cash, Many, Noun, Phrase, Pieces, Place, Value

DOMAIN = "bankleser"
"""The first domain: the grammar shared by all (articles, counts, lists) and the doctor's, the parts' and the
config's texts."""
DOMAINS = (DOMAIN, "rules", "scenes", "pages", "phone", "reports", "service", "editions")
"""One catalogue per language, kept in one ``.po`` file per surface (gettext's domains), so that a surface's
texts are found and changed in one place: ``rules`` (bookings, previews, refusals), ``scenes`` (the OLED),
``pages`` (status page, /admin, the virtual device), ``phone`` (the banker's forms and the API's answers),
``reports`` (game reports, CSV, Bestenliste, printables), ``service`` (the daemon's start, log and command
line), ``editions`` (a family's edition file and its checks). A key is unique across all of them (a test
holds it); :func:`catalogue` chains them into one."""
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")
LANGUAGES = ("de", "en")
"""The languages with a catalogue, the first the default (the seeds' German). A third language is its
``.po`` file under locale/ and its code here (docs/languages.md)."""
DEFAULT = LANGUAGES[0]
PLURAL = "#plural"
"""Appended to a key for its ``msgid_plural`` (gettext needs a second id; the catalogue holds the forms)."""

_catalogues: dict[str, gettext.GNUTranslations] = {}
_current = DEFAULT
_asked: ContextVar[str | None] = ContextVar("bankleser_language", default=None)
"""A language asked for by one request (a phone's page in its own language), over the appliance's."""


def catalogue(code: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``code``, read once (ValueError for a language without one)."""
    if code not in LANGUAGES:
        raise ValueError(f"no catalogue for language {code!r}: {', '.join(LANGUAGES)}")
    found = _catalogues.get(code)
    if found is None:
        for domain in DOMAINS:
            path = os.path.join(LOCALE_DIR, code, "LC_MESSAGES", domain + ".mo")
            if domain != DOMAIN and not os.path.exists(path):
                continue
            with open(path, "rb") as f:
                part = gettext.GNUTranslations(f)
            if found is None:
                found = part
            else:
                found.add_fallback(part)
        assert found is not None
        _catalogues[code] = found
    return found


def use(code: str) -> None:
    """Make ``code`` the language in force from the next text on (ValueError when it has no catalogue).

    The seam for a choice that takes effect at once (the admin page): texts are rendered when shown, so
    nothing else needs to change."""
    global _current
    catalogue(code)
    _current = code


def language() -> str:
    """The code of the language in force: the one asked for in this context, else the appliance's."""
    return _asked.get() or _current


def appliance_language() -> str:
    """The appliance's language (the OLED's, the log's), whatever a request in this context asked for."""
    return _current


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Texts in ``code`` within this context only (one page request), the appliance's language unchanged.

    A context variable: each request's thread (or task) has its own, so one phone's English page never
    turns another's, or the OLED's, English."""
    catalogue(code)
    token = _asked.set(code)
    try:
        yield
    finally:
        _asked.reset(token)


PRINTED_KEYS = frozenset({"scenes.key.haben", "scenes.key.soll", "scenes.key.los",
                          "pages.device.key.haben", "pages.device.key.soll", "pages.device.key.los"})
"""The names of the keys whose word is printed on the keypad's overlay, as the OLED and the virtual device (the
box's stand-in) say them (the digits, C, K and OK are the same in every language; the knob carries no print):
said in the language the overlay was printed in (:func:`print_keys`)."""
_keys: str | None = None


def print_keys(code: str | None) -> None:
    """The overlay was printed in ``code`` only (``[ui] keys_language``): every key name of :data:`PRINTED_KEYS` is
    said in it, whatever the language in force, so no screen names a key by a word the key does not carry; None:
    the overlay carries every language's words and the keys are named in the language in force."""
    global _keys
    if code is not None:
        catalogue(code)
    _keys = code


def keys_language() -> str:
    """The language a key's printed word is said in: the overlay's one language, else the language in force."""
    return _keys or language()


def text(key: str, /, **values: object) -> str:
    """The message ``key`` in the language in force, its ``{placeholders}`` filled from ``values``; a printed key's
    name in the overlay's language (:func:`print_keys`)."""
    code = keys_language() if key in PRINTED_KEYS else language()
    return catalogue(code).gettext(key).format(**values)


def plural(key: str, n: int, /, **values: object) -> str:
    """The form of ``key`` for the count ``n`` by the language's plural rule; ``{n}`` is the count."""
    return catalogue(language()).ngettext(key, key + PLURAL, n).format(n=n, **values)


def counted(noun: Word, n: int, /, case: str = "nom") -> str:
    """"eine Hütte", "einen Speicher", "2 Hütten"; "a house", "a hotel", "2 hotels".

    ``noun`` is a word as an edition brings it ("Hütte"/"Hütten"/"f"); its ``gender`` is the catalogue context
    that picks the article: "m", "f" or "n" in German, where English has one article for all three ("a", "the").
    ``case`` is the grammatical case the sentence needs ("nom", "acc"); languages without cases say the
    same for both. English picks its article by sound ("an apartment"): a noun beginning with one of the
    letters the catalogue's ``article.vowels`` lists takes the context ``sound:vowel`` (German lists none)."""
    if n == 1:
        found = catalogue(language())
        vowel = noun.singular[:1].casefold() in found.gettext("article.vowels").split()
        context = "sound:vowel" if vowel else f"gender:{noun.gender}"
        return found.pgettext(context, f"article.indefinite.{case}").format(noun=noun.singular)
    return plural("noun.counted", n, nouns=noun.plural, noun=noun.singular)


def localised(edition: Edition) -> Edition:
    """``edition`` with its words (buildings, groups, currency, short game) in the language in force: the board's
    own where it prints that language, else what its file gives for that language (``[words.<code>]``), else the
    language's own words (``noun.*``): a German board played in English says "house", never "Haus", and an
    English board played in German "Haus"."""
    code = language()
    if edition.language == code:
        return edition
    given = edition.words.get(code)

    def own(kind: str) -> Word:
        return Word(text(f"noun.{kind}.singular"), text(f"noun.{kind}.plural"),
                    cast(Gender, text(f"noun.{kind}.gender")))

    house = given.house if given and given.house else own("house")
    hotel = given.hotel if given and given.hotel else own("hotel")
    return dataclasses.replace(
        edition, language=code, house_word=house, hotel_word=hotel,
        stations=given.stations if given and given.stations else text("noun.stations"),
        utilities=given.utilities if given and given.utilities else text("noun.utilities"),
        currency=given.currency if given and given.currency is not None else edition.currency,
        quick=dataclasses.replace(edition.quick, name=given.quick if given and given.quick else text("noun.quick")))


def definite(noun: Word, /, case: str = "nom") -> str:
    """"das Schloss", "die Hütte", "den Speicher"; "the hotel"."""
    return catalogue(language()).pgettext(f"gender:{noun.gender}", f"article.definite.{case}").format(
        noun=noun.singular)


def money(amount: int, edition: Edition, /) -> str:
    """An amount as the language writes it on the pages and in the reports: its digits grouped by thousands with
    the language's separator (CLDR's: "1,500" in English, "1.500" in German, from four digits on), where the OLED
    keeps its compact "1500"; an edition that counts in K and M (Banking) keeps them ("15,025M" / "15.025M").
    The currency is put where the language puts it by the caller (``reports.money.*``)."""
    if edition.km_notation:
        return format_money(amount, edition).replace(",", text("number.decimal"))
    return grouped(amount)


def grouped(amount: int, /) -> str:
    """A whole number's digits grouped by thousands with the language's separator ("1,500", "1.500"): what a
    spreadsheet in that language reads back as the number, so the CSV writes its amounts so too."""
    sign, digits = ("-" if amount < 0 else ""), str(abs(amount))
    groups = [digits[max(0, end - 3):end] for end in range(len(digits), 0, -3)][::-1]
    return sign + text("number.group").join(groups)


def say(said: Phrase, edition: Edition | None = None, /) -> str:
    """A phrase of the rules (or of any surface) in the language in force, its values said with the game's
    ``edition``: its square names, its money notation, its building words with their genders.

    A phrase with an ``n`` among its values takes the plural form the language's rule gives for it."""
    if edition is not None:
        edition = localised(edition)
    values = {name: _value(value, edition) for name, value in said.values}
    count = said.get("n")
    if isinstance(count, int) and not isinstance(count, bool):
        del values["n"]  # plural() says the count itself
        return plural(said.key, count, **values)
    return text(said.key, **values)


def _value(value: Value, edition: Edition | None) -> object:
    if isinstance(value, Phrase):
        return say(value, edition)
    if isinstance(value, Many):
        items = [str(_value(item, edition)) for item in value.items]
        if len(items) < 2:
            return "".join(items)
        return text("list.last", head=text("list.separator").join(items[:-1]), last=items[-1])
    if edition is None:
        if isinstance(value, (Cash, Place, Pieces, Noun)):
            raise ValueError(f"{value!r} needs the game's edition to be said")
        return value
    if isinstance(value, Cash):
        return format_money(value.amount, edition).replace(",", text("number.decimal"))
    if isinstance(value, Place):
        return edition.names[value.square]
    if isinstance(value, (Pieces, Noun)):
        edition = localised(edition)
    if isinstance(value, Pieces):
        word = edition.house_word if value.kind == "house" else edition.hotel_word
        return counted(word, value.n, case=value.case)
    if isinstance(value, Noun):
        if value.kind in ("house", "hotel"):
            word = edition.house_word if value.kind == "house" else edition.hotel_word
            return word.plural if value.plural else word.singular
        return edition.stations if value.kind == "stations" else edition.utilities
    return value
