"""The bankruptcy's confirmation on the OLED says what the creditor receives (the deeds and cards, not only the
money), and the choice of mortgages to lift says what each costs (before: "Anna lifts now:" with no cost)."""

from __future__ import annotations

from ui_table import Table

from device.scenes.runner import ConfirmScene


def bankrupt_with_an_estate(table: Table) -> None:
    """Classic: Anna holds Parkstraße (mortgaged: 175 + 18 to lift), Schlossallee and a Gefängnis-frei-Karte, and
    cannot pay Ben 1500."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39},
               {"op": "mortgage", "player": "Anna", "square": 37}, {"op": "jail_card", "player": "Anna", "delta": 1},
               {"op": "debit", "player": "Anna", "amount": 400})
    table.tap("Anna")
    table.press("SOLL")
    table.type("1500")
    table.tap("Ben")
    table.press("OK")  # ZU WENIG GELD: Geld beschaffen
    table.choose("Bankrott")


def test_the_lift_choice_says_what_each_mortgage_costs(table: Table) -> None:
    bankrupt_with_an_estate(table)
    assert "Ben löst gleich auf:" in table.text()
    assert "37 Parkstraße: 193" in table.labels(), table.labels()  # the mortgage 175 and 10 % (18)


def test_the_confirmation_says_what_the_creditor_receives(table: Table) -> None:
    bankrupt_with_an_estate(table)
    table.press("OK")  # none lifted
    assert isinstance(table.bank.scene, ConfirmScene)
    body = " ".join(table.screen().lines)
    assert body.startswith("Anna an Ben: ")
    lines = []
    for _ in range(6):  # the whole confirmation, as the knob scrolls it
        lines += [line for line in table.screen().lines if line not in lines]
        table.press("DOWN")
    said = " ".join(lines)
    assert "Ben erhält" in said and "Parkstraße" in said and "Schlossallee" in said and "Karte" in said, lines


def test_the_confirmation_says_what_lifting_costs(table: Table) -> None:
    bankrupt_with_an_estate(table)
    table.choose("37 Parkstraße: 193")
    table.choose("Fertig")
    assert isinstance(table.bank.scene, ConfirmScene)
    assert any("193" in line for line in table.screen().lines), table.screen()
    table.press("OK")
    assert table.ledger.game.state.deeds[37].owner == "Ben" and not table.ledger.game.state.deeds[37].mortgaged
