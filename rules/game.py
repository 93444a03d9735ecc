"""The game: every command of the contract, checked against the whole state, then applied.

``Game.apply(command)`` is the single door through which money and property move. The JSON
is parsed once, at that door, into a typed command (:mod:`rules.commands`). Its handler reads
the state through a :class:`~rules.state.Staged` overlay and stages its changes; a
:class:`~rules.errors.RuleError` anywhere drops the overlay, so a refused command changes
nothing. Pure: no clock, no I/O; the quick-game deal draws from a seed passed in.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from . import commands as cmds
from .board import DEEDS, GROUPS, SQUARES, Kind, Square
from .commands import Command, known_square, parse
from .editions import EDITIONS, Edition, Mode, article
from .errors import BadCommand, RuleError
from .money import Money, format_money
from .state import (
    JAIL_CARDS_IN_GAME,
    Change,
    DeedState,
    GameState,
    PlayerState,
    Staged,
    Transfer,
    write,
)
from .valuation import interest, level, lift_cost, net_worth, owns_group, raisable, ranking, rent

_NO_COMMAND: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Event:
    """What an accepted command did: for the journal, the log, the status page and undo."""

    op: str
    command: Mapping[str, Any]
    text: str
    """German, for the log: "Anna zahlt Ben Miete für Schlossallee (2 Häuser)"."""
    transfers: tuple[Transfer, ...] = ()
    changes: tuple[Change, ...] = ()
    duplicate: bool = False
    """The command's id was applied before; nothing happened this time."""
    note: str = ""
    """A short line for the small screen, beside ``text`` (which it repeats): what went to the bank besides the
    booking itself (the 10 % on mortgaged deeds in a trade or a bankruptcy), or what is still owed there."""


# -- the game -----------------------------------------------------------------------------


@dataclass
class Game:
    """A table's game: the state, the ids already applied, and the events that may be undone."""

    state: GameState | None = None
    applied_ids: dict[str, None] = field(default_factory=dict)
    """The last RECENT_IDS ids applied in the current game, oldest first: a retry comes within seconds, not
    thousands of bookings or games later, and an unbounded set grew memory with every booking."""
    history: deque[Event] = field(default_factory=lambda: deque(maxlen=UNDO_DEPTH))
    """Accepted events of the current game, newest last, at most UNDO_DEPTH (its new_game first while
    it fits); ``undo`` pops from here. Bounded, so memory and a checkpoint do not grow with the game."""
    previous: list[tuple[GameState | None, deque[Event], dict[str, None]]] = field(default_factory=list)
    """The games replaced by later new_games, newest last: undoing a new_game brings one back."""

    # The public door -----------------------------------------------------------------

    def apply(self, cmd: Mapping[str, Any] | Command, *, replaying: bool = False) -> Event:
        """Check ``cmd`` against the whole state and apply it, or raise RuleError having changed nothing.

        ``cmd`` is the contract's JSON object (parsed here, once) or a typed command. The event keeps
        the command as given. ``replaying``: the command comes from the appliance's own journal, where
        it was accepted once. A journal written before ``new_game`` needed ``"replace": true`` holds
        new games over running ones without it; they replay as they were accepted.
        """
        typed = _typed(cmd)
        given = _given(cmd, typed)
        if typed.id is not None and typed.id in self.applied_ids:
            return Event(typed.op, given, "bereits ausgeführt", duplicate=True)
        if isinstance(typed, cmds.NewGame):
            event = self._new_game(typed, given, replaying)
        elif isinstance(typed, cmds.Undo):
            event = self._undo(given)
        else:
            staged, text, note = self._stage(typed, replaying)
            event = Event(typed.op, given, text, tuple(staged.transfers), staged.commit(), note=note)
            # Undo needs what changed, not the command that asked for it: a long game keeps less.
            self.history.append(replace(event, command=_NO_COMMAND))
        if typed.id is not None:
            self.applied_ids[typed.id] = None
            if len(self.applied_ids) > RECENT_IDS:
                del self.applied_ids[next(iter(self.applied_ids))]
        return event

    def preview(self, cmd: Mapping[str, Any] | Command) -> Event:
        """What ``cmd`` would book (text and transfers), without booking it; raises as ``apply`` would.

        The device's confirm screens show this, so they never recompute a rule amount.
        """
        typed = _typed(cmd)
        if isinstance(typed, (cmds.NewGame, cmds.Undo)):
            raise BadCommand(f"Keine Vorschau für {typed.op!r}")
        staged, text, note = self._stage(typed)
        return Event(typed.op, _given(cmd, typed), text, tuple(staged.transfers), note=note)

    def _stage(self, cmd: Command, replaying: bool = False) -> tuple[Staged, str, str]:
        state = self._running()
        staged = Staged(state)
        staged.debt_first = not isinstance(cmd, (cmds.PayDebt, cmds.Bankrupt))
        ctx = _Ctx(state, staged, replaying)
        text = _HANDLERS[type(cmd)](ctx, cmd)
        _check_end(state, staged)
        return staged, text, ctx.note

    def undoable(self) -> bool:
        """Would Storno do something now? (Not past a game's start, unless a replaced game waits behind it.)"""
        if self.state is None or not self.history:
            return False
        return self.history[-1].op != "new_game" or bool(self.previous and self.previous[-1][0] is not None)

    def check(self, cmd: Mapping[str, Any] | Command) -> RuleError | None:
        """Would ``cmd`` be accepted? Answers without changing anything (a new_game or undo: None)."""
        try:
            typed = _typed(cmd)
            if not isinstance(typed, (cmds.NewGame, cmds.Undo)):
                self._stage(typed)
        except RuleError as err:
            return err
        return None

    # Helpers -------------------------------------------------------------------------

    def _running(self) -> GameState:
        if self.state is None:
            raise RuleError("game_over", "Kein Spiel läuft: erst ein neues Spiel starten")
        if self.state.finished:
            raise RuleError("game_over", "Das Spiel ist zu Ende")
        return self.state

    def _new_game(self, cmd: cmds.NewGame, given: Mapping[str, Any], replaying: bool) -> Event:
        running = self.state is not None and not self.state.finished
        if running and not cmd.replace and not replaying:
            raise RuleError("game_running", 'Ein Spiel läuft noch: zum Ersetzen "replace": true mitschicken '
                                            "(Storno holt es zurück)")
        state, transfers = new_game_state(cmd)
        # The game it replaces (running or finished) comes back if this new_game is undone.
        self.previous.append((self.state, self.history, self.applied_ids))
        del self.previous[:-MAX_PREVIOUS]
        self.applied_ids = {}
        self.state = state
        self.history = deque(maxlen=UNDO_DEPTH)
        names = ", ".join(state.players)
        rules = f"; Hausregeln: {', '.join(HOUSE_RULE_NAMES[r] for r in sorted(state.house_rules))}" \
            if state.house_rules else ""
        event = Event("new_game", given,
                      f"Neues Spiel ({state.edition.title}, {mode_name(state)}): {names}{rules}", tuple(transfers))
        self.history.append(replace(event, command=_NO_COMMAND))
        return event

    def _undo(self, cmd: Mapping[str, Any]) -> Event:
        if self.state is None or not self.history:
            raise RuleError("bad_command", f"Nichts mehr zu stornieren (Storno reicht bis zum Spielbeginn, "
                                           f"höchstens {UNDO_DEPTH} Buchungen zurück)")
        if self.history[-1].op == "new_game":
            if not self.previous or self.previous[-1][0] is None:
                raise RuleError("bad_command", "Nichts zu stornieren: das erste Spiel")
            first = self.history[-1]
            self.state, self.history, self.applied_ids = self.previous.pop()
            back = self.state
            assert back is not None
            return Event("undo", cmd, f"Storno: {first.text} — das vorige Spiel ({back.edition.title}) geht weiter",
                         tuple(Transfer(t.payee, t.payer, t.amount, f"Storno: {t.reason}") for t in first.transfers))
        last = self.history.pop()
        for change in reversed(last.changes):
            write(self.state, change.field, change.target, change.old)
        reverse = tuple(Transfer(t.payee, t.payer, t.amount, f"Storno: {t.reason}") for t in reversed(last.transfers))
        undone = tuple(Change(c.field, c.target, c.new, c.old) for c in reversed(last.changes))
        return Event("undo", cmd, f"Storno: {last.text}", reverse, undone)


