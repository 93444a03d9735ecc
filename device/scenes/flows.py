"""The banker's flows, declared in one place: the menus' entries, when they open, their steps.

A flow is data: steps that fill in a command's fields (a square from those the rules accept, a
choice from a list, a typed number), then the confirmation of what ``Game.preview`` says the
rules will book, then the booking. ``runner.py`` turns each step into a scene; the scene
manager (``manager.py``, checked against ``table.py``) is the one place the screen changes.
Adding a flow, or a menu entry, is one row here; a menu entry's digit is written beside it
and never moves, whatever else is offered.

A step's ``field`` names the command field it fills; a name starting with "_" is the flow's
own (the auction's "how", the trade's sides) and reaches the command only through ``command``.
A field already known is skipped: a deed's tag starts a flow with its square.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

import words
from rules import DEEDS, Edition, Event, Game, GameState, Kind
from rules.errors import RuleError
from rules.legal import LegalCommands
from rules.phrase import Phrase

from . import places
from .inputs import Key
from .layout import LINE_PX, px
from .lists import DONE
from .said import Said, phrase, say, square_name
from .table import graph, mermaid

if TYPE_CHECKING:
    from ..store.ledger import Ledger


class View(msgspec.Struct, frozen=True):
    """What a step may read: the game, the player on the reader, the fields filled in so far."""

    game: GameState
    """The game's state."""
    player: str
    values: dict[str, Any]
    money: Callable[[int], str]
    """An amount as the edition writes it ("2M", "1.500")."""
    creditor: str | None = None
    """Whom the last refused payment was owed to (None: the bank): the bankruptcy's preselection."""
    owed: int = 0
    """What the refused payment asked: the bankruptcy's debt."""
    legal: LegalCommands = LegalCommands()
    """The commands the rules open to the player now (``rules.legal``), by their row of the legal moves."""
    accepts: Callable[[dict[str, Any]], bool] = lambda cmd: True
    """Whether the rules would accept a command now (a lack of money aside): what a list may offer."""
    rules: Game | None = None
    """The ledger's game, for what ``rules.legal`` reckons beside the menus (the auction's lowest bid)."""

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def edition(self) -> Edition:
        return self.game.edition

    def others(self) -> list[str]:
        """The players still in the game, but the one on the reader."""
        return [n for n, p in self.game.players.items() if n != self.player and not p.bankrupt]

    def square(self, sq: int) -> str:
        """A square in a list: its number, then its name in this edition."""
        return f"{sq:2d} {square_name(self.edition, sq)}"


Text = str | Phrase | Callable[[View], Said]
"""A title or hint: fixed, or written from what is known so far (a phrase, said when drawn)."""
Options = Callable[[View], list[tuple[Said, Any]]]
"""A list's entries: (label, value)."""


def text(t: Text, view: View) -> Said:
    return t if isinstance(t, (str, Phrase)) else t(view)


class Square(msgspec.Struct, frozen=True):
    """Choose a square from those the rules accept for ``legal`` now (``rules.legal``); a deed's tag picks it."""

    title: Said = ""
    """The list's title (the flow's label if empty)."""
    field: str = "square"
    when: Callable[[View], bool] | None = None
    legal: str = ""
    """The row of the legal moves; "" : the flow's op's (filled in by the flow)."""

    def about(self) -> str:
        return words.text("scenes.about.square", legal=self.legal)


class Pick(msgspec.Struct, frozen=True):
    """Choose from a list; ``multi``: mark several, "Fertig" closes (the field gets the list)."""

    field: str
    title: Text
    options: Options
    says: Said
    """How ``bankleser flows`` names the step."""
    multi: bool = False
    tap: bool = False
    """A player's card tapped picks that player."""
    start: Callable[[View], Any] | None = None
    """The value preselected."""
    when: Callable[[View], bool] | None = None

    def about(self) -> str:
        return say(self.says)


