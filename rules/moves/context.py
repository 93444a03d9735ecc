"""What every move works with: the state (read-only), its staged changes, and the checks they share.

A move (one command's handler) reads the state through :class:`~rules.state.Staged` and stages its changes;
the checks here (a player still in the game, an amount the reader accepts, a deed the player owns …) raise
:class:`~rules.errors.RuleError` before anything is committed.
"""

from __future__ import annotations

from ..board import DEEDS, GROUPS, Kind, Square
from ..commands import known_square
from ..errors import RuleError
from ..money import Money, format_money
from ..phrase import Phrase
from ..state import GameState, Staged
from ..titles import square_name


class Ctx:
    """What a handler works with: the state (read-only) and its staged changes."""

    def __init__(self, state: GameState, staged: Staged, replaying: bool = False) -> None:
        self.state = state
        self.s = staged
        self.edition = state.edition
        self.replaying = replaying
        """The command comes from the journal: limits added since it was accepted are not applied again."""
        self.note: Phrase | str | None = None
        """The event's short line (:attr:`Event.note`), if the handler has one."""

    def money(self, amount: Money) -> str:
        return format_money(amount, self.edition)

    def name(self, square: Square) -> str:
        return square_name(self.edition, square)

    def player(self, name: str) -> str:
        """A player still in this game."""
        if name not in self.state.players:
            raise RuleError("unknown_player", f"Unbekannter Spieler: {name}")
        if self.s.get("bankrupt", name):
            raise RuleError("player_bankrupt", f"{name} ist bankrott und spielt nicht mehr mit")
        return name

    def amount(self, value: Money, hint: str = "") -> Money:
        """An amount the card reader accepts in this edition (typed in one go)."""
        ed = self.edition
        # Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen" — a range, no step.
        if not ed.min_entry <= value <= ed.max_entry:
            raise RuleError(
                "amount_out_of_range",
                f"Betrag {self.money(value)} geht nicht: erlaubt {self.money(ed.min_entry)}"
                f" bis {self.money(ed.max_entry)}{hint}",
            )
        return value

    def house_rule(self, rule: str) -> bool:
        return rule in self.state.house_rules

    def to_bank(self, player: str, amount: Money, reason: str) -> str:
        """A payment to the bank, or into the Frei-Parken pot under that house rule; says where it went."""
        self.s.pay(player, None, amount, reason)
        if self.house_rule("free_parking_pot") and amount:
            self.s.set("pot", None, int(self.s.get("pot") or 0) + amount)
            return "in den Frei-Parken-Topf"
        return "an die Bank"

    def deed(self, square: Square) -> Square:
        sq = known_square(square)
        if sq not in DEEDS:
            raise RuleError("not_a_property", f"{self.name(sq)} ist kein Grundstück")
        return sq

    def owned(self, square: Square, player: str) -> Square:
        sq = self.deed(square)
        if self.s.get("owner", sq) != player:
            raise RuleError("not_owner", f"{self.name(sq)} gehört nicht {player}")
        return sq

    def street(self, square: Square, player: str) -> Square:
        sq = self.owned(square, player)
        if DEEDS[sq].kind is not Kind.STREET:
            raise RuleError("not_a_property", f"Auf {self.name(sq)} kann man nicht bauen")
        return sq

    def level(self, sq: Square) -> int:
        hotel = self.s.get("hotel", sq)
        return self.state.houses_per_hotel + 1 if hotel else int(self.s.get("houses", sq) or 0)

    def group_has_buildings(self, sq: Square) -> bool:
        card = DEEDS[sq]
        return card.kind is Kind.STREET and any(self.level(g) for g in GROUPS[card.group or ""])

    def buildings_word(self, sq: Square) -> str:
        ed = self.edition
        if self.s.get("hotel", sq):
            return ed.hotel
        houses = int(self.s.get("houses", sq) or 0)
        return f"{houses} {ed.house if houses == 1 else ed.houses}" if houses else "unbebaut"
