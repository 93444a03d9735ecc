"""One German format for money on the OLED, "15,025M", never "15025K"."""

from __future__ import annotations

from ui_table import Table

from device.scenes.notes import podium


def test_the_exact_balance_beside_a_rounded_one_reads_in_millions(table: Table) -> None:
    """"Gebucht ≈ | 15M | genau: 15025K": the reader's 5 characters round down, the exact amount beside them
    is written as the rest of the screens write money."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("HABEN")
    table.type("25K")
    table.press("OK")
    assert table.cash("Anna") == 15_025_000
    lines = table.text().splitlines()
    assert "≈" in lines[0] and "genau: 15,025M" in lines and not any("15025K" in line for line in lines)


def test_the_ranking_writes_net_worth_in_millions_with_the_comma(table: Table) -> None:
    """"1. Anna 15045K" in the end ranking."""
    table.start("Anna", "Ben")
    assert table.ledger.submit({"op": "credit", "player": "Anna", "amount": 45_000}).ok
    assert table.ledger.game.state is not None
    assert table.bank.say(podium(table.bank, table.ledger.game.state)[0]) == "1. Anna 15,045M"
