"""The device's confirmation is the contract too: what its OLED confirms carries the rules' digest of the
preview, so a change from a phone under it (a house built on the street) is never booked at today's amount:
the confirmation is withdrawn, saying what the booking would be now, and OK books nothing."""

from __future__ import annotations

from in_play import in_play, state_now
from ui_table import UID, Table

from device.daemon.service import Daemon, WebBackend
from device.daemon.simulation import Simulation
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
    cash = in_play(table.ledger).players["Anna"].cash
    table.press("OK")
    table.press("OK")
    assert in_play(table.ledger).players["Anna"].cash == cash  # nothing booked without a fresh confirmation


def test_the_device_sends_what_it_confirmed(table: Table) -> None:
    """Should OK meet a state the refresh did not reach, the rules refuse it ``changed`` all the same."""
    _rent_on_schlossallee(table)
    confirm = table.bank.scenes.top
    assert "expect" in confirm.cmd  # type: ignore[attr-defined]
    table.ledger.game.apply({"op": "build", "player": "Ben", "square": 39})  # no refresh
    table.bank.submit(confirm.cmd, "Anna")  # type: ignore[attr-defined]  # as its OK does
    table.bank.render()
    assert in_play(table.ledger).players["Anna"].cash == 1500
    assert "200" in " ".join(table.text().splitlines())


# -- Defects, each failed before its fix ------------------------------------------------


def test_a_confirmation_the_web_made_impossible_is_withdrawn(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Kaufen")
    table.type("39")
    table.press("OK")
    table.choose("Preis 400")
    assert table.bank.state is State.CONFIRM
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 39}).ok  # from /admin
    table.bank.refresh()
    assert state_now(table.bank) is State.CARD
    table.press("OK")
    assert in_play(table.ledger).deeds[39].owner == "Ben"


def test_a_web_undo_or_end_while_a_menu_is_open_never_acts_on_a_stale_screen(table: Table) -> None:
    """"The device must survive any change the web makes: new game, undo, end"."""
    table.start("Anna", "Ben", mode="timed", minutes=30)
    table.tap("Anna")
    table.press("LOS")
    table.press("MENU")
    assert table.ledger.submit({"op": "undo"}).ok
    table.bank.refresh()
    assert table.bank.state is State.CHOOSE  # same game, same player: the menu stays
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    assert state_now(table.bank) is State.PAGES and table.text().splitlines()[0] == "Spielende"  # finding 17
    table.press("C")
    assert state_now(table.bank) is State.IDLE and table.text().splitlines()[1] == "Ende"
    table.press("OK")
    assert "Rangliste" not in table.labels() and "Storno" not in table.labels()


def test_a_web_new_game_leaving_out_the_tapped_player_does_not_crash(daemon: Daemon) -> None:
    """The device survives any change the web makes (here: a new game without Anna)."""
    web, device = WebBackend(daemon), Simulation(daemon)
    assert web.submit({"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]})["ok"]
    device.tap(UID["Anna"])
    answer = web.submit({"op": "new_game", "edition": "banking", "mode": "standard",
                         "players": ["Ben", "Cem"], "replace": True})
    assert answer["ok"]
    banker = daemon.banker
    assert banker is not None
    daemon.call(banker.tick)
    device.press("LOS")
    assert daemon.call(lambda: banker.state) is State.IDLE
    state = daemon.ledger.game.state if daemon.ledger else None
    assert state is not None and state.players["Ben"].cash == 15_000_000
