"""One rule, one test: the commands of the contract (docs/commands.md) against the books (docs/books.md)."""

from __future__ import annotations

from typing import Any

import pytest
from told import told

from conftest import apply, cash, give, refused, snapshot, start
from rules import EDITIONS, Game, RuleError, lift_cost, net_worth, to_json


def deed(game: Game, sq: int) -> Any:
    assert game.state is not None
    return game.state.deeds[sq]


# -- start ----------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "capital"), [("banking", 15_000_000), ("classic", 1500), ("schalke", 1500),
                                                  ("sonic", 1500), ("skylanders", 1500), ("classic-uk", 1500),
                                                  ("classic-us", 1500)])
def test_every_player_starts_with_the_editions_start_capital(edition: str, capital: int) -> None:
    game = start(edition)
    assert cash(game, "Anna") == cash(game, "Ben") == capital


@pytest.mark.parametrize("players", [["Anna"], [f"P{i}" for i in range(9)], ["Anna", "Anna"], ["Anna", ""]])
def test_a_game_needs_two_to_eight_distinct_players(players: list[str]) -> None:
    with pytest.raises(RuleError) as err:
        Game().apply({"op": "new_game", "edition": "classic", "mode": "standard", "players": players})
    assert err.value.code == "bad_command"


def test_no_command_before_a_game_is_started() -> None:
    refused(Game(), "game_over", op="credit", player="Anna", amount=100)


def test_speed_die_gives_each_player_1000_extra() -> None:
    """Schalke "Schnelleres Spiel": "erhält jeder Spieler zusätzlich zum Startkapital 1000"."""
    game = start("schalke", speed_die=True)
    assert cash(game, "Anna") == 2500


def test_speed_die_only_where_the_edition_has_one() -> None:
    with pytest.raises(RuleError) as err:
        start("classic", speed_die=True)
    assert "Tempo-Würfel" in told(err)


# -- the card reader's own functions -----------------------------------------------------


def test_credit_debit_transfer() -> None:
    game = start("banking")
    apply(game, op="credit", player="Anna", amount=2_500_000)
    apply(game, op="debit", player="Ben", amount=500_000)
    apply(game, op="transfer", **{"from": "Anna", "to": "Ben", "amount": 1_000_000})
    assert (cash(game, "Anna"), cash(game, "Ben")) == (16_500_000, 15_500_000)


def test_go_pays_the_salary_and_may_be_pressed_twice_in_a_turn() -> None:
    """"Es ist möglich, dass ein Spieler in einem Zug zweimal sein Gehalt von € 2 Mio. erhält.\""""
    game = start("banking")
    apply(game, op="go", player="Anna")
    apply(game, op="go", player="Anna")
    assert cash(game, "Anna") == 19_000_000


@pytest.mark.parametrize("amount", [9_999, 0, 20_010_000])
def test_banking_entries_only_between_10k_and_20m(amount: int) -> None:
    """"Es können nur Beträge zwischen 10K und 20M eingegeben werden"."""
    refused(start("banking"), "amount_out_of_range", op="credit", player="Anna", amount=amount)


@pytest.mark.parametrize("amount", [15_000, 10_000, 2_550_000, 20_000_000])
def test_banking_any_amount_in_the_range_is_accepted(amount: int) -> None:
    """Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen": a range; no 10K step is in the book."""
    game = start("banking")
    apply(game, op="credit", player="Anna", amount=amount)
    assert game.state is not None and game.state.players["Anna"].cash == 15_000_000 + amount


def test_one_unit_entries_between_1_and_2000() -> None:
    game = start("classic")
    refused(game, "amount_out_of_range", op="credit", player="Anna", amount=2001)
    apply(game, op="credit", player="Anna", amount=2000)


def test_a_player_never_pays_more_than_they_have() -> None:
    game = start("banking")
    apply(game, op="debit", player="Anna", amount=14_000_000)
    message = refused(game, "insufficient_funds", op="debit", player="Anna", amount=2_000_000)
    assert message == "Nicht genug Geld. Es fehlen 1M – Anna hat 1M, braucht 2M"


def test_unknown_player_is_refused() -> None:
    refused(start(), "unknown_player", op="credit", player="Zoe", amount=100)


