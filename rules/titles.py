"""The names the rules give to what they hold: squares as an edition prints them, modes as its book calls
them, the house rules by their table name. Words for people, as phrases (their words are the catalogue's: issue
27); the commands keep their keys."""

from __future__ import annotations

from functools import cache

from .board import Square
from .editions import EDITIONS, Edition, Mode
from .phrase import Phrase, Value, phrase
from .state import GameState

MODE_NAMES: dict[Mode, Phrase] = {Mode.STANDARD: phrase("rules.mode.standard"), Mode.QUICK: phrase("rules.mode.quick"),
                                  Mode.TIMED: phrase("rules.mode.timed")}
"""Each mode as the books call it (Skylanders' quick game has its own name: :func:`mode_title`)."""

HOUSE_RULE_NAMES: dict[str, Phrase] = {"free_parking_pot": phrase("rules.house_rule.free_parking_pot"),
                                       "double_go": phrase("rules.house_rule.double_go"),
                                       "no_auctions": phrase("rules.house_rule.no_auctions")}
"""The house rules a ``new_game`` may choose, as the table says them."""

@cache
def _quick_books() -> dict[str, Phrase]:
    """The shipped books' names for the short game (classic's "Schnellspiel", which the editions inherit, and
    Skylanders' "kurzes Spiel"): said with the catalogue's word for each in every language, as the OLED says them;
    a family's edition's own name ("Blitzrunde") is its own word. Made on first use: it reads three editions' files
    (:data:`rules.editions.EDITIONS`), which a start need not read."""
    return {EDITIONS["classic"].quick.name: MODE_NAMES[Mode.QUICK],
            EDITIONS["classic-uk"].quick.name: MODE_NAMES[Mode.QUICK],
            EDITIONS["skylanders"].quick.name: phrase("rules.mode.short")}


def square_name(edition: Edition, square: Square) -> str:
    """The square's name on this edition's board (its file's ``names``)."""
    return edition.names[square]


def mode_name(state: GameState) -> Phrase:
    """The mode of a game as the edition's book calls it: :func:`mode_title` of its state."""
    return mode_title(state.edition, state.mode, speed_die=state.speed_die)


def mode_title(edition: Edition, mode: Mode, *, speed_die: bool = False) -> Phrase:
    """The mode as the edition's book calls it (Skylanders' quick game is the "kurzes Spiel", a family's may have a
    name of its own), and "mit Tempo-Würfel" when the game was started with it (Schalke's book: "mit dem Tempo-Würfel
    spielen")."""
    name: Value = _quick_books().get(edition.quick.name, edition.quick.name) if mode is Mode.QUICK else MODE_NAMES[mode]
    return phrase("rules.mode.speed_die", mode=name) if speed_die else phrase("rules.join.one", only=name)
