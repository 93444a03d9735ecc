"""What a player may do now: THE list the device's menus offer, decided by the rules themselves.

Nothing here knows a rule. Each op's rows of the legal moves (``rules.ops.LEGAL_ROWS``) say how to build its
candidate, a typed command (for a player, and for a square if the op needs one); the candidate is
legal when ``Game.check`` accepts it. :func:`legal_commands` yields those commands, as a chess
library yields the moves one may push. So a menu can never offer an option the rules would refuse
with anything but a lack of money, and a new op's rows are declared on its move (``@books(…, legal=…)``).

Money is the one refusal that still counts as legal: "Kaufen" stays on the menu of a player
who is short, because the banker's answer to ZU WENIG GELD is to raise the money (mortgage,
sell) — hiding the option would hide the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .board import DEEDS, Kind, Square
from .commands import Command
from .editions import EDITIONS, Edition
from .game import Game, shortage
from .money import Money
from .ops import LEGAL_ROWS, LegalRow
from .valuation import level, raisable

ROWS = {row.name: row for row in LEGAL_ROWS}

ALLOWED_REFUSALS = frozenset({"insufficient_funds"})
"""Refusals that do not close an option: the player may raise the money first."""


def candidate(row: str, player: str, square: Square | None = None, edition: Edition | None = None) -> Command:
    """The command the device would submit for ``row`` by ``player`` on ``square`` (amounts: the smallest
    ``edition``, by default the classic one, allows)."""
    return ROWS[row].build(player, square, edition or EDITIONS["classic"])


class LegalCommands:
    """The typed commands the rules accept of a player now (a lack of money aside), by their row of the legal
    moves: iterate it for the commands, as one pushes a chess engine's legal moves; ask it by row for a menu.

    A plain class: a dataclass costs the start-up several times as many instructions to create."""

    def __init__(self, by_row: dict[str, list[Command]] | None = None) -> None:
        self.by_row: dict[str, list[Command]] = {} if by_row is None else by_row
        """Each open row's commands, in the rows' order (a row with squares: one command per square)."""

    def __iter__(self) -> Iterator[Command]:
        return (cmd for cmds in self.by_row.values() for cmd in cmds)

    def __contains__(self, row: object) -> bool:
        return row in self.by_row

    @property
    def rows(self) -> list[str]:
        """The open rows, in the table's order: what a menu's entries open on."""
        return list(self.by_row)

    def squares(self, row: str) -> list[Square]:
        """The squares ``row`` is open on, in board order."""
        return [sq for cmd in self.by_row.get(row, ()) if (sq := getattr(cmd, "square", None)) is not None]


def _open(game: Game, cmd: Command) -> bool:
    err = game.check(cmd)
    return err is None or err.code in ALLOWED_REFUSALS


def _row_commands(game: Game, player: str, row: LegalRow, square: Square | None) -> list[Command]:
    state = game.state
    assert state is not None
    if row.squares is None:
        cmd = row.build(player, None, state.edition)
        return [cmd] if square is None and _open(game, cmd) else []
    if row.when is not None and not row.when(state):
        return []
    squares: Iterable[Square] = row.squares() if square is None else \
        ([square] if square in set(row.squares()) else [])
    return [cmd for sq in squares if _open(game, cmd := row.build(player, sq, state.edition))]


def legal_commands(game: Game, player: str, *, rows: Iterable[str] | None = None,
                   square: Square | None = None) -> LegalCommands:
    """The commands the rules accept of ``player`` now (asked of ``Game.check``, so a menu never offers what
    the rules would refuse for anything but money). ``rows``: only those rows are asked about (one list of
    squares costs one row, not the whole menu); ``square``: only the rows on that square (a deed's tag)."""
    if game.state is None or player not in game.state.players:
        return LegalCommands()
    wanted = None if rows is None else set(rows)
    found: dict[str, list[Command]] = {}
    for row in LEGAL_ROWS:
        if wanted is not None and row.name not in wanted:
            continue
        if cmds := _row_commands(game, player, row, square):
            found[row.name] = cmds
    return LegalCommands(found)


# Derived views, for callers that want names or squares only.


def legal_squares(game: Game, player: str, op: str) -> list[Square]:
    """The squares on which ``player`` may do ``op`` (a row's name) now, in board order."""
    return legal_commands(game, player, rows=(op,)).squares(op)


def legal_ops(game: Game, player: str) -> list[str]:
    """The rows open to ``player`` now, in the table's order."""
    return legal_commands(game, player).rows


def square_ops(game: Game, player: str, square: Square) -> list[str]:
    """The rows open to ``player`` on ``square`` (a deed's tag tapped): never Bauen on a station."""
    return legal_commands(game, player, square=square).rows


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
