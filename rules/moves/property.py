"""Deeds: buying (at the printed price or an auction's bid), rent, mortgages."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS, Kind
from ..errors import RuleError
from ..money import Money
from ..valuation import lift_cost
from ..valuation import rent as rent_of
from .context import Ctx


def buy(c: Ctx, cmd: cmds.Buy) -> str:
    player, sq = c.player(cmd.player), c.deed(cmd.square)
    owner = c.s.get("owner", sq)
    if owner is not None:
        raise RuleError("already_owned", f"{c.name(sq)} gehört schon {owner}")
    price = cmd.price
    if price is None:
        price, how = c.edition.deed(sq).price, "kauft"
    else:
        if c.house_rule("no_auctions") and price != c.edition.deed(sq).price:
            raise RuleError("house_rule_off", "Hausregel: keine Versteigerungen, nur der aufgedruckte Preis")
        bid(c, player, price, c.edition.auction_min_bid)
        how = "ersteigert"
    c.s.pay(player, None, price, f"{'Kauf' if how == 'kauft' else 'Auktion'} {c.name(sq)}")
    c.s.set("owner", sq, player)
    return f"{player} {how} {c.name(sq)} für {c.money(price)}"


def bid(c: Ctx, player: str, price: Money, minimum: Money) -> Money:
    """An auction's winning bid: at least ``minimum``, at most the bidder's cash and nothing else (seed 001:
    "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen"). A bid is not typed on the
    reader in one go, so the reader's 20M does not cap it."""
    if price < minimum:
        raise RuleError("amount_out_of_range", f"Gebot {c.money(price)} geht nicht: mindestens {c.money(minimum)}")
    c.s.may_pay(player)
    if c.s.cash(player) < price:
        raise RuleError("insufficient_funds", f"Nicht genug Geld für das Gebot: {player} hat "
                                              f"{c.money(c.s.cash(player))}, geboten sind {c.money(price)}",
                        owed=price)
    return price


def rent(c: Ctx, cmd: cmds.Rent) -> str:
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
    amount = rent_of(c.state, sq, dice)
    c.s.pay(payer, str(owner), amount, f"Miete {c.name(sq)}")
    # A station's rent has nothing to add in parentheses (issue 31: "Miete für Westbahnhof (): 25").
    return f"{payer} zahlt {owner} Miete für {c.name(sq)}{f' ({note})' if note else ''}: {c.money(amount)}"


def mortgage(c: Ctx, cmd: cmds.Mortgage) -> str:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if c.s.get("mortgaged", sq):
        raise RuleError("mortgaged", f"{c.name(sq)} ist schon mit einer Hypothek belastet")
    if c.group_has_buildings(sq):
        raise RuleError("has_buildings", "Erst alle Gebäude der Farbgruppe verkaufen")
    value = c.edition.deed(sq).mortgage
    c.s.pay(None, player, value, f"Hypothek {c.name(sq)}")
    c.s.set("mortgaged", sq, True)
    # The street after a colon: its name needs no article there ("auf Schlossallee" wanted "die"; review 12).
    return f"{player} nimmt eine Hypothek auf: {c.name(sq)} ({c.money(value)})"


def unmortgage(c: Ctx, cmd: cmds.Unmortgage) -> str:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if not c.s.get("mortgaged", sq):
        raise RuleError("not_mortgaged", f"{c.name(sq)} ist nicht mit einer Hypothek belastet")
    cost = lift_cost(c.edition, sq)
    c.s.pay(player, None, cost, f"Hypothek zurück {c.name(sq)}")
    c.s.set("mortgaged", sq, False)
    return f"{player} zahlt eine Hypothek zurück: {c.name(sq)} ({c.money(cost)})"
