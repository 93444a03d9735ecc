"""A family's edition played end to end ("new game, rent, build, mortgage, bankruptcy, quick game
scoring"): every amount, name and word comes from the family's file, none from the classic board."""

from __future__ import annotations

from told import told

from conftest import apply, cash, give
from rules import EDITIONS, Game, net_worth, ranking
from rules.editions import Edition, journal_data, read_edition

ELBTAL = '''key = "elbtal"
title = "MONOPOLY Elbtal"
base = "classic"
currency = "Taler"
scale = 10                     # the classic board times ten: every amount left out is scaled

[names]
37 = "Blaues Wunder"
39 = "Zwinger"

[buildings]
house = { singular = "Speicher", plural = "Speicher", gender = "m" }
hotel = { singular = "Kontorhaus", plural = "Kontorhäuser", gender = "n" }

[rules]
bankruptcy_mortgage_fee = true

[quick]
deeds_each = 3
deal_paid = false

[deeds.39]
price = 4400
rents = [550, 2200, 6600, 15400, 18700, 22000]
house_price = 2200
mortgage = 2200
'''


def elbtal() -> Edition:
    checked = read_edition(ELBTAL, EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return checked.edition


def new(mode: str = "standard", **extra: object) -> Game:
    game = Game()
    game.apply({"op": "new_game", "edition": "elbtal", "mode": mode, "players": ["Anna", "Ben", "Cem"],
                "edition_data": journal_data(elbtal()), **extra})
    return game


def test_a_family_edition_plays_a_whole_standard_game() -> None:
    from told import means

    game = new()
    assert cash(game, "Anna") == 15_000  # classic 1500 at the family's scale
    event = apply(game, op="buy", player="Anna", square=39)
    assert means(event, "rules.buy.done", player="Anna", square=39, amount=4400)
    apply(game, op="buy", player="Anna", square=37)  # 3500: inherited, scaled
    assert cash(game, "Anna") == 15_000 - 4400 - 3500
    assert apply(game, op="rent", player="Ben", square=39).transfers[0].amount == 1100  # doubled: the whole group
    event = apply(game, op="build", player="Anna", square=39)
    assert means(event, "rules.build.house", player="Anna", square=39, amount=2200, n=1)
    assert "Zwinger einen Speicher" in told(event, game)  # the family's own building word
    apply(game, op="build", player="Anna", square=37)
    assert apply(game, op="rent", player="Ben", square=39).transfers[0].amount == 2200
    event = apply(game, op="sell_building", player="Anna", square=39)
    assert means(event, "rules.sell.house", player="Anna", square=39, amount=1100)
    apply(game, op="sell_building", player="Anna", square=37)
    event = apply(game, op="mortgage", player="Anna", square=39)
    assert means(event, "rules.mortgage.done", player="Anna", square=39, amount=2200)
    apply(game, op="go", player="Cem")
    assert cash(game, "Cem") == 17_000
    apply(game, op="tax", player="Cem", square=4)
    assert cash(game, "Cem") == 15_000


def test_a_family_edition_bankruptcy_charges_its_own_ten_percent_and_lifts_at_its_own_price() -> None:
    game = new()
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="mortgage", player="Anna", square=39)
    apply(game, op="debit", player="Anna", amount=cash(game, "Anna"))  # 18950: one entry (up to 20000 here)
    before = cash(game, "Ben")
    event = apply(game, op="bankrupt", player="Anna", creditor="Ben", lift=[39])
    # Zwinger lifted at once: 2200 + 220; Blaues Wunder kept: 10 % of 1750, to the family's smallest coin of 10.
    assert cash(game, "Ben") == before - 2420 - 180
    assert "Zwinger 2420" in told(event, game) and "Blaues Wunder 180" in told(event, game) and told(event.note, game) == "Ben an Bank: 2600"


def test_a_family_edition_quick_game_deals_free_deeds_and_scores_in_its_money() -> None:
    game = new("quick", deal={"Anna": [37, 39, 1], "Ben": [3, 5, 6], "Cem": [8, 9, 11]})
    assert game.state is not None and cash(game, "Anna") == 15_000  # deal_paid = false
    assert game.state.houses_per_hotel == 3
    for _ in range(3):
        for sq in (37, 39):
            apply(game, op="build", player="Anna", square=sq)
    event = apply(game, op="build", player="Anna", square=39)
    assert "auf Zwinger ein Kontorhaus" in told(event, game) and game.state.deeds[39].hotel
    # net worth: cash + price + buildings at purchase price, in the family's money
    assert net_worth(game.state, "Anna") == cash(game, "Anna") + 4400 + 4 * 2200 + 3500 + 3 * 2000 + 600
    apply(game, op="bankrupt", player="Cem")
    apply(game, op="bankrupt", player="Ben")
    assert game.state.finished and game.state.winner == "Anna" and ranking(game.state)[0] == "Anna"
