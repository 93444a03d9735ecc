"""Buildings: one more house or the hotel, the bank's building auction in a shortage, selling back."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS, GROUPS, Kind, Square
from ..editions.model import article
from ..errors import BadCommand, RuleError
from ..money import Money
from ..state import GameState
from ..valuation import level, owns_group
from .context import Ctx
from .property import bid


def build(c: Ctx, cmd: cmds.Build) -> str:
    return _build_on(c, c.player(cmd.player), cmd.square, None)


def build_auction(c: Ctx, cmd: cmds.BuildAuction) -> str:
    """Seed 000 "Wollen zwei oder mehr Spieler eine höhere Anzahl Gebäude kaufen als die Bank zur Verfügung hat,
    werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt der
    niedrigste, gedruckte Preis der entsprechenden Besitzrechtkarten." Seeds 001, 003, 004: "Gibt es nur noch
    wenige Gebäude, aber mehrere bauwillige Spieler, versteigert der Bankhalter die Gebäude an den
    Meistbietenden", with their auctions' "Mindestgebot von 1" (the edition's ``building_auction_at_house_price``)."""
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    if c.house_rule("no_auctions"):
        raise RuleError("house_rule_off", "Hausregel: keine Versteigerungen – bei Mangel warten, bis die Bank "
                                          "wieder Gebäude hat")
    hotel = c.level(sq) == c.state.houses_per_hotel
    wanted = shortage(c.state, hotel=hotel)
    ed = c.edition
    if wanted is None:
        what = ed.hotels if hotel else ed.houses
        raise RuleError("no_shortage", f"Kein Mangel an {what}: die Bank hat genug für alle, die bauen können "
                                       f"(oder nur ein Spieler kann bauen) – zum aufgedruckten Preis bauen")
    return _build_on(c, player, sq, bid(c, player, cmd.price, wanted))


def shortage(state: GameState, *, hotel: bool) -> Money | None:
    """The lowest bid of a building auction, or None where the books call for none.

    An auction is due when two or more players could build more houses (or hotels) than the bank has: the
    most each could still build on their whole, unmortgaged groups is counted. The minimum is the lowest
    printed house price of those players' streets where the book says so (000: "Als Mindestgebot gilt der
    niedrigste, gedruckte Preis der entsprechenden Besitzrechtkarten"), else the edition's lowest bid (001, 003,
    004 list the shortage among their auctions: "Jeder Spieler kann die Versteigerung mit einem Mindestgebot
    von 1 beginnen")."""
    hph = state.houses_per_hotel
    want: dict[str, int] = {}
    prices: list[Money] = []
    for group, squares in GROUPS.items():
        card = DEEDS[squares[0]]
        owner = state.deeds[squares[0]].owner
        if card.kind is not Kind.STREET or owner is None or not owns_group(state, owner, group):
            continue
        if any(state.deeds[sq].mortgaged for sq in squares):
            continue
        levels = [level(state, sq) for sq in squares]
        more = sum(1 for lv in levels if lv <= hph) if hotel else sum(max(0, hph - lv) for lv in levels)
        if more:
            want[owner] = want.get(owner, 0) + more
            prices.append(min(state.edition.deed(sq).house_price for sq in squares))
    stock = state.bank_hotels if hotel else state.bank_houses
    if len(want) < 2 or sum(want.values()) <= stock or stock < 1:
        return None
    return min(prices) if state.edition.building_auction_at_house_price else state.edition.auction_min_bid