@pytest.mark.parametrize("cmd", [{"op": "fly"}, {"op": "credit", "player": "Anna"},
                                 {"op": "credit", "player": "Anna", "amount": "100"},
                                 {"op": "credit", "player": "Anna", "amount": True},
                                 {"op": "credit", "player": "Anna", "amount": 1.5}])
def test_malformed_commands_are_bad_command(cmd: dict[str, Any]) -> None:
    refused(start(), "bad_command", **cmd)


def test_a_repeated_id_is_applied_once() -> None:
    game = start()
    first = game.apply({"op": "credit", "player": "Anna", "amount": 100, "id": "phone-1"})
    again = game.apply({"op": "credit", "player": "Anna", "amount": 100, "id": "phone-1"})
    assert not first.duplicate and again.duplicate
    assert cash(game, "Anna") == 1600


# -- buying and auctions ------------------------------------------------------------------


def test_buy_at_the_printed_price() -> None:
    game = start("banking")
    apply(game, op="buy", player="Anna", square=39)
    assert cash(game, "Anna") == 11_000_000 and deed(game, 39).owner == "Anna"


def test_a_deed_is_sold_only_once() -> None:
    game = start()
    apply(game, op="buy", player="Anna", square=39)
    refused(game, "already_owned", op="buy", player="Ben", square=39)


def test_auction_price_any_amount_in_banking() -> None:
    """"Die Versteigerung beginnt mit dem (beliebigen) Betrag" – even below the printed price."""
    game = start("banking")
    apply(game, op="buy", player="Ben", square=39, price=10_000)
    assert cash(game, "Ben") == 14_990_000


def test_auction_bidder_must_have_the_cash() -> None:
    game = start("skylanders")
    refused(game, "insufficient_funds", op="buy", player="Ben", square=39, price=1600)
    refused(game, "amount_out_of_range", op="buy", player="Ben", square=39, price=0)


@pytest.mark.parametrize(("sq", "code"), [(0, "not_a_property"), (4, "not_a_property"), (40, "unknown_square")])
def test_only_deeds_can_be_bought(sq: int, code: str) -> None:
    refused(start(), code, op="buy", player="Anna", square=sq)


# -- rent ----------------------------------------------------------------------------------


def test_rent_goes_from_the_lander_to_the_owner() -> None:
    game = start()
    apply(game, op="buy", player="Anna", square=39)
    apply(game, op="rent", player="Ben", square=39)
    assert (cash(game, "Anna"), cash(game, "Ben")) == (1150, 1450)


def test_rent_doubles_with_the_whole_colour_group() -> None:
    game = start()
    give(game, "Anna", 37, 39)
    apply(game, op="rent", player="Ben", square=39)
    assert cash(game, "Ben") == 1400


@pytest.mark.parametrize(("edition", "due"), [("classic", 100), ("banking", 1_000_000), ("schalke", 50),
                                              ("sonic", 50), ("skylanders", 50), ("classic-uk", 100),
                                              ("classic-us", 100)])
def test_doubling_with_a_mortgaged_street_in_the_group_depends_on_the_edition(edition: str, due: int) -> None:
    """Anna owns all of dark blue, Parkstraße mortgaged; Ben lands on Schlossallee: rent is 100
    in the classic edition ("Dies gilt auch, wenn andere Grundstücke dieser Farbgruppe mit
    Hypotheken belastet sind"), 50 in Schalke, Sonic and Skylanders."""
    game = start(edition)
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    before = cash(game, "Ben")
    apply(game, op="rent", player="Ben", square=39)
    assert before - cash(game, "Ben") == due


def test_no_rent_on_a_mortgaged_property() -> None:
    """"Sollte das Grundstück … mit einer Hypothek belastet sein, darf keine Miete verlangt werden.\""""
    game = start()
    give(game, "Anna", 39)
    apply(game, op="mortgage", player="Anna", square=39)
    refused(game, "mortgaged", op="rent", player="Ben", square=39)


def test_no_rent_on_unowned_or_own_property() -> None:
    game = start()
    refused(game, "not_owner", op="rent", player="Ben", square=39)
    give(game, "Ben", 39)
    refused(game, "not_owner", op="rent", player="Ben", square=39)


def test_a_mortgaged_station_still_counts_as_owned() -> None:
    """"wie viele Verkehrszentren der Eigentümer besitzt" – mortgaged ones too."""
    game = start()
    give(game, "Anna", 5, 15)
    apply(game, op="mortgage", player="Anna", square=5)
    apply(game, op="rent", player="Ben", square=15)
    assert cash(game, "Ben") == 1450


