"""An edition's words in every language: a board's building words, groups, currency and short game said in the
language in force (the board's own words where it is the board's language, the file's words for that language,
else the language's own), English articles by sound, and the sentences right once a value is filled in."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import words
from rules.editions import EDITIONS, Word
from rules.phrase import Cash, Noun, Pieces, Place, phrase


def test_english_takes_an_before_a_vowel_sound() -> None:
    words.use("en")
    assert words.counted(Word("apartment", "apartments", "n"), 1, case="acc") == "an apartment"
    assert words.counted(Word("house", "houses", "n"), 1) == "a house"
    words.use("de")
    assert words.counted(Word("Apartment", "Apartments", "n"), 1, case="acc") == "ein Apartment"


@pytest.mark.parametrize("key", ["classic-uk", "classic-us"])
def test_the_english_boards_say_their_buildings_in_lower_case(key: str) -> None:
    words.use("en")
    edition = EDITIONS[key]
    assert words._value(Pieces("house", 1, "acc"), edition) == "a house"
    assert words._value(Pieces("hotel", 3), edition) == "3 hotels"
    assert words._value(Noun("house", True), edition) == "houses"


def test_a_german_board_played_in_english_says_english_words() -> None:
    words.use("en")
    classic = words.localised(EDITIONS["classic"])
    assert (classic.house, classic.houses, classic.hotel) == ("house", "houses", "hotel")
    assert classic.stations == "stations" and classic.quick.name == "Short Game"
    banking = EDITIONS["banking"]
    assert words._value(Pieces("house", 1, "acc"), banking) == "an apartment"
    sonic = words.localised(EDITIONS["sonic"])
    assert sonic.currency == "rings" and sonic.house == "lab"


def test_an_english_board_played_in_german_says_german_words() -> None:
    words.use("de")
    uk = words.localised(EDITIONS["classic-uk"])
    assert (uk.house, uk.houses, uk.house_word.gender) == ("Haus", "Häuser", "n")
    assert uk.stations == "Bahnhöfe" and uk.quick.name == "Schnellspiel" and uk.currency == "£"
    assert words._value(Pieces("house", 1, "acc"), EDITIONS["classic-uk"]) == "ein Haus"


def test_a_board_in_its_own_language_keeps_its_own_words() -> None:
    words.use("de")
    assert words.localised(EDITIONS["skylanders"]).house == "Hütte"
    words.use("en")
    assert words.localised(EDITIONS["classic-us"]).stations == "railroads"


def test_a_family_edition_words_per_language_and_falls_back_to_the_languages() -> None:
    from rules.editions.fileformat import read_edition

    given = read_edition(
        'key = "speicher"\ntitle = "Unser Brett"\nbase = "banking"\n'
        '[buildings]\nhouse = { singular = "Speicher", plural = "Speicher", gender = "m" }\n'
        '[words.en]\nhotel = { singular = "barn", plural = "barns", gender = "n" }\n', EDITIONS)
    assert given.edition is not None, given.problems
    words.use("en")
    family = words.localised(given.edition)
    # the family's own house word is not Banking's apartment: English falls back to its own "house"
    assert family.house == "house" and family.hotel == "barn"
    words.use("de")
    assert words._value(Pieces("house", 1, "acc"), given.edition) == "einen Speicher"


@pytest.mark.parametrize(("name", "length", "most"), [("stations", 32, None), ("stations", 33, 32),
                                                     ("utilities", 33, 32), ("currency", 21, 20)])
def test_a_group_word_per_language_is_refused_naming_the_limit_it_is_held_to(
        name: str, length: int, most: int | None) -> None:
    """A group word names a group the way a square's name does (up to 32 characters), the currency is a word (up
    to 20): a refusal names the limit that refused it, never another."""
    from rules.editions.fileformat import read_edition

    given = read_edition(f'key = "speicher"\ntitle = "Unser Brett"\nbase = "classic"\n'
                         f'[words.en]\n{name} = "{"x" * length}"\n', EDITIONS)
    limits = [(p.path, p.message.get("most")) for p in given.problems]
    assert limits == ([] if most is None else [(f"words.en.{name}", most)])


def test_a_noun_value_survives_a_checkpoint() -> None:
    from rules.phrase import from_data, to_data

    said = phrase("rules.build.no_stock", buildings=Noun("hotel", True))
    assert from_data(to_data(said)) == said


def test_no_german_dative_plural_is_needed() -> None:
    """„Kein Mangel an Häuser“ wanted a dative plural an edition's word does not have: the sentence needs none."""
    for key in ("classic", "sonic", "skylanders"):
        said = words.say(phrase("rules.build.no_shortage", buildings=Noun("house", True)), EDITIONS[key])
        assert "Mangel an" not in said and words.localised(EDITIONS[key]).houses in said


@pytest.mark.parametrize(("code", "one", "two"), [("de", "1 Neustart", "2 Neustarts"), ("en", "1 restart", "2 restarts")])
def test_a_count_has_its_plural_form(code: str, one: str, two: str) -> None:
    """"1 restarts", „gegen 1 Häuser“: a count is said with the form its number needs."""
    words.use(code)
    assert words.plural("count.restarts", 1) == one and words.plural("count.restarts", 2) == two
    uk = EDITIONS["classic-uk"]
    said = words.say(phrase("rules.sell.traded", player="Ben", square=Place(39), hotel_pieces=Pieces("hotel", 1, "acc"),
                            pieces=Pieces("house", 1, "acc"), amount=Cash(100)), uk)
    assert ("ein Haus" if code == "de" else "a house") in said


def test_an_explicit_language_flag_wins_over_the_stored_choice_and_the_log_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A state folder first started without --language keeps German; `--language en` then means English."""
    from device.daemon.language import KEY, in_force
    from device.store.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    assert in_force(journal, "") == "de"
    with caplog.at_level(logging.INFO):
        assert in_force(journal, "", flag="en") == "en"
    assert journal.setting(KEY) == "en" and "--language en" in caplog.text
    assert in_force(journal, "de") == "en"  # the config's German does not undo it
    journal.close()


@pytest.mark.parametrize(("code", "key", "amount", "written"), [
    ("en", "classic-uk", 1500, "£1,500"), ("en", "classic-us", 1665, "$1,665"), ("de", "banking", 15_025_000, "15,025M €"),
    ("de", "classic-uk", 1500, "1.500 £"), ("en", "classic", 250, "250"), ("en", "sonic", 12_000, "12,000 rings")])
def test_money_on_the_pages_and_reports_is_written_as_the_language_writes_it(
        code: str, key: str, amount: int, written: str) -> None:
    """CLDR's grouping ("£1,500", "1.500 €"), the currency where the language puts it; the OLED's compact form is
    the rules' own (``words.say``)."""
    from webui.chart import money_unit

    words.use(code)
    assert money_unit(EDITIONS[key])(amount) == written
    assert words.money(amount, EDITIONS[key]) == written.replace("£", "").replace("$", "").split(" ")[0]