MODE_NAMES = {Mode.STANDARD: "Standardspiel", Mode.QUICK: "Schnellspiel", Mode.TIMED: "Spiel auf Zeit"}
MAX_PREVIOUS = 2
UNDO_DEPTH = 200
RECENT_IDS = 1000
"""Storno walks back at most this many bookings: every one the page's log still shows (a table takes back
the last few; an unbounded history grew the appliance's memory and start-up with every booking)."""
"""Replaced games kept for Storno: enough to take back a new game by mistake, bounded in memory."""
HOUSE_RULE_NAMES = {"free_parking_pot": "Frei-Parken-Topf", "double_go": "doppeltes Gehalt auf LOS",
                    "no_auctions": "keine Versteigerungen"}


def _typed(cmd: Mapping[str, Any] | Command) -> Command:
    """The typed command: a JSON object is parsed here, once (RuleError bad_command if malformed)."""
    return cmd if isinstance(cmd, cmds.BaseCommand) else parse(cmd)


def _given(cmd: Mapping[str, Any] | Command, typed: Command) -> Mapping[str, Any]:
    """The command as the event keeps it: the JSON object exactly as given, or the typed one's JSON."""
    return cmd if isinstance(cmd, Mapping) else typed.to_json()


def mode_name(state: GameState) -> str:
    """The mode of a game as the edition's book calls it: :func:`mode_title` of its state."""
    return mode_title(state.edition, state.mode, speed_die=state.speed_die)


def mode_title(edition: Edition, mode: Mode, *, speed_die: bool = False) -> str:
    """The mode as the edition's book calls it (Skylanders' quick game is the "kurzes Spiel"), and
    "mit Tempo-Würfel" when the game was started with it (Schalke's book: "mit dem Tempo-Würfel spielen")."""
    name = "kurzes Spiel" if mode is Mode.QUICK and edition.quick.ends_at_bankruptcy == 1 else MODE_NAMES[mode]
    return f"{name} mit Tempo-Würfel" if speed_die else name


# -- starting a game ----------------------------------------------------------------------


def new_game_state(cmd: Mapping[str, Any] | cmds.NewGame) -> tuple[GameState, list[Transfer]]:
    """The state a ``new_game`` command sets up, with the money the bank paid out and in."""
    if not isinstance(cmd, cmds.NewGame):
        typed = parse(cmd)
        if not isinstance(typed, cmds.NewGame):
            raise BadCommand(f"Kein neues Spiel: {typed.op!r}")
        cmd = typed
    edition, names = EDITIONS[cmd.edition], list(cmd.players)
    start = edition.start_capital + (edition.speed_die_bonus if cmd.speed_die else 0)
    state = GameState(
        edition=edition,
        mode=cmd.mode,
        players={n: PlayerState(n, start) for n in names},
        minutes=cmd.minutes if cmd.mode is Mode.TIMED else None,
        speed_die=cmd.speed_die,
        house_rules=frozenset(cmd.house_rules),
    )
    transfers = [Transfer(None, n, start, "Startkapital") for n in names]
    if cmd.mode is Mode.QUICK:
        deal = _quick_deal(cmd, edition)
        for name in names:
            for sq in deal[name]:
                state.deeds[sq].owner = name
                if edition.quick.deal_paid:
                    price = edition.money(DEEDS[sq].price)
                    state.players[name].cash -= price
                    transfers.append(Transfer(name, None, price, f"Schnellspiel: {square_name(edition, sq)}"))
    return state, transfers