def _build_on(c: Ctx, player: str, square: Square, price: Money | None) -> str:
    """One step up on a street: a house, or the hotel; at the printed price or an auction's ``price``."""
    sq = c.street(square, player)
    group = GROUPS[DEEDS[sq].group or ""]
    ed, hph = c.edition, c.state.houses_per_hotel
    if not owns_group(c.state, player, DEEDS[sq].group or ""):
        raise RuleError("no_monopoly", f"{player} besitzt nicht die ganze Farbgruppe von {c.name(sq)}")
    if any(c.s.get("mortgaged", g) for g in group):
        raise RuleError("group_mortgaged", "Auf einer Farbgruppe mit Hypothek darf nicht gebaut werden")
    here = c.level(sq)
    if here > hph:
        raise RuleError("max_buildings", f"Auf {c.name(sq)} steht schon {article('ein', ed.hotel_word)}")
    lowest = min(c.level(g) for g in group)
    if here > lowest:
        raise RuleError("uneven_building", "Gleichmäßig bauen: erst die anderen Straßen der Gruppe")
    cost = ed.deed(sq).house_price if price is None else price
    won = "" if price is None else ", ersteigert"
    if here == hph:
        stock = int(c.s.get("bank_hotels") or 0)
        if stock < 1:
            raise RuleError("no_stock", f"Die Bank hat keine {ed.hotels} mehr")
        c.s.pay(player, None, cost, f"{ed.hotel} {c.name(sq)}")
        c.s.set("bank_hotels", None, stock - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + hph)
        c.s.set("houses", sq, 0)
        c.s.set("hotel", sq, True)
        return f"{player} baut {article('ein', ed.hotel_word)} auf {c.name(sq)} ({c.money(cost)}{won})"
    stock = int(c.s.get("bank_houses") or 0)
    if stock < 1:
        raise RuleError("no_stock", f"Die Bank hat keine {ed.houses} mehr")
    c.s.pay(player, None, cost, f"{ed.house} {c.name(sq)}")
    c.s.set("bank_houses", None, stock - 1)
    c.s.set("houses", sq, here + 1)
    return f"{player} baut auf {c.name(sq)}: {here + 1} {ed.house if here == 0 else ed.houses} ({c.money(cost)}{won})"


def sell_building(c: Ctx, cmd: cmds.SellBuilding) -> str:
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    to_houses = cmd.to_houses
    ed, hph = c.edition, c.state.houses_per_hotel
    here = c.level(sq)
    if here == 0:
        raise BadCommand(f"Auf {c.name(sq)} steht kein Gebäude")
    if here < max(c.level(g) for g in GROUPS[DEEDS[sq].group or ""]):
        raise RuleError("uneven_building", "Gleichmäßig verkaufen: erst die höher bebauten Straßen")
    half = ed.deed(sq).house_price // 2
    if not c.s.get("hotel", sq):
        if to_houses:
            raise BadCommand(f"Auf {c.name(sq)} steht {article('kein', ed.hotel_word)}")
        c.s.pay(None, player, half, f"Verkauf {ed.house} {c.name(sq)}")
        c.s.set("houses", sq, here - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + 1)
        return f"{player} verkauft {article('ein', ed.house_word)} auf {c.name(sq)} ({c.money(half)})"
    c.s.set("hotel", sq, False)
    c.s.set("bank_hotels", None, int(c.s.get("bank_hotels") or 0) + 1)
    # Schalke, Sonic, Skylanders: "Für ein Stadion erhalten Sie von der Bank die ursprünglich
    # eingetauschten 4 Tribünen sowie die Hälfte des regulären Preises": always back to houses.
    stock = int(c.s.get("bank_houses") or 0)
    # Where the books give the houses back but the bank has fewer than the hotel replaced, the hotel is sold
    # whole, as seed 000 "Hotels verkaufen" does: the same money as taking the houses back and selling them.
    short = ed.hotel_sale_returns_houses and not to_houses and stock < hph
    if to_houses or (ed.hotel_sale_returns_houses and not short):
        if stock < hph:
            raise RuleError("no_stock", f"Die Bank hat keine {hph} {ed.houses} für den Tausch")
        c.s.set("bank_houses", None, stock - hph)
        c.s.set("houses", sq, hph)
        c.s.pay(None, player, half, f"Verkauf {ed.hotel} {c.name(sq)}")
        return (f"{player} tauscht {article('der', ed.hotel_word)} auf {c.name(sq)} gegen {hph} {ed.houses} "
                f"({c.money(half)})")
    whole = half * (hph + 1)
    c.s.pay(None, player, whole, f"Verkauf {ed.hotel} {c.name(sq)}")
    why = f"; die Bank hat nur {stock} {ed.house if stock == 1 else ed.houses}: ganz verkauft" if short else ""
    return f"{player} verkauft {article('der', ed.hotel_word)} auf {c.name(sq)} ({c.money(whole)}{why})"
