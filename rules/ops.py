"""Every op of the contract in one table: its command class, its move, its rows of the legal moves, whether its
payment is a debt, and the catalogue keys of what it books.

A new booking is one row here beside its command (:mod:`rules.commands`) and its move (:mod:`rules.moves`):
``HANDLERS`` (what ``Game`` calls), ``LEGAL_ROWS`` (what :mod:`rules.legal` asks the rules about) and ``DEBTS``
(what may end in bankruptcy) are read off this table, never written a second time. Plain data: what the device
shows for an op (its menu place, its phone form) is the device's own table (``device/scenes/places.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from . import commands as cmds
from .board import DEEDS, TAX_SQUARES, Kind, Square
from .editions import Edition
from .moves import Ctx, buildings, debt, end, money, trade
from .moves import property as deeds
from .phrase import Phrase
from .state import GameState

Build = Callable[[str, Square | None, Edition], cmds.Command]
"""The candidate command of a row for a player (and a square), with amounts the edition allows."""


class LegalRow(NamedTuple):
    """How to ask the rules whether an op is open to a player (on a square, if ``squares``).

    ``name`` is the op's, but where one op is offered as two choices (a Gefängnis-frei card drawn or used): then
    each choice is a row of its own, so a menu can offer the one the rules open."""

    name: str
    squares: Callable[[], Iterable[Square]] | None
    """The squares worth asking about, or None for an op without a square."""
    build: Build
    """The typed command the rules are asked about."""
    when: Callable[[GameState], bool] | None = None
    """A cheap look at the whole game first: False closes the row without asking square by square."""


class Op(NamedTuple):
    """One op of the contract and all the rules know of it (a named tuple: a dataclass costs the start-up several
    times as many instructions to create, and this table is read before the device is ready)."""

    command: type[cmds.BaseCommand]
    move: Callable[[Ctx, Any], Phrase] | None
    """What it books (``rules.moves``); None: it changes the game itself (a new game, Storno), ``Game``'s own."""
    legal: tuple[LegalRow, ...] = ()
    """Its rows of the legal moves; none: it is not asked about by the menus (a key books it, or a trade's
    partner picks it, or the banker's own menu)."""
    debt: bool = False
    """Its payment is a debt, not a choice (seed 001: "Wenn Sie der Bank oder einem anderen Spieler mehr Geld
    schulden, als Sie bar zur Verfügung haben … sind Sie BANKROTT"): only such a refusal can end in bankruptcy.
    A purchase, a building, a bid or a mortgage's repayment the player cannot afford is simply not made."""
    said: tuple[str, ...] = ()
    """The catalogue keys (words/…/rules.po) of the text its booking is told with."""

    @property
    def name(self) -> str:
        return self.command.op


# -- how a row builds its candidate ------------------------------------------------------------------


def _deeds() -> Iterable[Square]:
    return sorted(DEEDS)


def _taxes() -> Iterable[Square]:
    return TAX_SQUARES


def _on_square(cls: Callable[..., cmds.Command]) -> Build:
    def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
        return cls(player=player, square=square)

    return build


def _player_only(cls: Callable[..., cmds.Command], **extra: Any) -> Build:
    def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
        return cls(player=player, **extra)

    return build


def _amounts(cls: Callable[..., cmds.Command], *fields: str) -> Build:
    """An op whose command carries amounts, asked about with the smallest the edition lets the banker type
    (seed 000: "nur Beträge zwischen € 10K und € 20M eintippen"): 1 would be refused in Banking for its amount
    alone, and the entry would never be offered."""
    def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
        return cls(player=player, **dict.fromkeys(fields, edition.min_entry))

    return build


