"""The moves: one pure function per op, by topic (money, property, buildings, trade, debt, the end).

A move reads the state through its :class:`~rules.moves.context.Ctx`, stages its changes and returns the
booking's text; a :class:`~rules.errors.RuleError` anywhere drops them all. ``HANDLERS`` is the one table
from a typed command to its move: ``Game`` (``rules.game``) is the door that calls it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import commands as cmds
from ..phrase import Phrase
from . import buildings, debt, end, money, property, trade
from .buildings import shortage
from .context import Ctx
from .end import check_end

HANDLERS: dict[type[cmds.BaseCommand], Callable[[Ctx, Any], Phrase]] = {
    cmds.Credit: money.credit,
    cmds.Debit: money.debit,
    cmds.Transfer: money.transfer,
    cmds.Go: money.go,
    cmds.Buy: property.buy,
    cmds.Rent: property.rent,
    cmds.Build: buildings.build,
    cmds.BuildAuction: buildings.build_auction,
    cmds.PayDebt: debt.pay_debt,
    cmds.SellBuilding: buildings.sell_building,
    cmds.Mortgage: property.mortgage,
    cmds.Unmortgage: property.unmortgage,
    cmds.Trade: trade.trade,
    cmds.Tax: money.tax,
    cmds.JailFine: money.jail_fine,
    cmds.JailCard: money.jail_card,
    cmds.Bankrupt: debt.bankrupt,
    cmds.End: end.end,
    cmds.PayAll: money.pay_all,
    cmds.CollectAll: money.collect_all,
    cmds.Repairs: money.repairs,
    cmds.FreeParking: money.free_parking,
}
"""The move of each op but new_game and undo, which change the game itself (``rules.game.Game``)."""

__all__ = ["HANDLERS", "Ctx", "check_end", "shortage"]
