"""Issue 28's findings (the second evening at the virtual device), each as the banker met it at the table."""

from __future__ import annotations

from ui_table import Table

from rules import EDITIONS, Game
from rules.legal import legal_ops


def test_1_banking_offers_the_ereigniskarte_entry(table: Table) -> None:
    """docs/playing.md: "8 Ereigniskarte: An alle zahlen, Von allen kassieren, Renovierung" — in Banking it was
    never offered: the menu asked the rules about an amount of 1, and Banking's smallest amount is 10K."""
    table.start("Anna", "Ben", "Cem", edition="banking")
    table.tap("Anna")
    table.press("MENU")
    assert ("8", "Ereigniskarte") in [(o.digit, o.label) for o in table.choice.options]
    table.press("8")
    assert table.labels() == ["An alle zahlen", "Von allen kassieren"]
    table.press("1")
    table.type("50K")
    table.press("OK", "OK")
    assert table.cash("Anna") == 14_900_000 and table.cash("Ben") == 15_050_000


def test_1_every_edition_asks_the_rules_with_an_amount_it_allows() -> None:
    """Seed 000: "nur Beträge zwischen € 10K und € 20M eintippen": the probe is the edition's smallest amount."""
    for key in EDITIONS:
        game = Game()
        game.apply({"op": "new_game", "edition": key, "mode": "standard", "players": ["Anna", "Ben"]})
        assert {"pay_all", "collect_all"} <= set(legal_ops(game, "Anna")), key
