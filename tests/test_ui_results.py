"""A result on the OLED stays while the banker reads it: turning the knob through a long one keeps it up, and a
turn never moves on to the next screen before it was seen."""

from __future__ import annotations

from ui_scenarios import trade_with_a_lift
from ui_table import Table

from device.scenes.lists import ListScene
from device.scenes.notes import RESULT_SHOWN, ResultScene


def test_a_long_result_stays_while_the_banker_scrolls_it(table: Table) -> None:
    """The English evening: a long trade's "Ben gives …" was never shown, the result went after 4 s mid-turn."""
    trade_with_a_lift(table)
    table.press("OK")
    assert isinstance(table.bank.scene, ResultScene) and table.screen().icons == "↓"
    first = table.screen().lines
    table.now += RESULT_SHOWN - 1
    table.press("DOWN")
    table.now += RESULT_SHOWN - 1
    table.bank.tick()
    assert isinstance(table.bank.scene, ResultScene) and table.screen().lines == (*first[1:], table.screen().lines[2])
    table.now += 30  # being read: it goes at a key, not at a clock
    table.bank.tick()
    assert isinstance(table.bank.scene, ResultScene)
    table.press("C")
    assert not isinstance(table.bank.scene, ResultScene)


def test_an_untouched_result_still_goes_by_itself(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("HABEN")
    table.type("100")
    table.press("OK")
    assert isinstance(table.bank.scene, ResultScene)
    table.now += RESULT_SHOWN
    table.bank.tick()
    assert not isinstance(table.bank.scene, ResultScene)


def test_a_turn_on_a_result_shows_the_screen_beneath_unmoved(table: Table) -> None:
    """A result that fits has nothing to scroll: the turn puts it away, and the screen beneath shows as it was,
    not already moved on (the card's menu opened, or an entry chosen further down)."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("HABEN")
    table.type("100")
    table.press("OK")
    assert isinstance(table.bank.scene, ResultScene) and table.screen().icons == ""
    table.press("DOWN")
    beneath = table.bank.scene
    assert not isinstance(beneath, (ResultScene, ListScene)), table.text()
    table.press("DOWN")  # now the knob acts on what is shown
    assert isinstance(table.bank.scene, ListScene)


def test_a_turn_at_the_end_of_a_long_result_keeps_it(table: Table) -> None:
    trade_with_a_lift(table)
    table.press("OK")
    for _ in range(20):
        table.press("DOWN")
    assert isinstance(table.bank.scene, ResultScene) and table.screen().icons == ""


# -- Findings (the second evening at the virtual device) --------------------------------


def test_7_a_knob_turn_on_a_refusal_keeps_it_and_its_offer(table: Table) -> None:
    """Turning the knob on a refusal that fits the screen left it and lost its "Geld beschaffen"."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Ben", "square": 1}, {"op": "debit", "player": "Ben", "amount": 1430})
    table.tap("Anna")
    table.press("MENU", "8", "2", "2", "0", "OK")  # Von allen kassieren 20: Ben has 10
    before = table.text()
    assert before == "Abgelehnt !\nZU WENIG GELD\nKann nicht 20 zahlen:\nBen (hat 10)\nOK: Geld beschaffen"
    table.tones()
    table.press("DOWN")
    assert table.tones() == ["refused"] and table.text().splitlines()[1:] == before.splitlines()[1:]
    table.press("OK")
    assert table.choice.title.startswith("Beschaffbar")


# -- Defects, each failed before its fix ------------------------------------------------


def test_tap_los_los_books_los_twice(table: Table) -> None:
    """"Tap, LOS, LOS must book LOS twice" — no key only dismisses "Gebucht"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "LOS")
    assert table.cash("Anna") == 15_000_000 + 2 * 2_000_000


def test_haben_on_a_result_screen_acts_at_once(table: Table) -> None:
    """"Haben, Menü and digits pressed on a result screen act at once"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "HABEN")
    table.type("1M")
    table.press("OK")
    assert table.cash("Anna") == 15_000_000 + 2_000_000 + 1_000_000


def test_a_tap_on_the_result_screen_selects_that_card(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS")
    table.tap("Ben")
    table.press("LOS")
    assert table.cash("Ben") == 17_000_000
