"""Money moves: Haben, Soll, Überweisung, LOS, taxes, the cards' payments, the jail, the Frei-Parken pot."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS
from ..errors import RuleError
from ..money import Money
from ..state import JAIL_CARDS_IN_GAME
from .context import Ctx


def credit(c: Ctx, cmd: cmds.Credit) -> str:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    c.s.pay(None, player, amount, "Haben")
    return f"{player} erhält {c.money(amount)} von der Bank"


def debit(c: Ctx, cmd: cmds.Debit) -> str:
    player, amount = c.player(cmd.player), c.amount(cmd.amount)
    where = c.to_bank(player, amount, "Soll")
    return f"{player} zahlt {c.money(amount)} {where}"


def transfer(c: Ctx, cmd: cmds.Transfer) -> str:
    payer, payee, amount = c.player(cmd.from_), c.player(cmd.to), c.amount(cmd.amount)
    c.s.pay(payer, payee, amount, f"Überweisung an {payee}")
    return f"{payer} zahlt {payee} {c.money(amount)}"


def go(c: Ctx, cmd: cmds.Go) -> str:
    player, exact = c.player(cmd.player), cmd.exact
    if exact and not c.house_rule("double_go"):
        raise RuleError("house_rule_off", "Doppeltes Gehalt auf LOS ist keine Hausregel dieses Spiels")
    salary = c.edition.salary * (2 if exact else 1)
    c.s.pay(None, player, salary, "LOS" + (" (genau auf LOS: doppelt)" if exact else ""))
    return f"{player} {'landet genau auf' if exact else 'geht über'} LOS: {c.money(salary)}"


def tax(c: Ctx, cmd: cmds.Tax) -> str:
    player, sq = c.player(cmd.player), cmd.square
    amount = c.edition.taxes[sq]
    where = c.to_bank(player, amount, c.name(sq))
    pot = f" ({where})" if c.house_rule("free_parking_pot") else ""
    return f"{player} zahlt {c.name(sq)}: {c.money(amount)}{pot}"


def _others(c: Ctx, player: str) -> list[str]:
    return [p for p in c.state.players if p != player and not c.s.get("bankrupt", p)]


def pay_all(c: Ctx, cmd: cmds.PayAll) -> str:
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


def collect_all(c: Ctx, cmd: cmds.CollectAll) -> str:
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


def _rate(c: Ctx, value: Money, key: str) -> Money:
    if not 0 <= value <= c.edition.max_entry:
        raise RuleError("amount_out_of_range", f"'{key}': 0 bis {c.money(c.edition.max_entry)}")
    return value


def repairs(c: Ctx, cmd: cmds.Repairs) -> str:
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


def free_parking(c: Ctx, cmd: cmds.FreeParking) -> str:
    player = c.player(cmd.player)
    if not c.house_rule("free_parking_pot"):
        raise RuleError("house_rule_off", "Frei Parken: ohne die Hausregel gibt es keinen Topf")
    pot = int(c.s.get("pot") or 0)
    if pot == 0:
        raise RuleError("amount_out_of_range", "Der Frei-Parken-Topf ist leer")
    c.s.pay(None, player, pot, "Frei Parken")
    c.s.set("pot", None, 0)
    return f"{player} landet auf Frei Parken und nimmt den Topf: {c.money(pot)}"


def jail_fine(c: Ctx, cmd: cmds.JailFine) -> str:
    player = c.player(cmd.player)
    where = c.to_bank(player, c.edition.jail_fine, "Gefängnis")
    return f"{player} zahlt {c.money(c.edition.jail_fine)} {where}, um aus dem Gefängnis zu kommen"


def jail_card(c: Ctx, cmd: cmds.JailCard) -> str:
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