class Type(msgspec.Struct, frozen=True):
    """Type a number for ``field``: money as the edition writes it, or a plain number."""

    field: str
    prompt: Text
    money: bool = True
    zero: bool = True
    """An empty OK means 0 ("OK: 0")."""
    hint: Text = ""
    refuse: dict[str, Text] = {}
    """Refusals of the rules (by code) that ask again at once, saying this, instead of a result."""
    when: Callable[[View], bool] | None = None
    says: Said = ""

    def about(self) -> str:
        what = say(self.prompt) if isinstance(self.prompt, (str, Phrase)) else self.field
        return say(self.says) or words.text("scenes.about.type", what=what)


Step = Square | Pick | Type


class Flow(msgspec.Struct, frozen=True):
    said: Said
    """The menu entry (a phrase: also the flow's name in ``FLOWS``)."""
    opens_on: frozenset[str] = frozenset()
    """Rows of the legal moves (``rules.ops``): the entry is offered when any is legal (empty: always)."""
    op: str = ""
    """The command's op: ``{"op", "player", **fields}`` unless ``command`` builds it."""
    steps: tuple[Step, ...] = ()
    command: Callable[[View], dict[str, Any]] | None = None
    title: Text = ""
    """What the confirmation confirms (the label if empty): its big line where there is no amount, and the title a
    refused payment comes back under."""
    at_once: frozenset[str] = frozenset()
    """Ops booked without a confirmation (nothing to preview: a card counted)."""
    preview: bool = True
    """Ask the rules first; False: confirm ``confirm``'s lines only (bankruptcy: nothing to reckon)."""
    confirm: Callable[[View, Event | None], tuple[Said, Said, tuple[Said, ...]]] | None = None
    """The confirmation's (title, big, lines) from the view and the rules' preview (None without ``preview``;
    default: its text)."""
    big_line: bool = True
    """False: ``confirm``'s lines take the big line's row too (the title is not said there): a trade's two sides,
    two rows each."""
    method: str = ""
    """Not a flow but one screen: a Banker method (Storno, Lautstärke, the new game's wizard)."""
    ranking: Callable[[Ledger], GameState | None] | None = None
    """Not a flow but the ranking of the game this picks from the ledger (None: there is none)."""
    deed_label: Said = ""
    """The entry in a deed's menu (a tag tapped), if the flow is offered there; "" : not there."""
    shown: Callable[[Game], bool] | None = None
    """Offered only when this says so of the ledger's game (``rules.Game``: its state, its undo)."""

    @property
    def label(self) -> str:
        """The menu entry in the language in force."""
        return say(self.said)

    def build(self, view: View) -> dict[str, Any]:
        if self.command is not None:
            return self.command(view)
        own = {k: v for k, v in view.values.items() if not k.startswith("_")}
        return {"op": self.op, "player": view.player, **own}

    def describe(self) -> str:
        if self.method:
            return f"{self.method.lstrip('_')}()"
        if self.ranking:
            return words.text("scenes.about.ranking")
        parts = [s.about() for s in self.steps]
        parts += [words.text("scenes.about.preview")] if self.preview else []
        parts += [words.text("scenes.about.ok")]
        at_once = words.text("scenes.about.at_once", ops=", ".join(sorted(self.at_once))) if self.at_once else ""
        return " → ".join(parts) + at_once


def _f(label: Said, steps: tuple[Step, ...] = (), **kw: Any) -> Flow:
    """A flow: one of the device's table (``places.PLACES`` names it by its words) opens on that table's rows of
    the legal moves and books its op, unless ``command`` builds the command; its square is one the rules open
    for that op."""
    key = label.key if isinstance(label, Phrase) else ""
    op = kw.setdefault("op", places.op_of(key))
    own = tuple(msgspec.structs.replace(step, legal=op) if isinstance(step, Square) and not step.legal else step
                for step in steps)
    return Flow(label, places.rows_of(key), steps=own, **kw)


# The steps of the rules-aware flows ---------------------------------------------------------

