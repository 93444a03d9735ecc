"""The moves: one pure function per op, by topic (money, property, buildings, trade, debt, the end).

A move reads the state through its :class:`~rules.moves.context.Ctx`, stages its changes and returns the
booking's text; a :class:`~rules.errors.RuleError` anywhere drops them all. Each move declares the op it books
(:func:`~rules.moves.context.books`, on the move): the ops' table (``rules.ops``) collects the declarations of the
modules read here, and ``Game`` (``rules.game``) is the door that calls them. A new module of moves is read here.
"""

from __future__ import annotations

from . import buildings, debt, end, money, property, trade
from .buildings import shortage
from .context import Ctx
from .end import check_end

__all__ = ["Ctx", "buildings", "check_end", "debt", "end", "money", "property", "shortage", "trade"]
