"""What a scene shows, kept as what it means and said when it is drawn (docs/languages.md).

A scene never holds a sentence: it holds a :class:`~rules.phrase.Phrase` (a catalogue key and its values), a
function that says it, or a name that is the same in every language (a player's, a square's). ``view`` says it
with the language in force when it draws, so the admin page's ``words.use("en")`` turns the screen shown now
English at its next frame, without a key.

The one place where the OLED names a square: :func:`say` says a phrase's squares, and :func:`square_name` names one,
by the edition's names as the display shows them (its ``[short]`` names, each one line: ``Edition.displayed``), so a
booking's who, what and where fit its first screen; the pages, reports and printables keep the board's names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import words
from rules.editions import Edition
from rules.phrase import Phrase as Phrase
from rules.phrase import phrase as phrase

from .inputs import Key

Said: TypeAlias = str | Phrase | Callable[[], str]
"""A text of a scene: a phrase of the catalogue, a function that says it now, or a name said as it is."""

KEY_NAMES = {Key.HABEN: "scenes.key.haben", Key.SOLL: "scenes.key.soll", Key.LOS: "scenes.key.los",
             Key.MENU: "scenes.key.menu", Key.UP: "scenes.key.turn", Key.DOWN: "scenes.key.turn"}
"""The keys whose name is a word, as the OLED says it (the API keeps the wire names: HABEN, SOLL, LOS …)."""


KEY_VALUES = {"credit": phrase("scenes.key.haben"), "debit": phrase("scenes.key.soll"), "go": phrase("scenes.key.los")}
"""A prompt's ``{credit}``, ``{debit}`` and ``{go}``: the word keys' names, said in the language the overlay was
printed in (``[ui] keys_language``, :func:`words.print_keys`) while the prompt's other words follow the banker's."""


def key_prompt(key: str) -> Phrase:
    """The prompt ``key`` ("{credit} or {debit}") with the word keys' names filled in."""
    return phrase(key, **KEY_VALUES)


def key_name(key: Key) -> str | Phrase:
    """A key as the OLED names it: a digit, K, M, C or OK as printed, a word key in the language in force; the
    knob's push is OK."""
    if key is Key.PUSH:
        return Key.OK.value
    return phrase(KEY_NAMES[key]) if key in KEY_NAMES else key.value


def trigger_name(trigger: str) -> str:
    """A trigger of the transition table ("SOLL", "hold:C", "tap") as the console's log line names it: a word key
    by the OLED's name for it in the language in force, so an English session's console says DEBIT where the
    table keeps the wire name SOLL; the rest (digit, tap, tick, C, OK) is the same in every language."""
    hold, _, name = trigger.rpartition(":")
    key = next((k for k in KEY_NAMES if k.value == name), None)
    if key is None:
        return trigger
    shown = say(key_name(key))
    return f"{hold}:{shown}" if hold else shown


def say(said: Said, edition: Edition | None = None) -> str:
    """``said`` in the language in force; a phrase's money and squares with the game's ``edition``, its squares by
    the names the display shows."""
    if isinstance(said, Phrase):
        return words.say(said, edition.displayed() if edition is not None else None)
    if isinstance(said, str):
        return said
    return said()


def square_name(edition: Edition, square: int) -> str:
    """A square as the OLED names it: its short name where the edition gives one, else its name."""
    return edition.short_names[square]