OTHER_BIDDER = 2
"""The auction's choice "won by another player", beside False (the printed price) and True (an auction won by the
player on the reader): the winner is picked next (a card, or the knob)."""


def _price(v: View) -> list[tuple[Said, Any]]:
    """The printed price, or an auction won by the player on the reader or by another: none under the house rule
    "keine Versteigerungen" (seed 001), where the rules take no bid but the printed price. Another player's win is
    booked from this reader too: whoever holds the reader need not find the winner's card first."""
    price = v.edition.deed(v["square"]).price
    auction: list[tuple[Said, Any]] = [] if "no_auctions" in v.game.house_rules else [(BID, True)]
    if auction and v.others():
        auction.append((phrase("scenes.buy.other_bidder"), OTHER_BIDDER))
    return [(_money(v, "scenes.buy.price", price), False), *auction]


def _bidder(v: View) -> str:
    """Who won the auction: the player on the reader, or the one picked."""
    return str(v["_winner"]) if v["_auction"] == OTHER_BIDDER else v.player


def _buy(v: View) -> dict[str, Any]:
    """The purchase, by the auction's winner where another player won it."""
    return {"op": "buy", "player": _bidder(v), "square": v["square"],
            **({"price": v["price"]} if "price" in v.values else {})}


def _money(v: View, key: str, amount: int) -> Said:
    """A text with an amount, said when drawn (the decimal sign of the language then in force)."""
    return lambda: say(phrase(key, amount=v.money(amount)))


BID = phrase("scenes.buy.bid")


def _dice(v: View) -> str:
    return "2-15" if v.game.speed_die else "2-12"


def _utility(v: View) -> bool:
    return DEEDS[v["square"]].kind is Kind.UTILITY


def _jail(v: View) -> list[tuple[Said, Any]]:
    """Only what the rules open now, as the rules' own commands: no "Frei-Karte eingesetzt" without a card."""
    labels: dict[str, Said] = {"jail_fine": _money(v, "scenes.jail.fine", v.edition.jail_fine),
                               "jail_card_drawn": phrase("scenes.jail.drawn"),
                               "jail_card_used": phrase("scenes.jail.used")}
    return [(label, {k: x for k, x in cmd.to_json().items() if k != "player"})
            for row, label in labels.items() for cmd in v.legal.by_row.get(row, ())]


def _to_houses(v: View) -> list[tuple[Said, Any]]:
    """A hotel sold whole or back into houses: each only where the rules accept it, and one entry where the rules
    book the same either way (seed 004 gives the Hütten back for a Schloss sold: "ganz verkaufen" would say what it
    does not do)."""
    def cmd(value: bool) -> dict[str, Any]:
        return {"op": "sell_building", "player": v.player, "square": v["square"], "to_houses": value}

    houses = words.localised(v.edition).houses
    ways: tuple[tuple[Said, bool], ...] = ((phrase("scenes.sell.whole"), False),
                                           (phrase("scenes.sell.to_houses", houses=houses), True))
    options = [(label, value) for label, value in ways if v.accepts(cmd(value))]
    if len(options) == 2 and _booked(v, cmd(False)) == _booked(v, cmd(True)) is not None:
        return options[1:]
    return options


def _booked(v: View, cmd: dict[str, Any]) -> Any:
    """What the rules would book (their preview's changes), or None where there is no ledger to ask."""
    if v.rules is None:
        return None
    try:
        event = v.rules.preview(cmd)
    except RuleError:
        return None
    return [(t.payer, t.payee, t.amount) for t in event.transfers], event.said


def _hotel(v: View) -> bool:
    return bool(v.game.deeds[v["square"]].hotel)


def bankrupt_command(player: str, creditor: str | None, owed: int) -> dict[str, Any]:
    """The bankruptcy of a refused payment: to its creditor, with the debt (the rules refuse it while what the
    player could raise covers the debt)."""
    return {"op": "bankrupt", "player": player, **({"creditor": creditor} if creditor else {}),
            **({"owed": owed} if owed else {})}


