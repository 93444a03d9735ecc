"""The game a test has started, typed as one: ``Game.state`` is ``None`` until a game begins, and a test that
reads the board after starting one says so here once (an assert that also narrows the type for mypy) instead
of at every line that reads a deed or a player."""

from __future__ import annotations

from device.store.ledger import Ledger
from rules import GameState


def in_play(ledger: Ledger) -> GameState:
    """The state of ``ledger``'s game; fails the test, naming why, when no game has been started."""
    state = ledger.game.state
    assert state is not None, "no game has been started on this ledger"
    return state
