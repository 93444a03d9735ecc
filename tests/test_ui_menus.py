"""What the player's menu offers: only what the rules accept, asked in each edition's own amounts, at digits
that never move; a deed tag opens that deed; a hotel is sold only the ways the rules allow."""

from __future__ import annotations

from typing import Any

from ui_table import Table

from device.scenes import State
from device.scenes.flows import PLAYER_MENU, View, _to_houses
from device.scenes.said import say
from rules import EDITIONS, Game, square_name
from rules.legal import legal_ops

# -- Findings (the second evening at the virtual device) --------------------------------


def test_1_banking_offers_the_ereigniskarte_entry(table: Table) -> None:
    """docs/playing.md: "8 Ereignis/Gemeinsch.: An alle zahlen, Von allen kassieren, Renovierung" — in Banking it was
    never offered: the menu asked the rules about an amount of 1, and Banking's smallest amount is 10K."""
    table.start("Anna", "Ben", "Cem", edition="banking")
    table.tap("Anna")
    table.press("MENU")
    assert ("8", "Ereignis/Gemeinsch.") in [(o.digit, o.label) for o in table.choice.options]
    table.press("8")
    assert table.labels() == ["An alle zahlen", "Von allen kassieren"]
    table.press("1")
    table.type("50K")
    table.press("OK", "OK")
    assert table.cash("Anna") == 14_900_000 and table.cash("Ben") == 15_050_000


def test_1_every_edition_asks_the_rules_with_an_amount_it_allows() -> None:
    """Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen": the probe is the edition's smallest amount."""
    for key in EDITIONS:
        game = Game()
        game.apply({"op": "new_game", "edition": key, "mode": "standard", "players": ["Anna", "Ben"]})
        assert {"pay_all", "collect_all"} <= set(legal_ops(game, "Anna")), key


def _hotels(table: Table, edition: str) -> None:
    table.start("Anna", "Ben", edition=edition)
    table.book({"op": "credit", "player": "Anna", "amount": 2000}, *[{"op": "buy", "player": "Anna", "square": sq}
                                                                     for sq in (37, 39)],
                *[{"op": "build", "player": "Anna", "square": sq} for _ in range(5) for sq in (37, 39)])


def test_3_a_hotel_sale_that_gives_the_houses_back_is_one_entry_saying_so(table: Table) -> None:
    """Seed 004 gives the Hütten back when a Schloss is sold: "ganz verkaufen" booked the same exchange as "zurück in
    Hütten", so it said what it did not do. One entry, saying what it does."""
    _hotels(table, "skylanders")
    ed = EDITIONS["skylanders"]
    table.tap("Anna")
    table.press("MENU", "6")
    table.choose(f"39 {square_name(ed, 39)}")
    assert table.labels() == [f"zurück in {ed.houses}"]
    table.press("OK")
    assert "ein Schloss auf" in table.text() and "gegen 4" in table.text()


def test_3_the_classic_hotel_sale_keeps_both_ways(table: Table) -> None:
    _hotels(table, "classic")
    table.tap("Anna")
    table.press("MENU", "6")
    table.choose("39 Schlossallee")
    assert table.labels() == ["ganz verkaufen", "zurück in Häuser"]


# -- Findings (three games on the virtual device) ---------------------------------------


def test_4_no_frei_karte_eingesetzt_without_a_card(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "4")
    assert table.labels() == ["Strafe zahlen 50", "Gefängnis-frei-Karte gezogen"]


def test_4_no_ok_0_hint_where_the_rules_refuse_0(table: Table) -> None:
    """The hint "OK: 0" was offered and 0 refused, the flow lost."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "8", "1")  # Ereigniskarte, An alle zahlen
    assert "OK: 0" not in table.text()
    table.press("OK")  # nothing typed: said, and the prompt stays
    assert table.bank.state is State.ENTER and table.tones()[-1] == "refused"


def test_4_a_hotel_is_offered_only_the_ways_the_rules_accept() -> None:
    """Schalke: "ganz verkaufen" and "zurück in Tribünen" were offered and refused alike."""
    edition = EDITIONS["schalke"]

    class Game:
        pass

    game: Any = Game()
    game.edition = edition
    view = View(game, "Anna", {"square": 39}, str, accepts=lambda cmd: cmd["to_houses"] is False)
    assert [(say(label), value) for label, value in _to_houses(view)] == [("ganz verkaufen", False)]


def test_5_a_deed_tag_not_in_the_list_opens_that_deed(table: Table) -> None:
    """A deed tag not in the current list was silently ignored."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.tap("Anna")
    table.press("MENU", "1")  # Kaufen: a list of free squares, 39 not among them
    table.tap(39)
    assert table.text().splitlines()[0] == "Schlossallee" and "Eingabe verworfen" not in table.text()
    assert table.tones()[-1] == "card"


def test_6_menu_digits_never_move(table: Table) -> None:
    """Tausch was 7, then unnumbered, then 9; Renovierung sat past entry 9 (14 presses)."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    before = {o.label: o.digit for o in table.choice.options}
    table.press("C", "C")
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
                {"op": "build", "player": "Anna", "square": 1}, {"op": "buy", "player": "Ben", "square": 39}):
        assert table.ledger.submit(cmd).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU")
    after = {o.label: o.digit for o in table.choice.options}
    assert len(after) > len(before) and all(after[label] == digit for label, digit in before.items())
    assert {e.label: e.digit for e in PLAYER_MENU}["Tausch"] == after["Tausch"] == "9"
    table.press("8", "3")  # Renovierung in three presses
    assert table.text().splitlines()[0] == "Je Haus?"


# -- Defects, each failed before its fix ------------------------------------------------


def test_a_deed_tag_on_a_station_offers_no_building(table: Table) -> None:
    """A station is no street: Bauen/Verkaufen are never offered for it."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 5}).ok
    table.tap("Anna")
    table.tap(5)
    assert table.labels() == ["Hypothek aufnehmen"]


def test_the_player_menu_offers_only_legal_actions(table: Table) -> None:
    """Nobody owns anything, so Miete, Bauen, Verkaufen, Hypothek are not offered."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    labels = table.labels()
    for illegal in ("Miete zahlen", "Bauen", "Gebäude verkaufen", "Hypothek aufnehmen", "Hypothek auflösen"):
        assert illegal not in labels
    assert labels == ["Kaufen", "Steuer", "Gefängnis", "Ereignis/Gemeinsch.", "Tausch", "Mehr"]