def _bankrupt(v: View) -> dict[str, Any]:
    """To the refused payment's creditor, never one the banker picks (seed 000: "Der Mitspieler, dem Sie mehr Geld
    schulden, als Sie noch bezahlen können, erhält von Ihnen: das gesamte Guthaben …"), with the mortgages the
    creditor lifts at once."""
    cmd = bankrupt_command(v.player, v.creditor, v.owed)
    return {**cmd, "lift": v["_lift"]} if v.values.get("_lift") else cmd


def _estate_mortgaged(v: View) -> list[int]:
    """The mortgaged deeds a player creditor receives from the bankrupt: each may be lifted at once, for the mortgage
    plus 10 % once (seeds 001/003/004: "Der Mitspieler muss sofort für jedes belastete Grundstück … 10 %
    Zinsen an die Bank bezahlen", and as in a trade, "entweder sofort auflösen oder …"). What goes to the bank comes
    back mortgage-free: nothing to lift."""
    if v.creditor is None:
        return []
    return [sq for sq, d in v.game.deeds.items() if d.owner == v.player and d.mortgaged]


def _lift_option(v: View, sq: int) -> Said:
    """A mortgaged deed the creditor may lift at once, with what lifting it costs (the mortgage and the 10 %)."""
    from rules.valuation import lift_cost

    return lambda: say(phrase("scenes.bankrupt.lift_cost", square=v.square(sq),
                              amount=v.money(lift_cost(v.edition, sq))))


def _estate(v: View) -> str:
    """The bankrupt's deeds and Gefängnis-frei-Karten by name: what goes to the creditor beside the money."""
    jail = v.game.players[v.player].jail_cards
    items = [square_name(v.edition, sq) for sq, d in v.game.deeds.items() if d.owner == v.player]
    items += [words.plural("scenes.trade.jail_cards", jail)] if jail else []
    return words.text("list.separator").join(items)


def _bankrupt_summary(v: View, event: Event | None) -> tuple[Said, Said, tuple[Said, ...]]:
    """Who goes bankrupt to whom, and what they receive as the rules' preview books it (the cash and the buildings
    sold: the debt is not what the creditor gets); the debt; the rules' note (the 10 % the creditor
    pays, or what stays owed to the bank); and that Storno undoes it (it is no final step at the table). No big
    line of its own: the title "Bankrott" takes it (ConfirmScene), and "Bankrott: …" with a 12-letter name would not
    fit there; who, to whom and how much, the note and the Storno share the three rows below."""
    received = sum(t.amount for t in event.transfers if t.payer == v.player and t.payee == v.creditor) \
        if event is not None else 0
    creditor = v.creditor

    def to() -> str:
        key = "scenes.bankrupt.to_player" if creditor else "scenes.bankrupt.to_bank"
        return say(phrase(key, player=v.player, creditor=creditor or "", amount=v.money(received)))

    def receives() -> str:
        key = "scenes.bankrupt.receives" if creditor else "scenes.bankrupt.bank_receives"
        return say(phrase(key, creditor=creditor or "", what=_estate(v)))

    debt = (_money(v, "scenes.bankrupt.debt", v.owed),) if v.owed else ()
    note: tuple[Said, ...] = (event.note,) if event is not None and event.note else ()
    estate: tuple[Said, ...] = (receives,) if _estate(v) else ()
    # who to whom, the note (what lifting or the 10 % cost the creditor) and the Storno in the first view (three
    # rows under "Bankrott"); the debt, then the deeds and cards received, as the knob scrolls
    return phrase("scenes.bankrupt.title"), "", (to, *note, phrase("scenes.bankrupt.undo"), *debt, *estate)


def _lowest_bid(v: View) -> Said:
    """The auction's lowest bid, as the rules reckon it (seed 000: the lowest printed house price)."""
    from rules.legal import building_auction_min

    lowest = building_auction_min(v.rules, v["square"]) if v.rules is not None else None
    return _money(v, "scenes.auction.from", lowest) if lowest else Key.OK.value


