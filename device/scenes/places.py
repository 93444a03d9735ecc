"""How the device presents each op: its place in a player's menu and the banker's phone form that books it.

The rules say what an op is and when it is open (``rules.ops``, ``rules.legal``); this table says where a banker
finds it: the digit of the OLED's player menu (``flows.PLAYER_MENU`` is read off it), the steps of its flow there
where they are the common ones (a square, an amount: ``flows.PLAYER_FLOWS`` makes the flow from them), and the
phone's form, its title and fields (``device.daemon.booking`` draws the forms from it, in this order). A form's
fields are filled from the same typed legal commands the OLED's lists offer, so the phone offers what the device
offers.

Where the device offers an op without a menu entry (a key, or bankruptcy after a payment refused) its ``key``
names the words the device uses there.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

import words
from rules import DEEDS, Edition, Game, Kind, square_name
from rules import commands as cmds
from rules.legal import ALLOWED_REFUSALS, LegalCommands, debt
from shapes.forms import Field, Option
from words import text

Fields = Callable[[Game, str, LegalCommands], list[Field]]
"""A form's fields for a player, from the game and the commands the rules open to that player now."""


class Ask(msgspec.Struct, frozen=True):
    """One step of a device flow declared as data: most bookings ask the player's card, then a square or an amount,
    and need no code of their own in ``flows.py`` (which builds the step from this)."""

    field: str
    """The command's field it fills: "square" is chosen from the squares the rules open for the op now (a deed's tag
    picks it); any other field is an amount, typed as the edition writes money."""
    prompt: str = ""
    """The key of the step's words: the list's title or the amount's question; "" : the flow's own words (a list of
    squares only)."""


class Place(msgspec.Struct, frozen=True):
    """One op (or one of the menu's own screens) as the device presents it."""

    op: str
    """The command's op; for an entry of the menu that books nothing (the ranking) the screen's name."""
    flow: str = ""
    """The key of the device's flow (``flows.PLAYER_FLOWS``) that books it; "" : a key of its own books it."""
    menu: str = ""
    """Its place in a player's menu: the digit, then its place in that digit's list ("7.2": MENU 7 2); the digit
    never moves, whatever else is offered. "" : not in the player's menu."""
    key: str = ""
    """Where it has no place in the menu: the key of the device's words for where it is booked instead (HABEN,
    SOLL, LOS; the bankruptcy after ZU WENIG GELD)."""
    form: str = ""
    """The key of the phone form's title: the device's own words where it is the same booking, the phone's where it
    is narrower (the Gefängnis' two forms); "" : no form (Storno and the ranking have their own pages)."""
    fields: Fields | None = None
    """The form's fields (None: none, the player alone)."""
    rows: tuple[str, ...] = ()
    """The rows of the legal moves (``rules.ops``) that open it; empty: asked of the rules with a probe command."""
    who: str = "player"
    """The command's field for the player chosen first (``from`` of a transfer, ``a`` of a trade)."""
    confirm: bool = True
    """The preview asks for a confirmation; False: booked at once, as the device books a card counted."""
    steps: tuple[Ask, ...] = ()
    """The steps of its flow on the device after the player's card, where they are the common ones (a square, an
    amount): its flow is then made from this row. A flow that behaves differently (an auction, a trade) is declared
    in ``flows.py`` instead, and has no steps here."""
    deed: bool = False
    """Its flow is offered in a deed's menu too (a tag tapped), under its menu words, the square chosen."""

    @property
    def digit(self) -> str:
        return self.menu.split(".")[0]

    @property
    def menu_label(self) -> str:
        """The key of its entry in the player's menu (the list it is in), or of the key that books it."""
        if not self.menu:
            return self.key
        return GROUPS.get(self.digit, self.flow)


GROUPS: dict[str, str] = {"7": "scenes.menu.mortgage", "8": "scenes.menu.card", "0": "scenes.menu.more"}
"""The menu's entries that open a list of their own, by digit: their words."""

DIGITS = "1234567890"
"""The menu's digits in the order it lists them."""


# -- the phone form's fields ----------------------------------------------------------------------


def _others(game: Game, player: str) -> list[str]:
    assert game.state is not None
    return [n for n, p in game.state.players.items() if n != player and not p.bankrupt]


def _edition(game: Game) -> Edition:
    assert game.state is not None
    return game.state.edition


