"""What every move works with: the state (read-only), its staged changes, and the checks they share.

A move (one command's handler) reads the state through :class:`~rules.state.Staged` and stages its changes;
the checks here (a player still in the game, an amount the reader accepts, a deed the player owns …) raise
:class:`~rules.errors.RuleError` before anything is committed.
"""

from __future__ import annotations

from typing import Literal

from ..board import DEEDS, GROUPS, Kind, Square
from ..commands import known_square
from ..errors import RuleError
from ..money import Money
from ..phrase import Cash, Noun, Phrase, Place, Value, phrase
from ..state import GameState, Staged


class Ctx:
    """What a handler works with: the state (read-only) and its staged changes."""

    def __init__(self, state: GameState, staged: Staged, replaying: bool = False) -> None:
        self.state = state
        self.s = staged
        self.edition = state.edition
        self.replaying = replaying
        """The command comes from the journal: limits added since it was accepted are not applied again."""
        self.note: Phrase | None = None
        """The event's short line (:attr:`Event.note`), if the handler has one."""

    def player(self, name: str) -> str:
        """A player still in this game."""
        if name not in self.state.players:
            raise RuleError("unknown_player", phrase("rules.player.unknown", player=name))
        if self.s.get("bankrupt", name):
            raise RuleError("player_bankrupt", phrase("rules.player.bankrupt", player=name))
        return name

    def amount(self, value: Money, rest: bool = False) -> Money:
        """An amount the card reader accepts in this edition (typed in one go); ``rest``: the refusal adds that
        the rest may be booked as a transfer (a trade's cash above the reader's most)."""
        ed = self.edition
        # Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen" — a range, no step.
        if not ed.min_entry <= value <= ed.max_entry:
            raise RuleError("amount_out_of_range", phrase("rules.amount.range_rest" if rest else "rules.amount.range",
                                                          amount=Cash(value), minimum=Cash(ed.min_entry),
                                                          maximum=Cash(ed.max_entry)))
        return value

    def house_rule(self, rule: str) -> bool:
        return rule in self.state.house_rules

    def to_bank(self, player: str, amount: Money, reason: Phrase) -> str:
        """A payment to the bank, or into the Frei-Parken pot under that house rule: the key suffix of the
        sentence that says where it went ("" for the bank, ".pot" for the pot)."""
        self.s.pay(player, None, amount, reason)
        if self.house_rule("free_parking_pot") and amount:
            self.s.set("pot", None, int(self.s.get("pot") or 0) + amount)
            return ".pot"
        return ""

    def deed(self, square: Square) -> Square:
        sq = known_square(square)
        if sq not in DEEDS:
            raise RuleError("not_a_property", phrase("rules.square.not_a_property", square=Place(sq)))
        return sq

    def owned(self, square: Square, player: str) -> Square:
        sq = self.deed(square)
        if self.s.get("owner", sq) != player:
            raise RuleError("not_owner", phrase("rules.square.not_owner", square=Place(sq), player=player))
        return sq

    def street(self, square: Square, player: str) -> Square:
        sq = self.owned(square, player)
        if DEEDS[sq].kind is not Kind.STREET:
            raise RuleError("not_a_property", phrase("rules.square.no_building", square=Place(sq)))
        return sq

    def level(self, sq: Square) -> int:
        hotel = self.s.get("hotel", sq)
        return self.state.houses_per_hotel + 1 if hotel else int(self.s.get("houses", sq) or 0)

    def group_has_buildings(self, sq: Square) -> bool:
        card = DEEDS[sq]
        return card.kind is Kind.STREET and any(self.level(g) for g in GROUPS[card.group or ""])

    def buildings(self, n: int, *, hotel: bool) -> Phrase:
        """"1 Haus", "2 Hotels": a count with the edition's word, the numeral said even for one."""
        kind: Literal["house", "hotel"] = "hotel" if hotel else "house"
        return phrase("rules.count.buildings", n=n, house=Noun(kind), houses=Noun(kind, True))

    def buildings_word(self, sq: Square) -> Phrase:
        """What stands on a street, as a rent says it: "2 Häuser", "Hotel", "unbebaut"."""
        if self.s.get("hotel", sq):
            return phrase("rules.count.hotel", hotel=Noun("hotel"))
        houses = int(self.s.get("houses", sq) or 0)
        return self.buildings(houses, hotel=False) if houses else phrase("rules.rent.unbuilt")


def chain(key: str, items: list[Value]) -> Phrase:
    """Items said one after the other with the join ``key`` between them: "A, B, C" (``rules.join.comma``), "A; B"
    (``rules.join.semicolon``); a list the language joins with its "and" is a :class:`~rules.phrase.Many`."""
    said = phrase(key, first=items[0], then=items[1]) if len(items) > 1 else phrase("rules.join.one", only=items[0])
    for item in items[2:]:
        said = phrase(key, first=said, then=item)
    return said
