"""The moves: one pure function per op, by topic (money, property, buildings, trade, debt, the end).

A move reads the state through its :class:`~rules.moves.context.Ctx`, stages its changes and returns the
booking's text; a :class:`~rules.errors.RuleError` anywhere drops them all. Each move declares the op it books
(:func:`~rules.moves.context.books`, on the move): the ops' table (``rules.ops``) collects the declarations of the
modules read here (:data:`MODULES`), and ``Game`` (``rules.game``) is the door that calls them.
"""

from __future__ import annotations

from . import buildings, debt, end, money, property, trade
from .buildings import shortage
from .context import Ctx
from .end import check_end

__all__ = ["Ctx", "check_end", "shortage"]

MODULES = (buildings, debt, end, money, property, trade)
"""The modules of moves, read for their declarations (``rules.ops`` collects them): a new one is added here."""
