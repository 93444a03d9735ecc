"""Debt and bankruptcy: who cannot pay leaves the game; a creditor's 10 % owed to the bank is paid later."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS
from ..errors import RuleError
from ..money import Money
from ..phrase import Cash, Many, Phrase, Place, Value, phrase
from ..valuation import interest, lift_cost, raisable
from .context import Ctx, books, chain, player_only


def _check_owed(c: Ctx, debtor: str, creditor: str | None, owed: Money) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann"; seeds 001/003/004: "Wenn Sie
    … mehr Geld schulden, als Sie bar zur Verfügung haben, können Sie Ihre Grundstücke und/oder Gebäude zu
    Geld machen … Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT"."""
    if owed < 1:
        raise RuleError("amount_out_of_range", phrase("rules.bankrupt.no_debt"))
    cash, buildings, mortgages = raisable(c.state, debtor)
    if creditor is None:  # owed to the bank is the open debt itself (nothing else is refused for want of
        cash += c.state.players[debtor].debt  # money while it is open): counted once, not twice
    to = "" if creditor is None else ".player"  # "an die Bank", "dann der Bank 360 zahlen": the bank's own key
    if cash >= owed:
        raise RuleError("not_bankrupt", phrase("rules.bankrupt.can_pay" + to, player=debtor, owed=Cash(owed),
                                               creditor=creditor or "", cash=Cash(cash)))
    if cash + buildings + mortgages >= owed:
        found = (("rules.bankrupt.way.sell", buildings), ("rules.bankrupt.way.mortgage", mortgages))
        ways = Many(tuple(phrase(key, amount=Cash(v)) for key, v in found if v))
        raise RuleError("not_bankrupt", phrase("rules.bankrupt.can_raise" + to, player=debtor, cash=Cash(cash),
                                               missing=Cash(owed - cash), ways=ways, creditor=creditor or "",
                                               owed=Cash(owed)))


