"""The card administration's requests: rename a player's card, register a card."""

from __future__ import annotations

import re
from typing import NamedTuple

import words
from rules import RuleError, clean_name
from words import text

from ..errors import BadName, BadSquare, BadUid
from .body import parse_body

UID = re.compile(r"[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20}")
"""A card's UID as the reader writes it: 4, 7 or 10 bytes (ISO/IEC 14443-3), lower-case hex."""


class Registration(NamedTuple):
    uid: str
    kind: str
    """``player`` or ``deed``; anything else reaches the device, which says what it takes."""
    square: int | None
    name: str | None


def parse_name(value: object) -> str:
    """A player's name as the rules accept it (the keypad's names go through the same check)."""
    try:
        return clean_name(value)
    except RuleError as err:
        raise BadName(words.say(err.said)) from None


def parse_uid(value: object) -> str:
    if not isinstance(value, str) or UID.fullmatch(value) is None:
        raise BadUid(text("phone.uid.form"))
    return value


def parse_rename() -> str:
    """``POST /api/cards/<uid>/name``: the new name."""
    return parse_name(parse_body().get("name"))


def parse_register() -> Registration:
    """``POST /api/cards``: a UID, a kind, and a square (deed) or a name (player, optional)."""
    data = parse_body()
    uid = parse_uid(data.get("uid"))
    square = data.get("square")
    if square is not None and (isinstance(square, bool) or not isinstance(square, int)):
        raise BadSquare(text("phone.card.square"))
    name = data.get("name")
    return Registration(uid, str(data.get("kind")), square, None if name is None else parse_name(name))
