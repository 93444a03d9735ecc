"""Editions as data: the five boxes are files, a family's edition is a file of the same format, and
every mistake in such a file is named with its key and line, never with a traceback: a phrase of the rules, said
here in German (the English in tests/test_editions_english.py)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from told import told

import words
from conftest import apply, cash, give, start
from device.store.editions import file_comments
from rules import DEEDS, EDITIONS, SQUARES, Game, Kind, square_name
from rules.editions import Edition, Word, edition_data, read_edition, to_toml
from rules.editions.fileformat import MAX_DISPLAY_NAME, MAX_SQUARE_NAME, Problem, check_data
from rules.phrase import Phrase

ROOT = Path(__file__).resolve().parent.parent


def said(problem: Problem) -> str:
    """A problem as a family reads it (in German, the default), the squares by the base's names (classic)."""
    return words.say(problem.said, EDITIONS["classic"])


def problems(text: str) -> list[Problem]:
    checked = read_edition(text, EDITIONS)
    assert checked.edition is None, "the file should have been refused"
    return checked.problems


def only(text: str) -> str:
    """The one problem of a file, as the family reads it."""
    found = problems(text)
    assert len(found) == 1, [str(p) for p in found]
    return said(found[0])


HAMBURG = (Path(__file__).parent / "data" / "hamburg.toml").read_text(encoding="utf-8")
"""A family's edition of the classic board: its own currency, names and buildings (read by the CLI's tests too)."""


