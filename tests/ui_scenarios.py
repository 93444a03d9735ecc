"""Positions on the device that tests of several modules start from: a confirmation on the reader, and the
trade whose confirmation and result are longer than the screen."""

from __future__ import annotations

from ui_table import Table

from device.scenes.lists import ConfirmScene


def confirming(table: Table) -> ConfirmScene:
    """The confirmation the reader shows now (an assertion error naming the screen when it shows none)."""
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene), table.text()
    return scene


def trade_with_a_lift(table: Table) -> None:
    """Defect 12's trade (tests/test_ui_trade.py): Anna gives Schlossallee, mortgaged, lifted now, and a
    Gefängnis-frei-Karte; Ben nothing. Four rows: what each side gives and the fee."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39},
               {"op": "jail_card", "player": "Anna", "delta": 1})
    table.tap("Anna")
    table.press("MENU")
    table.choose("Tausch")
    table.tap("Ben")
    table.choose("39 Schlossallee")
    table.choose("Gefängnis-frei-Karte")
    table.choose("Fertig")
    table.press("OK")
    table.choose("Fertig")
    table.press("OK")
    table.choose("39 Schlossallee")  # lift the mortgage now
    table.choose("Fertig")
    confirming(table)
