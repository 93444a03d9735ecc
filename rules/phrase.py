"""What the rules say, as a key and its values; the words are chosen where it is shown.

A refusal, a booking's description, a preview, a log line: the rules return a :class:`Phrase`, never a
sentence, so ``rules`` stays free of any language and an old game is told in today's language and today's
words. :func:`words.say` renders a phrase with the catalogue in force and the game's edition (its square
names, its currency notation, its building words and their genders).

A value is what the sentence needs of it, typed so that the renderer knows how to say it: a plain ``str``
(a player's name, an edition's own word) and ``int`` (a count: ``n`` picks the plural form) as they are,
:class:`Cash` in the edition's notation, :class:`Place` by the edition's square name, :class:`Pieces` as
"eine Hütte" / "2 Hotels" with the edition's words, :class:`Noun` as one of the edition's words in the language
in force, a nested :class:`Phrase`, and :class:`Many` as a list
("Anna, Ben und Cem").
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from .record import record


@record
class Cash:
    """An amount of the game's money: "15,025M" (Banking, German), "£200" …"""

    amount: int


@record
class Place:
    """A square, said by the name the edition prints on it."""

    square: int


@record
class Pieces:
    """``n`` of the edition's houses or hotels, with the article the case needs ("einen Speicher")."""

    kind: Literal["house", "hotel"]
    n: int
    case: Literal["nom", "acc", "dat"] = "nom"


@record
class Noun:
    """One of the edition's words, said in the language in force: a German board played in English says "houses",
    never "Häuser" (``words.localised``); a booking keeps which word, not one language's text of it."""

    kind: Literal["house", "hotel", "stations", "utilities"]
    plural: bool = False


@record
class Many:
    """Several values said as a list: "Anna, Ben und Cem" / "Anna, Ben and Cem"."""

    items: tuple[Value, ...]


@record
class Phrase:
    """A message key and its named values (``rules.credit`` with ``player`` and ``amount``)."""

    key: str
    values: tuple[tuple[str, Value], ...] = ()

    def get(self, name: str) -> Value | None:
        return next((value for key, value in self.values if key == name), None)


Value: TypeAlias = "str | int | Cash | Place | Pieces | Noun | Many | Phrase"


def phrase(key: str, /, **values: Value) -> Phrase:
    """``phrase("rules.credit", player="Anna", amount=Cash(200))``."""
    return Phrase(key, tuple(values.items()))


def to_data(said: Phrase) -> list[object]:
    """A phrase as JSON-able data (a checkpoint keeps the events' phrases): ``[key, {name: value}]``."""
    return [said.key, {name: _dump(value) for name, value in said.values}]


def from_data(data: object) -> Phrase:
    """The phrase :func:`to_data` gave (ValueError for anything else)."""
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], str) and isinstance(data[1], dict)):
        raise ValueError(f"not a phrase: {data!r}")
    return Phrase(data[0], tuple((str(name), _load(value)) for name, value in data[1].items()))


def _dump(value: Value) -> object:
    if isinstance(value, Phrase):
        return {"phrase": to_data(value)}
    if isinstance(value, Cash):
        return {"cash": value.amount}
    if isinstance(value, Place):
        return {"place": value.square}
    if isinstance(value, Pieces):
        return {"pieces": [value.kind, value.n, value.case]}
    if isinstance(value, Noun):
        return {"noun": [value.kind, value.plural]}
    if isinstance(value, Many):
        return {"many": [_dump(item) for item in value.items]}
    return value


def _load(data: object) -> Value:
    if isinstance(data, (str, int)) and not isinstance(data, bool):
        return data
    if isinstance(data, dict) and len(data) == 1:
        (kind, inner), = data.items()
        if kind == "phrase":
            return from_data(inner)
        if kind == "cash" and isinstance(inner, int):
            return Cash(inner)
        if kind == "place" and isinstance(inner, int):
            return Place(inner)
        if kind == "pieces" and isinstance(inner, list) and len(inner) == 3 and inner[0] in ("house", "hotel") \
                and isinstance(inner[1], int) and inner[2] in ("nom", "acc", "dat"):
            return Pieces(inner[0], inner[1], inner[2])
        if kind == "noun" and isinstance(inner, list) and len(inner) == 2 \
                and inner[0] in ("house", "hotel", "stations", "utilities") and isinstance(inner[1], bool):
            return Noun(inner[0], inner[1])
        if kind == "many" and isinstance(inner, list):
            return Many(tuple(_load(item) for item in inner))
    raise ValueError(f"not a phrase's value: {data!r}")
