"""Trades between two players: deeds, money and Gefängnis-frei cards, mortgaged deeds lifted or kept at 10 %."""

from __future__ import annotations

from .. import commands as cmds
from ..board import Square
from ..errors import RuleError
from ..money import Money
from ..valuation import interest, lift_cost
from .context import Ctx


def _trade_side(c: Ctx, side: cmds.TradeSide, giver: str) -> None:
    for sq in side.squares:
        if c.group_has_buildings(c.owned(sq, giver)):
            raise RuleError("has_buildings", f"Erst die Gebäude der Farbgruppe von {c.name(sq)} verkaufen")
    held = int(c.s.get("jail_cards", giver) or 0)
    if side.jail_cards > held:
        raise RuleError("not_owner", f"{giver} hat nur {held} Gefängnis-frei-Karten")


def trade(c: Ctx, cmd: cmds.Trade) -> str:
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


def _to_bank_note(c: Ctx) -> str:
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


def _take_mortgaged(c: Ctx, taker: str, sq: Square, *, lift: bool) -> str:
    """A mortgaged deed changes hands: the taker lifts it at once or pays 10 % and keeps it mortgaged.
    Says what the taker paid the bank, for the text everyone reads (preview, OLED, log, report)."""
    mortgage = c.edition.deed(sq).mortgage
    if lift:
        cost = lift_cost(c.edition, sq)
        c.s.pay(taker, None, cost, f"Hypothek zurück {c.name(sq)}")
        c.s.set("mortgaged", sq, False)
        return f"{taker} zahlt eine Hypothek zurück: {c.name(sq)} ({c.money(cost)} an die Bank)"
    fee = interest(c.edition, mortgage)
    c.s.pay(taker, None, fee, f"10 % Zinsen {c.name(sq)}")
    return f"{taker} zahlt 10 % Zinsen für {c.name(sq)} ({c.money(fee)} an die Bank)"


def _trade_words(c: Ctx, side: cmds.TradeSide) -> str:
    words = [c.name(sq) for sq in side.squares]
    if side.cash:
        words.append(c.money(side.cash))
    if cards := side.jail_cards:
        words.append(f"{cards} Gefängnis-frei-Karte{'n' if cards > 1 else ''}")
    return ", ".join(words) or "nichts"
