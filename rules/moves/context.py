"""What every move works with: the state (read-only), its staged changes, the checks they share, and the
declaration of the op it books.

A move (one command's handler) reads the state through :class:`~rules.state.Staged` and stages its changes;
the checks here (a player still in the game, an amount the reader accepts, a deed the player owns …) raise
:class:`~rules.errors.RuleError` before anything is committed.

A move declares what the rules know of its op (``@books(cmds.PayAll, legal=amounts("amount"), …)``): its rows of
the legal moves, whether its payment is a debt, the catalogue keys of its text. A new booking is its command
(:mod:`rules.commands`), its move with this declaration, its texts and its tests: the ops' table (:mod:`rules.ops`)
collects the declarations in the order of the ``Command`` union, and ``HANDLERS``, the legal moves and the debts
are read off it. A row of the legal moves says how to ask the rules whether the op is open to a player
(:mod:`rules.legal` tries its command on a copy of the game, on each of its squares); its builders here are written
before the op is known and completed with its command class when the move is declared, so a row never names its
op's class a second time. They are here, not in a module of their own, because each module read before the device
is ready costs the start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

from .. import commands as cmds
from ..board import DEEDS, GROUPS, TAX_SQUARES, Kind, Square
from ..commands import known_square
from ..errors import RuleError
from ..money import Money
from ..phrase import Cash, Noun, Phrase, Place, Value, phrase
from ..state import GameState, Staged

if TYPE_CHECKING:  # types only: a type alias built at import costs the start-up for nothing
    from collections.abc import Iterable
    from typing import TypeAlias

    from ..editions import Edition

    Build: TypeAlias = Callable[[str, Square | None, Edition], cmds.Command]
    """The candidate command of a row for a player (and a square), with amounts the edition allows."""
    Squares: TypeAlias = Callable[[], Iterable[Square]]
    """The squares worth asking about."""
    When: TypeAlias = Callable[[GameState], bool]
    """A cheap look at the whole game first: False closes the row without asking square by square."""
    Move = TypeVar("Move", bound=Callable[..., Phrase])


class Ctx:
    """What a handler works with: the state (read-only) and its staged changes."""

    def __init__(self, state: GameState, staged: Staged, replaying: bool = False) -> None:
        self.state = state
        self.s = staged
        self.edition = state.edition
        self.replaying = replaying
        """The command comes from the journal: limits added since it was accepted are not applied again."""
        self.note: Phrase | None = None
        """The event's short line (:attr:`Event.note`), if the handler has one."""

    def player(self, name: str) -> str:
        """A player still in this game."""
        if name not in self.state.players:
            raise RuleError("unknown_player", phrase("rules.player.unknown", player=name))
        if self.s.get("bankrupt", name):
            raise RuleError("player_bankrupt", phrase("rules.player.bankrupt", player=name))
        return name

    def amount(self, value: Money, rest: bool = False) -> Money:
        """An amount the card reader accepts in this edition (typed in one go); ``rest``: the refusal adds that
        the rest may be booked as a transfer (a trade's cash above the reader's most)."""
        ed = self.edition
        # Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen" — a range, no step.
        if not ed.min_entry <= value <= ed.max_entry:
            raise RuleError("amount_out_of_range", phrase("rules.amount.range_rest" if rest else "rules.amount.range",
                                                          amount=Cash(value), minimum=Cash(ed.min_entry),
                                                          maximum=Cash(ed.max_entry)))
        return value

    def house_rule(self, rule: str) -> bool:
        return rule in self.state.house_rules

    def to_bank(self, player: str, amount: Money, reason: Phrase) -> str:
        """A payment to the bank, or into the Frei-Parken pot under that house rule: the key suffix of the
        sentence that says where it went ("" for the bank, ".pot" for the pot)."""
        self.s.pay(player, None, amount, reason)
        if self.house_rule("free_parking_pot") and amount:
            self.s.set("pot", None, int(self.s.get("pot") or 0) + amount)
            return ".pot"
        return ""

    def deed(self, square: Square) -> Square:
        sq = known_square(square)
        if sq not in DEEDS:
            raise RuleError("not_a_property", phrase("rules.square.not_a_property", square=Place(sq)))
        return sq

    def owned(self, square: Square, player: str) -> Square:
        sq = self.deed(square)
        if self.s.get("owner", sq) != player:
            raise RuleError("not_owner", phrase("rules.square.not_owner", square=Place(sq), player=player))
        return sq

    def street(self, square: Square, player: str) -> Square:
        sq = self.owned(square, player)
        if DEEDS[sq].kind is not Kind.STREET:
            raise RuleError("not_a_property", phrase("rules.square.no_building", square=Place(sq)))
        return sq

    def level(self, sq: Square) -> int:
        hotel = self.s.get("hotel", sq)
        return self.state.houses_per_hotel + 1 if hotel else int(self.s.get("houses", sq) or 0)

    def group_has_buildings(self, sq: Square) -> bool:
        card = DEEDS[sq]
        return card.kind is Kind.STREET and any(self.level(g) for g in GROUPS[card.group or ""])

    def buildings(self, n: int, *, hotel: bool) -> Phrase:
        """"1 Haus", "2 Hotels": a count with the edition's word, the numeral said even for one."""
        kind: Literal["house", "hotel"] = "hotel" if hotel else "house"
        return phrase("rules.count.buildings", n=n, house=Noun(kind), houses=Noun(kind, True))

    def buildings_word(self, sq: Square) -> Phrase:
        """What stands on a street, as a rent says it: "2 Häuser", "Hotel", "unbebaut"."""
        if self.s.get("hotel", sq):
            return phrase("rules.count.hotel", hotel=Noun("hotel"))
        houses = int(self.s.get("houses", sq) or 0)
        return self.buildings(houses, hotel=False) if houses else phrase("rules.rent.unbuilt")


