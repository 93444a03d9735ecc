"""The moves: one pure function per op, by topic (money, property, buildings, trade, debt, the end).

A move reads the state through its :class:`~rules.moves.context.Ctx`, stages its changes and returns the
booking's text; a :class:`~rules.errors.RuleError` anywhere drops them all. Which move books which command is
written once, in the ops' table (``rules.ops``): ``Game`` (``rules.game``) is the door that calls it.
"""

from __future__ import annotations

from .buildings import shortage
from .context import Ctx
from .end import check_end

__all__ = ["Ctx", "check_end", "shortage"]
