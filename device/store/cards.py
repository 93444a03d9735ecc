"""Registered RFID cards: players' bank cards (numbered, named) and optional deed tags.

A bank card has a number (1, 2, … in the order it was registered, printed on the card) and a
name (set from the web admin; "Spieler 3" until then). A tap during a game finds the player
by the card's name. Deed tags (on the Besitzrechtkarten) name a square.
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from rules import DEEDS, name_key
from words import text

from .journal import Journal

SIM_PLAYER_CARDS = {
    "0a000001": "Anna", "0a000002": "Ben", "0a000003": "Cem",
    "0a000004": "Dana", "0a000005": "Emil", "0a000006": "Fine",
}
"""The simulated bank cards' fixed UIDs (scripts tap these) and their default names."""

SIM_DEED_TAGS = {f"0d0000{sq:02x}": sq for sq in sorted(DEEDS)}
"""Simulated deed tags: ``0d0000`` and the square number in hex (Schlossallee: ``0d000027``)."""


class Card(msgspec.Struct, frozen=True):
    uid: str
    kind: str
    """"player" or "deed"."""
    number: int = 0
    """A bank card's number."""
    name: str = ""
    square: int = -1


class Refused(Exception):
    """A card the administration will not register or rename: its code and the reason, in the language in force."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Cards:
    def __init__(self, journal: Journal) -> None:
        self._journal = journal

    def all(self) -> list[Card]:
        out = []
        for uid, (kind, value) in self._journal.cards().items():
            if kind == "player":
                number = int(value)
                out.append(Card(uid, kind, number=number, name=self.name(uid, number)))
            else:
                out.append(Card(uid, kind, square=int(value)))
        return sorted(out, key=lambda c: (c.kind, c.number, c.square))

    def get(self, uid: str) -> Card | None:
        return next((c for c in self.all() if c.uid == uid), None)

    def players(self) -> list[Card]:
        return [c for c in self.all() if c.kind == "player"]

    def name(self, uid: str, number: int) -> str:
        """The card's name; a card never named (registered before names were written down) is "Spieler N" in the
        language in force."""
        return self._journal.setting(f"name:{uid}") or text("service.cards.default_name", number=number)

    def register_player(self, uid: str, name: str | None = None) -> Card:
        existing = self.get(uid)
        if existing is not None and existing.kind == "player":
            return existing
        number = max((c.number for c in self.players()), default=0) + 1
        self._journal.register_card(uid, "player", str(number))
        # the default name is written down in the language of the day: a game books under the name, and a change of
        # language later must not rename a card that plays
        self.rename(uid, name or text("service.cards.default_name", number=number))
        card = self.get(uid)
        assert card is not None
        return card

    def register_deed(self, uid: str, square: int) -> Card:
        if square not in DEEDS:
            raise ValueError(text("service.cards.not_a_deed", square=square))
        self._journal.register_card(uid, "deed", str(square))
        return Card(uid, "deed", square=square)

    def rename(self, uid: str, name: str) -> None:
        self._journal.set_setting(f"name:{uid}", name)

    def name_taken(self, name: str, *, by_other_than: str) -> bool:
        """Another bank card has this name already, as the rules compare names (case, spaces, accents):
        two cards of one name would make a tap ambiguous."""
        return any(name_key(c.name) == name_key(name) for c in self.players() if c.uid != by_other_than)

    def rename_player(self, uid: str, name: str, *, playing: Collection[str] = ()) -> None:
        """The web admin names a bank card; ``playing``: the names in the running game, whose cards keep
        theirs until it ends (the game books under the name). Raises :class:`Refused`."""
        card = self.get(uid)
        if card is None or card.kind != "player":
            raise Refused("unknown_card", text("service.cards.unknown"))
        if card.name in playing:
            raise Refused("in_game", text("service.cards.in_game", name=card.name))
        if self.name_taken(name, by_other_than=uid):
            raise Refused("name_taken", text("service.cards.taken", name=name))
        self.rename(uid, name)

    def register(self, uid: str, kind: str, *, square: int | None = None, name: str | None = None) -> Card:
        """The web admin registers a card: a player's bank card (named, or "Spieler N") or a deed tag.
        Raises :class:`Refused`."""
        if kind == "player":
            if name is not None and self.name_taken(name, by_other_than=uid):
                raise Refused("name_taken", text("service.cards.taken", name=name))
            return self.register_player(uid, name)
        if kind == "deed" and square is not None:
            try:
                return self.register_deed(uid, square)
            except ValueError as err:
                raise Refused("not_a_property", str(err)) from None
        raise Refused("bad_command", text("service.cards.kind"))

    def seed_simulated(self) -> None:
        """Sim mode: the virtual device's six cards and 28 deed tags are registered from the start."""
        known = self._journal.cards()
        number = max((int(value) for kind, value in known.values() if kind == "player"), default=0)
        cards, names = [], {}
        for uid, name in SIM_PLAYER_CARDS.items():
            if uid not in known:
                number += 1
                cards.append((uid, "player", str(number)))
                names[f"name:{uid}"] = name
        cards += [(uid, "deed", str(sq)) for uid, sq in SIM_DEED_TAGS.items() if uid not in known]
        if cards:  # one transaction (the first start of a simulation), none once they are there
            self._journal.register_cards(cards, names)
