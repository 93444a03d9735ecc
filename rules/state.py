"""The game state as plain data, and the staged changes a command makes to it.

A command never writes to the state while it is being checked. It stages every change in a
:class:`Staged` overlay, which reads through to the state; only when the whole command has
passed every check are the staged changes committed. A refused command simply drops its
overlay, so nothing is ever half-applied. Each committed change keeps its old value, which
is what makes an undo ("Storno") an exact compensating change.
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Literal, TypeAlias

from .board import DEEDS, Square
from .editions import Edition, Mode
from .errors import RuleError, short_of_money
from .money import Money
from .phrase import Cash, Phrase, phrase
from .record import mutable_record, record

HOUSES_IN_BOX = 32
HOTELS_IN_BOX = 12
"""The classic box's buildings: a state's default (a new game takes its edition's ``stock``)."""
JAIL_CARDS_IN_GAME = 2
"""One "Gefängnis frei" card in each deck."""


@mutable_record
class PlayerState:
    """A player at the table, in seat order."""

    name: str
    cash: Money
    bankrupt: bool = False
    jail_cards: int = 0
    """"Gefängnis frei" cards held."""
    debt: Money = 0
    """Owed to the bank and not yet paid: the 10 % on mortgaged deeds received in a bankruptcy that the
    creditor could not pay at once (seeds 001, 003, 004). Paid with ``pay_debt``; until then the player
    pays nothing else."""
    bankrupt_order: int = 0
    """1 for the first player of the game to go bankrupt, 2 for the next …; 0 while in the game. The ranking
    puts who went bankrupt last above those before; a Storno restores it like any field."""


@mutable_record
class DeedState:
    """Who owns a deed and what stands on it."""

    owner: str | None = None
    """None: the bank still has it."""
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


@mutable_record
class GameState:
    """Everything the rules need to judge the next command."""

    edition: Edition
    mode: Mode
    players: dict[str, PlayerState]
    """By name, in seat order."""
    deeds: dict[Square, DeedState] = field(default_factory=lambda: {sq: DeedState() for sq in DEEDS})
    bank_houses: int = HOUSES_IN_BOX
    bank_hotels: int = HOTELS_IN_BOX
    finished: bool = False
    winner: str | None = None
    minutes: int | None = None
    """Agreed playing time of a timed game."""
    speed_die: bool = False
    house_rules: frozenset[str] = frozenset()
    """House rules chosen at new_game (off by default): free_parking_pot, double_go, no_auctions."""
    pot: Money = 0
    """The Frei-Parken pot (house rule free_parking_pot): taxes, fines and payments to the bank."""

    def copy(self) -> GameState:
        """An independent copy: every field, the players and deeds copied, so changing one leaves the other
        (the edition and the frozen sets are shared: nothing changes them)."""
        return replace(self, players={n: replace(p) for n, p in self.players.items()},
                       deeds={sq: replace(d) for sq, d in self.deeds.items()})

    @property
    def houses_per_hotel(self) -> int:
        """Houses a hotel needs and replaces: 4, or the quick game's 3."""
        return self.edition.quick.houses_per_hotel if self.mode is Mode.QUICK else 4


PlayerField = Literal["cash", "bankrupt", "jail_cards", "debt", "bankrupt_order"]
DeedField = Literal["owner", "houses", "hotel", "mortgaged"]
GameField = Literal["bank_houses", "bank_hotels", "finished", "winner", "pot"]
Field: TypeAlias = PlayerField | DeedField | GameField
Target: TypeAlias = str | Square | None
Value: TypeAlias = int | bool | str | None

_PLAYER_FIELDS = frozenset(("cash", "bankrupt", "jail_cards", "debt", "bankrupt_order"))
_DEED_FIELDS = frozenset(("owner", "houses", "hotel", "mortgaged"))


@record
class Change:
    """One committed field change, with its old value for an exact undo."""

    field: Field
    target: Target
    old: Value
    new: Value


@record
class Transfer:
    """Money moving: a player or the bank (None) pays a player or the bank."""

    payer: str | None
    payee: str | None
    amount: Money
    reason: Phrase
    """Why, for the report and the CSV ("Miete Schlossallee"): said where it is shown."""


def _holder(state: GameState, fld: Field, target: Target) -> object:
    if fld in _PLAYER_FIELDS:
        return state.players[target]  # type: ignore[index]
    if fld in _DEED_FIELDS:
        return state.deeds[target]  # type: ignore[index]
    return state


def write(state: GameState, fld: Field, target: Target, value: Value) -> None:
    """Set one field; the only place the state is written."""
    setattr(_holder(state, fld, target), fld, value)


class Staged:
    """Changes of one command, staged over the state and committed only when all is checked."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._new: dict[tuple[Field, Target], Value] = {}
        self.transfers: list[Transfer] = []
        self.debt_first = True
        """Who owes the bank pays nothing else first (seeds 001, 003, 004: the creditor "muss sofort … 10 %
        Zinsen an die Bank bezahlen"); off for the commands that settle the debt (pay_debt, bankrupt)."""

    def get(self, fld: Field, target: Target = None) -> Value:
        key = (fld, target)
        if key in self._new:
            return self._new[key]
        value: Value = getattr(_holder(self.state, fld, target), fld)
        return value

    def set(self, fld: Field, target: Target, value: Value) -> None:
        self._new[(fld, target)] = value

    def cash(self, name: str) -> Money:
        return int(self.get("cash", name) or 0)

    def may_pay(self, payer: str) -> None:
        """RuleError(debt_open) if ``payer`` owes the bank and this command does not settle it."""
        if self.debt_first and (debt := self.state.players[payer].debt):
            raise RuleError("debt_open", phrase("rules.debt.open", player=payer, amount=Cash(debt)))

    def pay(self, payer: str | None, payee: str | None, amount: Money, reason: Phrase) -> None:
        """Stage a payment; a player never goes below zero (the bank never goes bankrupt)."""
        if amount < 0:
            raise ValueError("negative payment")
        if amount == 0:
            return
        if payer is not None:
            self.may_pay(payer)
            have = self.cash(payer)
            if have < amount:
                raise short_of_money(phrase("rules.funds.short", player=payer, cash=Cash(have),
                                            missing=Cash(amount - have), amount=Cash(amount)), owed=amount)
            self.set("cash", payer, have - amount)
        if payee is not None:
            self.set("cash", payee, self.cash(payee) + amount)
        self.transfers.append(Transfer(payer, payee, amount, reason))

    def after(self) -> GameState:
        """The state as it will be once these changes are committed, as a copy: the state itself is untouched
        (the winner of a game that this command ends is judged on it)."""
        copy = self.state.copy()
        for (fld, target), value in self._new.items():
            write(copy, fld, target, value)
        return copy

    def commit(self) -> tuple[Change, ...]:
        changes = []
        for (fld, target), value in self._new.items():
            old: Value = getattr(_holder(self.state, fld, target), fld)
            if old != value:
                changes.append(Change(fld, target, old, value))
                write(self.state, fld, target, value)
        return tuple(changes)

