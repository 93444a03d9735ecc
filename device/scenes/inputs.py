"""The reader's inputs, typed: a key pressed or held, a card tapped, the clock's tick.

The daemon (keypad, encoder, RFID reader), the sim API (``POST /api/sim/key {"key"}``) and the
virtual device page all speak these. On the wire a key keeps its old name ("5", "HABEN",
"hold:C"): :func:`parse_key` turns that into a typed input and refuses anything else.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Key(StrEnum):
    """Every key of the 4x4 keypad, plus the rotary encoder's turns and push."""

    D0 = "0"
    D1 = "1"
    D2 = "2"
    D3 = "3"
    D4 = "4"
    D5 = "5"
    D6 = "6"
    D7 = "7"
    D8 = "8"
    D9 = "9"
    POINT = "."
    K = "K"
    M = "M"
    HABEN = "HABEN"
    SOLL = "SOLL"
    LOS = "LOS"
    MENU = "MENU"
    OK = "OK"
    C = "C"
    UP = "UP"
    DOWN = "DOWN"
    PUSH = "PUSH"
    """The encoder's push: the same as OK."""

    @property
    def is_digit(self) -> bool:
        """Keys that type into an amount or a number ("digit" in the transition table)."""
        return self.value in "0123456789.KM"


class Press(msgspec.Struct, frozen=True):
    key: Key


class Hold(msgspec.Struct, frozen=True):
    """A key held for about a second (C held: a new game)."""

    key: Key


class Tap(msgspec.Struct, frozen=True):
    """A card or tag on the reader, by its UID."""

    uid: str


class Tick(msgspec.Struct, frozen=True):
    """About once a second: time passes (sleep, the result's timeout, a timed game's end)."""


Input = Press | Hold | Tap | Tick

HOLDABLE = frozenset({Key.C})
WIRE_KEYS = frozenset({*(k.value for k in Key), *(f"hold:{k.value}" for k in HOLDABLE)})
"""The key names the sim API and the virtual device page send."""


def parse_key(name: str) -> Press | Hold:
    """A key's wire name ("5", "HABEN", "hold:C") as a typed input; ValueError for anything else."""
    if name.startswith("hold:"):
        key = Key(name[5:])
        if key not in HOLDABLE:
            raise ValueError(f"{name!r}: only C is held")
        return Hold(key)
    return Press(Key(name))


def trigger(inp: Input) -> str:
    """The input's name in the transition table: the key's name, "digit", "hold:C", "tap", "tick"."""
    if isinstance(inp, Tap):
        return "tap"
    if isinstance(inp, Tick):
        return "tick"
    if isinstance(inp, Hold):
        return f"hold:{inp.key.value}"
    key = Key.OK if inp.key is Key.PUSH else inp.key
    return "digit" if key.is_digit else key.value


def pressed(inp: Input) -> Key | None:
    """The key of a press, the knob's push read as OK; None for anything else (a hold, a tap, a tick)."""
    if not isinstance(inp, Press):
        return None
    return Key.OK if inp.key is Key.PUSH else inp.key