def test_utility_rent_needs_the_dice() -> None:
    game = start("banking")
    give(game, "Anna", 12)
    refused(game, "bad_command", op="rent", player="Ben", square=12)
    refused(game, "amount_out_of_range", op="rent", player="Ben", square=12, dice=13)
    apply(game, op="rent", player="Ben", square=12, dice=8)
    assert cash(game, "Anna") == 15_000_000 + 4 * 8 * 10_000


def test_with_the_speed_die_utility_rent_uses_all_three_dice() -> None:
    """"Um auf einem Versorgungswerk die Miete zu bestimmen, werfen Sie alle 3 Würfel.\""""
    game = start("schalke", speed_die=True)
    give(game, "Anna", 12)
    apply(game, op="rent", player="Ben", square=12, dice=15)
    assert cash(game, "Ben") == 2500 - 60


# -- building ------------------------------------------------------------------------------


def test_build_only_with_the_whole_colour_group() -> None:
    game = start()
    give(game, "Anna", 37)
    refused(game, "no_monopoly", op="build", player="Anna", square=37)


def test_no_building_on_a_group_with_a_mortgage() -> None:
    """"Ist ein Grundstück einer Farbgruppe mit einer Hypothek beliehen, darf auf der ganzen Farbgruppe nicht gebaut werden.\""""
    game = start()
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    refused(game, "group_mortgaged", op="build", player="Anna", square=39)


def test_build_evenly() -> None:
    """"Apartments müssen gleichmäßig gebaut werden.\""""
    game = start()
    give(game, "Anna", 37, 39)
    apply(game, op="build", player="Anna", square=39)
    refused(game, "uneven_building", op="build", player="Anna", square=39)
    apply(game, op="build", player="Anna", square=37)
    apply(game, op="build", player="Anna", square=39)
    assert (deed(game, 37).houses, deed(game, 39).houses, cash(game, "Anna")) == (1, 2, 900)


def test_stations_cannot_be_built_on() -> None:
    game = start()
    give(game, "Anna", 5, 15, 25, 35)
    refused(game, "not_a_property", op="build", player="Anna", square=5)


def build_to(game: Game, player: str, squares: tuple[int, ...], level: int) -> None:
    for _ in range(level):
        for sq in squares:
            apply(game, op="build", player=player, square=sq)


def test_hotel_replaces_four_houses_for_one_more_house_price() -> None:
    """"Ein Hotel kostet 4 Apartments (die gibt er sofort an die Bank zurück) plus den Preis für ein weiteres Apartment.\""""
    game = start()
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 4)
    assert game.state is not None and game.state.bank_houses == 24
    apply(game, op="build", player="Anna", square=1)
    assert deed(game, 1).hotel and deed(game, 1).houses == 0
    assert (game.state.bank_houses, game.state.bank_hotels) == (28, 11)
    assert cash(game, "Anna") == 1500 - 9 * 50


def test_one_hotel_per_street_and_nothing_on_top() -> None:
    game = start()
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 5)
    refused(game, "max_buildings", op="build", player="Anna", square=1)


def test_quick_game_hotel_after_three_houses() -> None:
    """Schnellspiel: "müssen Sie nur 3 Apartments auf einer vollständigen Farbgruppe bauen, bevor ein Hotel errichtet werden darf.\""""
    game = start("banking", "quick", deal={"Anna": [1, 3], "Ben": [37, 39]})
    build_to(game, "Anna", (1, 3), 3)
    apply(game, op="build", player="Anna", square=1)
    assert deed(game, 1).hotel
    assert game.state is not None and game.state.bank_houses == 32 - 3


def test_bank_out_of_houses_means_wait() -> None:
    """"Wenn die Bank keine Gebäude mehr zu verkaufen hat, müssen die bauwilligen Spieler warten.\""""
    game = start("classic", players=("Anna", "Ben"))
    assert game.state is not None
    game.state.bank_houses = 0
    give(game, "Anna", 1, 3)
    refused(game, "no_stock", op="build", player="Anna", square=1)


def test_bank_out_of_hotels() -> None:
    game = start()
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 4)
    assert game.state is not None
    game.state.bank_hotels = 0
    refused(game, "no_stock", op="build", player="Anna", square=1)