def _quick_deal(cmd: cmds.NewGame, edition: Edition) -> Mapping[str, tuple[Square, ...]]:
    """The deal as the command gives it, or drawn from its seed (both checked by the command)."""
    if cmd.deal is not None:
        return cmd.deal
    each, names = edition.quick.deeds_each, cmd.players
    drawn = random.Random(cmd.seed).sample(sorted(DEEDS), each * len(names))
    return {n: tuple(sorted(drawn[i * each : (i + 1) * each])) for i, n in enumerate(names)}


def square_name(edition: Edition, square: Square) -> str:
    """The square's name in this edition: themed where the seed names it, else classic German."""
    return edition.square_names.get(square, SQUARES[square].name)


# -- the handlers -------------------------------------------------------------------------


class _Ctx:
    """What a handler works with: the state (read-only) and its staged changes."""

    def __init__(self, state: GameState, staged: Staged, replaying: bool = False) -> None:
        self.state = state
        self.s = staged
        self.edition = state.edition
        self.replaying = replaying
        """The command comes from the journal: limits added since it was accepted are not applied again."""
        self.note = ""
        """The event's short line (:attr:`Event.note`), if the handler has one."""

    def money(self, amount: Money) -> str:
        return format_money(amount, self.edition)

    def name(self, square: Square) -> str:
        return square_name(self.edition, square)

    def player(self, name: str) -> str:
        """A player still in this game."""
        if name not in self.state.players:
            raise RuleError("unknown_player", f"Unbekannter Spieler: {name}")
        if self.s.get("bankrupt", name):
            raise RuleError("player_bankrupt", f"{name} ist bankrott und spielt nicht mehr mit")
        return name

    def amount(self, value: Money, hint: str = "") -> Money:
        """An amount the card reader accepts in this edition (typed in one go)."""
        ed = self.edition
        # Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen" — a range, no step.
        if not ed.min_entry <= value <= ed.max_entry:
            raise RuleError(
                "amount_out_of_range",
                f"Betrag {self.money(value)} geht nicht: erlaubt {self.money(ed.min_entry)}"
                f" bis {self.money(ed.max_entry)}{hint}",
            )
        return value

    def house_rule(self, rule: str) -> bool:
        return rule in self.state.house_rules

    def to_bank(self, player: str, amount: Money, reason: str) -> str:
        """A payment to the bank, or into the Frei-Parken pot under that house rule; says where it went."""
        self.s.pay(player, None, amount, reason)
        if self.house_rule("free_parking_pot") and amount:
            self.s.set("pot", None, int(self.s.get("pot") or 0) + amount)
            return "in den Frei-Parken-Topf"
        return "an die Bank"

    def deed(self, square: Square) -> Square:
        sq = known_square(square)
        if sq not in DEEDS:
            raise RuleError("not_a_property", f"{self.name(sq)} ist kein Grundstück")
        return sq

    def owned(self, square: Square, player: str) -> Square:
        sq = self.deed(square)
        if self.s.get("owner", sq) != player:
            raise RuleError("not_owner", f"{self.name(sq)} gehört nicht {player}")
        return sq

    def street(self, square: Square, player: str) -> Square:
        sq = self.owned(square, player)
        if DEEDS[sq].kind is not Kind.STREET:
            raise RuleError("not_a_property", f"Auf {self.name(sq)} kann man nicht bauen")
        return sq

    def level(self, sq: Square) -> int:
        hotel = self.s.get("hotel", sq)
        return self.state.houses_per_hotel + 1 if hotel else int(self.s.get("houses", sq) or 0)

    def group_has_buildings(self, sq: Square) -> bool:
        card = DEEDS[sq]
        return card.kind is Kind.STREET and any(self.level(g) for g in GROUPS[card.group or ""])

    def buildings_word(self, sq: Square) -> str:
        ed = self.edition
        if self.s.get("hotel", sq):
            return ed.hotel
        houses = int(self.s.get("houses", sq) or 0)
        return f"{houses} {ed.house if houses == 1 else ed.houses}" if houses else "unbebaut"


def _credit(c: _Ctx, cmd: cmds.Credit) -> str:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    c.s.pay(None, player, amount, "Haben")
    return f"{player} erhält {c.money(amount)} von der Bank"


def _debit(c: _Ctx, cmd: cmds.Debit) -> str:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    where = c.to_bank(player, amount, "Soll")
    return f"{player} zahlt {c.money(amount)} {where}"


def _transfer(c: _Ctx, cmd: cmds.Transfer) -> str:
    payer, payee, amount = c.player(cmd.from_), c.player(cmd.to), c.amount(cmd.amount)
    c.s.pay(payer, payee, amount, f"Überweisung an {payee}")
    return f"{payer} zahlt {payee} {c.money(amount)}"


def _go(c: _Ctx, cmd: cmds.Go) -> str:
    player, exact = c.player(cmd.player), cmd.exact
    if exact and not c.house_rule("double_go"):
        raise RuleError("house_rule_off", "Doppeltes Gehalt auf LOS ist keine Hausregel dieses Spiels")
    salary = c.edition.salary * (2 if exact else 1)
    c.s.pay(None, player, salary, "LOS" + (" (genau auf LOS: doppelt)" if exact else ""))
    return f"{player} {'landet genau auf' if exact else 'geht über'} LOS: {c.money(salary)}"


