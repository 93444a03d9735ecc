"""The commands of the contract as typed values: the JSON is parsed once, at the door.

``parse(obj)`` turns one JSON object of the command contract (docs/commands.md) into a frozen
dataclass per op, or raises ``RuleError("bad_command")`` saying why (a phrase). It is the one
place that refuses a command for its shape: a field missing or of the wrong type (a JSON
``true`` is never a number), an unknown op, or fields that contradict each other in any game
(a transfer to oneself, an empty trade). Whether a well-formed command is allowed *now*
(amounts in range, who owns what, money) is the game's to judge (:mod:`rules.game`).

A field its op does not know is refused, naming it (a misspelt ``lift`` did nothing); journals written
before replay as they were accepted (``parse(obj, strict=False)`` ignores such fields). ``null`` is the same as
absent.
``to_json()`` gives the contract's object back, so ``parse(c.to_json()) == c``.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, field, fields, is_dataclass
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, TypeAlias

from .board import DEEDS, SQUARES, TAX_SQUARES, Kind, Square
from .editions import EDITIONS, Edition, EditionError, Mode
from .errors import BadCommand, RuleError
from .money import Money
from .names import MAX_NAME, check_distinct, clean_name
from .phrase import phrase
from .record import record

MIN_PLAYERS, MAX_PLAYERS = 2, 8
HOUSE_RULES = ("free_parking_pot", "double_go", "no_auctions")
"""The house rules a ``new_game`` may choose; all off by default."""


def known_square(square: Square) -> Square:
    """The square, or RuleError(unknown_square) for a number off the board."""
    if not 0 <= square < len(SQUARES):
        raise RuleError("unknown_square", phrase("rules.square.unknown", square=square))
    return square


@record
class BaseCommand:
    """What every command has: its op, and an optional id."""

    op: ClassVar[str]
    id: str | None = field(default=None, kw_only=True)
    """A phone's retry id: a command whose id was applied before is acknowledged, not applied again."""
    expect: str | None = field(default=None, kw_only=True)
    """The digest of the preview the banker confirmed (:func:`rules.effect.effect_digest`): booked only while the
    rules would still do exactly that, else refused ``changed``. None: booked as the rules judge it now."""

    def to_json(self) -> dict[str, Any]:
        """The contract's object for this command (optional fields left out when unset)."""
        out: dict[str, Any] = {"op": self.op}
        for f in fields(self):
            value = getattr(self, f.name)
            if not (value is None or value is False or value == ()):
                out[f.metadata.get("key", f.name)] = _dump(value)
        return out


# -- starting, correcting, ending ------------------------------------------------------------


@record
class NewGame(BaseCommand):
    """A new game of an edition and mode, with its players in seat order (replaces a running one only when asked)."""

    op: ClassVar[str] = "new_game"
    edition: str
    """Key of :data:`rules.editions.EDITIONS`, or of ``edition_data``."""
    players: tuple[str, ...]
    """2–8 distinct names, in seat order, exactly as they will be stored."""
    mode: Mode = Mode.STANDARD
    minutes: int | None = None
    """Agreed playing time; required (1–1440) in a timed game."""
    deal: Mapping[str, tuple[Square, ...]] | None = None
    """The quick game's deal, per player; without it the deal is drawn from ``seed``."""
    seed: int | None = None
    speed_die: bool = False
    house_rules: tuple[str, ...] = ()
    """Names from :data:`HOUSE_RULES`."""
    replace: bool = False
    """Replace a running game (Storno brings it back)."""
    edition_data: Mapping[str, Any] | None = None
    """The whole edition the game is played with (``rules.editions.journal_data``): the journal keeps it, so a
    changed or deleted edition file changes no game after the fact. Without it: the shipped edition ``edition``
    (journals written before)."""

    def __post_init__(self) -> None:
        edition = self.game_edition()
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise BadCommand(phrase("rules.new_game.players", least=MIN_PLAYERS, most=MAX_PLAYERS,
                                    count=len(self.players)))
        for name in self.players:
            # A journal keeps names as typed; a name the rule would change is refused, not rewritten.
            if clean_name(name) != name:
                raise BadCommand(phrase("rules.new_game.name", name=repr(name), most=MAX_NAME))
        check_distinct(list(self.players))
        if self.mode is Mode.TIMED and (self.minutes is None or not 1 <= self.minutes <= 24 * 60):
            raise BadCommand(phrase("rules.new_game.minutes", minutes=24 * 60))
        if self.speed_die and not edition.speed_die_bonus:
            raise BadCommand(phrase("rules.new_game.speed_die", edition=edition.title))
        unknown = [r for r in self.house_rules if r not in HOUSE_RULES]
        if unknown:
            raise BadCommand(phrase("rules.new_game.house_rule", rule=repr(unknown[0]), known=", ".join(HOUSE_RULES)))
        if self.mode is Mode.QUICK:
            self._check_deal(edition)

    def game_edition(self) -> Edition:
        """The edition this game is played with: its ``edition_data``, else the shipped edition of that key."""
        if self.edition_data is None:
            edition = EDITIONS.get(self.edition)
            if edition is None:
                raise BadCommand(phrase("rules.new_game.edition", edition=repr(self.edition),
                                        known=", ".join(EDITIONS)))
            return edition
        edition = edition_of_json(json.dumps(_dump(self.edition_data), sort_keys=True, ensure_ascii=False))
        if edition.key != self.edition:
            raise BadCommand(phrase("rules.new_game.edition_data", key=repr(edition.key), edition=repr(self.edition)))
        return edition

    def _check_deal(self, edition: Edition) -> None:
        each = edition.quick.deeds_each
        if self.deal is None:
            if self.seed is None:
                raise BadCommand(phrase("rules.new_game.seed"))
            return
        if set(self.deal) != set(self.players):
            raise BadCommand(phrase("rules.new_game.deal"))
        seen: set[Square] = set()
        for name in self.players:
            if len(self.deal[name]) != each:
                raise BadCommand(phrase("rules.new_game.deal_each", n=each))
            for sq in self.deal[name]:
                if known_square(sq) not in DEEDS:
                    raise RuleError("not_a_property", phrase("rules.square.not_a_property", square=edition.names[sq]))
                if sq in seen:
                    raise BadCommand(phrase("rules.new_game.dealt_twice", square=edition.names[sq]))
                seen.add(sq)


