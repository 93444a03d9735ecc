"""Where the books differ and the code did not: each difference a field of the edition, each with its
book quoted, and the questions the books leave open decided and written down (docs/rules.md)."""

from __future__ import annotations

import pytest
from told import told

from conftest import apply, cash, give, refused, start
from rules import EDITIONS, Game
from rules.legal import building_auction_min


def shortage(edition: str) -> Game:
    """Anna owns the brown group, Ben the dark blue one; the bank is down to 2 houses."""
    game = start(edition)
    give(game, "Anna", 1, 3)
    give(game, "Ben", 37, 39)
    assert game.state is not None
    game.state.bank_houses = 2
    return game


# -- the building auction's lowest bid ---------------------------------------------------------------


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_a_shortage_auction_starts_at_1_where_the_book_says_so(edition: str) -> None:
    """001/003/004 list the shortage among their auctions ("Gibt es nur noch wenige Gebäude, aber mehrere
    bauwillige Spieler, versteigert der Bankhalter die Gebäude an den Meistbietenden") and say "Jeder Spieler
    kann die Versteigerung mit einem Mindestgebot von 1 beginnen": a Schalke bid of 1 was refused
    ("mindestens 100")."""
    game = shortage(edition)
    assert building_auction_min(game, 39) == 1
    event = apply(game, op="build_auction", player="Ben", square=39, price=1)
    assert "ersteigert" in told(event, game) and cash(game, "Ben") == 1499
    refused(game, "amount_out_of_range", op="build_auction", player="Anna", square=1, price=0)


@pytest.mark.parametrize(("edition", "lowest"), [("banking", 500_000), ("classic", 50)])
def test_a_shortage_auction_starts_at_the_lowest_printed_house_price_in_banking_and_classic(
        edition: str, lowest: int) -> None:
    """Only 000 says "Als Mindestgebot gilt der niedrigste, gedruckte Preis der entsprechenden
    Besitzrechtkarten"; the classic book (002) has no word on a shortage and keeps 000's rule."""
    game = shortage(edition)
    assert building_auction_min(game, 39) == lowest
    refused(game, "amount_out_of_range", op="build_auction", player="Ben", square=39, price=lowest - 1)
    assert EDITIONS[edition].building_auction_at_house_price


# -- a creditor lifting a mortgaged deed from a bankruptcy --------------------------------------------


def bankrupt_with_parkstrasse(edition: str) -> Game:
    game = start(edition, players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="debit", player="Anna", amount=cash(game, "Anna"))
    return game


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_a_creditor_lifts_a_mortgaged_deed_from_a_bankruptcy_at_once_for_the_mortgage_and_10_percent_once(
        edition: str) -> None:
    """001/003/004: "Der Mitspieler muss sofort für jedes belastete Grundstück, das er von Ihnen erhält, 10 % Zinsen
    an die Bank bezahlen. Dies gilt auch dann, wenn er die Hypothek zu diesem Zeitpunkt noch nicht auflösen
    möchte" – and when he does, at once, it is "entweder sofort auflösen oder … 10 % … zahlen" as in a trade:
    193 for Parkstraße (175 + 18), not 18 now and 193 later (211)."""
    from told import means, within

    game = bankrupt_with_parkstrasse(edition)
    event = apply(game, op="bankrupt", player="Anna", creditor="Ben", lift=[37])
    assert cash(game, "Ben") == 1500 - 193
    assert game.state is not None and not game.state.deeds[37].mortgaged and game.state.deeds[37].owner == "Ben"
    assert [lifted["creditor"] for lifted in within(event, "rules.bankrupt.lifted")] == ["Ben"]
    assert within(event, "rules.item.paid") == [{"square": 37, "amount": 193}]
    assert means(event.note, "rules.note.paid_bank", player="Ben", amount=193)
    kept = bankrupt_with_parkstrasse(edition)
    apply(kept, op="bankrupt", player="Anna", creditor="Ben")
    apply(kept, op="unmortgage", player="Ben", square=37)
    assert cash(kept, "Ben") == 1500 - 211