def chain(key: str, items: list[Value]) -> Phrase:
    """Items said one after the other with the join ``key`` between them: "A, B, C" (``rules.join.comma``), "A; B"
    (``rules.join.semicolon``); a list the language joins with its "and" is a :class:`~rules.phrase.Many`."""
    said = phrase(key, first=items[0], then=items[1]) if len(items) > 1 else phrase("rules.join.one", only=items[0])
    for item in items[2:]:
        said = phrase(key, first=said, then=item)
    return said


# -- the declaration of an op, on its move ------------------------------------------------------------


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


if TYPE_CHECKING:
    Row: TypeAlias = Callable[[type[cmds.BaseCommand]], LegalRow]
    """A row as declared beside a move, before it knows its op: given the op's command class, its row."""


def deeds() -> Iterable[Square]:
    """Every deed of the board, in the board's order."""
    return sorted(DEEDS)


def taxes() -> Iterable[Square]:
    """The tax squares."""
    return TAX_SQUARES


def _maker(command: type[cmds.BaseCommand]) -> Callable[..., cmds.Command]:
    # Every command class of an op is one of the Command union's (the ops' table checks it).
    make: Callable[..., Any] = command
    return make


def on_square(squares: Squares, when: When | None = None) -> Row:
    """An op asked about on each of ``squares``, with the player and the square alone."""
    def of(command: type[cmds.BaseCommand]) -> LegalRow:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, square=square)

        return LegalRow(command.op, squares, build, when)

    return of


def player_only(name: str | None = None, **extra: Any) -> Row:
    """An op asked about with the player alone (and ``extra``: a row of its own for each choice of one op)."""
    def of(command: type[cmds.BaseCommand]) -> LegalRow:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, **extra)

        return LegalRow(name or command.op, None, build)

    return of


def amounts(*fields: str) -> Row:
    """An op whose command carries amounts, asked about with the smallest the edition lets the banker type
    (seed 000: "nur Beträge zwischen € 10K und € 20M eintippen"): 1 would be refused in Banking for its amount
    alone, and the entry would never be offered."""
    def of(command: type[cmds.BaseCommand]) -> LegalRow:
        make = _maker(command)

        def build(player: str, square: Square | None, edition: Edition) -> cmds.Command:
            return make(player=player, **dict.fromkeys(fields, edition.min_entry))

        return LegalRow(command.op, None, build)

    return of


def row(build: Build, squares: Squares | None = None, when: When | None = None) -> Row:
    """An op whose candidate is built its own way (``build`` names its command itself)."""
    return lambda command: LegalRow(command.op, squares, build, when)


def rent_candidate(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    """Rent asked about on a deed: a utility's dice are asked for later, the smallest throw; the owner counts."""
    assert square is not None
    dice = 2 if DEEDS[square].kind is Kind.UTILITY else None
    return cmds.Rent(player=player, square=square, dice=dice)


AUCTION_PROBE = 10**15
"""The bid a building auction is asked about with: one no one can pay tests everything but the money."""


def auction_candidate(player: str, square: Square | None, edition: Edition) -> cmds.Command:
    """A building auction asked about on a deed, with a bid no one can pay (:data:`AUCTION_PROBE`)."""
    assert square is not None
    return cmds.BuildAuction(player=player, square=square, price=AUCTION_PROBE)


# -- the declaration on the move -----------------------------------------------------------------------


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


def books(command: type[cmds.BaseCommand], *, legal: Row | tuple[Row, ...] = (), debt: bool = False,
          said: tuple[str, ...] = ()) -> Callable[[Move], Move]:
    """Declare the decorated move as what books ``command``: its rows of the legal moves (the builders above),
    whether its payment is a debt (:attr:`Op.debt`), the catalogue keys of its text. The move is returned as it
    is; an op declared twice is refused when its module is read."""
    rows = legal if isinstance(legal, tuple) else (legal,)

    def declare(move: Move) -> Move:
        if command in DECLARED:
            raise TypeError("booked twice", command.op, DECLARED[command].move, move)
        DECLARED[command] = Op(command, move, tuple(row(command) for row in rows), debt, said)
        return move

    return declare