@record
class Undo(BaseCommand):
    """Storno: take back the last accepted command of the game (or a new_game that replaced one)."""

    op: ClassVar[str] = "undo"
    of: int | None = None
    """The booking meant (its ``Event.number``): refused ``not_last`` when it is no longer the last, so that a
    second tap, or a second phone, never takes back one booking more. None: whatever is last (the device)."""


@record
class End(BaseCommand):
    """A timed game's time is up."""

    op: ClassVar[str] = "end"


# -- money ------------------------------------------------------------------------------------


@record
class Credit(BaseCommand):
    """The bank pays the player."""

    op: ClassVar[str] = "credit"
    player: str
    amount: Money


@record
class Debit(BaseCommand):
    """The player pays the bank (or the Frei-Parken pot)."""

    op: ClassVar[str] = "debit"
    player: str
    amount: Money


@record
class Transfer(BaseCommand):
    """One player pays another."""

    op: ClassVar[str] = "transfer"
    from_: str = field(metadata={"key": "from"})
    """The payer (``from`` in the JSON: a keyword in Python)."""
    to: str
    amount: Money

    def __post_init__(self) -> None:
        if self.from_ == self.to:
            raise BadCommand(phrase("rules.transfer.self"))


@record
class Go(BaseCommand):
    """The GO salary."""

    op: ClassVar[str] = "go"
    player: str
    exact: bool = False
    """Landed exactly on LOS: twice the salary under the house rule ``double_go``."""


@record
class PayAll(BaseCommand):
    """ "Zahle jedem Spieler …": the player pays ``amount`` to every other player still in the game."""

    op: ClassVar[str] = "pay_all"
    player: str
    amount: Money


@record
class CollectAll(BaseCommand):
    """ "Du hast Geburtstag": every other player still in the game pays the player ``amount``."""

    op: ClassVar[str] = "collect_all"
    player: str
    amount: Money


@record
class Repairs(BaseCommand):
    """Renovierung: so much per house and per hotel the player owns."""

    op: ClassVar[str] = "repairs"
    player: str
    per_house: Money
    per_hotel: Money


@record
class FreeParking(BaseCommand):
    """The player takes the Frei-Parken pot (house rule ``free_parking_pot``)."""

    op: ClassVar[str] = "free_parking"
    player: str


@record
class Tax(BaseCommand):
    """The player landed on a tax square and pays its tax to the bank (or the Frei-Parken pot)."""

    op: ClassVar[str] = "tax"
    player: str
    square: Square
    """4 or 38."""

    def __post_init__(self) -> None:
        if self.square not in TAX_SQUARES:
            first, second = TAX_SQUARES
            raise BadCommand(phrase("rules.tax.square", square=self.square, first=first, second=second))


@record
class JailFine(BaseCommand):
    """The player pays the fine to leave the Gefängnis."""

    op: ClassVar[str] = "jail_fine"
    player: str