def _buy(c: _Ctx, cmd: cmds.Buy) -> str:
    player, sq = c.player(cmd.player), c.deed(cmd.square)
    owner = c.s.get("owner", sq)
    if owner is not None:
        raise RuleError("already_owned", f"{c.name(sq)} gehört schon {owner}")
    price = cmd.price
    if price is None:
        price, how = c.edition.money(DEEDS[sq].price), "kauft"
    else:
        if c.house_rule("no_auctions") and price != c.edition.money(DEEDS[sq].price):
            raise RuleError("house_rule_off", "Hausregel: keine Versteigerungen, nur der aufgedruckte Preis")
        _bid(c, player, price, c.edition.auction_min_bid)
        how = "ersteigert"
    c.s.pay(player, None, price, f"{'Kauf' if how == 'kauft' else 'Auktion'} {c.name(sq)}")
    c.s.set("owner", sq, player)
    return f"{player} {how} {c.name(sq)} für {c.money(price)}"


def _bid(c: _Ctx, player: str, price: Money, minimum: Money) -> Money:
    """An auction's winning bid: at least ``minimum``, at most the bidder's cash and nothing else (seed 001:
    "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen"). A bid is not typed on the
    reader in one go, so the reader's 20M does not cap it."""
    if price < minimum:
        raise RuleError("amount_out_of_range", f"Gebot {c.money(price)} geht nicht: mindestens {c.money(minimum)}")
    c.s.may_pay(player)
    if c.s.cash(player) < price:
        raise RuleError("insufficient_funds", f"Nicht genug Geld für das Gebot: {player} hat "
                                              f"{c.money(c.s.cash(player))}, geboten sind {c.money(price)}")
    return price


def _rent(c: _Ctx, cmd: cmds.Rent) -> str:
    payer, sq = c.player(cmd.player), c.deed(cmd.square)
    owner = c.s.get("owner", sq)
    if owner is None:
        raise RuleError("not_owner", f"{c.name(sq)} gehört niemandem: keine Miete")
    if owner == payer:
        raise RuleError("not_owner", f"{c.name(sq)} gehört {payer} selbst: keine Miete")
    if c.s.get("mortgaged", sq):
        raise RuleError("mortgaged", f"Keine Miete: {c.name(sq)} ist mit einer Hypothek belastet")
    dice = None
    note = c.buildings_word(sq) if DEEDS[sq].kind is Kind.STREET else ""
    if DEEDS[sq].kind is Kind.UTILITY:
        dice = cmd.dice  # never None on a utility: the command says so
        top = 15 if c.state.speed_die else 12
        if dice is None or not 2 <= dice <= top:
            raise RuleError("amount_out_of_range", f"Augenzahl muss zwischen 2 und {top} liegen")
        note = f"{dice} Augen"
    amount = rent(c.state, sq, dice)
    c.s.pay(payer, str(owner), amount, f"Miete {c.name(sq)}")
    return f"{payer} zahlt {owner} Miete für {c.name(sq)} ({note}): {c.money(amount)}"


def _build(c: _Ctx, cmd: cmds.Build) -> str:
    return _build_on(c, c.player(cmd.player), cmd.square, None)


def _build_auction(c: _Ctx, cmd: cmds.BuildAuction) -> str:
    """Seed 000 "Wollen zwei oder mehr Spieler eine höhere Anzahl Gebäude kaufen als die Bank zur Verfügung hat,
    werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt der
    niedrigste, gedruckte Preis der entsprechenden Besitzrechtkarten." Seeds 001, 003, 004 say the same."""
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    if c.house_rule("no_auctions"):
        raise RuleError("house_rule_off", "Hausregel: keine Versteigerungen – bei Mangel warten, bis die Bank "
                                          "wieder Gebäude hat")
    hotel = c.level(sq) == c.state.houses_per_hotel
    wanted = shortage(c.state, hotel=hotel)
    ed = c.edition
    if wanted is None:
        what = ed.hotels if hotel else ed.houses
        raise RuleError("no_shortage", f"Kein Mangel an {what}: die Bank hat genug für alle, die bauen können "
                                       f"(oder nur ein Spieler kann bauen) – zum aufgedruckten Preis bauen")
    return _build_on(c, player, sq, _bid(c, player, cmd.price, wanted))


def shortage(state: GameState, *, hotel: bool) -> Money | None:
    """The lowest bid of a building auction, or None where the books call for none.

    An auction is due when two or more players could build more houses (or hotels) than the bank has: the
    most each could still build on their whole, unmortgaged groups is counted. The minimum is the lowest
    printed house price of those players' streets."""
    hph = state.houses_per_hotel
    want: dict[str, int] = {}
    prices: list[Money] = []
    for group, squares in GROUPS.items():
        card = DEEDS[squares[0]]
        owner = state.deeds[squares[0]].owner
        if card.kind is not Kind.STREET or owner is None or not owns_group(state, owner, group):
            continue
        if any(state.deeds[sq].mortgaged for sq in squares):
            continue
        levels = [level(state, sq) for sq in squares]
        more = sum(1 for lv in levels if lv <= hph) if hotel else sum(max(0, hph - lv) for lv in levels)
        if more:
            want[owner] = want.get(owner, 0) + more
            prices.append(state.edition.money(card.house_price))
    stock = state.bank_hotels if hotel else state.bank_houses
    if len(want) < 2 or sum(want.values()) <= stock or stock < 1:
        return None
    return min(prices)