# -- selling buildings ----------------------------------------------------------------------


def test_houses_sell_to_the_bank_at_half_price_evenly() -> None:
    game = start()
    give(game, "Anna", 37, 39)
    build_to(game, "Anna", (37, 39), 2)
    apply(game, op="sell_building", player="Anna", square=39)
    refused(game, "uneven_building", op="sell_building", player="Anna", square=39)
    assert cash(game, "Anna") == 1500 - 800 + 100


def test_hotel_sells_whole_for_half_of_hotel_and_four_houses() -> None:
    """"Der Bankhalter zahlt den halben Preis für das Hotel plus den halben Preis für die 4 Apartments.\""""
    game = start("banking")
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 5)
    before = cash(game, "Anna")
    apply(game, op="sell_building", player="Anna", square=1)
    assert cash(game, "Anna") - before == 5 * 500_000 // 2
    assert deed(game, 1).houses == 0 and not deed(game, 1).hotel


def test_hotel_turned_back_into_four_houses() -> None:
    """"Dafür verkaufen Sie ein Hotel zum halben Kaufpreis an die Bank und erhalten zusätzlich 4 Apartments.\""""
    game = start()
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 5)
    before = cash(game, "Anna")
    apply(game, op="sell_building", player="Anna", square=1, to_houses=True)
    assert (deed(game, 1).houses, cash(game, "Anna") - before) == (4, 25)


def test_hotel_back_into_houses_needs_the_houses_in_stock() -> None:
    game = start()
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 5)
    assert game.state is not None
    game.state.bank_houses = 3
    refused(game, "no_stock", op="sell_building", player="Anna", square=1, to_houses=True)


def test_quick_game_hotel_sells_for_one_house_less() -> None:
    """"Wird ein Hotel verkauft, so nur zum halben Preis, der hier ein Apartment weniger beträgt.\""""
    game = start("banking", "quick", deal={"Anna": [1, 3], "Ben": [37, 39]})
    build_to(game, "Anna", (1, 3), 4)
    before = cash(game, "Anna")
    apply(game, op="sell_building", player="Anna", square=1)
    assert cash(game, "Anna") - before == 4 * 500_000 // 2


# -- mortgages -----------------------------------------------------------------------------


def test_mortgage_pays_the_mortgage_value() -> None:
    game = start()
    give(game, "Anna", 39)
    apply(game, op="mortgage", player="Anna", square=39)
    assert cash(game, "Anna") == 1700 and deed(game, 39).mortgaged


def test_mortgage_needs_the_group_free_of_buildings() -> None:
    """"Zunächst muss der Spieler alle Gebäude verkaufen.\""""
    game = start()
    give(game, "Anna", 37, 39)
    build_to(game, "Anna", (37, 39), 1)
    refused(game, "has_buildings", op="mortgage", player="Anna", square=37)


def test_mortgage_twice_and_lift_unmortgaged_are_refused() -> None:
    game = start()
    give(game, "Anna", 39)
    refused(game, "not_mortgaged", op="unmortgage", player="Anna", square=39)
    apply(game, op="mortgage", player="Anna", square=39)
    refused(game, "mortgaged", op="mortgage", player="Anna", square=39)


def test_mortgage_texts_need_no_article_for_the_street() -> None:
    """"Cem nimmt eine Hypothek auf Schlossallee auf" wants "die Schlossallee", and the names of the
    themed editions have articles of their own: "für" takes the street's name as it is, the same in every text, and the
    player and the street come first ("Anna nimmt eine / Hypothek auf:" hid the street)."""
    game = start()
    give(game, "Anna", 37, 39)
    assert told(apply(game, op="mortgage", player="Anna", square=39), game) == "Anna: Hypothek auf Schlossallee (200)"
    assert told(apply(game, op="unmortgage", player="Anna", square=39), game) == (
        "Anna: Hypothek auf Schlossallee aufgelöst (220)")
    apply(game, op="mortgage", player="Anna", square=37)
    text = told(apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [37]}, b_gives={"cash": 100}, lift=[37]), game)
    assert text.endswith("; Ben: Parkstraße – Hypothek aufgelöst, 193 an die Bank")