def _squares(op: str, label: str, flags: Callable[[Game, int], list[str]] | None = None) -> Fields:
    def fields(game: Game, player: str, legal: LegalCommands) -> list[Field]:
        ed = _edition(game)
        options: list[Option] = []
        for sq in legal.squares(op):
            option: Option = {"value": sq, "label": square_name(ed, sq)}
            if flags:
                option["flags"] = flags(game, sq)
            options.append(option)
        return [{"name": "square", "kind": "select", "label": text(label), "options": options}]
    return fields


def _money(name: str, label: str, *, optional: bool = False, **values: object) -> Field:
    field: Field = {"name": name, "kind": "money", "label": text(label, **values)}
    if optional:
        field["optional"] = True
    return field


def _utility(game: Game, sq: int) -> list[str]:
    return ["utility"] if DEEDS[sq].kind is Kind.UTILITY else []


def _hotel(game: Game, sq: int) -> list[str]:
    assert game.state is not None
    return ["hotel"] if game.state.deeds[sq].hotel else []


def _amount(label: str = "phone.field.amount") -> Fields:
    return lambda game, player, legal: [_money("amount", label)]


def _transfer(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    return [{"name": "to", "kind": "select", "label": text("phone.field.to"), "options": [
        {"value": n, "label": n} for n in _others(game, player)]}, _money("amount", "phone.field.amount")]


def _go(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    assert game.state is not None
    if "double_go" not in game.state.house_rules:
        return []
    return [{"name": "exact", "kind": "check", "label": text("phone.field.exact_go")}]


def _buy(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    return [*_squares("buy", "phone.field.deed")(game, player, legal),
            _money("price", "phone.field.bid", optional=True)]


def _rent(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    top = 15 if game.state is not None and game.state.speed_die else 12
    return [*_squares("rent", "phone.field.rent_for", _utility)(game, player, legal),
            {"name": "dice", "kind": "number", "label": text("phone.field.dice", top=top),
             "when": ["square", "utility"]}]


def _jail_card(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    options: list[Option] = [{"value": 1, "label": text("phone.jail_card.drawn")}] if "jail_card_drawn" in legal else []
    options += [{"value": -1, "label": text("phone.jail_card.used")}] if "jail_card_used" in legal else []
    return [{"name": "delta", "kind": "select", "label": text("phone.field.jail_card"), "options": options}]


def _sell(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    ed = words.localised(_edition(game))
    return [*_squares("sell_building", "phone.field.sell_where", _hotel)(game, player, legal),
            {"name": "to_houses", "kind": "select", "label": text("phone.field.sell_hotel", hotel=ed.hotel),
             "when": ["square", "hotel"],
             "options": [{"value": "", "label": text("phone.sell.whole")},
                         {"value": "1", "label": text("phone.sell.to_houses", houses=ed.houses)}]}]


def _repairs(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    ed = words.localised(_edition(game))
    return [_money("per_house", "phone.field.per_piece", piece=ed.house),
            _money("per_hotel", "phone.field.per_piece", piece=ed.hotel)]


def _auction(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    return [*_squares("build_auction", "phone.field.auction_where")(game, player, legal),
            _money("price", "phone.field.auction_price")]


def opens(game: Game, cmd: cmds.Command) -> bool:
    """Would the rules take ``cmd`` (a lack of money aside, as ``rules.legal`` counts it)?"""
    err = game.check(cmd)
    return err is None or err.code in ALLOWED_REFUSALS


def _tradable(game: Game, owner: str, partner: str) -> list[int]:
    """The owner's deeds the rules let change hands with ``partner`` (no street of a group with buildings)."""
    assert game.state is not None
    return [sq for sq, d in game.state.deeds.items() if d.owner == owner and opens(
        game, cmds.Trade(a=owner, b=partner, a_gives=cmds.TradeSide(squares=(sq,))))]


def _trade(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    assert game.state is not None
    state, ed = game.state, _edition(game)
    others = _others(game, player)

    def deeds(owner: str, partner: str) -> list[Option]:
        return [{"value": sq, "label": text("phone.trade.mortgaged", deed=square_name(ed, sq))
                 if state.deeds[sq].mortgaged else square_name(ed, sq), "owner": owner}
                for sq in _tradable(game, owner, partner)]

    mine = {sq["value"]: sq for b in others for sq in deeds(player, b)}  # tradable with anyone: the rules decide
    theirs = [sq for b in others for sq in deeds(b, player)]
    fields: list[Field] = [{"name": "b", "kind": "select", "label": text("phone.trade.with"),
               "options": [{"value": n, "label": n} for n in others]},
              {"name": "a_gives.squares", "kind": "multi", "label": text("phone.trade.gives", player=player),
               "options": list(mine.values())},
              _money("a_gives.cash", "phone.trade.cash", optional=True, player=player)]
    if state.players[player].jail_cards:
        fields.append({"name": "a_gives.jail_cards", "kind": "number", "label": text("phone.trade.jail_cards"),
                       "optional": True})
    fields += [{"name": "b_gives.squares", "kind": "multi", "label": text("phone.trade.partner_gives"),
                "options": theirs, "partner": True},
               _money("b_gives.cash", "phone.trade.partner_cash", optional=True)]
    if any(state.players[b].jail_cards for b in others):
        fields.append({"name": "b_gives.jail_cards", "kind": "number",
                       "label": text("phone.trade.partner_jail_cards"), "optional": True})
    mortgaged = [o for o in [*mine.values(), *theirs] if state.deeds[int(o["value"])].mortgaged]
    if mortgaged:
        fields.append({"name": "lift", "kind": "multi", "label": text("phone.trade.lift"), "options": mortgaged})
    return fields


def _bankrupt(game: Game, player: str, legal: LegalCommands) -> list[Field]:
    """The creditor, the sum owed, and (to a player) the mortgaged deeds the creditor lifts at once, as the device
    offers: lifted now, the creditor pays the mortgage and not the 10 % on top (docs/rules.md).

    The device offers bankruptcy only to the creditor of the payment it refused; the phone has no refused payment
    to go by, so it offers what the rules' state allows: with a debt to the bank open, the bank alone (every other
    payment waits for that debt); otherwise any player still in the game or the bank, and its label says to pick
    the one the payment that cannot be made was for (the rules check the sum owed, whoever is named)."""
    assert game.state is not None
    ed = _edition(game)
    mortgaged = [sq for sq, d in game.state.deeds.items() if d.owner == player and d.mortgaged]
    bank: list[Option] = [{"value": "", "label": text("phone.bankrupt.bank")}]
    if debt(game, player):  # owed to the bank, the player may pay nobody else first: bankrupt to the bank only
        creditor: Field = {"name": "creditor", "kind": "select", "label": text("phone.bankrupt.creditor_bank"),
                           "options": bank}
    else:  # the rules judge the sum owed, not whom: the banker names the creditor of the payment refused
        players: list[Option] = [{"value": n, "label": n, "flags": ["player"]} for n in _others(game, player)]
        creditor = {"name": "creditor", "kind": "select", "label": text("phone.bankrupt.creditor_of_payment"),
                    "options": [*bank, *players]}
    fields = [creditor, _money("owed", "phone.bankrupt.owed")]
    if mortgaged and len(creditor["options"]) > 1:
        fields.append({"name": "lift", "kind": "multi", "label": text("phone.bankrupt.lift"),
                       "when": ["creditor", "player"],
                       "options": [{"value": sq, "label": square_name(ed, sq)} for sq in mortgaged]})
    return fields


# -- the table --------------------------------------------------------------------------------------

PLACES: tuple[Place, ...] = (
    # The device's keys first: HABEN, SOLL (a payee's card makes it a transfer), LOS.
    Place("credit", key="scenes.title.credit", form="scenes.title.credit", fields=_amount()),
    Place("debit", key="scenes.title.debit", form="scenes.title.debit", fields=_amount()),
    Place("transfer", key="scenes.title.debit", form="scenes.title.transfer", fields=_transfer, who="from"),
    Place("go", key="scenes.go.title", form="scenes.go.title", fields=_go, rows=("go",)),
    # Then the player's menu, entry by entry (digits 1–9, 0).
    Place("buy", "scenes.flow.buy", "1", form="scenes.flow.buy", fields=_buy, rows=("buy",)),
    Place("rent", "scenes.flow.rent", "2", form="scenes.flow.rent", fields=_rent, rows=("rent",)),
    Place("tax", "scenes.flow.tax", "3", form="scenes.flow.tax", fields=_squares("tax", "phone.field.tax"),
          rows=("tax",), steps=(Ask("square", "scenes.tax.which"),)),
    Place("jail_fine", "scenes.flow.jail", "4", form="phone.form.jail_fine", rows=("jail_fine",)),
    Place("jail_card", "scenes.flow.jail", "4", form="phone.form.jail_card", fields=_jail_card,
          rows=("jail_card_drawn", "jail_card_used"), confirm=False),
    Place("build", "scenes.flow.build", "5", form="scenes.flow.build",
          fields=_squares("build", "phone.field.build_where"), rows=("build",), steps=(Ask("square"),), deed=True),
    Place("sell_building", "scenes.flow.sell_building", "6", form="scenes.flow.sell_building", fields=_sell,
          rows=("sell_building",)),
    Place("mortgage", "scenes.flow.mortgage", "7.1", form="scenes.flow.mortgage",
          fields=_squares("mortgage", "phone.field.deed"), rows=("mortgage",), steps=(Ask("square"),), deed=True),
    Place("unmortgage", "scenes.flow.unmortgage", "7.2", form="scenes.flow.unmortgage",
          fields=_squares("unmortgage", "phone.field.deed"), rows=("unmortgage",), steps=(Ask("square"),),
          deed=True),
    Place("pay_all", "scenes.flow.pay_all", "8.1", form="scenes.flow.pay_all", fields=_amount("phone.field.to_each"),
          rows=("pay_all",), steps=(Ask("amount", "scenes.pay_all.amount"),)),
    Place("collect_all", "scenes.flow.collect_all", "8.2", form="scenes.flow.collect_all",
          fields=_amount("phone.field.from_each"), rows=("collect_all",),
          steps=(Ask("amount", "scenes.collect_all.amount"),)),
    Place("repairs", "scenes.flow.repairs", "8.3", form="scenes.flow.repairs", fields=_repairs, rows=("repairs",)),
    Place("trade", "scenes.flow.trade", "9", form="scenes.flow.trade", fields=_trade, who="a"),
    Place("free_parking", "scenes.flow.free_parking", "0.1", form="scenes.flow.free_parking",
          rows=("free_parking",)),
    Place("undo", "scenes.flow.undo", "0.2"),  # Storno: the phone's own page takes back the last booking
    Place("ranking", "scenes.flow.ranking", "0.3"),  # books nothing: the game's ranking
    Place("pay_debt", "scenes.flow.pay_debt", "0.4", form="scenes.flow.pay_debt", rows=("pay_debt",)),
    Place("build_auction", "scenes.flow.build_auction", "0.5", form="scenes.flow.build_auction", fields=_auction,
          rows=("build_auction",)),
    # Offered beside the menu, after ZU WENIG GELD only.
    Place("bankrupt", "scenes.flow.bankrupt", key="scenes.flow.bankrupt", form="scenes.flow.bankrupt",
          fields=_bankrupt, rows=("bankrupt",)),
)
"""Each op as the device presents it, in the order the phone lists its forms (the device's)."""

FORMS: tuple[Place, ...] = tuple(p for p in PLACES if p.form)
"""The ops a phone form books."""

BY_OP: dict[str, Place] = {p.op: p for p in FORMS}


def menu() -> list[tuple[str, str, tuple[str, ...]]]:
    """The player's menu as (digit, the key of its words, the keys of its flows in their list's order)."""
    entries = []
    for digit in DIGITS:
        at = sorted({(p.menu, p.flow) for p in PLACES if p.menu and p.digit == digit})
        if at:
            flows = tuple(dict.fromkeys(flow for _, flow in at))
            entries.append((digit, GROUPS.get(digit, flows[0]), flows))
    return entries


def rows_of(flow: str) -> frozenset[str]:
    """The rows of the legal moves that open the device's flow ``flow`` (the key of its words): any open offers it
    (none: it is always offered, or its own condition decides)."""
    return frozenset(row for p in PLACES if p.flow == flow for row in p.rows)


def op_of(flow: str) -> str:
    """The op the device's flow ``flow`` books, where it books one ("" : one of several, its steps choose)."""
    ops = {p.op for p in PLACES if p.flow == flow}
    return ops.pop() if len(ops) == 1 else ""


def fields_of(place: Place, game: Game, player: str, legal: LegalCommands) -> list[Field]:
    """The form's fields for ``player`` now."""
    return [] if place.fields is None else place.fields(game, player, legal)
