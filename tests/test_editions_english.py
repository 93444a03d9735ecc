"""The English boards ("English boards"): "ship the classic UK board (`classic-uk`: Old Kent Road …
Mayfair, £) and the classic US board (`classic-us`: Mediterranean Avenue … Boardwalk, $) as editions, with the
classic values (the classic values are the same on the three boards; the names are public facts). Names and
values are to be checked against two independent public sources each, since public tables carry copy errors."

The sources, what each gave and where they disagreed: docs/editions.md, "The English boards". The lists below are
the facts as verified there (never a source's text).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from told import told

import words
from conftest import apply, cash, give, start
from device.daemon.cli import main
from device.scenes.layout import wrap
from device.store.editions import oled_problems
from rules import DEEDS, EDITIONS, Kind
from rules.editions import read_edition, to_toml
from rules.editions.shipped import ORDER

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = ("classic-uk", "classic-us")

UK_NAMES = (
    # Square order and names: eudesign.com/mnems/monopoly.htm (all 40 squares) and pubquizhelp.com/game/monopoly.html
    # (the sequence with values), the property names also en.wikipedia.org/wiki/List_of_London_Monopoly_locations.
    # Spelt as the board prints them: "King's Cross", "The Angel Islington" (no comma), "Strand" (no "The"),
    # "Fenchurch St." and "Liverpool St." Station.
    "GO", "Old Kent Road", "Community Chest", "Whitechapel Road", "Income Tax", "King's Cross Station",
    "The Angel Islington", "Chance", "Euston Road", "Pentonville Road",
    "In Jail / Just Visiting", "Pall Mall", "Electric Company", "Whitehall", "Northumberland Avenue",
    "Marylebone Station", "Bow Street", "Community Chest", "Marlborough Street", "Vine Street",
    "Free Parking", "Strand", "Chance", "Fleet Street", "Trafalgar Square", "Fenchurch St. Station",
    "Leicester Square", "Coventry Street", "Water Works", "Piccadilly",
    "Go to Jail", "Regent Street", "Oxford Street", "Community Chest", "Bond Street", "Liverpool St. Station",
    "Chance", "Park Lane", "Super Tax", "Mayfair",
)

US_NAMES = (
    # Square order and names: the US board layout of September 2008 (liquisearch.com's copy of Wikipedia's "List of
    # licensed and localized editions of Monopoly: US versions") and github.com/DhruvSuri/Monopoly BoardConfig.json
    # (all 40 squares); the streets and railroads also reference.com ("What Are the Street Names in Monopoly?").
    "GO", "Mediterranean Avenue", "Community Chest", "Baltic Avenue", "Income Tax", "Reading Railroad",
    "Oriental Avenue", "Chance", "Vermont Avenue", "Connecticut Avenue",
    "In Jail / Just Visiting", "St. Charles Place", "Electric Company", "States Avenue", "Virginia Avenue",
    "Pennsylvania Railroad", "St. James Place", "Community Chest", "Tennessee Avenue", "New York Avenue",
    "Free Parking", "Kentucky Avenue", "Chance", "Indiana Avenue", "Illinois Avenue", "B. & O. Railroad",
    "Atlantic Avenue", "Ventnor Avenue", "Water Works", "Marvin Gardens",
    "Go to Jail", "Pacific Avenue", "North Carolina Avenue", "Community Chest", "Pennsylvania Avenue", "Short Line",
    "Chance", "Park Place", "Luxury Tax", "Boardwalk",
)

# The printed deeds of the English boards, square by square: price, rents (site only, 1–4 houses, hotel; stations
# 1–4 owned; utilities the dice factors), house cost, mortgage. The same figures on both boards, verified against
# the sources named in docs/editions.md (US: STAT-JET-ASU's monopolygame.csv, DhruvSuri's BoardConfig.json and
# jnider's clonopoly board.cpp; UK: AdrianBav's bavanco deed replicas, the Euracom guide's streets, awearytraveler's
# board_constants.py, monopoly.fandom.com's Old Kent Road deed and pubquizhelp.com's prices). One UK deed differs:
# Piccadilly's site rent, 22 on the UK deed (UK_DEEDS below; docs/editions.md says which sources agree).
ENGLISH_DEEDS: dict[int, tuple[int, tuple[int, ...], int, int]] = {
    1: (60, (2, 10, 30, 90, 160, 250), 50, 30),
    3: (60, (4, 20, 60, 180, 320, 450), 50, 30),
    5: (200, (25, 50, 100, 200), 0, 100),
    6: (100, (6, 30, 90, 270, 400, 550), 50, 50),
    8: (100, (6, 30, 90, 270, 400, 550), 50, 50),
    9: (120, (8, 40, 100, 300, 450, 600), 50, 60),
    11: (140, (10, 50, 150, 450, 625, 750), 100, 70),
    12: (150, (4, 10), 0, 75),
    13: (140, (10, 50, 150, 450, 625, 750), 100, 70),
    14: (160, (12, 60, 180, 500, 700, 900), 100, 80),
    15: (200, (25, 50, 100, 200), 0, 100),
    16: (180, (14, 70, 200, 550, 750, 950), 100, 90),
    18: (180, (14, 70, 200, 550, 750, 950), 100, 90),
    19: (200, (16, 80, 220, 600, 800, 1000), 100, 100),
    21: (220, (18, 90, 250, 700, 875, 1050), 150, 110),
    23: (220, (18, 90, 250, 700, 875, 1050), 150, 110),
    24: (240, (20, 100, 300, 750, 925, 1100), 150, 120),
    25: (200, (25, 50, 100, 200), 0, 100),
    26: (260, (22, 110, 330, 800, 975, 1150), 150, 130),
    27: (260, (22, 110, 330, 800, 975, 1150), 150, 130),
    28: (150, (4, 10), 0, 75),
    29: (280, (24, 120, 360, 850, 1025, 1200), 150, 140),
    31: (300, (26, 130, 390, 900, 1100, 1275), 200, 150),
    32: (300, (26, 130, 390, 900, 1100, 1275), 200, 150),
    34: (320, (28, 150, 450, 1000, 1200, 1400), 200, 160),
    35: (200, (25, 50, 100, 200), 0, 100),
    37: (350, (35, 175, 500, 1100, 1300, 1500), 200, 175),
    39: (400, (50, 200, 600, 1400, 1700, 2000), 200, 200),
}
UK_DEEDS = {**ENGLISH_DEEDS, 29: (280, (22, 120, 360, 850, 1025, 1200), 150, 140)}
"""The UK board's deeds: Piccadilly's site rent is 22, where Marvin Gardens and Goethestraße print 24."""
BOARD_DEEDS = {"classic-uk": UK_DEEDS, "classic-us": ENGLISH_DEEDS}


def shipped_file(key: str) -> Path:
    return ROOT / "rules" / "editions" / f"{key}.toml"


def with_deeds(key: str, deeds: dict[int, tuple[int, tuple[int, ...], int, int]]) -> str:
    """The shipped file with the given deeds written into it, as a family would copy a public table."""
    data: dict[str, Any] = {"deeds": {sq: {"price": p, "rents": list(r), "house_price": h, "mortgage": m}
                                      for sq, (p, r, h, m) in deeds.items()}}
    shipped = re.sub(r"(?m)^\[deeds\.\d+\]\n(?:[^\[\n].*\n?)*", "", shipped_file(key).read_text(encoding="utf-8"))
    return shipped.replace(f'key = "{key}"', f'key = "{key}-copy"') + "\n" + to_toml(data)


# -- shipped -------------------------------------------------------------------------------------------------


def test_the_english_boards_ship_after_the_five_german_boxes() -> None:
    assert ORDER[-2:] == ENGLISH and ORDER[:5] == ("banking", "classic", "schalke", "sonic", "skylanders")
    assert list(EDITIONS)[-2:] == list(ENGLISH)
    for key in ENGLISH:
        assert shipped_file(key).is_file() and EDITIONS[key].base == "classic"


@pytest.mark.parametrize(("key", "names"), [("classic-uk", UK_NAMES), ("classic-us", US_NAMES)])
def test_every_square_carries_the_name_its_board_prints(key: str, names: tuple[str, ...]) -> None:
    assert EDITIONS[key].names == names
    assert len(names) == 40 and len({names[sq] for sq in DEEDS}) == 28


def test_the_money_and_the_group_words_are_each_boards_own() -> None:
    uk, us = EDITIONS["classic-uk"], EDITIONS["classic-us"]
    assert (uk.currency, uk.title, uk.stations, uk.utilities) == ("£", "MONOPOLY UK (London)", "stations", "utilities")
    assert (us.currency, us.title, us.stations, us.utilities) == ("$", "MONOPOLY US (Atlantic City)", "railroads",
                                                                  "utilities")


@pytest.mark.parametrize("key", ENGLISH)
def test_the_building_words_are_english_and_german_in_german(key: str) -> None:
    """Common nouns, lower case inside an English sentence; a German table playing the board says its own words
    ("ein Haus"), never "ein House"."""
    ed = EDITIONS[key]
    assert ed.language == "en" and (ed.house, ed.houses, ed.hotel, ed.hotels) == ("house", "houses", "hotel", "hotels")
    with words.speaking("en"):
        assert words.counted(ed.house_word, 1) == "a house" and words.definite(ed.hotel_word) == "the hotel"
    german = words.localised(ed)
    assert words.counted(german.house_word, 1) == "ein Haus" and words.definite(german.hotel_word) == "das Hotel"


# -- the classic values -------------------------------------------------------------------------------------


def test_the_sources_deeds_are_the_german_classic_boards() -> None:
    """"the classic values are the same on the three boards"."""
    classic = EDITIONS["classic"]
    assert set(ENGLISH_DEEDS) == set(DEEDS)
    for sq, (price, rents, house, mortgage) in ENGLISH_DEEDS.items():
        card = classic.deed(sq)
        assert (card.price, card.rents, card.house_price, card.mortgage) == (price, rents, house, mortgage), sq


@pytest.mark.parametrize("key", ENGLISH)
def test_each_board_plays_its_printed_deeds(key: str) -> None:
    """The classic values, but for the one the UK deed prints otherwise (Piccadilly, site only £22)."""
    ed, classic = EDITIONS[key], EDITIONS["classic"]
    for sq, card in classic.deeds.items():
        mine = ed.deed(sq)
        assert (mine.price, mine.rents, mine.house_price, mine.mortgage) == BOARD_DEEDS[key][sq]
        assert (mine.kind, mine.group) == (card.kind, card.group)
        assert mine.name == ed.names[sq]
    differs = {sq for sq in classic.deeds if ed.deed(sq).rents != classic.deed(sq).rents}
    assert differs == ({29} if key == "classic-uk" else set())
    assert dict(ed.taxes) == {4: 200, 38: 100}  # Income Tax; UK Super Tax, US Luxury Tax (current boards: 100)
    assert (ed.start_capital, ed.salary, ed.jail_fine, ed.scale) == (1500, 200, 50, 1)


@pytest.mark.parametrize("key", ENGLISH)
def test_the_cross_check_finds_the_sources_table_equal_to_classic(key: str) -> None:
    """The edition format's cross-check against the base: the verified table written out as deeds warns of
    nothing, and the file plays the same as the shipped one."""
    checked = read_edition(with_deeds(key, BOARD_DEEDS[key]), EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    # The one deed the UK board prints otherwise is the one hint: 22 where its base, classic, has 24.
    assert [(w.path, dict(w.message.values)) for w in checked.warnings] == (
        [("deeds.29.rents", {"given": 22, "base": "classic", "there": 24})] if key == "classic-uk" else [])
    assert dict(checked.edition.deeds) == dict(EDITIONS[key].deeds)


@pytest.mark.parametrize(("key", "sq", "copied", "path"), [
    # Euracom's Whitechapel Road: 4 houses £360 (the deed prints 320; its neighbour Old Kent Road is 160).
    ("classic-uk", 3, (60, (4, 20, 60, 180, 360, 450), 50, 30), "deeds.3.rents"),
    # The known US copy error: New York Avenue's site rent 18 (St. James / Kentucky) for 16.
    ("classic-us", 19, (200, (18, 80, 220, 600, 800, 1000), 100, 100), "deeds.19.rents"),
    # A mortgage put in the house-price column.
    ("classic-us", 37, (350, (35, 175, 500, 1100, 1300, 1500), 175, 175), "deeds.37.house_price"),
    # One street's rents copied onto its neighbour's: Vine Street given Marlborough Street's.
    ("classic-uk", 19, (200, (14, 70, 200, 550, 750, 950), 100, 100), "deeds.19.rents"),
])
def test_the_cross_check_names_the_copy_errors_public_tables_carry(
        key: str, sq: int, copied: tuple[int, tuple[int, ...], int, int], path: str) -> None:
    checked = read_edition(with_deeds(key, {**BOARD_DEEDS[key], sq: copied}), EDITIONS)
    assert checked.edition is not None
    assert [w.path for w in checked.warnings if w.path != "deeds.29.rents" or key != "classic-uk"] == [path]
    assert "wie in classic" in words.say(checked.warnings[0].message, EDITIONS[key])


def test_a_slip_that_breaks_the_rising_rents_is_refused_not_merely_hinted() -> None:
    """One UK table has Leicester Square's 3 houses as 8000 (for 800): the file does not play, key and line named."""
    checked = read_edition(with_deeds("classic-uk", {**UK_DEEDS, 26: (260, (22, 110, 330, 8000, 975, 1150),
                                                                            150, 130)}), EDITIONS)
    assert checked.edition is None
    assert [(p.path, words.say(p.message)) for p in checked.problems] == [
        ("deeds.26.rents", "die Mieten müssen steigen: auf 8000 folgt 975")]
    assert checked.problems[0].line is not None