def _build_on(c: _Ctx, player: str, square: Square, price: Money | None) -> str:
    """One step up on a street: a house, or the hotel; at the printed price or an auction's ``price``."""
    sq = c.street(square, player)
    group = GROUPS[DEEDS[sq].group or ""]
    ed, hph = c.edition, c.state.houses_per_hotel
    if not owns_group(c.state, player, DEEDS[sq].group or ""):
        raise RuleError("no_monopoly", f"{player} besitzt nicht die ganze Farbgruppe von {c.name(sq)}")
    if any(c.s.get("mortgaged", g) for g in group):
        raise RuleError("group_mortgaged", "Auf einer Farbgruppe mit Hypothek darf nicht gebaut werden")
    here = c.level(sq)
    if here > hph:
        raise RuleError("max_buildings", f"Auf {c.name(sq)} steht schon {article('ein', ed.hotel)}")
    lowest = min(c.level(g) for g in group)
    if here > lowest:
        raise RuleError("uneven_building", "Gleichmäßig bauen: erst die anderen Straßen der Gruppe")
    cost = ed.money(DEEDS[sq].house_price) if price is None else price
    won = "" if price is None else ", ersteigert"
    if here == hph:
        stock = int(c.s.get("bank_hotels") or 0)
        if stock < 1:
            raise RuleError("no_stock", f"Die Bank hat keine {ed.hotels} mehr")
        c.s.pay(player, None, cost, f"{ed.hotel} {c.name(sq)}")
        c.s.set("bank_hotels", None, stock - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + hph)
        c.s.set("houses", sq, 0)
        c.s.set("hotel", sq, True)
        return f"{player} baut {article('ein', ed.hotel)} auf {c.name(sq)} ({c.money(cost)}{won})"
    stock = int(c.s.get("bank_houses") or 0)
    if stock < 1:
        raise RuleError("no_stock", f"Die Bank hat keine {ed.houses} mehr")
    c.s.pay(player, None, cost, f"{ed.house} {c.name(sq)}")
    c.s.set("bank_houses", None, stock - 1)
    c.s.set("houses", sq, here + 1)
    return f"{player} baut auf {c.name(sq)}: {here + 1} {ed.house if here == 0 else ed.houses} ({c.money(cost)}{won})"


def _sell_building(c: _Ctx, cmd: cmds.SellBuilding) -> str:
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    to_houses = cmd.to_houses
    ed, hph = c.edition, c.state.houses_per_hotel
    here = c.level(sq)
    if here == 0:
        raise BadCommand(f"Auf {c.name(sq)} steht kein Gebäude")
    if here < max(c.level(g) for g in GROUPS[DEEDS[sq].group or ""]):
        raise RuleError("uneven_building", "Gleichmäßig verkaufen: erst die höher bebauten Straßen")
    half = ed.money(DEEDS[sq].house_price) // 2
    if not c.s.get("hotel", sq):
        if to_houses:
            raise BadCommand(f"Auf {c.name(sq)} steht {article('kein', ed.hotel)}")
        c.s.pay(None, player, half, f"Verkauf {ed.house} {c.name(sq)}")
        c.s.set("houses", sq, here - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + 1)
        return f"{player} verkauft {article('ein', ed.house)} auf {c.name(sq)} ({c.money(half)})"
    c.s.set("hotel", sq, False)
    c.s.set("bank_hotels", None, int(c.s.get("bank_hotels") or 0) + 1)
    # Schalke, Sonic, Skylanders: "Für ein Stadion erhalten Sie von der Bank die ursprünglich
    # eingetauschten 4 Tribünen sowie die Hälfte des regulären Preises": always back to houses.
    stock = int(c.s.get("bank_houses") or 0)
    # Where the books give the houses back but the bank has fewer than the hotel replaced, the hotel is sold
    # whole, as seed 000 "Hotels verkaufen" does: the same money as taking the houses back and selling them.
    short = ed.hotel_sale_returns_houses and not to_houses and stock < hph
    if to_houses or (ed.hotel_sale_returns_houses and not short):
        if stock < hph:
            raise RuleError("no_stock", f"Die Bank hat keine {hph} {ed.houses} für den Tausch")
        c.s.set("bank_houses", None, stock - hph)
        c.s.set("houses", sq, hph)
        c.s.pay(None, player, half, f"Verkauf {ed.hotel} {c.name(sq)}")
        return f"{player} tauscht {article('der', ed.hotel)} auf {c.name(sq)} gegen {hph} {ed.houses} ({c.money(half)})"
    whole = half * (hph + 1)
    c.s.pay(None, player, whole, f"Verkauf {ed.hotel} {c.name(sq)}")
    why = f"; die Bank hat nur {stock} {ed.house if stock == 1 else ed.houses}: ganz verkauft" if short else ""
    return f"{player} verkauft {article('der', ed.hotel)} auf {c.name(sq)} ({c.money(whole)}{why})"


def _mortgage(c: _Ctx, cmd: cmds.Mortgage) -> str:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if c.s.get("mortgaged", sq):
        raise RuleError("mortgaged", f"{c.name(sq)} ist schon mit einer Hypothek belastet")
    if c.group_has_buildings(sq):
        raise RuleError("has_buildings", "Erst alle Gebäude der Farbgruppe verkaufen")
    value = c.edition.money(DEEDS[sq].mortgage)
    c.s.pay(None, player, value, f"Hypothek {c.name(sq)}")
    c.s.set("mortgaged", sq, True)
    # The street after a colon: its name needs no article there ("auf Schlossallee" wanted "die"; review 12).
    return f"{player} nimmt eine Hypothek auf: {c.name(sq)} ({c.money(value)})"


def _unmortgage(c: _Ctx, cmd: cmds.Unmortgage) -> str:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if not c.s.get("mortgaged", sq):
        raise RuleError("not_mortgaged", f"{c.name(sq)} ist nicht mit einer Hypothek belastet")
    cost = lift_cost(c.edition, sq)
    c.s.pay(player, None, cost, f"Hypothek zurück {c.name(sq)}")
    c.s.set("mortgaged", sq, False)
    return f"{player} zahlt eine Hypothek zurück: {c.name(sq)} ({c.money(cost)})"


def _trade_side(c: _Ctx, side: cmds.TradeSide, giver: str) -> None:
    for sq in side.squares:
        if c.group_has_buildings(c.owned(sq, giver)):
            raise RuleError("has_buildings", f"Erst die Gebäude der Farbgruppe von {c.name(sq)} verkaufen")
    held = int(c.s.get("jail_cards", giver) or 0)
    if side.jail_cards > held:
        raise RuleError("not_owner", f"{giver} hat nur {held} Gefängnis-frei-Karten")


