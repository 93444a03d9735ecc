"""What a player may do now: THE list the device's menus offer, decided by the rules themselves.

Nothing here knows a rule. For each op a row of ``OPS_TABLE`` says how to build the candidate
command (for a player, and for a square if the op needs one); the candidate is legal when
``Game.check`` accepts it. So a menu can never offer an option the rules would refuse with
anything but a lack of money, and a new op (``pay_all``, ``repairs`` …) is one row here.

Money is the one refusal that still counts as legal: "Kaufen" stays on the menu of a player
who is short, because the banker's answer to ZU WENIG GELD is to raise the money (mortgage,
sell) — hiding the option would hide the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .board import DEEDS, TAX_SQUARES, Kind, Square
from .editions import EDITIONS, Edition
from .game import OPS, Game, shortage
from .money import Money
from .valuation import level, raisable

Candidate = dict[str, Any]


@dataclass(frozen=True)
class OpRow:
    """How to ask the rules whether ``op`` is open to a player (on a square, if ``squares``)."""

    op: str
    squares: Callable[[], Iterable[Square]] | None
    """The squares worth asking about, or None for an op without a square."""
    build: Callable[[str, Square | None, Edition], Candidate]
    """The candidate command for this player (and square), with amounts the edition allows."""
    when: Callable[[Game], bool] | None = None
    """A cheap look at the whole game first: False closes the row without asking square by square."""


Build = Callable[[str, Square | None, Edition], Candidate]


def _on_square(op: str, **extra: Any) -> Build:
    def build(player: str, square: Square | None, edition: Edition) -> Candidate:
        return {"op": op, "player": player, "square": square, **extra}

    return build


def _rent(player: str, square: Square | None, edition: Edition) -> Candidate:
    cmd: Candidate = {"op": "rent", "player": player, "square": square}
    if square is not None and DEEDS[square].kind is Kind.UTILITY:
        cmd["dice"] = 2  # the smallest throw: the dice are asked for later, the owner is what counts here
    return cmd


def _auction(player: str, square: Square | None, edition: Edition) -> Candidate:
    # The bid is asked for later: a bid no one can pay tests everything but the money.
    return {"op": "build_auction", "player": player, "square": square, "price": AUCTION_PROBE}


AUCTION_PROBE = 10**15


def _player_only(op: str, **extra: Any) -> Build:
    def build(player: str, square: Square | None, edition: Edition) -> Candidate:
        return {"op": op, "player": player, **extra}

    return build


def _amounts(op: str, *fields: str) -> Build:
    """An op whose command carries amounts, asked about with the smallest the edition lets the banker type
    (seed 000: "nur Beträge zwischen € 10K und € 20M eintippen"): 1 would be refused in Banking for its
    amount alone, and the entry would never be offered."""
    def build(player: str, square: Square | None, edition: Edition) -> Candidate:
        return {"op": op, "player": player, **dict.fromkeys(fields, edition.min_entry)}

    return build


def _deeds() -> Iterable[Square]:
    return sorted(DEEDS)


OPS_TABLE: tuple[OpRow, ...] = (
    OpRow("buy", _deeds, _on_square("buy")),
    OpRow("rent", _deeds, _rent),
    OpRow("build", _deeds, _on_square("build")),
    OpRow("build_auction", _deeds, _auction, lambda game: game.state is not None and any(
        shortage(game.state, hotel=hotel) is not None for hotel in (False, True))),
    OpRow("sell_building", _deeds, _on_square("sell_building")),
    OpRow("mortgage", _deeds, _on_square("mortgage")),
    OpRow("unmortgage", _deeds, _on_square("unmortgage")),
    OpRow("tax", lambda: TAX_SQUARES, _on_square("tax")),
    OpRow("jail_fine", None, _player_only("jail_fine")),
    OpRow("jail_card_drawn", None, _player_only("jail_card", delta=1)),
    OpRow("jail_card_used", None, _player_only("jail_card", delta=-1)),
    OpRow("go", None, _player_only("go")),
    OpRow("bankrupt", None, _player_only("bankrupt")),
    OpRow("pay_debt", None, _player_only("pay_debt")),
    # The cards' payments, asked with the edition's smallest amount (Banking refuses 1).
    OpRow("pay_all", None, _amounts("pay_all", "amount")),
    OpRow("collect_all", None, _amounts("collect_all", "amount")),
    OpRow("repairs", None, _amounts("repairs", "per_house", "per_hotel")),
    OpRow("free_parking", None, _player_only("free_parking")),
)
"""One row per op the device offers. The row's name is the menu's key (``jail_card`` has two)."""

ROWS = {row.op: row for row in OPS_TABLE}

ALLOWED_REFUSALS = frozenset({"insufficient_funds"})
"""Refusals that do not close an option: the player may raise the money first."""


def candidate(op: str, player: str, square: Square | None = None, edition: Edition | None = None) -> Candidate:
    """The command the device would submit for ``op`` (the row's name) by ``player`` on ``square`` (amounts: the
    smallest ``edition``, by default the classic one, allows)."""
    return ROWS[op].build(player, square, edition or EDITIONS["classic"])


def _open(game: Game, cmd: Candidate) -> bool:
    if cmd["op"] not in OPS:
        return False
    err = game.check(cmd)
    return err is None or err.code in ALLOWED_REFUSALS


def legal_squares(game: Game, player: str, op: str) -> list[Square]:
    """The squares on which ``player`` may do ``op`` now, in board order."""
    row = ROWS[op]
    if row.squares is None or game.state is None or (row.when is not None and not row.when(game)):
        return []
    return [sq for sq in row.squares() if _open(game, row.build(player, sq, game.state.edition))]


def legal_ops(game: Game, player: str) -> list[str]:
    """The ops (rows of ``OPS_TABLE``) open to ``player`` now, in the table's order."""
    if game.state is None or player not in game.state.players:
        return []
    found = []
    for row in OPS_TABLE:
        if row.squares is None:
            if _open(game, row.build(player, None, game.state.edition)):
                found.append(row.op)
        elif legal_squares(game, player, row.op):
            found.append(row.op)
    return found