def _holdings(owner: Callable[[View], str], partner: Callable[[View], str]) -> Options:
    """The owner's deeds the rules let change hands (no street of a group with buildings), and
    Gefängnis-frei-Karten."""
    def options(v: View) -> list[tuple[Said, Any]]:
        name, other = owner(v), partner(v)

        def tradable(sq: int) -> bool:
            return v.accepts({"op": "trade", "a": name, "b": other, "a_gives": {"squares": [sq], "cash": 0},
                              "b_gives": {"squares": [], "cash": 0}})

        deeds: list[tuple[Said, Any]] = [(v.square(sq), sq) for sq, d in v.game.deeds.items()
                                         if d.owner == name and tradable(sq)]
        cards: list[tuple[Said, Any]] = [(phrase("scenes.trade.jail_card"), ("jail", i))
                                         for i in range(v.game.players[name].jail_cards)]
        return [*deeds, *cards]
    return options


def _side(chosen: list[Any], cash: int) -> dict[str, Any]:
    side: dict[str, Any] = {"squares": [c for c in chosen if isinstance(c, int)]}
    if jail := sum(1 for c in chosen if isinstance(c, tuple)):
        side["jail_cards"] = jail
    side["cash"] = cash
    return side


def _mortgaged(v: View) -> list[int]:
    chosen = [c for c in v["_a_items"] + v["_b_items"] if isinstance(c, int)]
    return [sq for sq in chosen if v.game.deeds[sq].mortgaged]


def _trade(v: View) -> dict[str, Any]:
    cmd = {"op": "trade", "a": v.player, "b": v["_b"], "a_gives": _side(v["_a_items"], v["_a_cash"]),
           "b_gives": _side(v["_b_items"], v["_b_cash"])}
    return {**cmd, "lift": v["_lift"]} if v.values.get("_lift") else cmd


def _gives(v: View, side: dict[str, Any]) -> str:
    """What one side gives, by name: the deeds (the edition's names), the Gefängnis-frei-Karten, the money."""
    jail = side.get("jail_cards", 0)
    items = [square_name(v.edition, sq) for sq in side["squares"]]
    items += [words.plural("scenes.trade.jail_cards", jail)] if jail else []
    items += [v.money(side["cash"])] if side["cash"] else []
    return words.text("list.separator").join(items) or words.text("scenes.trade.nothing")


def _counted(v: View, side: dict[str, Any], deeds: str) -> str:
    """What one side gives, the cards counted: "Schlossallee, 1 Karte" (``deeds`` empty: the deeds by name), or
    the deeds counted too, "3 Straßen, 1 Karte, 200" (``deeds``: the catalogue's word for them)."""
    jail, squares = side.get("jail_cards", 0), side["squares"]
    items = [square_name(v.edition, sq) for sq in squares] if not deeds else \
        [words.plural(deeds, len(squares))] if squares else []
    items += [words.plural("scenes.trade.cards", jail)] if jail else []
    items += [v.money(side["cash"])] if side["cash"] else []
    return words.text("list.separator").join(items)


def _what(v: View, side: dict[str, Any]) -> str:
    """One side's second row: the first that fits one row of its deeds, cards and money by name; the card counted;
    the deeds counted too (the shorter word for deeds where the longer leaves the row too wide)."""
    forms = (_gives(v, side), *(_counted(v, side, deeds) for deeds in
                                ("", "scenes.trade.deeds", "scenes.trade.deeds_short")))
    return next((form for form in forms if px(form) <= LINE_PX), forms[-1])


