"""What the rules said, told as a person reads it: the tests' one way to read an event's, a refusal's
or a payment's words, rendered by ``words.say`` in the language in force with the game's edition."""

from __future__ import annotations

from typing import Any

import words
from rules import Edition, Event, Game, GameState, RuleError, Transfer
from rules.phrase import Cash, Many, Phrase, Place


def told(said: Event | RuleError | Transfer | Phrase | Any | None, where: Game | GameState | Edition | None = None) -> str:
    """``said`` (an event, a refusal, a payment, a phrase; a pytest ``raises`` info too) in words; ``where``: the
    game (or its state, or the edition) whose squares, money and buildings it names; "" for no phrase."""
    phrase = _phrase(said)
    if phrase is None:
        return ""
    if isinstance(where, Game):
        where = where.state
    if isinstance(where, GameState):
        where = where.edition
    return words.say(phrase, where)


def meaning(said: Event | RuleError | Transfer | Phrase | Any | None) -> tuple[str, dict[str, object]]:
    """What ``said`` means, not how a sentence puts it: its phrase's key and values, an amount as its integer, a
    square as its number, a list as a tuple, a nested phrase as its own meaning (buildings and the edition's words
    as they are). A test of a booking compares this, so a change of wording touches the catalogue, not the tests;
    the wording itself is checked once, by the OLED fit test and a few golden texts."""
    phrase = _phrase(said)
    assert phrase is not None, said
    return phrase.key, {name: _meant(value) for name, value in phrase.values}


def _phrase(said: Event | RuleError | Transfer | Phrase | Any | None) -> Phrase | None:
    """The phrase ``said`` carries (an event's, a refusal's, a payment's reason; a pytest ``raises`` info's)."""
    raised = getattr(said, "value", None)
    if isinstance(raised, RuleError):  # pytest.raises(...) as info
        said = raised
    if isinstance(said, (Event, RuleError)):
        said = said.said
    elif isinstance(said, Transfer):
        said = said.reason
    if said is None:
        return None
    assert isinstance(said, Phrase), said
    return said


def _meant(value: object) -> object:
    if isinstance(value, Cash):
        return value.amount
    if isinstance(value, Place):
        return value.square
    if isinstance(value, Many):
        return tuple(_meant(item) for item in value.items)
    if isinstance(value, Phrase):
        return meaning(value)
    return value


def means(said: Event | RuleError | Transfer | Phrase | Any | None, key: str, /, **values: object) -> bool:
    """``said`` is the phrase ``key`` with (at least) these ``values``, compared as :func:`meaning` gives them;
    an assertion that names what differs."""
    got_key, got = meaning(said)
    assert got_key == key, f"said {got_key}, not {key}: {got}"
    wrong = {name: got.get(name, "(absent)") for name, value in values.items() if got.get(name) != value}
    assert not wrong, f"{key}: {wrong} where the test expects {({n: values[n] for n in wrong})}"
    return True


def within(said: Event | RuleError | Transfer | Phrase | Any | None, key: str) -> list[dict[str, object]]:
    """The values of every phrase ``key`` inside ``said`` (itself, and each phrase nested in it at any depth, in
    order): a joined text ("…; Ben pays 10 % interest …") checked by its parts' meaning."""
    found: list[dict[str, object]] = []

    def walk(meant: object) -> None:
        if isinstance(meant, tuple) and len(meant) == 2 and isinstance(meant[0], str) and isinstance(meant[1], dict):
            if meant[0] == key:
                found.append(meant[1])
            for value in meant[1].values():
                walk(value)
        elif isinstance(meant, tuple):
            for item in meant:
                walk(item)

    walk(meaning(said))
    return found