def square_ops(game: Game, player: str, square: Square) -> list[str]:
    """The ops open to ``player`` on ``square`` (a deed's tag tapped): never Bauen on a station."""
    if game.state is None or player not in game.state.players:
        return []
    return [row.op for row in OPS_TABLE
            if row.squares is not None and square in set(row.squares()) and (row.when is None or row.when(game))
            and _open(game, row.build(player, square, game.state.edition))]


# -- what the device shows beside the menus ---------------------------------------


def debt(game: Game, player: str) -> Money:
    """What ``player`` still owes the bank (the 10 % on mortgaged deeds from a bankruptcy); 0: nothing.

    While it is open the rules refuse every payment of that player but ``pay_debt`` (``debt_open``): the
    device shows the amount and leads to Gebäude verkaufen, Hypothek, Schuld zahlen or Bankrott."""
    if game.state is None or player not in game.state.players:
        return 0
    return game.state.players[player].debt


def means(game: Game, player: str) -> tuple[Money, Money, Money]:
    """Cash (less any debt to the bank), what selling every building and mortgaging every free deed would
    raise: what the bankruptcy screen shows, and what ``bankrupt`` with ``owed`` is checked against."""
    if game.state is None or player not in game.state.players:
        return 0, 0, 0
    return raisable(game.state, player)


def building_auction_min(game: Game, square: Square) -> Money | None:
    """The lowest bid of the bank's building auction for the next step on ``square`` (a house, or the hotel),
    or None when there is no shortage to auction (seed 000: "Als Mindestgebot gilt der niedrigste, gedruckte
    Preis der entsprechenden Besitzrechtkarten")."""
    state = game.state
    if state is None or square not in DEEDS or DEEDS[square].kind is not Kind.STREET:
        return None
    return shortage(state, hotel=level(state, square) == state.houses_per_hotel)
