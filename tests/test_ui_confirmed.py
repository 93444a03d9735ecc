"""The device's confirmation is the contract too: what its OLED confirms carries the rules' digest of the
preview, so a change from a phone under it (a house built on the street) is never booked at today's amount:
the confirmation is withdrawn, saying what the booking would be now, and OK books nothing."""

from __future__ import annotations

from ui_table import Table

from device.scenes.table import State


def _rent_on_schlossallee(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    for sq in (37, 39):
        assert table.ledger.submit({"op": "buy", "player": "Ben", "square": sq}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.tap(39)
    table.choose("Miete zahlen")
    assert table.bank.state is State.CONFIRM and "100" in table.text()


def test_a_confirmation_whose_amount_changed_is_withdrawn_and_says_the_new_one(table: Table) -> None:
    _rent_on_schlossallee(table)
    assert table.ledger.submit({"op": "build", "player": "Ben", "square": 39}).ok  # from a phone
    table.bank.refresh()
    assert table.bank.state is not State.CONFIRM
    assert "200" in " ".join(table.text().splitlines())  # what it would be now
    cash = table.ledger.game.state.players["Anna"].cash
    table.press("OK")
    table.press("OK")
    assert table.ledger.game.state.players["Anna"].cash == cash  # nothing booked without a fresh confirmation


def test_the_device_sends_what_it_confirmed(table: Table) -> None:
    """Should OK meet a state the refresh did not reach, the rules refuse it ``changed`` all the same."""
    _rent_on_schlossallee(table)
    confirm = table.bank.scenes.top
    assert "expect" in confirm.cmd  # type: ignore[attr-defined]
    table.ledger.game.apply({"op": "build", "player": "Ben", "square": 39})  # no refresh
    table.bank.submit(confirm.cmd, "Anna")  # type: ignore[attr-defined]  # as its OK does
    table.bank.render()
    assert table.ledger.game.state.players["Anna"].cash == 1500
    assert "200" in " ".join(table.text().splitlines())
