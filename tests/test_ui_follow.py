"""The device's side of issues 19, 20 and 21: what the rules now book, the parts that are missing, the own Wi-Fi."""

from __future__ import annotations

from typing import Any

from ui_table import Table

from device.scenes.lists import ConfirmScene
from rules import GROUPS, EDITIONS


def _book(table: Table, *cmds: dict[str, Any]) -> None:
    for cmd in cmds:
        outcome = table.ledger.submit(cmd)
        assert outcome.ok, (cmd, outcome.message)
    table.bank.refresh()
    table.tones()


def _cem_broke_with_a_mortgaged_deed(table: Table, *, ben_cash: int) -> None:
    """Schalke (seed 003 has the 10 %): Cem holds the last street, mortgaged, and no cash; Ben has ``ben_cash``."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    _book(table, {"op": "buy", "player": "Cem", "square": 39}, {"op": "mortgage", "player": "Cem", "square": 39},
          {"op": "debit", "player": "Cem", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1500 - ben_cash})


def _bankrupt_to_ben(table: Table) -> None:
    """Cem owes Ben 100 and cannot pay: ZU WENIG GELD, OK: Geld beschaffen, Bankrott, Ben preselected."""
    table.tap("Cem")
    table.press("SOLL")
    table.type("100")
    table.tap("Ben")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    table.press("OK")


def test_the_bankruptcys_confirm_shows_the_10_percent_the_creditor_pays(table: Table) -> None:
    """Seed 001: "Erhält ein Gläubiger … ein mit einer Hypothek belastetes Grundstück, so muss er sofort … 10 %
    Zinsen an die Bank bezahlen" — the confirm shows the rules' note, and that Storno undoes it."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=500)
    _bankrupt_to_ben(table)
    assert isinstance(table.bank.scene, ConfirmScene)
    lines = table.text().splitlines()
    assert "10 % an Bank: 20" in lines and "Storno hebt es auf" in lines and lines[-1] == "OK bucht, C zurück"


def test_the_bankruptcys_confirm_shows_what_stays_owed_to_the_bank(table: Table) -> None:
    """A creditor who cannot pay the 10 % owes it to the bank: the confirm says so before OK."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=1)
    _bankrupt_to_ben(table)
    lines = table.text().splitlines()
    assert "offen an Bank: 19" in lines or "offen an Bank: 20" in lines
    assert "Storno hebt es auf" in lines
