"""Deeds: buying (at the printed price or an auction's bid), rent, mortgages."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS, Kind
from ..errors import RuleError
from ..money import Money
from ..phrase import Cash, Phrase, Place, phrase
from ..valuation import lift_cost
from ..valuation import rent as rent_of
from .context import Ctx, books, deeds, on_square, rent_candidate, row


@books(cmds.Buy, legal=on_square(deeds), said=("rules.buy.done", "rules.auction.done"))
def buy(c: Ctx, cmd: cmds.Buy) -> Phrase:
    player, sq = c.player(cmd.player), c.deed(cmd.square)
    owner = c.s.get("owner", sq)
    if owner is not None:
        raise RuleError("already_owned", phrase("rules.buy.owned", square=Place(sq), owner=str(owner)))
    price = cmd.price
    if price is None:
        price, reason, done = c.edition.deed(sq).price, "rules.reason.buy", "rules.buy.done"
    else:
        if c.house_rule("no_auctions") and price != c.edition.deed(sq).price:
            raise RuleError("house_rule_off", phrase("rules.buy.no_auctions"))
        bid(c, player, price, c.edition.auction_min_bid)
        reason, done = "rules.reason.auction", "rules.auction.done"
    c.s.pay(player, None, price, phrase(reason, square=Place(sq)))
    c.s.set("owner", sq, player)
    return phrase(done, player=player, square=Place(sq), amount=Cash(price))


def bid(c: Ctx, player: str, price: Money, minimum: Money) -> Money:
    """An auction's winning bid: at least ``minimum``, at most the bidder's cash and nothing else (seed 001:
    "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen"). A bid is not typed on the
    reader in one go, so the reader's 20M does not cap it."""
    if price < minimum:
        raise RuleError("amount_out_of_range", phrase("rules.bid.low", bid=Cash(price), minimum=Cash(minimum)))
    c.s.may_pay(player)
    if c.s.cash(player) < price:
        raise RuleError("insufficient_funds", phrase("rules.bid.short", player=player, cash=Cash(c.s.cash(player)),
                                                     bid=Cash(price)), owed=price)
    return price


@books(cmds.Rent, legal=row(rent_candidate, deeds), debt=True, said=("rules.rent.done", "rules.rent.done_on"))
def rent(c: Ctx, cmd: cmds.Rent) -> Phrase:
    payer, sq = c.player(cmd.player), c.deed(cmd.square)
    owner = c.s.get("owner", sq)
    if owner is None:
        raise RuleError("not_owner", phrase("rules.rent.unowned", square=Place(sq)))
    if owner == payer:
        raise RuleError("not_owner", phrase("rules.rent.own", square=Place(sq), player=payer))
    if c.s.get("mortgaged", sq):
        raise RuleError("mortgaged", phrase("rules.rent.mortgaged", square=Place(sq)))
    dice = None
    note = c.buildings_word(sq) if DEEDS[sq].kind is Kind.STREET else None
    if DEEDS[sq].kind is Kind.UTILITY:
        dice = cmd.dice  # never None on a utility: the command says so
        top = 15 if c.state.speed_die else 12
        if dice is None or not 2 <= dice <= top:
            raise RuleError("amount_out_of_range", phrase("rules.rent.dice_range", dice=top))
        note = phrase("rules.rent.dice", dice=dice)
    amount = rent_of(c.state, sq, dice)
    c.s.pay(payer, str(owner), amount, phrase("rules.reason.rent", square=Place(sq)))
    # Who pays whom for which street and how much first, what stands there after it ("Cem zahlt Ben Miete /
    # für Poststraße (2" cut the buildings between the street and the amount); a station's rent has nothing to add
    # (it said "Westbahnhof ()").
    if note is None:
        return phrase("rules.rent.done", payer=payer, owner=str(owner), amount=Cash(amount), square=Place(sq))
    return phrase("rules.rent.done_on", payer=payer, owner=str(owner), amount=Cash(amount), square=Place(sq),
                  buildings=note)


@books(cmds.Mortgage, legal=on_square(deeds), said=("rules.mortgage.done",))
def mortgage(c: Ctx, cmd: cmds.Mortgage) -> Phrase:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if c.s.get("mortgaged", sq):
        raise RuleError("mortgaged", phrase("rules.mortgage.already", square=Place(sq)))
    if c.group_has_buildings(sq):
        raise RuleError("has_buildings", phrase("rules.mortgage.buildings"))
    value = c.edition.deed(sq).mortgage
    c.s.pay(None, player, value, phrase("rules.reason.mortgage", square=Place(sq)))
    c.s.set("mortgaged", sq, True)
    # Who and which street first ("Anna nimmt eine / Hypothek auf:" hid the street); "für" takes the
    # street's name without its article ("auf Schlossallee" wanted "die"; review 12).
    return phrase("rules.mortgage.done", player=player, square=Place(sq), amount=Cash(value))


@books(cmds.Unmortgage, legal=on_square(deeds), said=("rules.unmortgage.done",))
def unmortgage(c: Ctx, cmd: cmds.Unmortgage) -> Phrase:
    player = c.player(cmd.player)
    sq = c.owned(cmd.square, player)
    if not c.s.get("mortgaged", sq):
        raise RuleError("not_mortgaged", phrase("rules.mortgage.not", square=Place(sq)))
    cost = lift_cost(c.edition, sq)
    c.s.pay(player, None, cost, phrase("rules.reason.unmortgage", square=Place(sq)))
    c.s.set("mortgaged", sq, False)
    return phrase("rules.unmortgage.done", player=player, square=Place(sq), amount=Cash(cost))
