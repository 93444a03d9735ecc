"""Money moves: Haben, Soll, Überweisung, LOS, taxes, the cards' payments, the jail, the Frei-Parken pot."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS
from ..errors import RuleError, short_of_money
from ..money import Money
from ..phrase import Cash, Many, Noun, Phrase, Place, phrase
from ..state import JAIL_CARDS_IN_GAME
from .context import Ctx, amounts, books, on_square, player_only, taxes


@books(cmds.Credit, said=("rules.credit.done",))
def credit(c: Ctx, cmd: cmds.Credit) -> Phrase:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    c.s.pay(None, player, amount, phrase("rules.reason.credit"))
    return phrase("rules.credit.done", player=player, amount=Cash(amount))


@books(cmds.Debit, debt=True, said=("rules.debit.done", "rules.debit.done.pot"))
def debit(c: Ctx, cmd: cmds.Debit) -> Phrase:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    where = c.to_bank(player, amount, phrase("rules.reason.debit"))
    return phrase("rules.debit.done" + where, player=player, amount=Cash(amount))


@books(cmds.Transfer, debt=True, said=("rules.transfer.done",))
def transfer(c: Ctx, cmd: cmds.Transfer) -> Phrase:
    payer, payee, amount = c.player(cmd.from_), c.player(cmd.to), c.amount(cmd.amount)
    c.s.pay(payer, payee, amount, phrase("rules.reason.transfer", payee=payee))
    return phrase("rules.transfer.done", payer=payer, payee=payee, amount=Cash(amount))


@books(cmds.Go, legal=player_only(), said=("rules.go.done", "rules.go.exact"))
def go(c: Ctx, cmd: cmds.Go) -> Phrase:
    player, exact = c.player(cmd.player), cmd.exact
    if exact and not c.house_rule("double_go"):
        raise RuleError("house_rule_off", phrase("rules.go.no_double"))
    salary = c.edition.salary * (2 if exact else 1)
    c.s.pay(None, player, salary, phrase("rules.reason.go.exact" if exact else "rules.reason.go"))
    return phrase("rules.go.exact" if exact else "rules.go.done", player=player, amount=Cash(salary))


@books(cmds.Tax, legal=on_square(taxes), debt=True, said=("rules.tax.done", "rules.tax.done.pot"))
def tax(c: Ctx, cmd: cmds.Tax) -> Phrase:
    player, sq = c.player(cmd.player), cmd.square
    amount = c.edition.taxes[sq]
    where = c.to_bank(player, amount, phrase("rules.reason.tax", square=Place(sq)))
    return phrase("rules.tax.done" + where, player=player, square=Place(sq), amount=Cash(amount))


def _others(c: Ctx, player: str) -> list[str]:
    return [p for p in c.state.players if p != player and not c.s.get("bankrupt", p)]


@books(cmds.PayAll, legal=amounts("amount"), debt=True, said=("rules.pay_all.done",))
def pay_all(c: Ctx, cmd: cmds.PayAll) -> Phrase:
    """ "Zahle jedem Spieler …": one command, every other player still in the game."""
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    others = _others(c, player)
    total = amount * len(others)
    if c.s.cash(player) < total:
        raise short_of_money(phrase("rules.pay_all.short", player=player, cash=Cash(c.s.cash(player)),
                                    total=Cash(total), count=len(others), amount=Cash(amount)), owed=total)
    for other in others:
        c.s.pay(player, other, amount, phrase("rules.reason.pay_all", player=other))
    return phrase("rules.pay_all.done", player=player, amount=Cash(amount), total=Cash(total))


@books(cmds.CollectAll, legal=amounts("amount"), debt=True, said=("rules.collect_all.done",))
def collect_all(c: Ctx, cmd: cmds.CollectAll) -> Phrase:
    """ "Du hast Geburtstag: jeder Spieler zahlt dir …": refused as a whole if anyone cannot pay."""
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    others = _others(c, player)
    short = [o for o in others if c.s.cash(o) < amount]
    if short:
        who = Many(tuple(phrase("rules.funds.has", player=o, cash=Cash(c.s.cash(o))) for o in short))
        raise short_of_money(phrase("rules.collect_all.short", who=who, n=len(short), amount=Cash(amount)),
                             owed=amount)
    for other in others:
        c.s.pay(other, player, amount, phrase("rules.reason.collect_all", player=other))
    return phrase("rules.collect_all.done", player=player, amount=Cash(amount), total=Cash(amount * len(others)))


def _rate(c: Ctx, value: Money, key: str) -> Money:
    if not 0 <= value <= c.edition.max_entry:
        raise RuleError("amount_out_of_range", phrase("rules.repairs.rate", field=key, most=Cash(c.edition.max_entry)))
    return value


@books(cmds.Repairs, legal=amounts("per_house", "per_hotel"), debt=True,
       said=("rules.repairs.done", "rules.repairs.done.pot"))
def repairs(c: Ctx, cmd: cmds.Repairs) -> Phrase:
    """Renovierung / Straßenausbesserung: so much per house and per hotel the player owns."""
    player = c.player(cmd.player)
    per_house, per_hotel = _rate(c, cmd.per_house, "per_house"), _rate(c, cmd.per_hotel, "per_hotel")
    if per_house == per_hotel == 0:  # review 12: every card names its prices; a Renovierung of 0 books nothing
        raise RuleError("amount_out_of_range", phrase("rules.repairs.nothing", house=Noun("house"),
                                                      hotel=Noun("hotel")))
    own = [sq for sq in DEEDS if c.s.get("owner", sq) == player]
    houses = sum(int(c.s.get("houses", sq) or 0) for sq in own)
    hotels = sum(1 for sq in own if c.s.get("hotel", sq))
    if houses + hotels == 0:
        raise RuleError("not_owner", phrase("rules.repairs.no_buildings", player=player, houses=Noun("house", True),
                                            hotels=Noun("hotel", True)))
    total = houses * per_house + hotels * per_hotel
    where = c.to_bank(player, total, phrase("rules.reason.repairs"))
    # the sum first, where it is seen at once; what it was for after it
    return phrase("rules.repairs.done" + where, player=player, amount=Cash(total),
                  houses=c.buildings(houses, hotel=False), hotels=c.buildings(hotels, hotel=True))


@books(cmds.FreeParking, legal=player_only(), said=("rules.free_parking.done",))
def free_parking(c: Ctx, cmd: cmds.FreeParking) -> Phrase:
    player = c.player(cmd.player)
    if not c.house_rule("free_parking_pot"):
        raise RuleError("house_rule_off", phrase("rules.free_parking.off"))
    pot = int(c.s.get("pot") or 0)
    if pot == 0:
        raise RuleError("amount_out_of_range", phrase("rules.free_parking.empty"))
    c.s.pay(None, player, pot, phrase("rules.reason.free_parking"))
    c.s.set("pot", None, 0)
    return phrase("rules.free_parking.done", player=player, amount=Cash(pot))


@books(cmds.JailFine, legal=player_only(), debt=True, said=("rules.jail_fine.done", "rules.jail_fine.done.pot"))
def jail_fine(c: Ctx, cmd: cmds.JailFine) -> Phrase:
    player = c.player(cmd.player)
    where = c.to_bank(player, c.edition.jail_fine, phrase("rules.reason.jail_fine"))
    return phrase("rules.jail_fine.done" + where, player=player, amount=Cash(c.edition.jail_fine))


@books(cmds.JailCard, legal=(player_only("jail_card_drawn", delta=1), player_only("jail_card_used", delta=-1)),
       said=("rules.jail_card.drawn", "rules.jail_card.used"))
def jail_card(c: Ctx, cmd: cmds.JailCard) -> Phrase:
    player = c.player(cmd.player)
    held = int(c.s.get("jail_cards", player) or 0)
    if cmd.delta == 1:
        out = sum(int(c.s.get("jail_cards", p) or 0) for p in c.state.players)
        if out >= JAIL_CARDS_IN_GAME:
            raise RuleError("no_stock", phrase("rules.jail_card.none_left"))
        c.s.set("jail_cards", player, held + 1)
        return phrase("rules.jail_card.drawn", player=player)
    if held < 1:
        raise RuleError("not_owner", phrase("rules.jail_card.none_held", player=player))
    c.s.set("jail_cards", player, held - 1)
    return phrase("rules.jail_card.used", player=player)
