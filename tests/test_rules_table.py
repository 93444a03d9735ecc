"""What the books say about selling hotels, and what every table needs beyond the books."""

from __future__ import annotations

import pytest
from told import told

from conftest import apply, give, refused, start
from rules import EDITIONS, Game, RuleError


def hotels_on_dark_blue(edition: str) -> Game:
    game = start(edition)
    give(game, "Anna", 37, 39)
    apply(game, op="credit", player="Anna", amount=EDITIONS[edition].max_entry)
    for _ in range(5):
        for sq in (37, 39):
            apply(game, op="build", player="Anna", square=sq)
    assert game.state is not None and game.state.deeds[37].hotel and game.state.deeds[39].hotel
    return game


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_a_hotel_sold_gives_back_its_four_houses_and_half_its_price(edition: str) -> None:
    """Seed 001: "Für ein Stadion erhalten Sie von der Bank die ursprünglich eingetauschten 4 Tribünen sowie
    die Hälfte des regulären Preises für das Stadion" (seed 003 and 004 say the same)."""
    game = hotels_on_dark_blue(edition)
    state = game.state
    assert state is not None
    cash, houses = state.players["Anna"].cash, state.bank_houses
    apply(game, op="sell_building", player="Anna", square=39)
    assert state.deeds[39].houses == 4 and not state.deeds[39].hotel
    assert state.players["Anna"].cash == cash + 100  # half of Schlossallee's 200 building price
    assert state.bank_houses == houses - 4 and state.bank_hotels == 11


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_selling_stays_even_there(edition: str) -> None:
    """ "Die Tribünen müssen ebenso gleichmäßig zurückgegeben werden, wie sie gekauft wurden." """
    game = hotels_on_dark_blue(edition)
    apply(game, op="sell_building", player="Anna", square=39)
    refused(game, "uneven_building", op="sell_building", player="Anna", square=39)  # 3 houses next to a hotel


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_with_fewer_than_four_houses_in_the_bank_a_hotel_is_sold_whole_there(edition: str) -> None:
    """Where the rules are silent (docs/rules.md, "Wo die Regeln schweigen"): the bank cannot hand back 4 houses it does not
    have, so the hotel is sold whole as seed 000 "Hotels verkaufen" does ("den halben Preis für das Hotel plus
    den halben Preis für die 4 Apartments"): the same money, and an owner in debt can still raise it."""
    game = hotels_on_dark_blue(edition)
    state = game.state
    assert state is not None
    state.bank_houses = 3
    cash = state.players["Anna"].cash
    event = apply(game, op="sell_building", player="Anna", square=39)
    assert state.deeds[39].houses == 0 and not state.deeds[39].hotel
    assert state.players["Anna"].cash == cash + 5 * 100 and state.bank_houses == 3 and state.bank_hotels == 11
    assert "ganz verkauft" in told(event, game)
    refused(game, "no_stock", op="sell_building", player="Anna", square=37, to_houses=True)  # asked for houses


def test_banking_sells_a_hotel_whole_as_its_book_describes() -> None:
    """Seed 000, "Hotels verkaufen": half the hotel's price plus half the price of the houses traded in."""
    game = hotels_on_dark_blue("banking")
    state = game.state
    assert state is not None
    cash = state.players["Anna"].cash
    apply(game, op="sell_building", player="Anna", square=39)
    assert state.deeds[39].houses == 0 and state.players["Anna"].cash == cash + 5 * 1_000_000


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_pay_everyone_is_one_command_scaled_to_the_edition(edition: str) -> None:
    """ "Zahle jedem Spieler …": every other player still in the game gets the amount."""
    game = start(edition, players=("Anna", "Ben", "Cem"))
    unit = EDITIONS[edition].scale
    apply(game, op="pay_all", player="Anna", amount=50 * unit)
    assert game.state is not None
    assert [p.cash for p in game.state.players.values()] == [1400 * unit, 1550 * unit, 1550 * unit]
    apply(game, op="undo")
    assert [p.cash for p in game.state.players.values()] == [1500 * unit] * 3


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_birthday_everyone_pays_the_player(edition: str) -> None:
    """ "Du hast Geburtstag: jeder Spieler zahlt dir …" """
    game = start(edition, players=("Anna", "Ben", "Cem"))
    unit = EDITIONS[edition].scale
    apply(game, op="collect_all", player="Anna", amount=10 * unit)
    assert game.state is not None
    assert [p.cash for p in game.state.players.values()] == [1520 * unit, 1490 * unit, 1490 * unit]


