"""The auction on the OLED: the bid screen names the street and the bidder, and a street won by a player other than
the one on the reader is booked from that reader (before, only by tapping the winner's card first, written nowhere)."""

from __future__ import annotations

from ui_table import Table


def test_the_bid_screen_names_the_street_and_the_bidder(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    table.choose("Auktion: Gebot")
    screen = table.screen()
    assert screen.title == "Schlossallee" and screen.lines[0].startswith("Anna bietet"), screen


def test_an_auction_won_by_another_player_is_booked_from_the_reader(table: Table) -> None:
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    table.choose("Auktion: Mitspieler")
    assert table.labels() == ["Ben", "Cem"]
    table.tap("Cem")  # the winner's card picks the winner
    screen = table.screen()
    assert screen.title == "Schlossallee" and screen.lines[0].startswith("Cem bietet"), screen
    table.type("250")
    table.press("OK")
    assert "Cem" in table.text() and "250" in table.text()  # the confirmation: Cem buys it, for the bid
    table.press("OK")
    game = table.ledger.game.state
    assert game.deeds[39].owner == "Cem" and table.cash("Cem") == 1250 and table.cash("Anna") == 1500


def test_the_other_bidder_is_chosen_with_the_knob_too(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose(" 1 Badstraße")
    table.choose("Auktion: Mitspieler")
    table.choose("Ben")
    table.type("10")
    table.press("OK", "OK")
    assert table.ledger.game.state.deeds[1].owner == "Ben" and table.cash("Ben") == 1490


# -- Issue 28's findings (the second evening at the virtual device) --------------------------------


def test_no_auction_is_offered_under_the_house_rule_keine_versteigerungen(table: Table) -> None:
    """What is offered does what it says: under "keine Versteigerungen" (seed 001) Kaufen offered "Auktion: Gebot",
    whose every bid but the printed price the rules refuse."""
    table.start("Anna", "Ben", edition="classic", house_rules=["no_auctions"])
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    assert table.labels() == ["Preis 400"]
