"""What the rules know of an op, declared on its move: ``@books(cmds.PayAll, legal=amounts("amount"), …)``.

A new booking is its command (:mod:`rules.commands`), its move here in :mod:`rules.moves` with this declaration,
its texts and its tests: the ops' table (:mod:`rules.ops`) collects the declarations, in the order of the
``Command`` union, and ``HANDLERS``, the legal moves and the debts are read off it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from .. import commands as cmds
from ..legalrows import LegalRow, Row
from ..phrase import Phrase
from .context import Ctx


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


DECLARED: dict[type[cmds.BaseCommand], Op] = {}
"""Each op declared on its move, by command class (in the order the modules ran: :mod:`rules.ops` orders them)."""

Move = TypeVar("Move", bound=Callable[..., Phrase])


def books(command: type[cmds.BaseCommand], *, legal: Row | tuple[Row, ...] = (), debt: bool = False,
          said: tuple[str, ...] = ()) -> Callable[[Move], Move]:
    """Declare the decorated move as what books ``command``: its rows of the legal moves (:mod:`rules.legalrows`),
    whether its payment is a debt (:attr:`Op.debt`), the catalogue keys of its text. The move is returned as it
    is; an op declared twice is refused when its module is read."""
    rows = (legal,) if isinstance(legal, Row) else legal

    def declare(move: Move) -> Move:
        if command in DECLARED:
            raise TypeError(f"{command.op} is booked by two moves: {DECLARED[command].move} and {move}")
        DECLARED[command] = Op(command, move, tuple(row.of(command) for row in rows), debt, said)
        return move

    return declare
