"""The names the rules give to what they hold: squares as an edition prints them, modes as its book calls
them, the house rules by their table name. Words for people; the commands keep their keys."""

from __future__ import annotations

from .board import Square
from .editions import Edition, Mode
from .state import GameState

MODE_NAMES = {Mode.STANDARD: "Standardspiel", Mode.QUICK: "Schnellspiel", Mode.TIMED: "Spiel auf Zeit"}
"""Each mode as the books call it (Skylanders' quick game has its own name: :func:`mode_title`)."""

HOUSE_RULE_NAMES = {"free_parking_pot": "Frei-Parken-Topf", "double_go": "doppeltes Gehalt auf LOS",
                    "no_auctions": "keine Versteigerungen"}
"""The house rules a ``new_game`` may choose, as the table says them."""


def square_name(edition: Edition, square: Square) -> str:
    """The square's name on this edition's board (its file's ``names``)."""
    return edition.names[square]


def mode_name(state: GameState) -> str:
    """The mode of a game as the edition's book calls it: :func:`mode_title` of its state."""
    return mode_title(state.edition, state.mode, speed_die=state.speed_die)


def mode_title(edition: Edition, mode: Mode, *, speed_die: bool = False) -> str:
    """The mode as the edition's book calls it (Skylanders' quick game is the "kurzes Spiel"), and
    "mit Tempo-Würfel" when the game was started with it (Schalke's book: "mit dem Tempo-Würfel spielen")."""
    name = edition.quick.name if mode is Mode.QUICK else MODE_NAMES[mode]
    return f"{name} mit Tempo-Würfel" if speed_die else name
