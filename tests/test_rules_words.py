"""The rules speak in codes and values: every text they produce is a phrase of rules.po, said where it
is shown in the language in force; the findings of the evening at the table, fixed; English complete; an old game
told in today's language."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from told import told

import words
from conftest import apply, give, refused, start
from device.store.history import History
from device.store.journal import Journal
from device.store.ledger import Ledger
from rules import BadCommand, Game, Mode, RuleError, parse, parse_amount
from rules.editions import EDITIONS
from rules.game import HOUSE_RULE_NAMES
from rules.names import clean_name
from rules.phrase import Cash, Many, Pieces, Place, from_data, phrase, to_data
from rules.titles import mode_title

ROOT = Path(__file__).resolve().parent.parent


# --- The findings (each failed on the texts before)


def built_twice() -> tuple[Game, str]:
    game = start(players=("Anna", "Ben"))
    give(game, "Ben", 6, 8, 9)
    for sq in (6, 8, 9, 6, 8):
        apply(game, op="build", player="Ben", square=sq)
    return game, told(apply(game, op="build", player="Ben", square=9), game)


def test_a_second_house_says_what_it_cost_not_two_for_that_price() -> None:
    """"Ben baut auf Poststraße: 2 Hütten (50)" read as two for 50: one house was built, for 50."""
    _, text = built_twice()
    assert text == "Ben baut auf Poststraße ein Haus (50), jetzt 2 Häuser"
    assert "2 Häuser (50)" not in text


def test_a_mortgage_names_the_street_first() -> None:
    """"Anna nimmt eine / Hypothek auf:" left the street below the first view; so did "Hypothek zurück:"."""
    game = start()
    give(game, "Anna", 39)
    taken = told(apply(game, op="mortgage", player="Anna", square=39), game)
    repaid = told(apply(game, op="unmortgage", player="Anna", square=39), game)
    assert taken == "Anna: Hypothek auf Schlossallee (200)" and repaid.startswith("Anna: Hypothek auf Schlossallee")
    assert taken.index("Schlossallee") < 20 and repaid.index("Schlossallee") < 20


def test_a_rent_says_who_pays_whom_for_which_street_and_how_much_before_its_houses() -> None:
    """"Cem zahlt Ben Miete / für Poststraße (2" cut the buildings between the street and the amount."""
    game, _ = built_twice()
    text = told(apply(game, op="rent", player="Anna", square=9), game)
    assert text == "Poststraße – Anna zahlt Ben 100 Miete (2 Häuser)"


def test_trading_a_hotel_back_names_the_building_and_its_street_first() -> None:
    """"Ben tauscht das / Schloss auf" hid the street."""
    game = start()
    give(game, "Ben", 37, 39)
    assert game.state is not None
    game.state.players["Ben"].cash = 5000
    for sq in (37, 39) * 5:
        apply(game, op="build", player="Ben", square=sq)
    text = told(apply(game, op="sell_building", player="Ben", square=39, to_houses=True), game)
    assert text == "Ben: ein Hotel auf Schlossallee gegen 4 Häuser getauscht (100)"


def test_a_new_game_names_its_box_and_players_first() -> None:
    """"Neues Spiel (MONOPOLY / Sonic," broke the edition's name in its parenthesis: the box, then who plays."""
    game = start("sonic", players=("Anna", "Ben", "Cem"))
    assert told(game.history[-1], game) == (
        f"{EDITIONS['sonic'].title}: neues Spiel, Anna, Ben und Cem (Standardspiel)")


# --- English, one test per kind of message


def english() -> Game:
    words.use("en")
    return start("classic-uk", players=("Anna", "Ben"))


def test_a_booking_in_english() -> None:
    game = english()
    give(game, "Anna", 37, 39)
    assert told(apply(game, op="buy", player="Ben", square=1), game) == "Ben buys Old Kent Road for 60"
    assert told(apply(game, op="build", player="Anna", square=39), game) == "Anna adds a house to Mayfair (200)"
    assert told(apply(game, op="rent", player="Ben", square=39), game) == (
        "Mayfair – Ben pays Anna 200 rent (1 house)")
    assert told(apply(game, op="go", player="Ben"), game) == "Ben passes GO: 200"


def test_a_refusal_in_english() -> None:
    game = english()
    assert refused(game, "insufficient_funds", op="transfer", **{"from": "Anna"}, to="Ben", amount=1600) == (
        "Not enough money. 100 short – Anna has 1500, needs 1600")
    assert refused(game, "not_owner", op="mortgage", player="Anna", square=39) == "Anna does not own Mayfair"


def test_a_malformed_command_and_a_typed_amount_and_a_name_are_refused_in_english() -> None:
    words.use("en")
    with pytest.raises(BadCommand) as bad:
        parse({"op": "credit", "player": "Anna"})
    assert told(bad) == "Field 'amount' is missing"
    with pytest.raises(BadCommand) as typed:
        parse_amount("200", EDITIONS["banking"])
    assert told(typed) == "Enter the amount with K or M"
    with pytest.raises(RuleError) as name:
        clean_name("")
    assert told(name) == "Name missing"


