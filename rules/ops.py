"""Every op of the contract in one table: its command class, its move, its rows of the legal moves, whether its
payment is a debt, and the catalogue keys of what it books.

The table is read off the declarations on the moves (``@books(cmds.PayAll, legal=amounts("amount"), …)`` in
:mod:`rules.moves`), in the order of the ``Command`` union (:mod:`rules.commands`), which is the order the legal
moves are offered (the deeds' ops, then the player's own) and never the order the modules happened to be read.
``HANDLERS`` (what ``Game`` calls), ``LEGAL_ROWS`` (what :mod:`rules.legal` asks the rules about) and ``DEBTS``
(what may end in bankruptcy) are read off this table, never written a second time. Plain data: what the device
shows for an op (its menu place, its phone form) is the device's own table (``device/scenes/places.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from . import commands as cmds
from .moves import Ctx  # the package reads every module of moves, and so runs their declarations
from .moves.context import DECLARED
from .moves.context import LegalRow as LegalRow  # the types of the table, offered with it
from .moves.context import Op as Op
from .phrase import Phrase

GAME_OWN = (Op(cmds.NewGame, None, said=("rules.new_game.done",)), Op(cmds.Undo, None, said=("rules.undo.done",)))
"""The ops without a move: they change the game itself (a new game, Storno), ``Game``'s own."""

_ORDER = {command: place for place, command in enumerate(cmds.COMMANDS.values())}

REGISTRY: tuple[Op, ...] = tuple(sorted((*DECLARED.values(), *GAME_OWN),
                                        key=lambda op: _ORDER.get(op.command, len(_ORDER))))
"""One row per op of the contract, in the order of the ``Command`` union (a class outside it comes last, and
``tests/test_ops.py`` names it)."""

BY_NAME: Mapping[str, Op] = MappingProxyType({op.name: op for op in REGISTRY})

HANDLERS: Mapping[type[cmds.BaseCommand], Callable[[Ctx, Any], Phrase]] = MappingProxyType(
    {op.command: op.move for op in REGISTRY if op.move is not None})
"""The move of each op but new_game and undo, which change the game itself (``rules.game.Game``)."""

LEGAL_ROWS: tuple[LegalRow, ...] = tuple(row for op in REGISTRY for row in op.legal)
"""The rows of the legal moves, in the order a menu offers them."""

DEBTS: frozenset[str] = frozenset(op.name for op in REGISTRY if op.debt)
"""The ops whose refusal for want of money may end in bankruptcy (:attr:`Op.debt`)."""