def hamburg(extra: str = "") -> Edition:
    checked = read_edition(HAMBURG + extra, EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return checked.edition


# -- the five boxes are files -----------------------------------------------------------------------


def test_the_five_editions_are_toml_files_shipped_with_the_package() -> None:
    files = {p.name for p in resources.files("rules.editions").iterdir() if p.name.endswith(".toml")}
    assert files == {f"{key}.toml" for key in EDITIONS} and len(files) == 7  # the five boxes, the English boards
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert package_data["package-data"]["rules.editions"] == ["*.toml"]


def test_the_classic_file_prints_the_whole_board_and_the_others_give_only_what_differs() -> None:
    """"An edition may name a `base` and give only what differs"."""
    classic = tomllib.loads(resources.files("rules.editions").joinpath("classic.toml").read_text(encoding="utf-8"))
    assert len(classic["names"]) == 40 and len(classic["deeds"]) == 28 and "base" not in classic
    for key in ("banking", "schalke", "sonic", "skylanders", "classic-uk", "classic-us"):
        data = tomllib.loads(resources.files("rules.editions").joinpath(f"{key}.toml").read_text(encoding="utf-8"))
        # "Die Werte entsprechen denen aus dem originalen"; the UK deed prints one rent otherwise (Piccadilly's 22)
        assert data["base"] == "classic" and data.get("deeds", {}) == (
            {"29": {"rents": [22, 120, 360, 850, 1025, 1200]}} if key == "classic-uk" else {}), key


def test_the_classic_file_agrees_with_the_board_card_by_card() -> None:
    classic = EDITIONS["classic"]
    for sq, card in DEEDS.items():
        assert classic.deed(sq) == card
    assert [classic.names[sq] for sq in range(40)] == [s.name for s in SQUARES]
    assert dict(classic.taxes) == {4: 200, 38: 100}


def test_banking_inherits_the_classic_board_times_its_scale() -> None:
    """Seed 000: the classic values times 10,000; a utility's rents are dice factors (4 and 10 times the throw)."""
    banking = EDITIONS["banking"]
    assert banking.deed(39).rents == (500_000, 2_000_000, 6_000_000, 14_000_000, 17_000_000, 20_000_000)
    assert banking.deed(12).rents == (4, 10) and banking.deed(12).price == 1_500_000
    assert (banking.start_capital, banking.salary, banking.jail_fine, banking.max_entry) == \
        (15_000_000, 2_000_000, 500_000, 20_000_000)
    assert banking.taxes[4] == 2_000_000 and banking.auction_min_bid == 10_000


def test_building_words_carry_singular_plural_and_gender() -> None:
    """"so every sentence with them is correct ("eine Hütte", "das Schloss", "keine Tribüne")": the
    article said by the catalogue from the word's gender (the rules no longer write one; no text says "kein"
    with a building word now, so the feminine Tribüne is checked with "eine")."""
    assert words.counted(EDITIONS["skylanders"].house_word, 1) == "eine Hütte"
    assert words.definite(EDITIONS["skylanders"].hotel_word) == "das Schloss"
    assert words.counted(EDITIONS["schalke"].house_word, 1) == "eine Tribüne"
    assert words.counted(hamburg().house_word, 1, case="acc") == "einen Speicher"
    assert hamburg().hotel_word == Word("Kontorhaus", "Kontorhäuser", "n")


def test_a_skylanders_family_gives_its_board_its_names() -> None:
    """"a Skylanders family can give the 22 streets their board's names (as a family edition based on
    `skylanders`)"; everything else stays Skylanders'."""
    text = 'key = "skylanders-mia"\ntitle = "Skylanders bei Mia"\nbase = "skylanders"\n[names]\n1 = "Ruinen"\n'
    checked = read_edition(text, EDITIONS)
    assert checked.edition is not None
    mia = checked.edition
    assert square_name(mia, 1) == "Ruinen" and square_name(mia, 5) == "Flynns Ballon-Touren"
    assert mia.house_word == EDITIONS["skylanders"].house_word and mia.quick == EDITIONS["skylanders"].quick


def test_a_family_edition_plays_with_its_own_names_words_and_deeds() -> None:
    """The game reads everything from its edition: a dearer Jungfernstieg, Speicher instead of Häuser."""
    ed = hamburg("\n[deeds.39]\nprice = 440\nrents = [55, 220, 660, 1540, 1870, 2200]\nhouse_price = 220\n"
                 "mortgage = 220\n")
    from told import means

    game = start("hamburg", edition_data=edition_data(ed))
    event = apply(game, op="buy", player="Anna", square=39)
    assert means(event, "rules.buy.done", player="Anna", square=39, amount=440) and cash(game, "Anna") == 1060
    assert "Jungfernstieg" in told(event, game)  # the square by the family's name
    give(game, "Anna", 37)
    event = apply(game, op="build", player="Anna", square=39)
    assert means(event, "rules.build.house", player="Anna", square=39, amount=220, n=1)
    assert "einen Speicher" in told(event, game)  # the family's own building word
    assert apply(game, op="rent", player="Ben", square=39).transfers[0].amount == 220


# -- the checks: one test per kind of mistake ---------------------------------------------------------


def test_an_unknown_key_is_named_with_its_line_and_a_guess() -> None:
    assert only(HAMBURG.replace('currency = "€"', 'curency = "€"')) == \
        "Zeile 4, curency: unbekannter Schlüssel – gemeint: 'currency'?"


def test_a_wrong_type_is_named() -> None:
    assert only(HAMBURG + '\n[quick]\ndeeds_each = "200"\n') == \
        'Zeile 15, quick.deeds_each: muss eine ganze Zahl sein, nicht "200"'
    assert "muss true oder false sein" in only(HAMBURG.replace('currency = "€"', 'km_notation = 1'))


def test_a_square_that_does_not_exist_is_named() -> None:
    assert only(HAMBURG + '\n[taxes]\n40 = 200\n') == \
        "Zeile 15, taxes.40: Feld 40 gibt es nicht (0–39) – Bretter mit 52 Feldern (MEGA MONOPOLY) werden noch " \
        "nicht unterstützt"


def test_a_square_that_cannot_carry_a_deed_is_named() -> None:
    assert only(HAMBURG + "\n[deeds.7]\nprice = 100\n") == \
        "Zeile 14, deeds.7: zu Feld 7 (Ereignisfeld) gibt es keine Besitzrechtkarte"


def test_missing_names_are_named_in_a_file_without_base() -> None:
    text = tomllib.loads(to_toml(edition_data(EDITIONS["classic"])))
    del text["names"]["7"]
    found = check_data(text, EDITIONS).problems
    assert [said(p) for p in found] == ["names: es fehlen die Namen der Felder 7 (oder eine 'base' angeben)"]


def test_a_duplicate_name_is_named() -> None:
    assert only(HAMBURG.replace('39 = "Jungfernstieg"', '39 = "Reeperbahn"')) == \
        "Zeile 8, names.39: „Reeperbahn“ heißt schon Feld 1: jedes Grundstück braucht einen eigenen Namen"


def test_a_name_too_long_for_the_oled_is_named() -> None:
    long = "Jungfernstieg an der Binnenalster"
    assert len(long) > MAX_SQUARE_NAME
    assert only(HAMBURG.replace('"Jungfernstieg"', f'"{long}"')) == \
        "Zeile 8, names.39: zu lang (33 Zeichen, höchstens 32)"  # the display's one line: tests/test_editions_display


def test_rents_that_do_not_rise_are_named() -> None:
    """Own example: a public table's copy error."""
    assert only(HAMBURG + "\n[deeds.39]\nrents = [50, 200, 600, 1400, 1800, 1700]\n") == \
        "Zeile 15, deeds.39.rents: die Mieten müssen steigen: auf 1800 folgt 1700"


def test_a_mortgage_above_the_price_is_named() -> None:
    assert only(HAMBURG + "\n[deeds.39]\nmortgage = 500\n") == \
        "Zeile 15, deeds.39.mortgage: die Hypothek (500) darf nicht höher sein als der Preis (400)"


def test_a_building_word_without_gender_is_named() -> None:
    assert only(HAMBURG.replace(', gender = "m"', "")) == \
        "Zeile 11, buildings.house.gender: fehlt (m, f oder n: der, die, das)"
    assert "'x': m, f oder n" in only(HAMBURG.replace('gender = "m"', 'gender = "x"'))


def test_a_money_scale_the_km_entry_cannot_type_is_named() -> None:
    assert only(HAMBURG.replace('currency = "€"', "km_notation = true")) == \
        "scale: 1: mit K/M-Eingabe muss der kleinste Betrag ein Vielfaches von 1000 sein (10000 = 10K), sonst " \
        "lässt sich ein Betrag nicht eintippen"


def test_an_amount_off_the_scale_is_named() -> None:
    assert only(HAMBURG.replace('currency = "€"', "scale = 10\nsalary = 205")) == \
        "Zeile 5, salary: 205 ist kein Vielfaches von 10, dem kleinsten Betrag dieser Ausgabe"


def test_a_board_of_another_shape_is_not_supported_yet() -> None:
    """MEGA's 52 squares, Ultimate Banking's rent levels: "say that this shape is not supported yet"."""
    assert only(HAMBURG.replace('currency = "€"', 'board = "mega"')) == \
        "Zeile 4, board: MEGA MONOPOLY (52 Felder): dieses Brett wird noch nicht unterstützt"
    assert "Bretter mit 52 Feldern (MEGA MONOPOLY) werden noch nicht unterstützt" in \
        only(HAMBURG.replace('39 = "Jungfernstieg"', '47 = "Jungfernstieg"'))
    assert "Mietstufen wie bei Ultimate Banking werden noch nicht unterstützt" in \
        only(HAMBURG + "\n[deeds.39]\nrents = [50, 200, 600, 1400, 1700, 2000, 2200]\n")


def test_an_unknown_base_and_a_broken_file_are_named() -> None:
    assert "base: unbekannte Ausgabe 'hamburg-alt'" in only(HAMBURG.replace('"classic"', '"hamburg-alt"'))
    assert only('key = "x\n').startswith("Zeile 1: kein gültiges TOML")


@pytest.mark.parametrize(("text", "said"), [
    ('key = "x\n', "Zeile 1: kein gültiges TOML: ein Text ohne schließendes Anführungszeichen (Spalte 9)"),
    ('key = "x', "kein gültiges TOML: ein Text ohne schließendes Anführungszeichen"),
    ('key = "x"\ntitle\n', "Zeile 2: kein gültiges TOML: nach dem Namen fehlt „=“ (Spalte 6)"),
    ('key = "x"\n[names\n', "Zeile 2: kein gültiges TOML: nach dem Tabellennamen fehlt „]“ (Spalte 7)"),
    ('key = "x"\nkey = "y"\n', "Zeile 2: kein gültiges TOML: ein Wert ist zweimal angegeben (Spalte 10)"),
    ('key = "x" y\n', "Zeile 1: kein gültiges TOML: nach dem Wert steht noch etwas in der Zeile (Spalte 11)"),
    ('a = [1, 2\n', "kein gültiges TOML: eine Liste ohne schließendes „]“"),
    ('key = x\n', "Zeile 1: kein gültiges TOML: ein ungültiger Wert (Spalte 7)"),
])
def test_a_broken_file_is_said_in_the_familys_language(text: str, said: str) -> None:
    """tomllib says what is wrong in English ("Unterminated string (at end of document)"): a German family reads
    it in German, where it is, and what to look for."""
    assert only(text) == said


def test_a_broken_file_is_said_in_english_when_asked() -> None:
    with words.speaking("en"):
        assert only('key = "x\n') == "line 1: not valid TOML: a text without its closing quote (column 9)"


def test_a_toml_error_we_have_no_words_for_keeps_tomllibs_own() -> None:
    from rules.editions.fileformat import toml_problem

    said = toml_problem("Something new in a later Python (at line 3, column 2)")
    what = said.get("what")
    assert said.key == "editions.toml.at" and said.get("column") == 2 and isinstance(what, Phrase)
    assert what.key == "editions.toml.other" and what.get("text") == "Something new in a later Python"


def test_a_missing_key_and_a_bad_key_are_named() -> None:
    assert only(HAMBURG.replace('key = "hamburg"', "")).startswith("key: fehlt")
    assert only(HAMBURG.replace('"hamburg"', '"Hamburg Süd"')).startswith("Zeile 1, key: 'Hamburg Süd': nur")


# -- the cross-check against the base ---------------------------------------------------------------------


def warnings(extra: str) -> list[str]:
    checked = read_edition(HAMBURG + extra, EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return [said(w) for w in checked.warnings]


def test_a_rent_copied_wrong_is_caught_before_a_family_plays_on_it() -> None:
    """"a US "New York Avenue" rent of 18 for 16"; here Berliner Straße's 16 typed as 18."""
    assert warnings("\n[deeds.19]\nrents = [18, 80, 220, 600, 800, 1000]\n") == \
        ["Zeile 15, deeds.19.rents: 18 statt 16 wie in classic: ein Tippfehler?"]


def test_a_mortgage_in_the_house_price_column_is_caught() -> None:
    assert warnings("\n[deeds.37]\nhouse_price = 175\n") == \
        ["Zeile 15, deeds.37.house_price: 175 statt 200 wie in classic: ein Tippfehler?"]


def test_a_neighbours_rents_copied_onto_a_street_are_caught() -> None:
    found = warnings("\n[deeds.9]\nrents = [6, 30, 90, 270, 400, 550]\n")  # Elisenstraße's onto Poststraße
    assert len(found) == 1 and found[0].startswith("Zeile 15, deeds.9.rents: 6 statt 8 wie in classic")


def test_a_consistent_scale_of_the_base_is_no_typo() -> None:
    """A board printed at ten times the classic values, in full: nothing to warn about."""
    deeds = "".join(f"\n[deeds.{sq}]\nprice = {d.price * 10}\nrents = {list(r * 10 for r in d.rents)}\n"
                    for sq, d in DEEDS.items() if d.kind is Kind.STREET)
    assert warnings(deeds) == []


# -- the property: write → read, and every corruption named ----------------------------------------------


@st.composite
def valid_editions(draw: st.DrawFn) -> Edition:
    """A valid edition: a shipped one with its names, words, money and flags changed within the rules."""
    ed = EDITIONS[draw(st.sampled_from(sorted(EDITIONS)))]
    letters = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzäöüß ÄÖÜ-'\"\\"), min_size=1, max_size=20)
    name = letters.map(str.strip).filter(bool)
    names = list(ed.names)
    short = dict(edition_data(ed).get("short", {}))
    for sq in draw(st.lists(st.integers(0, 39), max_size=6, unique=True)):
        names[sq] = f"{draw(name)} {sq}"
        short.pop(sq, None)
        if len(names[sq]) > MAX_DISPLAY_NAME or draw(st.booleans()):  # a name longer than a line needs a short one
            short[sq] = f"{draw(name)[:16].strip() or 'k'} {sq}"
    factor = 1 if ed.km_notation else draw(st.sampled_from([1, 1, 10, 100]))
    data = edition_data(ed)
    for key in ("start_capital", "salary", "jail_fine", "max_entry", "auction_min_bid", "speed_die_bonus"):
        data[key] *= factor
    data["scale"] *= factor
    data["taxes"] = {sq: v * factor for sq, v in data["taxes"].items()}
    data["deeds"] = {sq: {**d, "price": d["price"] * factor, "house_price": d["house_price"] * factor,
                          "mortgage": d["mortgage"] * factor,
                          "rents": d["rents"] if DEEDS[sq].kind is Kind.UTILITY else [r * factor for r in d["rents"]]}
                     for sq, d in data["deeds"].items()}
    data["names"] = dict(enumerate(names))
    data["short"] = short
    data["key"] = draw(st.from_regex(r"[a-z0-9][a-z0-9-]{0,12}", fullmatch=True))
    data["currency"] = draw(st.sampled_from(["", "€", "Taler", "Ringe"]))
    data["buildings"]["house"] = {"singular": draw(name), "plural": draw(name), "gender": draw(st.sampled_from("mfn"))}
    data["rules"] = {k: draw(st.booleans()) for k in data["rules"]}
    checked = check_data(data, {}, whole=True)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return checked.edition


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_editions())
def test_any_valid_edition_survives_write_then_read_unchanged(ed: Edition) -> None:
    checked = read_edition(to_toml(edition_data(ed), comments=file_comments(ed)), EDITIONS)
    assert checked.problems == [] and checked.edition == ed


WRONG: list[tuple[str, Any]] = [("title", 7), ("scale", "10"), ("km_notation", "ja"), ("salary", -200),
                                ("salary", True), ("max_entry", 0), ("quick.deeds_each", 9), ("stock.houses", 0),
                                ("rules.bankruptcy_mortgage_fee", 1), ("buildings.house.gender", "x"),
                                ("buildings.hotel.plural", ""), ("names.5", ""), ("names.5", "x" * 40),
                                ("deeds.1.rents", [2, 1, 30, 90, 160, 250]), ("deeds.1.rents", [2, 10]),
                                ("deeds.1.mortgage", 61), ("deeds.1.price", "60"), ("deeds.12.house_price", 50),
                                ("taxes.4", "zwei"), ("groups.stations", ""), ("board", "mega"), ("key", "Ä")]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_editions(), st.sampled_from(WRONG))