def test_a_note_a_preview_and_a_payments_reason_in_english() -> None:
    game = english()
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    preview = game.preview({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [37]},
                            "b_gives": {"cash": 100}})
    assert told(preview, game) == ("Anna trades with Ben: Anna gives Park Lane; Ben gives 100; "
                                   "Ben: Park Lane – 10% interest, 18 to the Bank")
    assert told(preview.note, game) == "Ben to Bank: 18"
    assert [told(t, game) for t in preview.transfers] == ["Trade with Anna", "10% interest Park Lane"]


def test_modes_and_house_rules_are_named_in_english() -> None:
    words.use("en")
    assert words.say(mode_title(EDITIONS["schalke"], Mode.STANDARD, speed_die=True)) == (
        "Standard game with the Speed Die")
    assert words.say(mode_title(EDITIONS["classic"], Mode.QUICK)) == "Short Game"
    assert [words.say(name) for name in HOUSE_RULE_NAMES.values()] == ["Free Parking pot", "double salary on GO",
                                                                       "no auctions"]
    # Skylanders' book's name for it is said in the language in force, as the OLED says it; a family's edition's
    # own name for its quick game is its own word, in every language
    assert words.say(mode_title(EDITIONS["skylanders"], Mode.QUICK)) == "Short Game"
    family = dataclasses.replace(EDITIONS["classic"], quick=dataclasses.replace(EDITIONS["classic"].quick,
                                                                                 name="Blitzrunde"))
    assert words.say(mode_title(family, Mode.QUICK)) == "Blitzrunde"


def test_english_plurals_and_articles() -> None:
    words.use("en")
    classic = EDITIONS["classic-uk"]
    said = phrase("rules.trade.cards", n=1)
    assert words.say(said, classic) == "1 Get Out of Jail Free card"
    assert words.say(phrase("rules.trade.cards", n=2), classic) == "2 Get Out of Jail Free cards"
    assert words.say(phrase("rules.build.full", square=Place(39), hotel_pieces=Pieces("hotel", 1)), classic) == (
        "Mayfair: already a hotel")


# --- An old game, told in today's language


def test_a_replayed_journal_is_told_in_the_language_in_force(tmp_path: Path) -> None:
    """The journal keeps commands: the same game, replayed after a switch to English, is told in English."""
    path = tmp_path / "journal.sqlite3"
    ledger = Ledger(Journal(path))
    for cmd in ({"op": "new_game", "edition": "classic", "players": ["Anna", "Ben"]},
                {"op": "buy", "player": "Anna", "square": 39}, {"op": "rent", "player": "Ben", "square": 39},
                {"op": "mortgage", "player": "Anna", "square": 39}, {"op": "undo"}):
        assert ledger.submit(cmd).ok
    german = [e["text"] for e in ledger.snapshot()["log"]]
    assert german == ["Storno: Anna: Hypothek auf Schlossallee (200)", "Anna: Hypothek auf Schlossallee (200)",
                      "Schlossallee – Ben zahlt Anna 50 Miete (unbebaut)", "Anna kauft Schlossallee für 400",
                      "MONOPOLY: neues Spiel, Anna und Ben (Standardspiel)"]
    ledger.journal.close()
    words.use("en")
    again = Ledger(Journal(path))  # replayed from the journal's commands
    assert [e["text"] for e in again.snapshot()["log"]] == [
        "Undone: Anna: mortgage on Schlossallee (200)", "Anna: mortgage on Schlossallee (200)",
        "Schlossallee – Ben pays Anna 50 rent (no buildings)", "Anna buys Schlossallee for 400",
        "MONOPOLY: new game, Anna and Ben (Standard game)"]
    again.journal.close()
    history = History(path)
    report = history.report(history.games()[0]["id"])
    assert report is not None
    told_now = " ".join(report.said(event) for _, event in report.log) + report.csv()
    assert "Anna buys Schlossallee for 400" in told_now
    assert not re.search(r"\b(zahlt|kauft|erhält|Miete|Hypothek|Spiel)\b", told_now)


def test_a_checkpoint_keeps_the_phrases_whole() -> None:
    said = phrase("rules.bankrupt.receives", said=phrase("rules.join.one", only="x"), creditor="Ben",
                  gets=Many((Cash(5), Place(39), Pieces("hotel", 1, "acc"), 3)))
    assert from_data(to_data(said)) == said
    with pytest.raises(ValueError):
        from_data(["rules.x", {"bad": {"cash": "5"}}])


# --- The catalogue and the purity of rules


def test_rules_imports_no_words() -> None:
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "words" for a in node.names), path
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert (node.module or "").split(".")[0] != "words", path


