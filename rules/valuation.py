"""Rent, mortgage interest and net worth: the numbers the banker used to work out by hand."""

from __future__ import annotations

from .board import GROUPS, Kind, Square
from .editions import Edition
from .money import Money
from .state import GameState


def interest(edition: Edition, mortgage: Money) -> Money:
    """The 10 % on a mortgage: banking rounds to the nearest 10,000 ("gerundet auf den
    nächsten 10.000er-Betrag"); the 1-unit editions round up to a whole unit."""
    step = edition.scale
    if step > 1:
        return (mortgage + 5 * step) // (10 * step) * step
    return -(-mortgage // 10)


def lift_cost(edition: Edition, square: Square) -> Money:
    """Lifting a mortgage: the mortgage value plus 10 % interest."""
    mortgage = edition.deed(square).mortgage
    return mortgage + interest(edition, mortgage)


def owns_group(state: GameState, owner: str, group: str) -> bool:
    return all(state.deeds[sq].owner == owner for sq in GROUPS[group])


def level(state: GameState, square: Square) -> int:
    """Buildings on a street counted in steps: houses, or houses-per-hotel + 1 for a hotel."""
    deed = state.deeds[square]
    return state.houses_per_hotel + 1 if deed.hotel else deed.houses


def rent(state: GameState, square: Square, dice: int | None = None) -> Money:
    """Rent for landing on an owned, unmortgaged deed. ``dice`` is needed for utilities."""
    edition = state.edition
    card = edition.deed(square)
    deed = state.deeds[square]
    owner = deed.owner
    assert owner is not None and not deed.mortgaged
    if card.kind is Kind.STREET:
        if deed.hotel:
            return card.rents[5]
        if deed.houses:
            return card.rents[deed.houses]
        assert card.group is not None
        doubled = owns_group(state, owner, card.group) and (
            edition.double_rent_with_mortgaged_group
            or not any(state.deeds[sq].mortgaged for sq in GROUPS[card.group])
        )
        return card.rents[0] * (2 if doubled else 1)
    owned = sum(1 for sq in GROUPS[card.group or ""] if state.deeds[sq].owner == owner)
    if card.kind is Kind.STATION:
        return card.rents[owned - 1]
    assert dice is not None
    return card.rents[owned - 1] * dice * edition.scale  # a utility's rents are dice factors


def deed_value(state: GameState, square: Square) -> Money:
    """A deed's worth at the end of a quick or timed game: printed price, half if mortgaged,
    plus its buildings at purchase price (a hotel including the houses traded in for it)."""
    card = state.edition.deed(square)
    deed = state.deeds[square]
    price = card.price // 2 if deed.mortgaged else card.price
    buildings = level(state, square) * card.house_price
    return price + buildings


def net_worth(state: GameState, name: str) -> Money:
    """Cash plus every deed at :func:`deed_value` (seed 000 "Schnellspiel", seed 004), less a debt to the bank."""
    player = state.players[name]
    if player.bankrupt:
        return 0
    return player.cash - player.debt + sum(deed_value(state, sq) for sq, d in state.deeds.items() if d.owner == name)


def building_sale(state: GameState, square: Square) -> Money:
    """What the bank pays for every building on a street: half the price of each step (a hotel whole:
    half the hotel and half the houses it replaced, seed 000 "Hotels verkaufen")."""
    return level(state, square) * state.edition.deed(square).house_price // 2


def raisable(state: GameState, name: str) -> tuple[Money, Money, Money]:
    """What a player could pay today: cash less any debt to the bank, what selling every building to the
    bank would bring, and what mortgaging every deed not yet mortgaged would bring. Selling deeds to other
    players is left out: nobody has to buy (seed 000: bankrupt is who "mehr schuldet als er bezahlen kann")."""
    player = state.players[name]
    own = [sq for sq, d in state.deeds.items() if d.owner == name]
    buildings = sum(building_sale(state, sq) for sq in own)
    mortgages = sum(state.edition.deed(sq).mortgage for sq in own if not state.deeds[sq].mortgaged)
    return player.cash - player.debt, buildings, mortgages


def winners(state: GameState) -> list[str]:
    """Who won a game that is over: the winner, and in a quick or timed game everyone as rich as the winner
    ("Der reichste Spieler hat gewonnen!": equal net worth is equally rich, a shared win). Empty while the
    game runs. ``state.winner`` names the first of them (by cash, then seat: the contract has one name)."""
    if not state.finished or state.winner is None:
        return []
    top = net_worth(state, state.winner)
    return [n for n in ranking(state) if not state.players[n].bankrupt and net_worth(state, n) == top]


def ranking(state: GameState) -> list[str]:
    """Players by net worth, richest first; ties by cash, then seat order; bankrupt players last, who went
    bankrupt last first (the seat says nothing about how long one held out)."""
    seats = {name: i for i, name in enumerate(state.players)}
    return sorted(
        state.players,
        key=lambda n: (state.players[n].bankrupt, -state.players[n].bankrupt_order, -net_worth(state, n),
                       -state.players[n].cash, seats[n]),
    )
