"""The classic board (docs/board.md): every square's rent, checked against the board data."""

import pytest

from conftest import give, start
from rules import DEEDS, EDITIONS, GROUPS, SQUARES, Kind, rent

BOARD_MD = {  # square: (price, rents unbuilt/1/2/3/4/hotel, house, mortgage), copied from board.md
    1: (60, (2, 10, 30, 90, 160, 250), 50, 30), 3: (60, (4, 20, 60, 180, 320, 450), 50, 30),
    6: (100, (6, 30, 90, 270, 400, 550), 50, 50), 8: (100, (6, 30, 90, 270, 400, 550), 50, 50),
    9: (120, (8, 40, 100, 300, 450, 600), 50, 60), 11: (140, (10, 50, 150, 450, 625, 750), 100, 70),
    13: (140, (10, 50, 150, 450, 625, 750), 100, 70), 14: (160, (12, 60, 180, 500, 700, 900), 100, 80),
    16: (180, (14, 70, 200, 550, 750, 950), 100, 90), 18: (180, (14, 70, 200, 550, 750, 950), 100, 90),
    19: (200, (16, 80, 220, 600, 800, 1000), 100, 100), 21: (220, (18, 90, 250, 700, 875, 1050), 150, 110),
    23: (220, (18, 90, 250, 700, 875, 1050), 150, 110), 24: (240, (20, 100, 300, 750, 925, 1100), 150, 120),
    26: (260, (22, 110, 330, 800, 975, 1150), 150, 130), 27: (260, (22, 110, 330, 800, 975, 1150), 150, 130),
    29: (280, (24, 120, 360, 850, 1025, 1200), 150, 140), 31: (300, (26, 130, 390, 900, 1100, 1275), 200, 150),
    32: (300, (26, 130, 390, 900, 1100, 1275), 200, 150), 34: (320, (28, 150, 450, 1000, 1200, 1400), 200, 160),
    37: (350, (35, 175, 500, 1100, 1300, 1500), 200, 175), 39: (400, (50, 200, 600, 1400, 1700, 2000), 200, 200),
}
STREETS = sorted(BOARD_MD)


def test_board_has_40_squares_and_28_deeds_in_8_colour_groups() -> None:
    assert [s.square for s in SQUARES] == list(range(40))
    assert len(DEEDS) == 28
    assert len([g for g in GROUPS if g not in ("station", "utility")]) == 8
    assert len(GROUPS["station"]) == 4 and len(GROUPS["utility"]) == 2


@pytest.mark.parametrize("sq", STREETS)
def test_street_card_matches_board_md(sq: int) -> None:
    price, rents, house, mortgage = BOARD_MD[sq]
    card = DEEDS[sq]
    assert (card.price, card.rents, card.house_price, card.mortgage) == (price, rents, house, mortgage)


@pytest.mark.parametrize("edition", ["classic", "banking"])
@pytest.mark.parametrize("sq", STREETS)
def test_street_rent_for_every_building_level(sq: int, edition: str) -> None:
    """Rent is the card's: unbuilt, 1–4 houses, hotel (banking × 10,000)."""
    game = start(edition)
    state = game.state
    assert state is not None
    scale = EDITIONS[edition].scale
    give(game, "Anna", sq)
    assert rent(state, sq) == BOARD_MD[sq][1][0] * scale
    for houses in range(1, 5):
        state.deeds[sq].houses = houses
        assert rent(state, sq) == BOARD_MD[sq][1][houses] * scale
    state.deeds[sq].houses, state.deeds[sq].hotel = 0, True
    assert rent(state, sq) == BOARD_MD[sq][1][5] * scale


@pytest.mark.parametrize(("owned", "due"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_station_rent_by_stations_owned(owned: int, due: int) -> None:
    game = start()
    give(game, "Anna", *GROUPS["station"][:owned])
    assert game.state is not None
    assert rent(game.state, 5) == due


def test_utility_rent_is_dice_times_4_or_10() -> None:
    game = start("banking")
    assert game.state is not None
    give(game, "Anna", 12)
    assert rent(game.state, 12, dice=7) == 4 * 7 * 10_000
    give(game, "Anna", 28)
    assert rent(game.state, 12, dice=7) == 10 * 7 * 10_000


def test_taxes_and_kinds() -> None:
    assert SQUARES[4].tax == 200 and SQUARES[38].tax == 100
    assert SQUARES[0].kind is Kind.GO and SQUARES[30].kind is Kind.GO_TO_JAIL
