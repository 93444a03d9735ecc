"""What a test reads of the table in play, typed so mypy --strict checks the reading: the game a test has
started (``Game.state`` is ``None`` until a game begins: a test says once, here, that one has) and the
device's state as it is now."""

from __future__ import annotations

from device.scenes import State, Ui
from device.store.ledger import Ledger
from rules import GameState


def in_play(ledger: Ledger) -> GameState:
    """The state of ``ledger``'s game; fails the test, naming why, when no game has been started."""
    state = ledger.game.state
    assert state is not None, "no game has been started on this ledger"
    return state


def state_now(bank: Ui) -> State:
    """``bank.state`` read afresh. After ``assert bank.state is State.X`` mypy holds the attribute at X until it
    sees an assignment, but a key press changes it out of its sight: a later comparison reads it through here."""
    return bank.state