@books(cmds.Bankrupt, legal=player_only(), said=("rules.bankrupt.bank", "rules.bankrupt.player"))
def bankrupt(c: Ctx, cmd: cmds.Bankrupt) -> Phrase:
    debtor = c.player(cmd.player)
    creditor = None if cmd.creditor is None else c.player(cmd.creditor)
    if cmd.owed is not None:
        _check_owed(c, debtor, creditor, cmd.owed)
    ed = c.edition
    deeds = [sq for sq in DEEDS if c.s.get("owner", sq) == debtor]
    for sq in cmd.lift:
        if sq not in deeds or not c.s.get("mortgaged", sq):
            raise RuleError("not_mortgaged", phrase("rules.bankrupt.not_mortgaged", square=Place(sq), player=debtor))
    # Buildings go back to the bank at half price first; the proceeds are part of the estate.
    for sq in deeds:
        lvl, half = c.level(sq), ed.deed(sq).house_price // 2
        if c.s.get("hotel", sq):
            c.s.set("hotel", sq, False)
            c.s.set("bank_hotels", None, int(c.s.get("bank_hotels") or 0) + 1)
        elif lvl:
            c.s.set("houses", sq, 0)
            c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + lvl)
        if lvl:
            c.s.pay(None, debtor, half * lvl, phrase("rules.reason.sale_buildings", square=Place(sq)))
    estate = c.s.cash(debtor)  # the cash and what the buildings fetched: what the creditor receives in money
    c.s.pay(debtor, creditor, estate, phrase("rules.reason.bankrupt"))
    c.s.set("debt", debtor, 0)  # an unpaid fee dies with the player: the bank never goes bankrupt
    cards = int(c.s.get("jail_cards", debtor) or 0)
    c.s.set("jail_cards", debtor, 0)
    if creditor is not None:
        c.s.set("jail_cards", creditor, int(c.s.get("jail_cards", creditor) or 0) + cards)
    fees: list[Value] = []
    lifted: list[Value] = []
    unpaid = 0
    for sq in deeds:
        c.s.set("owner", sq, creditor)
        if creditor is None:
            c.s.set("mortgaged", sq, False)  # back to the bank, auctioned mortgage-free
        elif c.s.get("mortgaged", sq) and sq in cmd.lift:
            # Lifted at once: the mortgage and the 10 % once, as in a trade ("entweder sofort auflösen oder …").
            assert creditor is not None
            cost = lift_cost(ed, sq)
            c.s.pay(creditor, None, cost, phrase("rules.reason.unmortgage", square=Place(sq)))
            c.s.set("mortgaged", sq, False)
            lifted.append(phrase("rules.item.paid", square=Place(sq), amount=Cash(cost)))
        elif c.s.get("mortgaged", sq) and ed.bankruptcy_mortgage_fee:
            fee = interest(ed, ed.deed(sq).mortgage)
            if c.s.cash(creditor) >= fee:
                c.s.pay(creditor, None, fee, phrase("rules.reason.interest", square=Place(sq)))
                fees.append(phrase("rules.item.paid", square=Place(sq), amount=Cash(fee)))
            else:  # owed to the bank until raised: the bankruptcy is booked, nothing is lost
                unpaid += fee
                fees.append(phrase("rules.item.open", square=Place(sq), amount=Cash(fee)))
    if unpaid:
        c.s.set("debt", creditor, int(c.s.get("debt", creditor) or 0) + unpaid)
    c.s.set("bankrupt", debtor, True)
    c.s.set("bankrupt_order", debtor, 1 + sum(p.bankrupt for p in c.state.players.values()))
    # what the creditor receives, said in the log (it was only in the CSV): the money, then the deeds, then the
    # "Gefängnis-frei" cards (counted as a trade counts them): said, so the preview's digest changes with them too
    passed = [phrase("rules.trade.cards", n=cards)] if cards and creditor is not None else []
    gets = chain("rules.join.comma", [Cash(estate), *(Place(sq) for sq in deeds), *passed])
    owed = {} if cmd.owed is None else {"owed": Cash(cmd.owed)}
    key = "rules.bankrupt.bank" if creditor is None else "rules.bankrupt.player"
    parts: list[Value] = [phrase(key + (".owed" if owed else ""), player=debtor, creditor=creditor or "", gets=gets,
                                 **owed)]
    if lifted:
        parts.append(phrase("rules.bankrupt.lifted", creditor=creditor or "", lifted=chain("rules.join.comma", lifted)))
    if fees:
        parts.append(phrase("rules.bankrupt.fees", creditor=creditor or "", deeds=chain("rules.join.comma", fees)))
        paid = sum(t.amount for t in c.s.transfers if t.payer == creditor and t.payee is None)
        c.note = phrase("rules.note.open", amount=Cash(unpaid)) if unpaid else \
            phrase("rules.note.interest", amount=Cash(paid))
    if lifted and not unpaid:  # the mortgages lifted and any 10 %, one sum (as a trade's note says it)
        paid = sum(t.amount for t in c.s.transfers if t.payer == creditor and t.payee is None)
        c.note = phrase("rules.note.paid_bank", player=creditor or "", amount=Cash(paid))
    if unpaid:
        parts.append(phrase("rules.bankrupt.unpaid", creditor=creditor or "", amount=Cash(unpaid)))
    return chain("rules.join.semicolon", parts)


@books(cmds.PayDebt, legal=player_only(), debt=True, said=("rules.debt.paid",))
def pay_debt(c: Ctx, cmd: cmds.PayDebt) -> Phrase:
    player = c.player(cmd.player)
    debt = int(c.s.get("debt", player) or 0)
    if not debt:
        raise RuleError("amount_out_of_range", phrase("rules.debt.none", player=player))
    c.s.pay(player, None, debt, phrase("rules.reason.debt"))
    c.s.set("debt", player, 0)
    return phrase("rules.debt.paid", player=player, amount=Cash(debt))