@record
class JailCard(BaseCommand):
    """A "Gefängnis frei" card drawn (+1) or used (−1)."""

    op: ClassVar[str] = "jail_card"
    player: str
    delta: int

    def __post_init__(self) -> None:
        if self.delta not in (1, -1):
            raise BadCommand(phrase("rules.jail_card.delta"))


@record
class Bankrupt(BaseCommand):
    """The player cannot pay and leaves the game: what they own goes to the creditor (a player or the bank)."""

    op: ClassVar[str] = "bankrupt"
    player: str
    creditor: str | None = None
    """The player owed; None: the bank."""
    owed: Money | None = None
    """What the player owes that creditor (or the bank). With it the rules refuse a bankruptcy the player
    could still pay (``not_bankrupt``); journals written before it keep replaying without it."""
    lift: tuple[Square, ...] = ()
    """Mortgaged deeds the creditor lifts at once, as in a trade: the mortgage plus 10 % once (001/003/004: the
    10 % is due "auch dann, wenn er die Hypothek zu diesem Zeitpunkt noch nicht auflösen möchte")."""

    def __post_init__(self) -> None:
        if self.creditor == self.player:
            raise BadCommand(phrase("rules.bankrupt.self"))
        if self.lift and self.creditor is None:
            raise BadCommand(phrase("rules.bankrupt.lift_bank"))
        if len(set(self.lift)) != len(self.lift):
            raise BadCommand(phrase("rules.bankrupt.lift_twice"))


@record
class PayDebt(BaseCommand):
    """The player pays the bank what they still owe it (the 10 % on mortgaged deeds received in a
    bankruptcy that they could not pay at once)."""

    op: ClassVar[str] = "pay_debt"
    player: str


# -- property ---------------------------------------------------------------------------------


@record
class Buy(BaseCommand):
    """The player buys an unowned deed from the bank, at its printed price or an auction's."""

    op: ClassVar[str] = "buy"
    player: str
    square: Square
    price: Money | None = None
    """An auction's result; None: the printed price."""


@record
class Rent(BaseCommand):
    """The player pays the deed's owner the rent the state asks for."""

    op: ClassVar[str] = "rent"
    player: str
    """Who pays; the owner is read from the state."""
    square: Square
    dice: int | None = None
    """The throw, for a utility (required there)."""

    def __post_init__(self) -> None:
        if self.dice is None and self.square in DEEDS and DEEDS[self.square].kind is Kind.UTILITY:
            raise BadCommand(phrase("rules.command.missing", field="dice"))


@record
class Build(BaseCommand):
    """One more house, or the hotel when the street has the houses a hotel needs."""

    op: ClassVar[str] = "build"
    player: str
    square: Square


@record
class BuildAuction(BaseCommand):
    """A building won at the bank's auction in a shortage (seed 000: "werden die vorhandenen Gebäude einzeln
    an den Meistbietenden versteigert"): built like ``build``, paid at the winning ``price``."""

    op: ClassVar[str] = "build_auction"
    player: str
    square: Square
    price: Money


@record
class SellBuilding(BaseCommand):
    """The player sells a house (or breaks a hotel back into houses) to the bank at half price."""

    op: ClassVar[str] = "sell_building"
    player: str
    square: Square
    to_houses: bool = False
    """Turn the hotel back into houses rather than sell it whole."""


@record
class Mortgage(BaseCommand):
    """The bank lends the player the deed's mortgage value."""

    op: ClassVar[str] = "mortgage"
    player: str
    square: Square


@record
class Unmortgage(BaseCommand):
    """The player pays back a mortgage with 10 % interest."""

    op: ClassVar[str] = "unmortgage"
    player: str
    square: Square


@record
class TradeSide:
    """What one side of a trade gives: ``{squares, cash, jail_cards}``, each optional."""

    squares: tuple[Square, ...] = ()
    cash: Money = 0
    jail_cards: int = 0

    def __post_init__(self) -> None:
        if self.cash < 0 or self.jail_cards < 0:
            raise BadCommand(phrase("rules.trade.negative"))

    def __bool__(self) -> bool:
        return bool(self.squares or self.cash or self.jail_cards)


@record
class Trade(BaseCommand):
    """Two players swap money, deeds and jail cards, as they agreed."""

    op: ClassVar[str] = "trade"
    a: str
    b: str
    a_gives: TradeSide = TradeSide()
    b_gives: TradeSide = TradeSide()
    lift: tuple[Square, ...] = ()
    """Mortgaged squares of this trade whose mortgage the receiver lifts at once."""

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise BadCommand(phrase("rules.trade.self"))
        squares = self.a_gives.squares + self.b_gives.squares
        if len(set(squares)) != len(squares):
            raise BadCommand(phrase("rules.trade.twice"))
        if not (self.a_gives or self.b_gives):
            raise BadCommand(phrase("rules.trade.empty"))
        if any(sq not in squares for sq in self.lift):
            raise BadCommand(phrase("rules.trade.lift"))