def _trade(c: _Ctx, cmd: cmds.Trade) -> str:
    a, b = c.player(cmd.a), c.player(cmd.b)
    for side in (cmd.a_gives, cmd.b_gives):
        # Seed 000: "Sie können in das Gerät nur Beträge zwischen € 10K und € 20M eintippen" (not checked
        # again for a journal written before trades were held to it).
        if side.cash and not c.replaying:
            c.amount(side.cash, " (mehr: den Rest als Überweisung buchen)" if side.cash > c.edition.max_entry else "")
    _trade_side(c, cmd.a_gives, a)
    _trade_side(c, cmd.b_gives, b)
    for sq in cmd.lift:
        if not c.s.get("mortgaged", sq):
            raise RuleError("not_mortgaged", f"{c.name(sq)} ist nicht mit einer Hypothek belastet: nichts zu lösen")
    # Exchange first, so money received in the trade can pay the fees on mortgaged deeds.
    c.s.pay(a, b, cmd.a_gives.cash, f"Tausch mit {b}")
    c.s.pay(b, a, cmd.b_gives.cash, f"Tausch mit {a}")
    for giver, taker, cards in ((a, b, cmd.a_gives.jail_cards), (b, a, cmd.b_gives.jail_cards)):
        if cards:
            c.s.set("jail_cards", giver, int(c.s.get("jail_cards", giver) or 0) - cards)
            c.s.set("jail_cards", taker, int(c.s.get("jail_cards", taker) or 0) + cards)
    fees = []
    for taker, squares in ((b, cmd.a_gives.squares), (a, cmd.b_gives.squares)):
        for sq in squares:
            c.s.set("owner", sq, taker)
            if c.s.get("mortgaged", sq):
                fees.append(_take_mortgaged(c, taker, sq, lift=sq in cmd.lift))
    text = f"Tausch: {a} gibt {_trade_words(c, cmd.a_gives)}; {b} gibt {_trade_words(c, cmd.b_gives)}"
    if fees:
        c.note = _to_bank_note(c)
    return text + "".join(f"; {fee}" for fee in fees)


def _to_bank_note(c: _Ctx) -> str:
    """The OLED's short line for what goes to the bank, naming who pays it (review 12): "Ben an Bank: 220",
    or "an Bank: Ben 18, Anna 20" when both sides take a mortgaged deed. Short, like "10 % an Bank: 38"."""
    paid: dict[str, Money] = {}
    for t in c.s.transfers:
        if t.payee is None and t.payer is not None:
            paid[t.payer] = paid.get(t.payer, 0) + t.amount
    if len(paid) == 1:
        (payer, amount), = paid.items()
        return f"{payer} an Bank: {c.money(amount)}"
    return "an Bank: " + ", ".join(f"{payer} {c.money(amount)}" for payer, amount in paid.items())


def _take_mortgaged(c: _Ctx, taker: str, sq: Square, *, lift: bool) -> str:
    """A mortgaged deed changes hands: the taker lifts it at once or pays 10 % and keeps it mortgaged.
    Says what the taker paid the bank, for the text everyone reads (preview, OLED, log, report)."""
    mortgage = c.edition.money(DEEDS[sq].mortgage)
    if lift:
        cost = lift_cost(c.edition, sq)
        c.s.pay(taker, None, cost, f"Hypothek zurück {c.name(sq)}")
        c.s.set("mortgaged", sq, False)
        return f"{taker} zahlt eine Hypothek zurück: {c.name(sq)} ({c.money(cost)} an die Bank)"
    fee = interest(c.edition, mortgage)
    c.s.pay(taker, None, fee, f"10 % Zinsen {c.name(sq)}")
    return f"{taker} zahlt 10 % Zinsen für {c.name(sq)} ({c.money(fee)} an die Bank)"


def _trade_words(c: _Ctx, side: cmds.TradeSide) -> str:
    words = [c.name(sq) for sq in side.squares]
    if side.cash:
        words.append(c.money(side.cash))
    if cards := side.jail_cards:
        words.append(f"{cards} Gefängnis-frei-Karte{'n' if cards > 1 else ''}")
    return ", ".join(words) or "nichts"


def _tax(c: _Ctx, cmd: cmds.Tax) -> str:
    player, sq = c.player(cmd.player), cmd.square
    amount = c.edition.money(SQUARES[sq].tax)
    where = c.to_bank(player, amount, c.name(sq))
    pot = f" ({where})" if c.house_rule("free_parking_pot") else ""
    return f"{player} zahlt {c.name(sq)}: {c.money(amount)}{pot}"


def _others(c: _Ctx, player: str) -> list[str]:
    return [p for p in c.state.players if p != player and not c.s.get("bankrupt", p)]


def _pay_all(c: _Ctx, cmd: cmds.PayAll) -> str:
    """ "Zahle jedem Spieler …": one command, every other player still in the game."""
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    others = _others(c, player)
    total = amount * len(others)
    if c.s.cash(player) < total:
        raise RuleError("insufficient_funds", f"Nicht genug Geld: {player} hat {c.money(c.s.cash(player))}, "
                                              f"braucht {c.money(total)} ({len(others)} × {c.money(amount)})",
                        owed=total)
    for other in others:
        c.s.pay(player, other, amount, f"an alle: {other}")
    return f"{player} zahlt jedem Mitspieler {c.money(amount)} (zusammen {c.money(total)})"


def _collect_all(c: _Ctx, cmd: cmds.CollectAll) -> str:
    """ "Du hast Geburtstag: jeder Spieler zahlt dir …": refused as a whole if anyone cannot pay."""
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    others = _others(c, player)
    short = [o for o in others if c.s.cash(o) < amount]
    if short:
        who = ", ".join(f"{o} (hat {c.money(c.s.cash(o))})" for o in short)
        raise RuleError("insufficient_funds", f"Nicht genug Geld: {who} kann nicht {c.money(amount)} zahlen",
                        owed=amount)
    for other in others:
        c.s.pay(other, player, amount, f"von allen: {other}")
    return f"Jeder Mitspieler zahlt {player} {c.money(amount)} (zusammen {c.money(amount * len(others))})"


