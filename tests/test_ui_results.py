"""A result on the OLED stays while the banker reads it: turning the knob through a long one keeps it up, and a
turn never moves on to the next screen before it was seen."""

from __future__ import annotations

from test_ui_confirm import trade_with_a_lift
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