def test_pay_everyone_is_refused_as_a_whole_when_the_money_is_short() -> None:
    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="debit", player="Anna", amount=1450)
    message = refused(game, "insufficient_funds", op="pay_all", player="Anna", amount=30)
    assert "braucht 2 × 30 = 60" in message
    assert game.state is not None and game.state.players["Ben"].cash == 1500


def test_collect_from_everyone_names_who_cannot_pay() -> None:
    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="debit", player="Cem", amount=1490)
    message = refused(game, "insufficient_funds", op="collect_all", player="Anna", amount=50)
    assert "Cem (hat 10)" in message and "Ben" not in message


def test_a_bankrupt_player_neither_pays_nor_is_paid_by_everyone() -> None:
    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="bankrupt", player="Cem")
    apply(game, op="pay_all", player="Anna", amount=100)
    assert game.state is not None and game.state.players["Anna"].cash == 1400


def test_repairs_count_the_players_houses_and_hotels() -> None:
    """ "Renovierung": so much per house and per hotel; the banker types the two rates (the seeds print none)."""
    game = hotels_on_dark_blue("classic")
    give(game, "Anna", 1, 3)
    apply(game, op="build", player="Anna", square=1)
    assert game.state is not None
    cash = game.state.players["Anna"].cash
    event = apply(game, op="repairs", player="Anna", per_house=25, per_hotel=100)
    assert game.state.players["Anna"].cash == cash - (1 * 25 + 2 * 100)
    assert "1 Haus und 2 Hotels" in told(event, game)


def test_repairs_without_buildings_cost_nothing_and_are_not_booked() -> None:
    refused(start(), "not_owner", op="repairs", player="Anna", per_house=25, per_hotel=100)


@pytest.mark.parametrize("edition", ["classic", "schalke"])
def test_repairs_at_zero_for_houses_and_hotels_are_refused_not_booked(edition: str) -> None:
    """"Je Tribüne? 0 | OK: 0" booked a Renovierung of 0. Every card names a price per house and per
    hotel; both at 0 book nothing, so the rules refuse them and say why."""
    game = hotels_on_dark_blue(edition)
    booked = len(game.history)
    message = refused(game, "amount_out_of_range", op="repairs", player="Anna", per_house=0, per_hotel=0)
    assert len(game.history) == booked
    ed = EDITIONS[edition]
    assert message == f"Betrag fehlt: je {ed.house}, je {ed.hotel}"
    assert apply(game, op="repairs", player="Anna", per_house=0, per_hotel=100 * ed.scale).transfers


def test_the_free_parking_pot_collects_taxes_and_pays_out_on_frei_parken() -> None:
    """House rule free_parking_pot: what goes to the bank goes into the middle; Frei Parken takes it."""
    game = start(house_rules=["free_parking_pot"])
    apply(game, op="tax", player="Anna", square=4)
    apply(game, op="jail_fine", player="Ben")
    apply(game, op="debit", player="Ben", amount=15)
    assert game.state is not None and game.state.pot == 265
    apply(game, op="free_parking", player="Ben")
    assert game.state.pot == 0 and game.state.players["Ben"].cash == 1500 - 65 + 265
    refused(game, "amount_out_of_range", op="free_parking", player="Anna")  # the pot is empty


def test_without_the_house_rule_there_is_no_pot() -> None:
    """All five books: "BEFOLGEN SIE DIE REGELN!" — the books' rules stay the default."""
    game = start()
    apply(game, op="tax", player="Anna", square=4)
    assert game.state is not None and game.state.pot == 0
    refused(game, "house_rule_off", op="free_parking", player="Anna")


def test_double_salary_for_landing_exactly_on_los() -> None:
    game = start("banking", house_rules=["double_go"])
    apply(game, op="go", player="Anna", exact=True)
    assert game.state is not None and game.state.players["Anna"].cash == 19_000_000
    refused(start("banking"), "house_rule_off", op="go", player="Anna", exact=True)


