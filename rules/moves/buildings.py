"""Buildings: one more house or the hotel, the bank's building auction in a shortage, selling back."""

from __future__ import annotations

from .. import commands as cmds
from ..board import DEEDS, GROUPS, Kind, Square
from ..errors import BadCommand, RuleError
from ..money import Money
from ..phrase import Cash, Noun, Phrase, Pieces, Place, phrase
from ..state import GameState
from ..valuation import level, owns_group
from .context import Ctx, auction_candidate, books, deeds, on_square, row
from .property import bid


@books(cmds.Build, legal=on_square(deeds), said=("rules.build.house", "rules.build.hotel"))
def build(c: Ctx, cmd: cmds.Build) -> Phrase:
    return _build_on(c, c.player(cmd.player), cmd.square, None)


def _a_shortage(state: GameState) -> bool:
    """Whether the bank is short of houses or hotels: else no building auction is asked about square by square."""
    return any(shortage(state, hotel=hotel) is not None for hotel in (False, True))


@books(cmds.BuildAuction, legal=row(auction_candidate, deeds, _a_shortage),
       said=("rules.build.house.won", "rules.build.hotel.won"))
def build_auction(c: Ctx, cmd: cmds.BuildAuction) -> Phrase:
    """Seed 000 "Wollen zwei oder mehr Spieler eine höhere Anzahl Gebäude kaufen als die Bank zur Verfügung hat,
    werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt der
    niedrigste, gedruckte Preis der entsprechenden Besitzrechtkarten." Seeds 001, 003, 004: "Gibt es nur noch
    wenige Gebäude, aber mehrere bauwillige Spieler, versteigert der Bankhalter die Gebäude an den
    Meistbietenden", with their auctions' "Mindestgebot von 1" (the edition's ``building_auction_at_house_price``)."""
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    if c.house_rule("no_auctions"):
        raise RuleError("house_rule_off", phrase("rules.build.no_auctions"))
    hotel = c.level(sq) == c.state.houses_per_hotel
    wanted = shortage(c.state, hotel=hotel)
    if wanted is None:
        what = Noun("hotel", True) if hotel else Noun("house", True)
        raise RuleError("no_shortage", phrase("rules.build.no_shortage", buildings=what))
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


def _build_on(c: Ctx, player: str, square: Square, price: Money | None) -> Phrase:
    """One step up on a street: a house, or the hotel; at the printed price or an auction's ``price``."""
    sq = c.street(square, player)
    group = GROUPS[DEEDS[sq].group or ""]
    ed, hph = c.edition, c.state.houses_per_hotel
    if not owns_group(c.state, player, DEEDS[sq].group or ""):
        raise RuleError("no_monopoly", phrase("rules.build.no_monopoly", player=player, square=Place(sq)))
    if any(c.s.get("mortgaged", g) for g in group):
        raise RuleError("group_mortgaged", phrase("rules.build.mortgaged"))
    here = c.level(sq)
    if here > hph:
        raise RuleError("max_buildings", phrase("rules.build.full", square=Place(sq), hotel_pieces=Pieces("hotel", 1)))
    lowest = min(c.level(g) for g in group)
    if here > lowest:
        raise RuleError("uneven_building", phrase("rules.build.uneven"))
    cost = ed.deed(sq).house_price if price is None else price
    won = "" if price is None else ".won"
    if here == hph:
        stock = int(c.s.get("bank_hotels") or 0)
        if stock < 1:
            raise RuleError("no_stock", phrase("rules.build.no_stock", buildings=Noun("hotel", True)))
        c.s.pay(player, None, cost, phrase("rules.reason.building", what=Noun("hotel"), square=Place(sq)))
        c.s.set("bank_hotels", None, stock - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + hph)
        c.s.set("houses", sq, 0)
        c.s.set("hotel", sq, True)
        return phrase("rules.build.hotel" + won, player=player, hotel_pieces=Pieces("hotel", 1, "acc"),
                      square=Place(sq), amount=Cash(cost))
    stock = int(c.s.get("bank_houses") or 0)
    if stock < 1:
        raise RuleError("no_stock", phrase("rules.build.no_stock", buildings=Noun("house", True)))
    c.s.pay(player, None, cost, phrase("rules.reason.building", what=Noun("house"), square=Place(sq)))
    c.s.set("bank_houses", None, stock - 1)
    c.s.set("houses", sq, here + 1)
    # What is built, where, and what that one costs ("2 Hütten (50)" read as two for 50); how many
    # stand there now after it.
    return phrase("rules.build.house" + won, player=player, pieces=Pieces("house", 1, "acc"), square=Place(sq),
                  amount=Cash(cost), n=here + 1, houses=Noun("house", True))


@books(cmds.SellBuilding, legal=on_square(deeds),
       said=("rules.sell.house", "rules.sell.hotel", "rules.sell.hotel.whole", "rules.sell.traded"))
def sell_building(c: Ctx, cmd: cmds.SellBuilding) -> Phrase:
    player = c.player(cmd.player)
    sq = c.street(cmd.square, player)
    to_houses = cmd.to_houses
    ed, hph = c.edition, c.state.houses_per_hotel
    here = c.level(sq)
    if here == 0:
        raise BadCommand(phrase("rules.sell.nothing", square=Place(sq)))
    if here < max(c.level(g) for g in GROUPS[DEEDS[sq].group or ""]):
        raise RuleError("uneven_building", phrase("rules.sell.uneven"))
    half = ed.deed(sq).house_price // 2
    if not c.s.get("hotel", sq):
        if to_houses:
            raise BadCommand(phrase("rules.sell.no_hotel", square=Place(sq), houses=Noun("house", True)))
        c.s.pay(None, player, half, phrase("rules.reason.sale", what=Noun("house"), square=Place(sq)))
        c.s.set("houses", sq, here - 1)
        c.s.set("bank_houses", None, int(c.s.get("bank_houses") or 0) + 1)
        return phrase("rules.sell.house", player=player, pieces=Pieces("house", 1, "acc"), square=Place(sq),
                      amount=Cash(half))
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
            raise RuleError("no_stock", phrase("rules.sell.no_stock.trade", pieces=Pieces("house", hph, "acc")))
        c.s.set("bank_houses", None, stock - hph)
        c.s.set("houses", sq, hph)
        c.s.pay(None, player, half, phrase("rules.reason.sale", what=Noun("hotel"), square=Place(sq)))
        # Who, where and what first ("Ben tauscht das / Schloss auf" hid the street).
        return phrase("rules.sell.traded", player=player, square=Place(sq), hotel_pieces=Pieces("hotel", 1, "acc"),
                      pieces=Pieces("house", hph, "acc"), amount=Cash(half))
    whole = half * (hph + 1)
    c.s.pay(None, player, whole, phrase("rules.reason.sale", what=Noun("hotel"), square=Place(sq)))
    if short:
        return phrase("rules.sell.hotel.whole", player=player, square=Place(sq), hotel_pieces=Pieces("hotel", 1, "acc"),
                      amount=Cash(whole), n=stock, house=Noun("house"), houses=Noun("house", True))
    return phrase("rules.sell.hotel", player=player, square=Place(sq), hotel_pieces=Pieces("hotel", 1, "acc"),
                  amount=Cash(whole))
