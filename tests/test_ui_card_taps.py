"""Whose card is on the reader: a tap wakes the reader with that card's balance and switches player in a
menu or an amount; a second card after a booking starts afresh; two cards at once ask for one; sleep
forgets the card before it."""

from __future__ import annotations

from ui_table import Table

from device.scenes import SLEEP_AFTER
from device.scenes.said import key_prompt, say

# -- Findings (three games on the virtual device) ---------------------------------------


def test_2_the_card_that_wakes_the_reader_shows_its_balance(table: Table) -> None:
    """Seed 000: inserting a card shows the balance — waking swallowed the first tap."""
    table.start("Anna", "Ben")
    table.now += SLEEP_AFTER
    table.bank.tick()
    assert table.asleep
    table.tap("Ben")
    assert not table.asleep and table.text() == "Ben #2\n15M\n" + say(key_prompt("scenes.card.keys"))


def test_3_a_finished_booking_leaves_no_payer_behind(table: Table) -> None:
    """A second card after a booking started "Ben: Betrag – Anna zahlt"; SOLL then dropped the amount."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "OK")  # booked; back to Anna's card
    table.tap("Ben")
    assert "zahlt" not in table.text()
    table.type("2KK")
    table.press("SOLL")  # the original's order: the amount, then one key books it
    assert table.cash("Ben") == 13_000_000 and table.cash("Anna") == 17_000_000


# -- Defects, each failed before its fix ------------------------------------------------


def test_a_tap_in_a_menu_switches_to_that_player_with_a_note(table: Table) -> None:
    """"a tap always either switches to that player … or is used by the menu"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("MENU")
    table.tap("Ben")
    assert table.text().splitlines()[0] == "Ben #2"
    assert "Eingabe verworfen" in table.text()
    table.press("LOS")
    assert table.cash("Ben") == 17_000_000 and table.cash("Anna") == 15_000_000


def test_a_tap_while_typing_haben_switches_player(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("HABEN", "5")
    table.tap("Ben")
    assert table.text().splitlines()[0] == "Ben #2"


def test_two_cards_on_the_reader_ask_for_one(table: Table) -> None:
    from device.scenes import TWO_CARDS

    table.bank.reader_status(False, TWO_CARDS)
    assert table.text().splitlines()[1:3] == ["ZWEI KARTEN", "Nur eine Karte!"]


def test_a_second_card_then_haben_is_that_players_own_haben(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.tap("Ben")
    table.press("HABEN")
    table.type("1KK")
    table.press("OK")
    assert table.cash("Ben") == 16_000_000 and table.cash("Anna") == 15_000_000


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_9_after_sleep_the_next_card_starts_afresh(table: Table) -> None:
    """Seed 000: the display goes dark "nach ca. 1 Minute"; Anna's card before it arms no transfer for Cem's after."""
    table.start("Anna", "Ben", "Cem")
    table.tap("Anna")
    table.now += 65
    table.bank.tick()
    assert table.asleep
    table.tap("Cem")
    assert "zahlt" not in table.text(), table.text()
    table.type("100")
    table.press("OK")
    assert "Anna zahlt" not in table.text()