def _trade_summary(v: View, event: Event | None) -> tuple[Said, Said, tuple[Said, ...]]:
    """Both sides on the first screen: no big line (the title bar says the keys, and "X gibt:" says it is a trade),
    so four rows, two a side: who gives, then what, counted where the names do not fit one row (a long trade
    needed three turns of the knob before the second side was seen). Below, what goes to the bank (fees, lifting)
    in the rules' own short line, then by name each side that was counted ("1 Karte" alone named no deed)."""
    me, other = v.player, v["_b"]
    give, take = _side(v["_a_items"], v["_a_cash"]), _side(v["_b_items"], v["_b_cash"])
    note: list[Said] = [event.note] if event is not None and event.note else []

    def side(player: str, what: dict[str, Any]) -> tuple[Said, Said]:
        return phrase("scenes.trade.side", player=player), lambda: _what(v, what)

    def details(player: str, what: dict[str, Any]) -> str:
        """The side by name, where its row counted it ("" where the row named it all: nothing to add)."""
        named = _gives(v, what)
        return "" if _what(v, what) == named else words.text("scenes.trade.gives", player=player, what=named)

    rest: list[Said] = [lambda: details(me, give), lambda: details(other, take)]
    return TRADE, "", (*side(me, give), *side(other, take), *note, *rest)


def _running(game: Game) -> bool:
    """The ledger's game (``rules.Game``) has a game under way."""
    return game.state is not None and not game.state.finished


def _undoable(game: Game) -> bool:
    return bool(game.undoable())


def _running_undoable(game: Game) -> bool:
    """The banker's Storno: while a game runs and there is a booking to take back; after an end only when a
    bankruptcy ended it (its confirm promised "Storno hebt es auf"), never after a timed end."""
    if game.state is not None and game.state.finished:
        return bool(game.history) and game.history[-1].op == "bankrupt" and _undoable(game)
    return _running(game) and _undoable(game)


def _timed(game: Game) -> bool:
    return _running(game) and game.state is not None and game.state.mode.value == "timed"


def _this_game(ledger: Ledger) -> GameState | None:
    return ledger.game.state


def _last_over(game: Game) -> GameState | None:
    """The newest game that is over (``rules.Game.last_over``)."""
    return game.last_over()


def _last_game(ledger: Ledger) -> GameState | None:
    return _last_over(ledger.game)


def _game_over_before(game: Game) -> bool:
    """A game is over, this one or one before: "Letztes Spiel" has something to show."""
    return _last_over(game) is not None


# The menus ----------------------------------------------------------------------------------

TRADE = phrase("scenes.flow.trade")
BUY, RENT, SELL, MORTGAGE = (phrase("scenes.flow.buy"), phrase("scenes.flow.rent"),
                             phrase("scenes.flow.sell_building"), phrase("scenes.flow.mortgage"))
BANKRUPT, UNDO, RANKING = phrase("scenes.flow.bankrupt"), phrase("scenes.flow.undo"), phrase("scenes.flow.ranking")
AUCTION_BUILD = phrase("scenes.flow.build_auction")