# -- the edition command and the OLED -------------------------------------------------------------------------


@pytest.mark.parametrize("key", ENGLISH)
def test_bankleser_edition_check_passes_the_file(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`bankleser edition check` with the OLED's measure. A shipped key is refused for a family file, so the check
    runs on the file as a family copies it (its own key); the shipped file itself has no problem but its key."""
    copy = tmp_path / f"{key}-copy.toml"
    copy.write_text(shipped_file(key).read_text(encoding="utf-8").replace(f'key = "{key}"', f'key = "{key}-copy"'),
                    encoding="utf-8")
    assert main(["edition", "check", str(copy), "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{key}-copy.toml: in Ordnung" in out and "40 eigene Namen" in out
    # Copied word for word, the UK file still names classic as its base, and its one printed difference is the one
    # hint (Piccadilly's 22); built on the shipped board, as the refusal below advises, there is none.
    assert out.count("Hinweis") == (1 if key == "classic-uk" else 0)
    copy.write_text(copy.read_text(encoding="utf-8").replace('base = "classic"', f'base = "{key}"'), encoding="utf-8")
    assert main(["edition", "check", str(copy), "--state-dir", str(tmp_path)]) == 0
    assert "Hinweis" not in capsys.readouterr().out

    own = tmp_path / f"{key}.toml"
    shutil.copy(shipped_file(key), own)
    assert main(["edition", "check", str(own), "--state-dir", str(tmp_path)]) == 1
    problems = [line for line in capsys.readouterr().out.splitlines() if "Problem" not in line and "Hinweis" not in line]
    assert len(problems) == 1 and problems[0].startswith(f"{key}.toml: key: '{key}' ist eine mitgelieferte Ausgabe")
    assert f"'{key}' als base" in problems[0]  # how to build on it instead


@pytest.mark.parametrize("key", ENGLISH)
def test_the_oled_shows_every_name_the_longest_included(key: str) -> None:
    """The edition format's fit check: every name in at most two lines of the OLED's font, no word wider than one."""
    ed = EDITIONS[key]
    assert oled_problems(ed) == []
    longest = max(ed.names, key=len)
    assert len(longest) >= 21 and 1 <= len(wrap(longest)) <= 2


# -- a game -------------------------------------------------------------------------------------------------


def test_a_uk_game_books_mayfair_and_a_station_by_their_names() -> None:
    from told import means

    game = start("classic-uk")
    assert means(apply(game, op="buy", player="Anna", square=39), "rules.buy.done", player="Anna", square=39,
                 amount=400)
    rent = apply(game, op="rent", player="Ben", square=39)
    assert "Mayfair" in told(rent, game) and rent.transfers[0].amount == 50
    assert means(apply(game, op="buy", player="Ben", square=5), "rules.buy.done", player="Ben", square=5, amount=200)
    assert "King's Cross Station" in told(apply(game, op="rent", player="Anna", square=5), game)
    give(game, "Anna", 37)
    assert means(apply(game, op="build", player="Anna", square=39), "rules.build.house", player="Anna", square=39,
                 amount=200, n=1)
    assert means(apply(game, op="tax", player="Anna", square=38), "rules.tax.done", player="Anna", square=38,
                 amount=100)
    assert "Super Tax" in told(game.history[-1], game)  # the square by the UK board's name
    assert cash(game, "Anna") == 1500 - 400 + 50 - 25 - 200 - 100
    assert cash(game, "Ben") == 1500 - 50 - 200 + 25


def test_a_us_game_books_boardwalk_and_a_railroad_by_their_names() -> None:
    from told import means

    game = start("classic-us")
    assert means(apply(game, op="buy", player="Anna", square=39), "rules.buy.done", player="Anna", square=39,
                 amount=400)
    give(game, "Anna", 37)
    rent = apply(game, op="rent", player="Ben", square=39)  # the whole dark blue group: double site rent
    assert "Boardwalk" in told(rent, game) and rent.transfers[0].amount == 100
    assert means(apply(game, op="buy", player="Ben", square=25), "rules.buy.done", player="Ben", square=25,
                 amount=200)
    assert "B. & O. Railroad" in told(apply(game, op="rent", player="Anna", square=25), game)
    assert means(apply(game, op="tax", player="Anna", square=38), "rules.tax.done", player="Anna", square=38,
                 amount=100)
    assert "Luxury Tax" in told(game.history[-1], game)  # the square by the US board's name
    assert cash(game, "Anna") == 1500 - 400 + 100 - 25 - 100
    assert cash(game, "Ben") == 1500 - 100 - 200 + 25


def test_the_stations_and_utilities_keep_their_kinds() -> None:
    for key in ENGLISH:
        ed = EDITIONS[key]
        assert [sq for sq, d in ed.deeds.items() if d.kind is Kind.STATION] == [5, 15, 25, 35]
        assert [ed.names[sq] for sq, d in ed.deeds.items() if d.kind is Kind.UTILITY] == ["Electric Company",
                                                                                          "Water Works"]