def _rent(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    assert square is not None
    # A utility's dice are asked for later: the smallest throw, the owner is what counts here.
    dice = 2 if DEEDS[square].kind is Kind.UTILITY else None
    return cmds.Rent(player=player, square=square, dice=dice)


AUCTION_PROBE = 10**15
"""The bid a building auction is asked about with: one no one can pay tests everything but the money."""


def _auction(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    assert square is not None
    return cmds.BuildAuction(player=player, square=square, price=AUCTION_PROBE)


def _a_shortage(state: GameState) -> bool:
    return any(buildings.shortage(state, hotel=hotel) is not None for hotel in (False, True))


def _row(name: str, build: Build, squares: Callable[[], Iterable[Square]] | None = None,
         when: Callable[[GameState], bool] | None = None) -> tuple[LegalRow, ...]:
    return (LegalRow(name, squares, build, when),)


# -- the table ---------------------------------------------------------------------------------------

REGISTRY: tuple[Op, ...] = (
    # In the order the legal moves are offered (``rules.legal``): the deeds' ops, then the player's own.
    Op(cmds.Buy, deeds.buy, _row("buy", _on_square(cmds.Buy), _deeds),
       said=("rules.buy.done", "rules.auction.done")),
    Op(cmds.Rent, deeds.rent, _row("rent", _rent, _deeds), debt=True, said=("rules.rent.done", "rules.rent.done_on")),
    Op(cmds.Build, buildings.build, _row("build", _on_square(cmds.Build), _deeds),
       said=("rules.build.house", "rules.build.hotel")),
    Op(cmds.BuildAuction, buildings.build_auction, _row("build_auction", _auction, _deeds, _a_shortage),
       said=("rules.build.house.won", "rules.build.hotel.won")),
    Op(cmds.SellBuilding, buildings.sell_building, _row("sell_building", _on_square(cmds.SellBuilding), _deeds),
       said=("rules.sell.house", "rules.sell.hotel", "rules.sell.hotel.whole", "rules.sell.traded")),
    Op(cmds.Mortgage, deeds.mortgage, _row("mortgage", _on_square(cmds.Mortgage), _deeds),
       said=("rules.mortgage.done",)),
    Op(cmds.Unmortgage, deeds.unmortgage, _row("unmortgage", _on_square(cmds.Unmortgage), _deeds),
       said=("rules.unmortgage.done",)),
    Op(cmds.Tax, money.tax, _row("tax", _on_square(cmds.Tax), _taxes), debt=True,
       said=("rules.tax.done", "rules.tax.done.pot")),
    Op(cmds.JailFine, money.jail_fine, _row("jail_fine", _player_only(cmds.JailFine)), debt=True,
       said=("rules.jail_fine.done", "rules.jail_fine.done.pot")),
    Op(cmds.JailCard, money.jail_card, (LegalRow("jail_card_drawn", None, _player_only(cmds.JailCard, delta=1)),
                                        LegalRow("jail_card_used", None, _player_only(cmds.JailCard, delta=-1))),
       said=("rules.jail_card.drawn", "rules.jail_card.used")),
    Op(cmds.Go, money.go, _row("go", _player_only(cmds.Go)), said=("rules.go.done", "rules.go.exact")),
    Op(cmds.Bankrupt, debt.bankrupt, _row("bankrupt", _player_only(cmds.Bankrupt)),
       said=("rules.bankrupt.bank", "rules.bankrupt.player")),
    Op(cmds.PayDebt, debt.pay_debt, _row("pay_debt", _player_only(cmds.PayDebt)), debt=True,
       said=("rules.debt.paid",)),
    # The cards' payments, asked with the edition's smallest amount (Banking refuses 1).
    Op(cmds.PayAll, money.pay_all, _row("pay_all", _amounts(cmds.PayAll, "amount")), debt=True,
       said=("rules.pay_all.done",)),
    Op(cmds.CollectAll, money.collect_all, _row("collect_all", _amounts(cmds.CollectAll, "amount")), debt=True,
       said=("rules.collect_all.done",)),
    Op(cmds.Repairs, money.repairs, _row("repairs", _amounts(cmds.Repairs, "per_house", "per_hotel")), debt=True,
       said=("rules.repairs.done", "rules.repairs.done.pot")),
    Op(cmds.FreeParking, money.free_parking, _row("free_parking", _player_only(cmds.FreeParking)),
       said=("rules.free_parking.done",)),
    # Booked from a key of the device or between two players: no row of the legal moves.
    Op(cmds.Credit, money.credit, said=("rules.credit.done",)),
    Op(cmds.Debit, money.debit, debt=True, said=("rules.debit.done", "rules.debit.done.pot")),
    Op(cmds.Transfer, money.transfer, debt=True, said=("rules.transfer.done",)),
    Op(cmds.Trade, trade.trade, said=("rules.trade.done",)),
    # The game itself: started, ended, a booking taken back.
    Op(cmds.End, end.end, said=("rules.end.done",)),
    Op(cmds.NewGame, None, said=("rules.new_game.done",)),
    Op(cmds.Undo, None, said=("rules.undo.done",)),
)
"""One row per op of the contract."""

BY_NAME: Mapping[str, Op] = MappingProxyType({op.name: op for op in REGISTRY})

HANDLERS: Mapping[type[cmds.BaseCommand], Callable[[Ctx, Any], Phrase]] = MappingProxyType(
    {op.command: op.move for op in REGISTRY if op.move is not None})
"""The move of each op but new_game and undo, which change the game itself (``rules.game.Game``)."""

LEGAL_ROWS: tuple[LegalRow, ...] = tuple(row for op in REGISTRY for row in op.legal)
"""The rows of the legal moves, in the order a menu offers them."""

DEBTS: frozenset[str] = frozenset(op.name for op in REGISTRY if op.debt)
"""The ops whose refusal for want of money may end in bankruptcy (:attr:`Op.debt`)."""