def test_no_auctions_refuses_a_price_other_than_the_printed_one() -> None:
    game = start(house_rules=["no_auctions"])
    refused(game, "house_rule_off", op="buy", player="Anna", square=39, price=10)
    apply(game, op="buy", player="Anna", square=39, price=400)


def test_unknown_house_rules_are_bad_commands_and_the_state_shows_the_chosen_ones() -> None:
    from rules import to_json

    with pytest.raises(RuleError) as err:
        start(house_rules=["pot_of_gold"])
    assert err.value.code == "bad_command"
    game = start(house_rules=["free_parking_pot", "double_go"])
    assert game.state is not None
    assert to_json(game.state)["house_rules"] == ["double_go", "free_parking_pot"] and to_json(game.state)["pot"] == 0


NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Cem", "Dana"]}


def test_a_running_game_is_replaced_only_when_the_command_says_so_and_storno_brings_it_back() -> None:
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    refused(game, "game_running", **NEW)
    game.apply({**NEW, "replace": True})
    assert game.state is not None and list(game.state.players) == ["Cem", "Dana"]
    game.apply({"op": "undo"})
    assert list(game.state.players) == ["Anna", "Ben"] and game.state.players["Anna"].cash == 1600
    game.apply({"op": "undo"})  # and Storno walks on into the restored game
    assert game.state.players["Anna"].cash == 1500


def test_a_finished_game_needs_no_replace() -> None:
    game = start()
    apply(game, op="bankrupt", player="Ben")
    assert game.state is not None and game.state.finished
    game.apply(NEW)


def test_journals_from_before_replace_still_replay() -> None:
    """The appliance's own journal replays new games over running ones as they were accepted then."""
    game = start()
    game.apply(NEW, replaying=True)
    assert game.state is not None and list(game.state.players) == ["Cem", "Dana"]


def test_the_first_game_cannot_be_undone_away() -> None:
    game = start()
    assert not game.undoable()
    refused(game, "bad_command", op="undo")


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_repairs_and_the_pot_scale_with_the_edition_and_storno_takes_them_back_exactly(edition: str) -> None:
    """ "Renovierung" in every edition, and the Frei-Parken pot: each booking scaled, each Storno exact."""
    unit = EDITIONS[edition].scale
    game = hotels_on_dark_blue(edition)
    state = game.state
    assert state is not None
    cash = state.players["Anna"].cash
    apply(game, op="repairs", player="Anna", per_house=25 * unit, per_hotel=100 * unit)
    assert state.players["Anna"].cash == cash - 2 * 100 * unit
    apply(game, op="undo")
    assert state.players["Anna"].cash == cash

    game = start(edition, house_rules=["free_parking_pot"])
    state = game.state
    assert state is not None
    apply(game, op="tax", player="Anna", square=38)
    pot = state.pot
    assert pot > 0 and state.players["Anna"].cash == 1500 * unit - pot
    apply(game, op="free_parking", player="Ben")
    assert state.pot == 0 and state.players["Ben"].cash == 1500 * unit + pot
    apply(game, op="undo")
    assert state.pot == pot and state.players["Ben"].cash == 1500 * unit


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_who_cannot_pay_everyone_is_refused_then_raises_money_or_goes_bankrupt(edition: str) -> None:
    """The usual path when someone cannot pay: the command is refused as a whole (nothing moves), the player
    raises money or declares bankruptcy, and the command then goes through among those still in the game."""
    unit = EDITIONS[edition].scale
    game = start(edition, players=("Anna", "Ben", "Cem"))
    state = game.state
    assert state is not None
    apply(game, op="debit", player="Cem", amount=1490 * unit)
    refused(game, "insufficient_funds", op="collect_all", player="Anna", amount=50 * unit)
    refused(game, "insufficient_funds", op="pay_all", player="Cem", amount=50 * unit)
    assert [p.cash for p in state.players.values()] == [1500 * unit, 1500 * unit, 10 * unit]
    apply(game, op="bankrupt", player="Cem", creditor="Anna")
    apply(game, op="collect_all", player="Anna", amount=50 * unit)
    assert [p.cash for p in state.players.values()] == [1560 * unit, 1450 * unit, 0]
