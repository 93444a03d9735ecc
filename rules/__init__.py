"""Pure MONOPOLY rules for any edition on the classic board: board, money, game state, typed commands, scoring.

The editions are data (``rules/editions/*.toml``, docs/editions.md). Nothing here does I/O but read those
package files, reads a clock or draws randomness of its own; it imports nothing of
the project outside this package and nothing outside the standard library.
"""

from .board import DEEDS, GROUP_NAMES, GROUPS, SQUARES, Deed, Kind, Square
from .commands import Command, parse
from .editions import EDITIONS, Edition, Mode
from .errors import CODES, BadCommand, RuleError
from .game import OPS, Event, Game, square_name
from .money import Money, ReaderAmount, format_money, parse_amount, reader_text
from .names import MAX_NAME, check_distinct, clean_name, name_key
from .serialize import from_json, to_json
from .state import Change, DeedState, GameState, PlayerState, Transfer
from .valuation import deed_value, interest, level, lift_cost, net_worth, raisable, ranking, rent, winners

__all__ = [
    "CODES",
    "DEEDS",
    "EDITIONS",
    "GROUPS",
    "GROUP_NAMES",
    "MAX_NAME",
    "OPS",
    "SQUARES",
    "BadCommand",
    "Change",
    "Command",
    "Deed",
    "DeedState",
    "Edition",
    "Event",
    "Game",
    "GameState",
    "Kind",
    "Mode",
    "Money",
    "PlayerState",
    "ReaderAmount",
    "RuleError",
    "Square",
    "Transfer",
    "check_distinct",
    "clean_name",
    "deed_value",
    "format_money",
    "from_json",
    "interest",
    "level",
    "lift_cost",
    "name_key",
    "net_worth",
    "parse",
    "parse_amount",
    "raisable",
    "ranking",
    "reader_text",
    "rent",
    "square_name",
    "to_json",
    "winners",
]