def test_any_single_field_corruption_is_named_never_a_traceback(ed: Edition, wrong: tuple[str, Any]) -> None:
    path, value = wrong
    data: Any = edition_data(ed)
    *parents, last = path.split(".")
    table = data
    for part in parents:
        table = table[int(part)] if part.isdigit() else table[part]
    table[int(last) if last.isdigit() else last] = value
    text = to_toml(data)
    checked = read_edition(text, EDITIONS)
    assert checked.edition is None
    assert any(p.path == path or p.path.startswith(path + ".") for p in checked.problems), \
        (path, [str(p) for p in checked.problems])
    assert all(p.line is not None for p in checked.problems if p.path == path)


def test_a_corrupted_journal_edition_is_refused_as_a_bad_command_not_a_crash() -> None:
    data = edition_data(EDITIONS["classic"])
    data["deeds"][39]["rents"] = [1, 1, 1, 1, 1, 1]
    game = Game()
    with pytest.raises(Exception) as err:
        game.apply({"op": "new_game", "edition": "classic", "players": ["Anna", "Ben"],
                    "edition_data": {**data, "deeds": {str(k): v for k, v in data["deeds"].items()}}})
    assert getattr(err.value, "code", None) == "bad_command" and "deeds.39.rents" in str(err.value)
    assert game.state is None


def test_the_edition_data_must_be_the_edition_named() -> None:
    with pytest.raises(Exception) as err:
        start("classic", edition_data=edition_data(replace(EDITIONS["sonic"])))
    assert getattr(err.value, "code", None) == "bad_command" and "'sonic'" in str(err.value)
