"""The auction on the OLED: the bid screen names the street and the bidder, and a street won by a player other than
the one on the reader is booked from that reader (before, only by tapping the winner's card first, written nowhere)."""

from __future__ import annotations

from typing import Any

from in_play import in_play
from ui_table import Table, shown

from device.scenes.lists import ConfirmScene
from rules import GROUPS


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
    game = in_play(table.ledger)
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
    assert in_play(table.ledger).deeds[1].owner == "Ben" and table.cash("Ben") == 1490


# -- Findings (the second evening at the virtual device) --------------------------------


def test_no_auction_is_offered_under_the_house_rule_keine_versteigerungen(table: Table) -> None:
    """What is offered does what it says: under "keine Versteigerungen" (seed 001) Kaufen offered "Auktion: Gebot",
    whose every bid but the printed price the rules refuse."""
    table.start("Anna", "Ben", edition="classic", house_rules=["no_auctions"])
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    assert table.labels() == ["Preis 400"]


# -- The device's side of the rules' new bookings, of missing parts and of the box's own Wi-Fi ---------


def _shortage(table: Table) -> None:
    """Classic: Cem's 24 houses leave the bank 8; Anna (8 to build) and Ben (12) both want more."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    cmds: list[dict[str, Any]] = [{"op": "credit", "player": p, "amount": 2000} for p in ("Anna", "Ben", "Cem")
                                  for _ in range(3)]
    owners = {"Anna": ("brown",), "Ben": ("lightblue",), "Cem": ("pink", "orange")}
    for player, groups in owners.items():
        for group in groups:
            cmds += [{"op": "buy", "player": player, "square": sq} for sq in GROUPS[group]]
    for _ in range(4):
        cmds += [{"op": "build", "player": "Cem", "square": sq} for g in owners["Cem"] for sq in GROUPS[g]]
    table.book(*cmds)
    assert in_play(table.ledger).bank_houses == 8


def test_the_building_auction_is_booked_with_a_typed_bid(table: Table) -> None:
    """Seed 000: "werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt
    der niedrigste, gedruckte Preis" — Menü 0 → Bauversteigerung, the street, the bid (no 20M cap), OK."""
    _shortage(table)
    table.tap("Anna")
    table.press("MENU", "0")
    table.choose("Bauversteigerung")
    table.choose(table.labels()[0])
    assert "ab 50" in table.text()
    table.type("2100")  # more than the typing limit of a credit (2000), less than Anna's cash
    table.press("OK")
    assert isinstance(table.bank.scene, ConfirmScene)
    assert shown(table.bank.scene.cmd) == {"op": "build_auction", "player": "Anna", "square": 1, "price": 2100}
    table.press("OK")
    assert in_play(table.ledger).deeds[1].houses == 1 and table.cash("Anna") == 7500 - 60 - 60 - 2100


def test_the_building_auction_is_offered_only_in_a_shortage(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.book(*[{"op": "buy", "player": "Anna", "square": sq} for sq in GROUPS["brown"]])
    table.tap("Anna")
    table.press("MENU", "0")
    assert "Bauversteigerung" not in table.labels()