def _rate(c: _Ctx, value: Money, key: str) -> Money:
    if not 0 <= value <= c.edition.max_entry:
        raise RuleError("amount_out_of_range", f"'{key}': 0 bis {c.money(c.edition.max_entry)}")
    return value


def _repairs(c: _Ctx, cmd: cmds.Repairs) -> str:
    """Renovierung / Straßenausbesserung: so much per house and per hotel the player owns."""
    player = c.player(cmd.player)
    per_house, per_hotel = _rate(c, cmd.per_house, "per_house"), _rate(c, cmd.per_hotel, "per_hotel")
    if per_house == per_hotel == 0:  # review 12: every card names its prices; a Renovierung of 0 books nothing
        raise RuleError("amount_out_of_range", f"Renovierung ohne Betrag: je {c.edition.house} oder je "
                                               f"{c.edition.hotel} mehr als 0 eingeben")
    own = [sq for sq in DEEDS if c.s.get("owner", sq) == player]
    houses = sum(int(c.s.get("houses", sq) or 0) for sq in own)
    hotels = sum(1 for sq in own if c.s.get("hotel", sq))
    if houses + hotels == 0:
        raise RuleError("not_owner", f"{player} hat keine {c.edition.houses} und keine {c.edition.hotels}: "
                                     "nichts zu renovieren")
    total = houses * per_house + hotels * per_hotel
    where = c.to_bank(player, total, "Renovierung")
    ed = c.edition
    return (f"{player} zahlt für {houses} {ed.house if houses == 1 else ed.houses} und {hotels} "
            f"{ed.hotel if hotels == 1 else ed.hotels}: {c.money(total)} {where}")


def _free_parking(c: _Ctx, cmd: cmds.FreeParking) -> str:
    player = c.player(cmd.player)
    if not c.house_rule("free_parking_pot"):
        raise RuleError("house_rule_off", "Frei Parken: ohne die Hausregel gibt es keinen Topf")
    pot = int(c.s.get("pot") or 0)
    if pot == 0:
        raise RuleError("amount_out_of_range", "Der Frei-Parken-Topf ist leer")
    c.s.pay(None, player, pot, "Frei Parken")
    c.s.set("pot", None, 0)
    return f"{player} landet auf Frei Parken und nimmt den Topf: {c.money(pot)}"


def _jail_fine(c: _Ctx, cmd: cmds.JailFine) -> str:
    player = c.player(cmd.player)
    where = c.to_bank(player, c.edition.jail_fine, "Gefängnis")
    return f"{player} zahlt {c.money(c.edition.jail_fine)} {where}, um aus dem Gefängnis zu kommen"


def _jail_card(c: _Ctx, cmd: cmds.JailCard) -> str:
    player = c.player(cmd.player)
    held = int(c.s.get("jail_cards", player) or 0)
    if cmd.delta == 1:
        out = sum(int(c.s.get("jail_cards", p) or 0) for p in c.state.players)
        if out >= JAIL_CARDS_IN_GAME:
            raise RuleError("no_stock", "Beide Gefängnis-frei-Karten sind schon vergeben")
        c.s.set("jail_cards", player, held + 1)
        return f"{player} erhält eine Gefängnis-frei-Karte"
    if held < 1:
        raise RuleError("not_owner", f"{player} hat keine Gefängnis-frei-Karte")
    c.s.set("jail_cards", player, held - 1)
    return f"{player} setzt eine Gefängnis-frei-Karte ein"


def _check_owed(c: _Ctx, debtor: str, creditor: str | None, owed: Money) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann"; seeds 001/003/004: "Wenn Sie
    … mehr Geld schulden, als Sie bar zur Verfügung haben, können Sie Ihre Grundstücke und/oder Gebäude zu
    Geld machen … Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT"."""
    if owed < 1:
        raise RuleError("amount_out_of_range", "Die Schuld ist mindestens 1: wer nichts schuldet, ist nicht bankrott")
    cash, buildings, mortgages = raisable(c.state, debtor)
    if creditor is None:  # owed to the bank is the open debt itself (nothing else is refused for want of
        cash += c.state.players[debtor].debt  # money while it is open): counted once, not twice
    whom = creditor or "der Bank"  # dative: "dann der Bank 360 zahlen"
    if cash >= owed:
        raise RuleError("not_bankrupt", f"{debtor} ist nicht bankrott: {c.money(owed)} an {creditor or 'die Bank'} "
                                        f"bar zahlen (Bargeld {c.money(cash)})")
    if cash + buildings + mortgages >= owed:
        ways = [w for w, v in ((f"Gebäude verkaufen ({c.money(buildings)})", buildings),
                               (f"Hypotheken aufnehmen ({c.money(mortgages)})", mortgages)) if v]
        raise RuleError("not_bankrupt", f"{debtor} ist nicht bankrott: Bargeld {c.money(cash)}, es fehlen "
                                        f"{c.money(owed - cash)} – erst {' und '.join(ways)}, dann {whom} "
                                        f"{c.money(owed)} zahlen")


