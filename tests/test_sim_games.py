"""A full game for each edition and mode, played through the sim API as the virtual device plays it.

Only ``POST /api/sim/key`` and ``/api/sim/tap`` drive the daemon (sim mode); the display is read
back through ``/api/sim/display``. Menu entries are chosen by their label. Each game ends with
Anna first: she is credited the most, Cem goes bankrupt to the bank, then Ben (or time is up).
"""

from __future__ import annotations

import pytest
from sim_device import Device

from device.daemon.service import Daemon
from rules import EDITIONS


def _amount(edition: str) -> str:
    return "15KK" if EDITIONS[edition].km_notation else "1500"


@pytest.mark.parametrize("mode", ["standard", "quick", "timed"])
@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_full_game_through_the_sim_api_ends_with_the_right_ranking(daemon: Daemon, edition: str,
                                                                     mode: str) -> None:
    ed = EDITIONS[edition]
    device = Device(daemon)
    device.press("hold:C")
    device.choose("Ja: alle Stände neu")
    device.choose(ed.title.replace("MONOPOLY ", "") or ed.title)
    device.choose({"standard": "Standard", "timed": "Auf Zeit"}.get(mode) or
                  ("Kurzes Spiel" if edition == "skylanders" else "Schnellspiel"))
    if mode == "timed":
        device.type("30")
        device.press("OK")
    for name in ("Anna", "Ben", "Cem"):
        device.tap(name)
    device.press("OK", "C")  # start; C skips the deal's walk-through
    device.tap("Anna")
    device.press("HABEN")
    device.type(_amount(edition))
    device.press("OK")
    assert device.text().startswith("Gebucht")
    ledger = daemon.ledger
    assert ledger is not None and ledger.game.state is not None
    if mode == "timed":
        device.press("C", "C")  # back to the idle screen: the banker's menu
        device.press("MENU")
        device.choose("Spiel beenden")
        device.press("OK")
    else:
        for loser in ("Cem", "Ben"):
            if ledger.game.state.finished:
                break
            device.tap(loser)  # bankruptcy is offered from a payment the player cannot make
            device.press("SOLL")
            device.type("20KK" if ed.km_notation else "2000")
            device.press("OK", "OK")  # ZU WENIG GELD, OK: Geld beschaffen
            device.choose("Bankrott")
            device.press("OK")  # to the bank, whom the payment was owed; confirmed
    state = ledger.game.state
    assert state.finished and state.winner == "Anna"
    assert device.text().splitlines()[:3] == ["Spielende", "Anna gewinnt", f"1. Anna {_worth(daemon)}"]


def _worth(daemon: Daemon) -> str:
    from rules import format_money, net_worth

    assert daemon.ledger is not None and daemon.ledger.game.state is not None
    state = daemon.ledger.game.state
    return format_money(net_worth(state, "Anna"), state.edition)