_DECLARED: tuple[Flow, ...] = (
    _f(BUY, deed_label=BUY, command=_buy,
       title=lambda v: phrase("scenes.buy.auction") if v["_auction"] else BUY,
       steps=(Square(phrase("scenes.buy.which")),
              Pick("_auction", lambda v: square_name(v.edition, v["square"]), _price, phrase("scenes.about.buy")),
              Pick("_winner", phrase("scenes.buy.winner"), lambda v: [(n, n) for n in v.others()],
                   phrase("scenes.about.winner"), tap=True, when=lambda v: v["_auction"] == OTHER_BIDDER),
              # The bid screen names what is auctioned and who bid (the title: the street, as the step before).
              Type("price", lambda v: square_name(v.edition, v["square"]), zero=False, when=lambda v: v["_auction"],
                   hint=lambda v: phrase("scenes.buy.bidder", player=_bidder(v)), says=phrase("scenes.about.bid")))),
    _f(RENT, deed_label=RENT, title=phrase("scenes.rent.title"),
       steps=(Square(phrase("scenes.rent.which")),
              Type("dice", phrase("scenes.rent.dice"), money=False, zero=False,
                   hint=lambda v: phrase("scenes.rent.dice_hint", range=_dice(v)),
                   refuse={"amount_out_of_range": lambda v: phrase("scenes.rent.dice_only", range=_dice(v))},
                   when=_utility, says=phrase("scenes.about.dice")))),
    _f(phrase("scenes.flow.jail"), at_once=frozenset({"jail_card"}),
       command=lambda v: {"player": v.player, **v["_what"]},
       steps=(Pick("_what", phrase("scenes.flow.jail"), _jail, phrase("scenes.about.jail")),)),
    _f(SELL, deed_label=phrase("scenes.sell.title"),
       title=phrase("scenes.sell.title"),
       steps=(Square(phrase("scenes.sell.which")),
              Pick("to_houses", lambda v: phrase("scenes.sell.hotel", hotel=words.localised(v.edition).hotel),
                   _to_houses, phrase("scenes.about.sell"), when=_hotel))),
    _f(phrase("scenes.flow.repairs"),
       steps=(Type("per_house", lambda v: phrase("scenes.repairs.each", building=words.localised(v.edition).house),
                   says=phrase("scenes.about.per_house")),
              Type("per_hotel", lambda v: phrase("scenes.repairs.each", building=words.localised(v.edition).hotel),
                   says=phrase("scenes.about.per_hotel")))),
    _f(TRADE, command=_trade, confirm=_trade_summary, big_line=False, steps=(
        Pick("_b", phrase("scenes.trade.with"), lambda v: [(n, n) for n in v.others()], phrase("scenes.about.partner"),
             tap=True),
        Pick("_a_items", lambda v: phrase("scenes.trade.gives_title", player=v.player),
             _holdings(lambda v: v.player, lambda v: v["_b"]), phrase("scenes.about.own_cards"), multi=True),
        Type("_a_cash", lambda v: phrase("scenes.trade.cash", player=v.player), says=phrase("scenes.about.own_cash")),
        Pick("_b_items", lambda v: phrase("scenes.trade.gives_title", player=v["_b"]),
             _holdings(lambda v: v["_b"], lambda v: v.player), phrase("scenes.about.partner_cards"), multi=True),
        Type("_b_cash", lambda v: phrase("scenes.trade.cash", player=v["_b"]),
             says=phrase("scenes.about.partner_cash")),
        Pick("_lift", phrase("scenes.trade.lift"), lambda v: [(v.square(sq), sq) for sq in _mortgaged(v)],
             phrase("scenes.about.lift"), multi=True, when=lambda v: bool(_mortgaged(v))))),
    _f(BANKRUPT, command=_bankrupt, confirm=_bankrupt_summary, steps=(
        Pick("_lift", lambda v: phrase("scenes.bankrupt.lift", player=v.creditor or ""),
             lambda v: [(_lift_option(v, sq), sq) for sq in _estate_mortgaged(v)],
             phrase("scenes.about.creditor_lift"), multi=True, start=lambda v: DONE,
             when=lambda v: bool(_estate_mortgaged(v))),)),
    _f(UNDO, method="ask_undo", shown=_undoable),
    _f(RANKING, ranking=_this_game),
    _f(AUCTION_BUILD, deed_label=AUCTION_BUILD,
       steps=(Square(phrase("scenes.build_auction.which")),
              Type("price", phrase("scenes.build_auction.bid"), zero=False, hint=_lowest_bid,
                   says=phrase("scenes.about.build_auction")))),
)
"""The flows that behave differently: steps, commands or words of their own. Every other flow is made from its row
of the device's table (:func:`from_place`)."""


def from_place(place: places.Place) -> Flow:
    """The flow of a row of the device's table that declares its steps as data (``Place.steps``): a square from
    those the rules open for its op, or an amount typed; none: the player's card alone books it (Frei Parken)."""
    label = phrase(place.flow)
    steps = tuple(Square(phrase(ask.prompt) if ask.prompt else "") if ask.field == "square"
                  else Type(ask.field, phrase(ask.prompt)) for ask in place.steps)
    return _f(label, steps, deed_label=label if place.deed else "")


