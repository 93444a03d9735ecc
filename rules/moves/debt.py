"""Debt and bankruptcy: who cannot pay leaves the game; a creditor's 10 % owed to the bank is paid later."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS
from ..errors import RuleError
from ..money import Money
from ..valuation import interest, lift_cost, raisable
from .context import Ctx


def _check_owed(c: Ctx, debtor: str, creditor: str | None, owed: Money) -> None:
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


def bankrupt(c: Ctx, cmd: cmds.Bankrupt) -> str:
    debtor = c.player(cmd.player)
    creditor = None if cmd.creditor is None else c.player(cmd.creditor)
    if cmd.owed is not None:
        _check_owed(c, debtor, creditor, cmd.owed)
    ed = c.edition
    deeds = [sq for sq in DEEDS if c.s.get("owner", sq) == debtor]
    for sq in cmd.lift:
        if sq not in deeds or not c.s.get("mortgaged", sq):
            raise RuleError("not_mortgaged", f"{c.name(sq)} ist keine mit einer Hypothek belastete Karte von {debtor}: "
                                             "nichts zu lösen")
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
            c.s.pay(None, debtor, half * lvl, f"Verkauf Gebäude {c.name(sq)}")
    estate = c.s.cash(debtor)  # the cash and what the buildings fetched: what the creditor receives in money
    c.s.pay(debtor, creditor, estate, "Bankrott")
    c.s.set("debt", debtor, 0)  # an unpaid fee dies with the player: the bank never goes bankrupt
    cards = int(c.s.get("jail_cards", debtor) or 0)
    c.s.set("jail_cards", debtor, 0)
    if creditor is not None:
        c.s.set("jail_cards", creditor, int(c.s.get("jail_cards", creditor) or 0) + cards)
    fees: list[str] = []
    lifted: list[str] = []
    unpaid = 0
    for sq in deeds:
        c.s.set("owner", sq, creditor)
        if creditor is None:
            c.s.set("mortgaged", sq, False)  # back to the bank, auctioned mortgage-free
        elif c.s.get("mortgaged", sq) and sq in cmd.lift:
            # Lifted at once: the mortgage and the 10 % once, as in a trade ("entweder sofort auflösen oder …").
            assert creditor is not None
            cost = lift_cost(ed, sq)
            c.s.pay(creditor, None, cost, f"Hypothek zurück {c.name(sq)}")
            c.s.set("mortgaged", sq, False)
            lifted.append(f"{c.name(sq)} {c.money(cost)}")
        elif c.s.get("mortgaged", sq) and ed.bankruptcy_mortgage_fee:
            fee = interest(ed, ed.deed(sq).mortgage)
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
    # what the creditor receives, said in the log (it was only in the CSV): the money, then the deeds
    text += f": {creditor or 'die Bank'} erhält {c.money(estate)}" + "".join(f", {c.name(sq)}" for sq in deeds)
    if lifted:
        text += f"; {creditor} zahlt Hypotheken zurück: {', '.join(lifted)}"
    if fees:
        text += f"; {creditor} zahlt 10 % Zinsen an die Bank: {', '.join(fees)}"
        paid = sum(t.amount for t in c.s.transfers if t.payer == creditor and t.payee is None)
        c.note = f"offen an Bank: {c.money(unpaid)}" if unpaid else f"10 % an Bank: {c.money(paid)}"
    if lifted and not unpaid:  # the mortgages lifted and any 10 %, one sum (as a trade's note says it)
        paid = sum(t.amount for t in c.s.transfers if t.payer == creditor and t.payee is None)
        c.note = f"{creditor} an Bank: {c.money(paid)}"
    if unpaid:
        text += (f"; {creditor} schuldet der Bank noch {c.money(unpaid)}: Geld beschaffen (Gebäude verkaufen, "
                 f"Hypothek aufnehmen), dann „Schuld zahlen“")
    return text


def pay_debt(c: Ctx, cmd: cmds.PayDebt) -> str:
    player = c.player(cmd.player)
    debt = int(c.s.get("debt", player) or 0)
    if not debt:
        raise RuleError("amount_out_of_range", f"{player} schuldet der Bank nichts")
    c.s.pay(player, None, debt, "10 % Zinsen (Bankrott)")
    c.s.set("debt", player, 0)
    return f"{player} zahlt der Bank die offenen 10 % Zinsen: {c.money(debt)}"