def _bankrupt(c: _Ctx, cmd: cmds.Bankrupt) -> str:
    debtor = c.player(cmd.player)
    creditor = None if cmd.creditor is None else c.player(cmd.creditor)
    if cmd.owed is not None:
        _check_owed(c, debtor, creditor, cmd.owed)
    ed = c.edition
    deeds = [sq for sq in DEEDS if c.s.get("owner", sq) == debtor]
    # Buildings go back to the bank at half price first; the proceeds are part of the estate.
    for sq in deeds:
        lvl, half = c.level(sq), ed.money(DEEDS[sq].house_price) // 2
        if c.s.get("hotel", sq):
            c.s.set("hotel", sq, False)
            c.s.set("bank_hotels", None, int(c.s.get("bank_hotels") or 0) + 1)
        elif lvl:
            c.s.set("houses", sq, 0)
            c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + lvl)
        if lvl:
            c.s.pay(None, debtor, half * lvl, f"Verkauf Gebäude {c.name(sq)}")
    c.s.pay(debtor, creditor, c.s.cash(debtor), "Bankrott")
    c.s.set("debt", debtor, 0)  # an unpaid fee dies with the player: the bank never goes bankrupt
    cards = int(c.s.get("jail_cards", debtor) or 0)
    c.s.set("jail_cards", debtor, 0)
    if creditor is not None:
        c.s.set("jail_cards", creditor, int(c.s.get("jail_cards", creditor) or 0) + cards)
    fees: list[str] = []
    unpaid = 0
    for sq in deeds:
        c.s.set("owner", sq, creditor)
        if creditor is None:
            c.s.set("mortgaged", sq, False)  # back to the bank, auctioned mortgage-free
        elif c.s.get("mortgaged", sq) and ed.bankruptcy_mortgage_fee:
            fee = interest(ed, ed.money(DEEDS[sq].mortgage))
            if c.s.cash(creditor) >= fee:
                c.s.pay(creditor, None, fee, f"10 % Zinsen {c.name(sq)}")
                fees.append(f"{c.name(sq)} {c.money(fee)}")
            else:  # owed to the bank until raised: the bankruptcy is booked, nothing is lost
                unpaid += fee
                fees.append(f"{c.name(sq)} {c.money(fee)} offen")
    if unpaid:
        c.s.set("debt", creditor, int(c.s.get("debt", creditor) or 0) + unpaid)
    c.s.set("bankrupt", debtor, True)
    c.s.set("bankrupt_order", debtor, 1 + sum(p.bankrupt for p in c.state.players.values()))
    text = f"{debtor} ist bankrott" + (f" gegenüber {creditor}" if creditor else " gegenüber der Bank")
    if cmd.owed is not None:
        text += f" (Schuld {c.money(cmd.owed)})"
    if fees:
        text += f"; {creditor} zahlt 10 % Zinsen an die Bank: {', '.join(fees)}"
        paid = sum(t.amount for t in c.s.transfers if t.payer == creditor and t.payee is None)
        c.note = f"offen an Bank: {c.money(unpaid)}" if unpaid else f"10 % an Bank: {c.money(paid)}"
    if unpaid:
        text += (f"; {creditor} schuldet der Bank noch {c.money(unpaid)}: Geld beschaffen (Gebäude verkaufen, "
                 f"Hypothek aufnehmen), dann „Schuld zahlen“")
    return text


def _pay_debt(c: _Ctx, cmd: cmds.PayDebt) -> str:
    player = c.player(cmd.player)
    debt = int(c.s.get("debt", player) or 0)
    if not debt:
        raise RuleError("amount_out_of_range", f"{player} schuldet der Bank nichts")
    c.s.pay(player, None, debt, "10 % Zinsen (Bankrott)")
    c.s.set("debt", player, 0)
    return f"{player} zahlt der Bank die offenen 10 % Zinsen: {c.money(debt)}"


def _end(c: _Ctx, cmd: cmds.End) -> str:
    if c.state.mode is not Mode.TIMED:
        raise BadCommand("Nur ein Spiel auf Zeit wird mit 'end' beendet")
    c.s.set("finished", None, True)
    return "Die Zeit ist um"


def _check_end(state: GameState, s: Staged) -> None:
    """Stage the end of the game where this command reaches the mode's end."""
    active = [n for n in state.players if not s.get("bankrupt", n)]
    broke = len(state.players) - len(active)
    ends = len(active) <= 1 or (state.mode is Mode.QUICK and broke >= state.edition.quick.ends_at_bankruptcy)
    if ends:
        s.set("finished", None, True)
    if s.get("finished") and not state.finished:
        # Judge the winner on the state as it will be once this command is committed.
        s.set("winner", None, _winner_after(state, s))


def _winner_after(state: GameState, s: Staged) -> str | None:
    after = _preview(state, s)
    order = ranking(after)
    return order[0] if not after.players[order[0]].bankrupt else None


def _preview(state: GameState, s: Staged) -> GameState:
    copy = GameState(
        edition=state.edition,
        mode=state.mode,
        players={n: replace(p) for n, p in state.players.items()},
        deeds={sq: DeedState(d.owner, d.houses, d.hotel, d.mortgaged) for sq, d in state.deeds.items()},
    )
    for (fld, target), value in s._new.items():  # a preview of exactly the staged values
        write(copy, fld, target, value)
    return copy


_HANDLERS: dict[type[cmds.BaseCommand], Callable[[_Ctx, Any], str]] = {
    cmds.Credit: _credit,
    cmds.Debit: _debit,
    cmds.Transfer: _transfer,
    cmds.Go: _go,
    cmds.Buy: _buy,
    cmds.Rent: _rent,
    cmds.Build: _build,
    cmds.BuildAuction: _build_auction,
    cmds.PayDebt: _pay_debt,
    cmds.SellBuilding: _sell_building,
    cmds.Mortgage: _mortgage,
    cmds.Unmortgage: _unmortgage,
    cmds.Trade: _trade,
    cmds.Tax: _tax,
    cmds.JailFine: _jail_fine,
    cmds.JailCard: _jail_card,
    cmds.Bankrupt: _bankrupt,
    cmds.End: _end,
    cmds.PayAll: _pay_all,
    cmds.CollectAll: _collect_all,
    cmds.Repairs: _repairs,
    cmds.FreeParking: _free_parking,
}
"""The handler of each op but new_game and undo, which change the game itself (``Game``)."""

OPS: frozenset[str] = frozenset(cmds.COMMANDS)

__all__ = ["OPS", "Event", "Game", "level", "net_worth", "new_game_state", "square_name"]
