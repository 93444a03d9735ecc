"""A booking's confirmation: the title bar says what the keys do ("OK bucht, C zurück"), so the body
has three rows under the amount for what is booked, nothing pinned; every confirmation the reader makes still says
what it is (the flow's title, which only repeated the verb of the rules' sentence, is said in the big line where
nothing else stands there)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from in_play import in_play
from oled_fit import screen_problems
from ui_scenarios import confirming, trade_with_a_lift
from ui_table import UID, Table

import words
from device.scenes.layout import MORE, problems

# The confirmations the reader makes (runner._finish/_confirm, menus.ask_undo/ask_end, flows' summaries) ----------

def choose_square(table: Table, square: int) -> None:
    """The square on the list by its number (the OLED says the edition's short name where it has one)."""
    table.choose(next(label for label in table.labels() if label.startswith(f"{square:2d} ")))


def rent_on_the_long_station(table: Table) -> None:
    """Cem pays Ben rent for Schreckliche Schiffstransporte (Skylanders)."""
    table.start("Anna", "Ben", "Cem", edition="skylanders")
    table.book({"op": "buy", "player": "Ben", "square": 35})
    table.tap("Cem")
    table.press("MENU", "2")
    choose_square(table, 35)
    confirming(table)


def a_hut_on_schlossallee(table: Table) -> None:
    """Ben builds a Hütte on Skylanders' 39: who, which building and which square take three rows."""
    table.start("Anna", "Ben", "Cem", edition="skylanders")
    table.book({"op": "credit", "player": "Ben", "amount": 2000},
               *[{"op": "buy", "player": "Ben", "square": sq} for sq in (37, 39)])
    table.tap("Ben")
    table.press("MENU", "5")
    choose_square(table, 39)
    confirming(table)


def repairs_of_nothing(table: Table) -> None:
    """Renovierung with 0 a house and 100 a hotel, and Anna has one house: the rules preview 0 to pay."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book(*[{"op": "buy", "player": "Anna", "square": sq} for sq in (37, 39)],
               {"op": "build", "player": "Anna", "square": 39})
    table.tap("Anna")
    table.press("MENU", "8", "3", "OK")
    table.type("100")
    table.press("OK")
    confirming(table)


def storno(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39})
    table.press("MENU")
    table.choose("Storno")
    confirming(table)


def storno_of_a_new_game(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.start("Cem", "Dana", edition="sonic", replace=True)
    table.press("MENU")
    table.choose("Storno")
    confirming(table)


def end(table: Table) -> None:
    table.start("Anna", "Ben", "Cem", mode="timed", minutes=30)
    table.press("MENU")
    table.choose("Spiel beenden")
    confirming(table)


def bankrupt(table: Table) -> None:
    """Cem owes Ben 1600 and has 1500: bankrupt to Ben (tests/test_ui_bankrupt.py, finding 1)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Cem")
    table.press("SOLL")
    table.type("1600")
    table.tap("Ben")
    table.press("OK")  # ZU WENIG GELD: OK: Geld beschaffen
    table.choose("Bankrott")
    confirming(table)


def trade(table: Table) -> None:
    """Anna gives Schlossallee, Ben 500."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39})
    table.tap("Anna")
    table.press("MENU")
    table.choose("Tausch")
    table.tap("Ben")
    table.choose("39 Schlossallee")
    table.choose("Fertig")
    table.press("OK")  # Anna gives no money
    table.choose("Fertig")  # Ben has no deeds
    table.type("500")
    table.press("OK")
    confirming(table)


CONFIRMATIONS: dict[str, Callable[[Table], None]] = {
    "rent": rent_on_the_long_station, "build": a_hut_on_schlossallee, "repairs": repairs_of_nothing, "storno": storno,
    "storno_new_game": storno_of_a_new_game, "end": end, "bankrupt": bankrupt, "trade": trade,
    "trade_with_a_lift": trade_with_a_lift}


def test_a_confirmation_whose_facts_take_three_rows_shows_them_all_on_the_first_screen(table: Table) -> None:
    """Two rows under "Bauen" and the amount, above a pinned "OK bucht, C zurück", ended at "Schlossallee eine": which
    building was below."""
    a_hut_on_schlossallee(table)
    assert table.text().splitlines() == ["OK bucht, C zurück", "200", "Ben baut auf", "Schlossallee eine",
                                         "Hütte (200)"]
    assert screen_problems(table.screen(), ("Ben", "Schlossallee", "eine Hütte", "200")) == []
    assert table.screen().icons == ""  # all of it on one screen: the knob has nothing to scroll


def test_in_english_the_title_bar_says_ok_books_and_the_facts_are_first(table: Table) -> None:
    a_hut_on_schlossallee(table)
    words.use("en")
    table.bank.render()
    shown = table.screen()
    assert shown.title == "OK: book, C: back" and shown.big == "200"
    assert screen_problems(shown, ("Ben", "a hut", "Schlossallee", "200")) == []  # Skylanders' own word, in English


def test_a_confirmation_of_nothing_to_pay_says_its_flow_in_the_big_line(table: Table) -> None:
    """The big line said "OK?" where there is no amount, under the title "Renovierung": with "OK bucht, C zurück"
    in the title bar that "OK?" says nothing, and the flow's name would be gone; it takes the big line."""
    repairs_of_nothing(table)
    shown = table.screen()
    assert (shown.title, shown.big) == ("OK bucht, C zurück", "Renovierung")
    assert shown.lines[0].startswith("Anna zahlt 0")


def test_a_storno_says_storno_in_the_big_line_and_the_booking_below(table: Table) -> None:
    storno(table)
    shown = table.screen()
    assert (shown.title, shown.big) == ("OK bucht, C zurück", "STORNO")
    assert shown.lines == ("Anna kauft", "Schlossallee für 400")


def test_the_end_says_what_ok_does_in_the_title_bar(table: Table) -> None:
    """Its title "Zeit um?" gave way to its own keys' line; ENDE and "Spiel jetzt beenden" say the rest."""
    end(table)
    assert table.text().splitlines() == ["OK beendet, C zurück", "ENDE", "Spiel jetzt beenden"]


def test_a_bankruptcy_says_bankrott_in_the_big_line_over_three_rows(table: Table) -> None:
    """Its summary has no big line of its own: the title takes it; who to whom, how much, that Storno undoes it and
    the debt in the three rows (four rows without a big line, one of them pinned "OK bucht", held the same)."""
    bankrupt(table)
    assert table.text().splitlines() == ["OK bucht, C zurück", "Bankrott", "Cem an Ben: 1500", "Storno hebt es auf",
                                         "Schuld 1600"]


def test_a_trade_says_who_gives_what_in_four_rows(table: Table) -> None:
    """Its title "Tausch" gave way to the keys, and the big line "Tausch" to a fourth row: who gives, then what, for
    each side ("X gibt:" says it is a trade)."""
    trade(table)
    shown = table.screen()
    assert (shown.title, shown.big, shown.icons) == ("OK bucht, C zurück", "", "")
    assert shown.lines == (words.text("scenes.trade.side", player="Anna"), "Schlossallee",
                           words.text("scenes.trade.side", player="Ben"), "500")
    table.press("OK")
    assert in_play(table.ledger).deeds[39].owner == "Ben"


@pytest.mark.parametrize("code", words.LANGUAGES)
@pytest.mark.parametrize("which", CONFIRMATIONS)
def test_every_confirmation_says_what_ok_does_and_what_it_is(table: Table, which: str, code: str) -> None:
    """Each confirmation the reader makes: the title bar is its keys' line, the big line is never empty but for a
    trade (its first row says who gives), and every part fits (measured with the display's font)."""
    CONFIRMATIONS[which](table)
    words.use(code)
    table.bank.render()
    scene, shown = confirming(table), table.screen()
    assert shown.title == table.bank.say(scene.ok_line)
    said = shown.big if scene.big_line else shown.lines[0]
    assert said and problems(shown) == []


# The title bar: the scroll mark, the reader's own marks, a note ----------------------------------------------------

def widest_marks(table: Table) -> None:
    """A storage fault ("!") and the sound off ("x"), the reader's own marks, beside the scene's."""
    table.ledger.problem_key = "service.journal.full"
    table.bank.muted = lambda: True
    table.bank.render()


def test_the_sound_off_mark_follows_the_buzzer_not_a_word(table: Table) -> None:
    """Muted is the buzzer's state: no volume's name in any language decides it."""
    table.bank.muted = lambda: True
    assert table.bank.marks == "x"
    table.bank.muted = lambda: False
    assert table.bank.marks == ""


def test_the_hint_gives_way_to_its_short_form_beside_the_widest_marks(table: Table) -> None:
    """"OK bucht, C zurück" (108 px) and the scroll mark, a fault and the sound off (18 px and a gap) need 130 px
    of the bar's 124: the keys' line keeps what OK does ("OK bucht"); C goes back everywhere on the reader."""
    trade_with_a_lift(table)  # four rows: the scroll mark is on
    widest_marks(table)
    shown = table.screen()
    assert (shown.title, shown.icons) == ("OK bucht", f"{MORE}!x") and problems(shown) == []
    table.ledger.problem_key = None
    table.bank.render()
    assert (table.screen().title, table.screen().icons) == ("OK bucht, C zurück", f"{MORE}x")


def test_the_end_gives_way_beside_any_mark(table: Table) -> None:
    """"OK beendet, C zurück" fills the bar alone (120 of 124 px): beside a mark it is "OK beendet"."""
    end(table)
    table.bank.muted = lambda: True
    table.bank.render()
    assert (table.screen().title, table.screen().icons) == ("OK beendet", "x") and problems(table.screen()) == []


@pytest.mark.parametrize("code", words.LANGUAGES)
@pytest.mark.parametrize("which", CONFIRMATIONS)
def test_every_confirmation_fits_beside_the_widest_marks(table: Table, which: str, code: str) -> None:
    CONFIRMATIONS[which](table)
    words.use(code)
    widest_marks(table)
    scene, shown = confirming(table), table.screen()
    assert shown.icons.endswith("!x") and problems(shown) == []
    assert shown.title in (table.bank.say(scene.ok_line), table.bank.say(scene.ok_short))


def test_the_long_form_stays_where_it_fits_beside_the_marks(table: Table) -> None:
    """English "OK: book, C: back" (102 px) fits beside the scroll mark, a fault and the sound off."""
    trade_with_a_lift(table)
    words.use("en")
    widest_marks(table)
    assert (table.screen().title, table.screen().icons) == ("OK: book, C: back", f"{MORE}!x")


def test_an_unused_key_is_said_in_the_title_bar_for_its_moment(table: Table) -> None:
    """The note goes into the title bar, never over a row of what is to be booked; the keys' line
    comes back with the next input."""
    trade_with_a_lift(table)
    lines = table.screen().lines
    table.press("5")
    assert table.screen().title == "5: hier nicht" and table.screen().lines == lines
    table.press("DOWN")  # the knob scrolls: the note's moment is over
    assert table.screen().title == "OK bucht, C zurück" and table.screen().lines[0] == lines[1]


def test_the_knob_scrolls_the_whole_body_and_says_so_at_its_end(table: Table) -> None:
    """Nothing is pinned: every row of the body moves; at the end the knob is said to do nothing more. Anna's card
    was counted in her row: the fee, then her side by name, follow."""
    trade_with_a_lift(table)
    shown = table.screen()
    assert (shown.title, shown.icons, shown.big) == ("OK bucht, C zurück", MORE, "")
    first = shown.lines
    assert first[0] == words.text("scenes.trade.side", player="Anna") and first[1].startswith("Schlossallee")
    table.press("DOWN")
    assert table.screen().lines == (*first[1:], "Ben an Bank: 220")
    table.press("DOWN", "DOWN")
    last = table.screen().lines
    assert last[-2:] == ("Anna: Schlossallee,", "Gefängnis-frei-Karte")
    assert (table.screen().title, table.screen().icons) == ("OK bucht, C zurück", "")
    table.tones()
    table.press("DOWN")  # the end: said, nothing moves
    assert table.screen().lines == last
    assert table.tones() and table.screen().title != "OK bucht, C zurück"
    table.press("UP", "UP", "UP")
    assert table.screen().lines == first and table.screen().icons == MORE
    assert table.screen().title == "OK bucht, C zurück"
    table.press("OK")
    assert in_play(table.ledger).deeds[39].owner == "Ben"


# A trade at its longest: both sides on the first screen -------------------------------------------------------------

LONG_A, LONG_B = "Konstantinos", "Maximilianus"
"""Two 12-letter names, the longest a player may take."""


def long_trade(table: Table) -> None:
    """Each side gives three deeds of the longest names, its Gefängnis-frei-Karte and 1500: the sides' names alone
    fill six rows."""

    table.cards.rename(UID["Anna"], LONG_A)
    table.cards.rename(UID["Ben"], LONG_B)
    table.start(LONG_A, LONG_B, edition="classic")
    table.book({"op": "credit", "player": LONG_A, "amount": 2000}, {"op": "credit", "player": LONG_B, "amount": 2000},
               *[{"op": "buy", "player": LONG_A, "square": sq} for sq in (12, 16, 19)],
               *[{"op": "buy", "player": LONG_B, "square": sq} for sq in (6, 26, 27)],
               *[{"op": "jail_card", "player": p, "delta": 1} for p in (LONG_A, LONG_B)])
    table.bank.handle("tap", UID["Anna"])
    table.press("MENU")
    table.choose("Tausch")
    table.bank.handle("tap", UID["Ben"])
    for sq in (12, 16, 19):
        choose_square(table, sq)
    table.choose("Gefängnis-frei-Karte")
    table.choose("Fertig")
    table.type("1500")
    table.press("OK")
    for sq in (6, 26, 27):
        choose_square(table, sq)
    table.choose("Gefängnis-frei-Karte")
    table.choose("Fertig")
    table.type("1500")
    table.press("OK")
    confirming(table)


@pytest.mark.parametrize("code", words.LANGUAGES)
def test_a_long_trade_shows_who_gives_what_on_both_sides_first(table: Table, code: str) -> None:
    """A long trade needed three turns of the knob before the second side was seen: without a big line the body
    has four rows, two a side: who gives, then what (counted where the names do not fit); the deeds by name
    follow as the knob scrolls."""
    long_trade(table)
    words.use(code)
    table.bank.render()
    shown = table.screen()
    assert shown.title == table.bank.say(confirming(table).ok_line) and not shown.big and problems(shown) == []
    assert len(shown.lines) == 4 and shown.icons == MORE
    who_a, what_a, who_b, what_b = shown.lines
    assert LONG_A in who_a and LONG_B in who_b
    for what in (what_a, what_b):
        assert words.plural("scenes.trade.cards", 1) in what and "1500" in what and "3" in what
    said: list[str] = list(shown.lines)
    while table.screen().icons == MORE:
        table.press("DOWN")
        said.append(table.screen().lines[-1])
    rest = " ".join(said[4:])
    for sq in (12, 16, 19, 6, 26, 27):
        assert in_play(table.ledger).edition.names[sq].split()[0] in rest
    table.press("OK")
    assert in_play(table.ledger).deeds[12].owner == LONG_B and in_play(table.ledger).deeds[6].owner == LONG_A


# -- Defects, each failed before its fix ------------------------------------------------


def test_the_confirm_screen_shows_what_the_rules_will_book(table: Table) -> None:
    """"the confirm screen shows what the rules will book (previewing the command)"."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Steuer")
    table.choose("38 Zusatzsteuer")
    assert table.text().splitlines() == ["OK bucht, C zurück", "100", "Anna zahlt", "Zusatzsteuer: 100"]
