"""The virtual device as the daemon's simulation tells the web's ``/device`` page about it: its cards, and what
it shows beside the OLED."""

from __future__ import annotations

from typing import TypedDict


class SimCards(TypedDict):
    """The virtual device's cards: players and deed tags by UID, and the deeds' names in the running edition."""

    players: dict[str, str]
    deeds: dict[str, int]
    names: dict[int, str]


class SignalsShown(TypedDict):
    """What the virtual device shows beside the OLED: the tunes played (their count and the last), the LED, and the
    ledger's version (its buttons follow a new game or a card learned)."""

    tones: int
    tone: str
    led: bool
    version: int
