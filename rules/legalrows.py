"""How the legal moves ask the rules about an op: its rows, declared beside its move with the builders here.

A row says which command to try for a player (and which squares to try it on): :mod:`rules.legal` tries it on a
copy of the game and offers the op where the rules accept it. The builders are written before the op is known
(``legal=amounts("amount")`` beside ``pay_all``): :meth:`Row.of` completes a row with its op's command class, so a
row never names its op's class a second time. This module knows no move (the moves import it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, cast

from . import commands as cmds
from .board import DEEDS, TAX_SQUARES, Kind, Square
from .editions import Edition
from .state import GameState

Build = Callable[[str, Square | None, Edition], cmds.Command]
"""The candidate command of a row for a player (and a square), with amounts the edition allows."""

Squares = Callable[[], Iterable[Square]]
"""The squares worth asking about."""

When = Callable[[GameState], bool]
"""A cheap look at the whole game first: False closes the row without asking square by square."""


class LegalRow(NamedTuple):
    """How to ask the rules whether an op is open to a player (on a square, if ``squares``).

    ``name`` is the op's, but where one op is offered as two choices (a Gefängnis-frei card drawn or used): then
    each choice is a row of its own, so a menu can offer the one the rules open."""

    name: str
    squares: Squares | None
    """The squares worth asking about, or None for an op without a square."""
    build: Build
    """The typed command the rules are asked about."""
    when: When | None = None
    """A cheap look at the whole game first: False closes the row without asking square by square."""


class Row(NamedTuple):
    """A row as declared beside a move, before it knows its op (a named tuple: cheap before READY)."""

    build: Callable[[type[cmds.BaseCommand]], Build]
    """The candidate's builder, given the op's command class."""
    squares: Squares | None = None
    when: When | None = None
    name: str | None = None
    """The row's own name where an op has two rows; None: the op's."""

    def of(self, command: type[cmds.BaseCommand]) -> LegalRow:
        """The row of the legal moves for the op of ``command``."""
        return LegalRow(self.name or command.op, self.squares, self.build(command), self.when)


def deeds() -> Iterable[Square]:
    """Every deed of the board, in the board's order."""
    return sorted(DEEDS)


def taxes() -> Iterable[Square]:
    """The tax squares."""
    return TAX_SQUARES


def _maker(command: type[cmds.BaseCommand]) -> Callable[..., cmds.Command]:
    # Every command class of an op is one of the Command union's (the ops' table checks it).
    return cast("Callable[..., cmds.Command]", command)


def on_square(squares: Squares, when: When | None = None) -> Row:
    """An op asked about on each of ``squares``, with the player and the square alone."""
    def of(command: type[cmds.BaseCommand]) -> Build:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, square=square)

        return build

    return Row(of, squares, when)


def player_only(name: str | None = None, **extra: Any) -> Row:
    """An op asked about with the player alone (and ``extra``: a row of its own for each choice of one op)."""
    def of(command: type[cmds.BaseCommand]) -> Build:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, **extra)

        return build

    return Row(of, name=name)


def amounts(*fields: str) -> Row:
    """An op whose command carries amounts, asked about with the smallest the edition lets the banker type
    (seed 000: "nur Beträge zwischen € 10K und € 20M eintippen"): 1 would be refused in Banking for its amount
    alone, and the entry would never be offered."""
    def of(command: type[cmds.BaseCommand]) -> Build:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, **dict.fromkeys(fields, edition.min_entry))

        return build

    return Row(of)


def row(build: Build, squares: Squares | None = None, when: When | None = None) -> Row:
    """An op whose candidate is built its own way (``build`` names its command itself)."""
    return Row(lambda command: build, squares, when)


def rent(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    """Rent asked about on a deed: a utility's dice are asked for later, the smallest throw; the owner counts."""
    assert square is not None
    dice = 2 if DEEDS[square].kind is Kind.UTILITY else None
    return cmds.Rent(player=player, square=square, dice=dice)


AUCTION_PROBE = 10**15
"""The bid a building auction is asked about with: one no one can pay tests everything but the money."""


def auction(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    """A building auction asked about on a deed, with a bid no one can pay (:data:`AUCTION_PROBE`)."""
    assert square is not None
    return cmds.BuildAuction(player=player, square=square, price=AUCTION_PROBE)