Command: TypeAlias = (Buy | Rent | Build | BuildAuction | SellBuilding | Mortgage | Unmortgage | Tax | JailFine
                      | JailCard | Go | Bankrupt | PayDebt | PayAll | CollectAll | Repairs | FreeParking | Credit
                      | Debit | Transfer | Trade | End | NewGame | Undo)
"""Any command of the contract, in the order the ops' table (``rules.ops``) lists them: the legal moves are offered
in this order (the deeds' ops, then the player's own, then what a key books or the game itself)."""

COMMANDS: Mapping[str, type[BaseCommand]] = MappingProxyType({cls.op: cls for cls in typing.get_args(Command)})
"""The command class of each op."""


# -- parsing ----------------------------------------------------------------------------------


def parse(obj: object, *, strict: bool = True) -> Command:
    """The typed command for one JSON object of the contract, or RuleError(bad_command) saying why not.

    ``strict``: a field the op does not know is refused (the appliance's own journal is read with ``False``:
    what it accepted once, before this check, replays as it was accepted)."""
    if not isinstance(obj, Mapping):
        raise BadCommand(phrase("rules.command.object"))
    op = obj.get("op")
    cls = COMMANDS.get(op) if isinstance(op, str) else None
    if cls is None:
        raise BadCommand(phrase("rules.command.unknown", op=repr(op)))
    if strict:
        known = {"op", *(f.metadata.get("key", f.name) for f in fields(cls))}
        unknown = sorted(str(k) for k in obj if k not in known)
        if unknown:
            raise BadCommand(phrase("rules.command.field", field=unknown[0], op=str(op),
                                    known=", ".join(sorted(known))))
    command: Command = _build(cls, obj, "")
    return command


@lru_cache(maxsize=16)
def edition_of_json(data: str) -> Edition:
    """The edition a new_game's ``edition_data`` describes, checked like a file (kept: a replay reads it once)."""
    from .editions.fileformat import edition_from_data  # an edition's checks: at the first new_game, after READY

    try:
        return edition_from_data(json.loads(data))
    except EditionError as err:
        raise BadCommand(phrase("rules.command.edition_data", error=str(err))) from None


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """The field types of a command class, resolved once."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _build(cls: type[Any], obj: Mapping[str, Any], prefix: str) -> Any:
    values: dict[str, Any] = {}
    for f in fields(cls):
        key = f.metadata.get("key", f.name)
        raw = obj.get(key)
        if raw is None:
            if f.default is MISSING and f.default_factory is MISSING:
                raise BadCommand(phrase("rules.command.missing", field=prefix + key))
            continue
        values[f.name] = _read(raw, _hints(cls)[f.name], prefix + key)
    return cls(**values)


def _read(value: Any, kind: Any, key: str) -> Any:
    """``value`` as the field's type ``kind``; bool is not an int, a JSON list becomes a tuple."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:  # an edition's data: checked as a whole where it is used (rules.editions)
        return value
    if origin in (types.UnionType, typing.Union):  # X | None: None was handled by the caller
        return _read(value, next(a for a in args if a is not type(None)), key)
    if kind in (int, str, bool):
        if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
            return value
    elif isinstance(kind, type) and issubclass(kind, Enum):
        options = [m.value for m in kind]
        if value in options:
            return kind(value)
        raise BadCommand(phrase("rules.command.option", field=key, value=repr(value),
                                known=", ".join(map(str, options))))
    elif origin is tuple and isinstance(value, list):
        return tuple(_read(v, args[0], key) for v in value)
    elif origin is Mapping and isinstance(value, Mapping):
        return MappingProxyType({k: _read(v, args[1], f"{key}.{k}") for k, v in value.items()})
    elif isinstance(kind, type) and is_dataclass(kind) and isinstance(value, Mapping):
        allowed = [f.name for f in fields(kind)]
        if set(value) - set(allowed):
            raise BadCommand(phrase("rules.command.only", field=key, known=", ".join(allowed)))
        return _build(kind, value, f"{key}.")
    raise BadCommand(phrase("rules.command.type", field=key))


def _dump(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _dump(v) for k, v in value.items()}
    if is_dataclass(value):
        return {f.name: _dump(getattr(value, f.name)) for f in fields(value)}
    return value
