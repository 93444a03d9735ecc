"""What the rules said, told as a person reads it (issue 27): the tests' one way to read an event's, a refusal's
or a payment's words, rendered by ``words.say`` in the language in force with the game's edition."""

from __future__ import annotations

from typing import Any

import words
from rules import Edition, Event, Game, GameState, RuleError, Transfer
from rules.phrase import Phrase


def told(said: Event | RuleError | Transfer | Phrase | Any | None, where: Game | GameState | Edition | None = None) -> str:
    """``said`` (an event, a refusal, a payment, a phrase; a pytest ``raises`` info too) in words; ``where``: the
    game (or its state, or the edition) whose squares, money and buildings it names; "" for no phrase."""
    raised = getattr(said, "value", None)
    if isinstance(raised, RuleError):  # pytest.raises(...) as info
        said = raised
    if isinstance(said, (Event, RuleError)):
        said = said.said
    elif isinstance(said, Transfer):
        said = said.reason
    if said is None:
        return ""
    assert isinstance(said, Phrase), said
    if isinstance(where, Game):
        where = where.state
    if isinstance(where, GameState):
        where = where.edition
    return words.say(said, where)
