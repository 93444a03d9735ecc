"""The 10 % paid on a mortgaged deed in a trade or a bankruptcy shows where money shows: the OLED's
result, the phone's log, the report of the game (seed 004: "an die Bank 10 % des Hypothekenbetrags zahlen")."""

from __future__ import annotations

from ui_table import Table

from device.scenes.notes import ResultScene
from device.store.history import History


def mortgaged_estate(table: Table) -> None:
    """Sonic: Anna, with Parkstraße and Schlossallee mortgaged, goes bankrupt to Ben (10 % = 18 + 20)."""
    table.start("Anna", "Ben", "Cem", edition="sonic")
    for cmd in ({"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39},
                {"op": "mortgage", "player": "Anna", "square": 37}, {"op": "mortgage", "player": "Anna", "square": 39}):
        assert table.ledger.submit(cmd).ok


def test_the_ten_percent_shows_first_on_the_oled_result(table: Table) -> None:
    mortgaged_estate(table)
    table.bank.refresh()
    table.tap("Anna")
    table.press("SOLL")
    table.type("1500")
    table.tap("Ben")  # ZU WENIG GELD: Anna has 1125 and nothing left to mortgage
    table.press("OK")
    table.choose("Bankrott")
    assert "Ben löst gleich auf:" in table.text()  # the two mortgaged deeds Ben receives: lift them now, or not
    table.press("OK")  # "Fertig" preselected: none lifted, the 10 % paid; the confirm
    table.press("OK")  # to Ben, whom she owed
    result = table.bank.scene
    assert isinstance(result, ResultScene)
    assert table.bank.screen().lines[0] == "10 % an Bank: 38"  # first, before the long text


def test_the_ten_percent_is_in_the_phones_log_and_the_report(table: Table) -> None:
    from told import told, within

    mortgaged_estate(table)
    assert table.ledger.submit({"op": "bankrupt", "player": "Anna", "creditor": "Ben"}).ok
    entry = table.ledger.snapshot()["log"][0]
    event = table.ledger.game.history[-1]
    assert within(event, "rules.item.paid") == [{"square": 37, "amount": 18}, {"square": 39, "amount": 20}]
    assert entry["text"] == told(event, table.ledger.game)  # the phone's log says that booking
    history = History(table.journal.path)
    report = history.report(history.games()[0]["id"])
    assert report is not None
    assert any("Schlossallee 20" in report.said(event) for _, event in report.log)