def test_lifting_costs_value_plus_ten_percent_rounded_up_in_one_unit_editions() -> None:
    """Parkstraße's mortgage 175 + 17.5 rounded up: 193."""
    game = start()
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="unmortgage", player="Anna", square=37)
    assert cash(game, "Anna") == 1500 + 175 - 193


def test_banking_interest_rounds_to_the_nearest_10000() -> None:
    """"plus 10 % Zinsen (gerundet auf den nächsten 10.000er-Betrag)": 1.75M → 175K → 180K."""
    assert lift_cost(EDITIONS["banking"], 37) == 1_750_000 + 180_000
    assert lift_cost(EDITIONS["banking"], 1) == 300_000 + 30_000


def test_nobody_else_may_lift_anothers_mortgage() -> None:
    """"kein anderer Spieler darf die Hypotheken zurückzahlen.\""""
    game = start()
    give(game, "Anna", 39)
    apply(game, op="mortgage", player="Anna", square=39)
    refused(game, "not_owner", op="unmortgage", player="Ben", square=39)


# -- trading -------------------------------------------------------------------------------


def test_trade_deeds_cash_and_jail_cards() -> None:
    game = start()
    give(game, "Anna", 39)
    apply(game, op="jail_card", player="Ben", delta=1)
    apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [39]}, b_gives={"cash": 500, "jail_cards": 1})
    assert deed(game, 39).owner == "Ben"
    assert (cash(game, "Anna"), cash(game, "Ben")) == (2000, 1000)
    assert game.state is not None and game.state.players["Anna"].jail_cards == 1


def test_no_trade_out_of_a_group_with_buildings() -> None:
    """"Es kann jedoch kein Grundstück an einen anderen Spieler verkauft werden, wenn auf irgendein Grundstück dieser Farbgruppe Gebäude gebaut sind.\""""
    game = start()
    give(game, "Anna", 37, 39)
    build_to(game, "Anna", (39,), 1)
    refused(game, "has_buildings", op="trade", a="Anna", b="Ben", a_gives={"squares": [37]}, b_gives={"cash": 400})


def test_trading_a_mortgaged_deed_costs_the_receiver_ten_percent() -> None:
    """"Der Käufer kann dann entweder sofort die Hypothek auflösen oder 10 % Zinsen … zahlen.\""""
    game = start()
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [37]}, b_gives={"cash": 100})
    assert cash(game, "Ben") == 1500 - 100 - 18 and deed(game, 37).mortgaged


def test_trading_a_mortgaged_deed_lifted_at_once() -> None:
    game = start()
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [37]}, b_gives={"cash": 100}, lift=[37])
    assert cash(game, "Ben") == 1500 - 100 - 193 and not deed(game, 37).mortgaged


def test_trade_only_what_you_own() -> None:
    game = start()
    refused(game, "not_owner", op="trade", a="Anna", b="Ben", a_gives={"squares": [39]}, b_gives={"cash": 100})
    refused(game, "not_owner", op="trade", a="Anna", b="Ben", a_gives={"jail_cards": 1}, b_gives={"cash": 1})
    refused(game, "insufficient_funds", op="trade", a="Anna", b="Ben", a_gives={"cash": 1501}, b_gives={})
    refused(game, "bad_command", op="trade", a="Anna", b="Ben", a_gives={}, b_gives={})


# -- taxes, jail ---------------------------------------------------------------------------


def test_taxes_go_to_the_bank() -> None:
    game = start("banking")
    apply(game, op="tax", player="Anna", square=4)
    apply(game, op="tax", player="Anna", square=38)
    assert cash(game, "Anna") == 15_000_000 - 2_000_000 - 1_000_000
    refused(game, "bad_command", op="tax", player="Anna", square=5)


def test_jail_fine() -> None:
    """"Sie zahlen € 500 Tsd. Strafe.\""""
    game = start("banking")
    apply(game, op="jail_fine", player="Anna")
    assert cash(game, "Anna") == 14_500_000


def test_only_two_get_out_of_jail_cards_exist() -> None:
    game = start()
    apply(game, op="jail_card", player="Anna", delta=1)
    apply(game, op="jail_card", player="Ben", delta=1)
    refused(game, "no_stock", op="jail_card", player="Anna", delta=1)
    apply(game, op="jail_card", player="Anna", delta=-1)
    refused(game, "not_owner", op="jail_card", player="Anna", delta=-1)