def test_a_banking_creditor_may_lift_at_once_too_without_any_fee_first() -> None:
    """000 charges no 10 % on a bankruptcy; lifting at once is the mortgage plus 10 %, as later."""
    game = bankrupt_with_parkstrasse("banking")
    apply(game, op="bankrupt", player="Anna", creditor="Ben", lift=[37])
    assert cash(game, "Ben") == 15_000_000 - 1_750_000 - 180_000


def test_lift_names_only_mortgaged_deeds_of_the_bankrupt_player_and_never_the_bank() -> None:
    game = bankrupt_with_parkstrasse("schalke")
    give(game, "Anna", 39)
    refused(game, "not_mortgaged", op="bankrupt", player="Anna", creditor="Ben", lift=[39])
    refused(game, "not_mortgaged", op="bankrupt", player="Anna", creditor="Ben", lift=[1])
    refused(game, "bad_command", op="bankrupt", player="Anna", lift=[37])


def test_a_misspelt_field_is_refused_not_silently_ignored() -> None:
    """"`{"op": "bankrupt", …, "lift": [37]}` is accepted today and the `lift` silently does nothing; a
    misspelt field would do the same"."""
    game = bankrupt_with_parkstrasse("schalke")
    message = refused(game, "bad_command", op="bankrupt", player="Anna", creditor="Ben", lfit=[37])
    assert "'lfit'" in message


# -- decided and written down --------------------------------------------------------------------------------


def test_a_house_won_at_a_shortage_auction_sells_back_at_half_its_printed_price() -> None:
    """000: "Die Bank zahlt nur den halben Preis, der beim Kauf dafür gezahlt wurde". Decided: half the printed
    price, as every other house: the bank's houses are alike, the book's "Kauf" is the printed price it has in
    mind everywhere else ("zum halben Preis an die Bank zurückverkaufen", 001), and no building remembers its bid."""
    game = shortage("classic")
    apply(game, op="build_auction", player="Ben", square=39, price=350)
    event = apply(game, op="sell_building", player="Ben", square=39)
    assert event.transfers[0].amount == 100


@pytest.mark.parametrize("edition", ["schalke", "sonic"])
def test_schalke_and_sonic_offer_000s_schnellspiel_as_their_quick_game(edition: str) -> None:
    """001's "Schnelleres Spiel" is the Tempo-Würfel ("Damit das Spiel noch schneller wird"), not a dealt game: the
    speed die is offered where the book has it (``speed_die_bonus``); the quick game is 000's Schnellspiel, named
    so, as a table's choice (their files inherit classic's ``[quick]``)."""
    ed = EDITIONS[edition]
    assert ed.quick == EDITIONS["banking"].quick and ed.quick.name == "Schnellspiel"
    assert bool(ed.speed_die_bonus) is (edition == "schalke")


@pytest.mark.parametrize("edition", ["classic", "schalke", "sonic", "skylanders"])
def test_trade_money_is_typed_in_one_go_up_to_2000_and_the_rest_is_a_transfer(edition: str) -> None:
    """001: "Die Beträge bzw. Werte vereinbaren die handelnden Spieler selbst". Decided: the players agree any sum;
    the appliance takes what one typed entry holds (the same 1–2,000 as every amount typed in one go) and the rest
    as a transfer, so any agreed sum can be booked and nothing is refused for good."""
    game = start(edition)
    give(game, "Anna", 39)
    apply(game, op="credit", player="Ben", amount=2000)
    message = refused(game, "amount_out_of_range", op="trade", a="Anna", b="Ben", a_gives={"squares": [39]},
                      b_gives={"cash": 2500})
    assert "den Rest als Überweisung buchen" in message
    apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [39]}, b_gives={"cash": 2000})
    apply(game, op="transfer", **{"from": "Ben"}, to="Anna", amount=500)
    assert cash(game, "Anna") == 1500 + 2500
