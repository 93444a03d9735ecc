"""Trades between two players: deeds, money and Gefängnis-frei cards, mortgaged deeds lifted or kept at 10 %."""

from __future__ import annotations

from .. import commands as cmds
from ..board import Square
from ..errors import RuleError
from ..money import Money
from ..phrase import Cash, Phrase, Place, Value, phrase
from ..valuation import interest, lift_cost
from .context import Ctx, books, chain


def _trade_side(c: Ctx, side: cmds.TradeSide, giver: str) -> None:
    for sq in side.squares:
        if c.group_has_buildings(c.owned(sq, giver)):
            raise RuleError("has_buildings", phrase("rules.trade.buildings", square=Place(sq)))
    held = int(c.s.get("jail_cards", giver) or 0)
    if side.jail_cards > held:
        raise RuleError("not_owner", phrase("rules.trade.jail_cards", player=giver, n=held))


@books(cmds.Trade, said=("rules.trade.done",))
def trade(c: Ctx, cmd: cmds.Trade) -> Phrase:
    a, b = c.player(cmd.a), c.player(cmd.b)
    for side in (cmd.a_gives, cmd.b_gives):
        # Seed 000: "Sie können in das Gerät nur Beträge zwischen € 10K und € 20M eintippen" (not checked
        # again for a journal written before trades were held to it).
        if side.cash and not c.replaying:
            c.amount(side.cash, rest=side.cash > c.edition.max_entry)
    _trade_side(c, cmd.a_gives, a)
    _trade_side(c, cmd.b_gives, b)
    for sq in cmd.lift:
        if not c.s.get("mortgaged", sq):
            raise RuleError("not_mortgaged", phrase("rules.trade.not_mortgaged", square=Place(sq)))
    # Exchange first, so money received in the trade can pay the fees on mortgaged deeds.
    c.s.pay(a, b, cmd.a_gives.cash, phrase("rules.reason.trade", player=b))
    c.s.pay(b, a, cmd.b_gives.cash, phrase("rules.reason.trade", player=a))
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
    said = phrase("rules.trade.done", a=a, a_gives=_trade_words(cmd.a_gives), b=b, b_gives=_trade_words(cmd.b_gives))
    if fees:
        c.note = _to_bank_note(c)
    return chain("rules.join.semicolon", [said, *fees])


def _to_bank_note(c: Ctx) -> Phrase:
    """The OLED's short line for what goes to the bank, naming who pays it (review 12): "Ben an Bank: 220",
    or "an Bank: Ben 18, Anna 20" when both sides take a mortgaged deed. Short, like "10 % an Bank: 38"."""
    paid: dict[str, Money] = {}
    for t in c.s.transfers:
        if t.payee is None and t.payer is not None:
            paid[t.payer] = paid.get(t.payer, 0) + t.amount
    if len(paid) == 1:
        (payer, amount), = paid.items()
        return phrase("rules.note.paid_bank", player=payer, amount=Cash(amount))
    each: list[Value] = [phrase("rules.note.each", player=payer, amount=Cash(amount)) for payer, amount in paid.items()]
    return phrase("rules.note.to_bank", each=chain("rules.join.comma", each))


def _take_mortgaged(c: Ctx, taker: str, sq: Square, *, lift: bool) -> Phrase:
    """A mortgaged deed changes hands: the taker lifts it at once or pays 10 % and keeps it mortgaged.
    Says what the taker paid the bank, for the text everyone reads (preview, OLED, log, report)."""
    mortgage = c.edition.deed(sq).mortgage
    if lift:
        cost = lift_cost(c.edition, sq)
        c.s.pay(taker, None, cost, phrase("rules.reason.unmortgage", square=Place(sq)))
        c.s.set("mortgaged", sq, False)
        return phrase("rules.trade.lifted", player=taker, square=Place(sq), amount=Cash(cost))
    fee = interest(c.edition, mortgage)
    c.s.pay(taker, None, fee, phrase("rules.reason.interest", square=Place(sq)))
    return phrase("rules.trade.interest", player=taker, square=Place(sq), amount=Cash(fee))


def _trade_words(side: cmds.TradeSide) -> Phrase:
    items: list[Value] = [Place(sq) for sq in side.squares]
    if side.cash:
        items.append(Cash(side.cash))
    if cards := side.jail_cards:
        items.append(phrase("rules.trade.cards", n=cards))
    return chain("rules.join.comma", items) if items else phrase("rules.trade.nothing")
