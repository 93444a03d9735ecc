"""What limits an amount the banker books (last gaps against the books): an auction bid has no upper
limit but the bidder's cash, and Banking's reader takes 10K to 20M for a bid and for a trade's money alike. One
rule, one test, the book quoted."""

from __future__ import annotations

import pytest

from conftest import apply, cash, give, refused, start

# -- 1. auction bids: the bidder's cash is the only upper limit ---------------------------------


@pytest.mark.parametrize("edition", ["classic", "schalke", "sonic", "skylanders"])
def test_an_auction_bid_above_2000_is_taken_in_every_one_unit_edition(edition: str) -> None:
    """Seed 001: "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen. Jeder Spieler kann
    die Versteigerung mit einem Mindestgebot von 1 beginnen." No upper limit but the cash."""
    game = start(edition)
    apply(game, op="credit", player="Ben", amount=1000)
    apply(game, op="buy", player="Ben", square=39, price=2100)
    assert cash(game, "Ben") == 400 and game.state is not None and game.state.deeds[39].owner == "Ben"


def test_a_banking_auction_bid_above_20m_is_taken() -> None:
    """Seed 000: the auction "beginnt mit dem (beliebigen) Betrag"; 20M limits what is typed on the reader in
    one go, not what a bidder with the cash may bid."""
    game = start("banking")
    apply(game, op="credit", player="Ben", amount=20_000_000)
    apply(game, op="buy", player="Ben", square=39, price=25_000_000)
    assert cash(game, "Ben") == 10_000_000


def test_a_bid_above_the_bidders_cash_is_refused_for_the_money() -> None:
    """ "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen." """
    message = refused(start("schalke"), "insufficient_funds", op="buy", player="Ben", square=39, price=1501)
    assert "Gebot" in message and "1500" in message


def test_a_banking_bid_below_10k_names_the_lowest_bid() -> None:
    """The reader takes nothing below 10K (seed 000: "nur Beträge zwischen € 10K und € 20M eintippen")."""
    message = refused(start("banking"), "amount_out_of_range", op="buy", player="Ben", square=39, price=5_000)
    assert "mindestens 10K" in message and "20M" not in message


# -- 2. trade money is typed on the reader too --------------------------------------------------


@pytest.mark.parametrize("amount", [5_000, 25_000_000])
def test_banking_trade_money_obeys_the_readers_range(amount: int) -> None:
    """Seed 000: "Sie können in das Gerät nur Beträge zwischen € 10K und € 20M eintippen." A trade's money is
    typed like a transfer's."""
    game = start("banking")
    give(game, "Anna", 39)
    apply(game, op="credit", player="Ben", amount=20_000_000)
    message = refused(game, "amount_out_of_range", op="trade", a="Anna", b="Ben", a_gives={"squares": [39]},
                      b_gives={"cash": amount})
    assert "10K bis 20M" in message
    if amount > 20_000_000:
        assert "Überweisung" in message  # says how: the rest as a transfer


def test_banking_trade_money_within_the_range_is_taken() -> None:
    game = start("banking")
    give(game, "Anna", 39)
    apply(game, op="trade", a="Anna", b="Ben", a_gives={"squares": [39]}, b_gives={"cash": 10_000})
    assert cash(game, "Anna") == 15_010_000