# -- bankruptcy and the end ----------------------------------------------------------------


def test_bankrupt_to_a_player_hands_over_cash_deeds_and_cards() -> None:
    """"erhält von Ihnen: das gesamte Guthaben Ihrer Bankkarte, Ihre gesamten Besitzrecht-Karten sowie
    Ihre gesamten ‚Du kommst aus dem Gefängnis frei'-Karten.\""""
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 1, 3, 39)
    build_to(game, "Anna", (1, 3), 2)
    apply(game, op="jail_card", player="Anna", delta=1)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    state = game.state
    assert state is not None
    # Buildings went back to the bank at half price first: 4 houses × 25.
    assert cash(game, "Ben") == 1500 + (1500 - 200) + 100
    assert all(state.deeds[sq].owner == "Ben" and state.deeds[sq].houses == 0 for sq in (1, 3, 39))
    assert state.players["Ben"].jail_cards == 1 and state.bank_houses == 32
    assert state.players["Anna"].bankrupt and not state.finished


def test_creditor_pays_ten_percent_on_mortgaged_deeds_where_the_book_says_so() -> None:
    """Schalke, Sonic, Skylanders: the creditor pays the bank 10 % on each mortgaged deed at once."""
    for edition, fee in (("skylanders", 18), ("classic", 0)):
        game = start(edition, players=("Anna", "Ben", "Cem"))
        give(game, "Anna", 37)
        apply(game, op="mortgage", player="Anna", square=37)
        apply(game, op="bankrupt", player="Anna", creditor="Ben")
        assert cash(game, "Ben") == 1500 + 1675 - fee


def test_bankrupt_to_the_bank_returns_deeds_mortgage_free() -> None:
    """"Die Besitzrecht-Karten werden an die Bank zurückgegeben. Der Bankhalter versteigert die Grundstücke.\""""
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="jail_card", player="Anna", delta=1)
    apply(game, op="bankrupt", player="Anna")
    assert deed(game, 37).owner is None and not deed(game, 37).mortgaged
    assert game.state is not None and game.state.players["Anna"].jail_cards == 0
    apply(game, op="buy", player="Cem", square=37, price=10)  # the auction that follows


def test_a_bankrupt_player_takes_no_more_part() -> None:
    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="bankrupt", player="Anna")
    refused(game, "player_bankrupt", op="credit", player="Anna", amount=100)


def test_standard_game_last_player_standing_wins() -> None:
    game = start()
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert game.state is not None and game.state.finished and game.state.winner == "Ben"
    refused(game, "game_over", op="credit", player="Ben", amount=100)


def test_bankrupt_players_rank_by_when_they_went_bankrupt() -> None:
    """Who went bankrupt last stayed in the game longest and ranks above those before, whatever
    their seats (seed 000: "Der letzte Spieler, der übrig bleibt, gewinnt")."""
    from rules import ranking

    game = start(players=("Anna", "Ben", "Cem", "Dana"))
    apply(game, op="bankrupt", player="Anna")
    apply(game, op="bankrupt", player="Ben")
    assert game.state is not None and ranking(game.state)[2:] == ["Ben", "Anna"]
    assert to_json(game.state)["ranking"][2:] == ["Ben", "Anna"]
    apply(game, op="bankrupt", player="Dana", creditor="Cem")
    assert game.state.finished and ranking(game.state) == ["Cem", "Dana", "Ben", "Anna"]


def test_storno_of_a_bankruptcy_takes_back_its_place_in_the_ranking() -> None:
    from rules import ranking

    game = start(players=("Anna", "Ben", "Cem", "Dana"))
    apply(game, op="bankrupt", player="Anna")
    apply(game, op="bankrupt", player="Ben")
    apply(game, op="undo")
    apply(game, op="bankrupt", player="Cem")
    apply(game, op="bankrupt", player="Ben")
    assert game.state is not None and ranking(game.state) == ["Dana", "Ben", "Cem", "Anna"]