def _player_flows() -> tuple[Flow, ...]:
    own = {f.said: f for f in _DECLARED}
    first: dict[str, places.Place] = {}  # a flow's first row (the Gefängnis' flow books two ops)
    for place in places.PLACES:
        if place.flow:
            first.setdefault(place.flow, place)
    return tuple(own.get(phrase(key)) or from_place(place) for key, place in first.items())


PLAYER_FLOWS: tuple[Flow, ...] = _player_flows()
"""Every flow a player on the reader may start, in the order of the device's table; :data:`PLAYER_MENU` gives each
its place. A booking of the table without a flow declared above gets its flow from its row."""

FLOWS = {f.said: f for f in PLAYER_FLOWS}


class Entry(msgspec.Struct, frozen=True):
    """A menu entry with its own digit: one flow, or a group of them (a submenu, numbered in order)."""

    digit: str
    said: Phrase
    flows: tuple[Flow, ...]

    @property
    def label(self) -> str:
        """The entry in the language in force."""
        return say(self.said)


PLAYER_MENU: tuple[Entry, ...] = tuple(Entry(digit, phrase(label), tuple(FLOWS[phrase(f)] for f in flows))
                                      for digit, label, flows in places.menu())
"""The menu of a player on the reader, read off ``places.PLACES``: an entry shows only when one of its flows opens,
and keeps its digit whatever else shows (Renovierung is MENU 8 3, Frei Parken MENU 0 1, always).
Bankruptcy is no entry: it is offered only after a payment the player cannot make."""

BANKER_MENU: tuple[Flow, ...] = (
    _f(RANKING, ranking=_this_game, shown=_running),
    _f(phrase("scenes.banker.last_game"), ranking=_last_game, shown=_game_over_before),
    _f(phrase("scenes.banker.end"), method="ask_end", shown=_timed),
    _f(UNDO, method="ask_undo", shown=_running_undoable),
    _f(phrase("scenes.volume.title"), method="volume"),
    _f(phrase("scenes.learn.title"), method="learn"),
    _f(phrase("scenes.pin.title"), method="ask_pin"),
    _f(phrase("scenes.selftest.title"), method="selftest"),
    _f(phrase("scenes.banker.new_game"), method="ask_new_game"),
    _f(phrase("scenes.language.title"), method="language"),
)
"""The banker's menu (no card on the reader): entry n has digit n (the tenth 0), and shows when ``shown`` says
so."""

RAISE_MONEY: tuple[Phrase, ...] = (SELL, MORTGAGE, BANKRUPT)
"""After ZU WENIG GELD: the flows that raise money, or give up (``menus.raise_menu``)."""

MERMAID_BLOCK = "```mermaid\n"
"""Where docs/playing.md's copy of :func:`mermaid` starts; it ends at the code block's end."""


def readme_with_flows(readme: str) -> str:
    """The page with its diagram as the code has it (``bankleser flows --readme docs/playing.md``)."""
    start = readme.index(MERMAID_BLOCK) + len(MERMAID_BLOCK)
    end = readme.index("\n```", start)
    return readme[:start] + mermaid() + readme[end:]


def describe() -> str:
    """What ``bankleser flows`` prints: the scene graph, then the declared flows and menus."""
    flows = "\n".join(f"{f.label}: {f.describe()}{_when(f)}" for f in PLAYER_FLOWS)
    menu = "\n".join(f"{e.digit} {e.label}: " + ", ".join(f"{i} {f.label}" for i, f in enumerate(e.flows, 1))
                     if len(e.flows) > 1 else f"{e.digit} {e.label}" for e in PLAYER_MENU)
    banker = "\n".join(f"{i} {f.label}: {f.describe()}{_when(f)}" for i, f in enumerate(BANKER_MENU, 1))
    return words.text("scenes.about.describe", graph=graph(), menu=menu, flows=flows, banker=banker)


def _when(flow: Flow) -> str:
    return f" [{flow.shown.__name__.strip('_').replace('_', ' ')}]" if flow.shown else ""