def test_banking_quick_game_deals_two_paid_deeds_and_ends_at_the_second_bankruptcy() -> None:
    """"teilt an jeden Spieler 2 Karten aus … Der aufgedruckte Preis wird sofort … an die Bank gezahlt.\""""
    game = start("banking", "quick", players=("Anna", "Ben", "Cem", "Dana"), seed=7)
    state = game.state
    assert state is not None
    for name in state.players:
        owned = [sq for sq, d in state.deeds.items() if d.owner == name]
        assert len(owned) == 2
        assert cash(game, name) == 15_000_000 - sum(10_000 * __import__("rules").DEEDS[s].price for s in owned)
    apply(game, op="bankrupt", player="Dana")
    assert not state.finished
    apply(game, op="bankrupt", player="Cem")
    assert state.finished and state.winner == max(("Anna", "Ben"), key=lambda n: net_worth(state, n))


def test_quick_deal_is_drawn_from_the_seed() -> None:
    a = start("banking", "quick", seed=42).state
    b = start("banking", "quick", seed=42).state
    assert a is not None and b is not None
    assert {sq: d.owner for sq, d in a.deeds.items()} == {sq: d.owner for sq, d in b.deeds.items()}


def test_skylanders_short_game_three_free_deeds_ends_at_the_first_bankruptcy() -> None:
    """"verteilt jeweils drei an jeden Spieler. Diese Besitzrechtkarten gibt es gratis\"; "Das Spiel endet, wenn ein Spieler bankrott geht.\""""
    game = start("skylanders", "quick", players=("Anna", "Ben", "Cem"), seed=1)
    state = game.state
    assert state is not None
    assert all(cash(game, n) == 1500 for n in state.players)
    assert sorted(sum(1 for d in state.deeds.values() if d.owner == n) for n in state.players) == [3, 3, 3]
    apply(game, op="bankrupt", player="Cem")
    assert state.finished and state.winner in ("Anna", "Ben")


def test_timed_game_ends_when_time_is_up_and_the_richest_wins() -> None:
    """MONOPOLY AUF ZEIT: "gewinnt der Spieler, der nach Ablauf der ausgemachten Zeit das größte Vermögen angehäuft hat.\""""
    game = start("banking", "timed", minutes=90)
    apply(game, op="buy", player="Ben", square=39)
    apply(game, op="mortgage", player="Ben", square=39)
    # Ben: 13.01M cash + Schlossallee mortgaged at half its price (2M) = 15.01M; Anna: 15M.
    apply(game, op="credit", player="Ben", amount=10_000)
    apply(game, op="end")
    assert game.state is not None and game.state.finished and game.state.winner == "Ben"
    assert to_json(game.state)["minutes"] == 90


def test_end_only_for_timed_games() -> None:
    refused(start(), "bad_command", op="end")


def test_net_worth_counts_cash_deeds_half_mortgaged_and_buildings_at_cost() -> None:
    """"Hotels zu ihrem ursprünglichen Kaufpreis (mit dem Wert der beim Hotelkauf zurückgegebenen 3 Apartments)."\""""
    game = start("banking", "quick", deal={"Anna": [1, 3], "Ben": [37, 39]})
    state = game.state
    assert state is not None
    build_to(game, "Anna", (1, 3), 4)  # hotel on both (3 houses + hotel)
    apply(game, op="mortgage", player="Ben", square=37)
    anna = cash(game, "Anna") + 2 * 600_000 + 2 * 4 * 500_000
    ben = cash(game, "Ben") + 4_000_000 + 3_500_000 // 2
    assert (net_worth(state, "Anna"), net_worth(state, "Ben")) == (anna, ben)


# -- undo and the state round trip ---------------------------------------------------------


def test_undo_reverses_the_last_transaction_exactly() -> None:
    game = start()
    give(game, "Anna", 1, 3)
    before = snapshot(game.state)
    apply(game, op="build", player="Anna", square=1)
    event = apply(game, op="undo")
    assert snapshot(game.state) == before
    assert told(event, game).startswith("Storno: ")


def test_undo_a_bankruptcy_that_ended_the_game() -> None:
    game = start()
    before = snapshot(game.state)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    apply(game, op="undo")
    assert snapshot(game.state) == before


def test_nothing_to_undo_after_a_new_game() -> None:
    refused(start(), "bad_command", op="undo")


def test_state_round_trips_through_the_contract_json() -> None:
    from rules import from_json

    game = start("banking", "timed", minutes=60)
    give(game, "Anna", 1, 3)
    build_to(game, "Anna", (1, 3), 5)
    apply(game, op="jail_card", player="Ben", delta=1)
    assert game.state is not None
    data = to_json(game.state)
    assert to_json(from_json(data)) == data
