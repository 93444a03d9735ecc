"""A trade on the OLED: its lists offer only what the rules accept (no street of a group with buildings; a
deed tag outside the trade is refused and the marks kept), C steps back one step, and the confirmation
names each deed, the mortgages lifted now and the jail cards."""

from __future__ import annotations

from in_play import in_play, state_now
from ui_table import Table

from device.scenes import State

# -- Findings (the second evening at the virtual device) --------------------------------


def test_8_the_trade_confirmation_names_the_deeds_and_a_turn_scrolls_it(table: Table) -> None:
    """"Cem: 1 Karte 0" named no deed; a knob turn replaced a line with "Drehen: hier nicht"."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Ben", "square": 39})
    table.tap("Anna")
    table.press("MENU", "9")
    table.choose("Ben")
    table.choose(" 1 Badstraße")
    table.choose("Fertig")
    table.type("50")
    table.press("OK")
    table.choose("39 Schlossallee")
    table.choose("Fertig")
    table.press("OK")  # Ben: no money
    seen = table.text().splitlines()
    for _ in range(4):
        table.press("DOWN")
        seen += table.text().splitlines()
    said = " ".join(seen)
    assert "Badstraße, 50" in said and "Schlossallee" in said, seen
    # all of it on the first screen now: a turn is said in the title bar, over the keys, never over a row of it
    rows = ["Anna gibt:", "Badstraße, 50", "Ben gibt:", "Schlossallee"]
    assert seen[:5] == ["OK bucht, C zurück", *rows]
    assert table.text().splitlines() == ["Drehen: hier nicht", *rows]


# -- Findings (three games on the virtual device) ---------------------------------------


def test_4_a_trade_never_offers_a_street_whose_group_has_buildings(table: Table) -> None:
    """The trade list offered Turmstraße beside a house on Badstraße; refused after ~12 presses."""
    table.start("Anna", "Ben", edition="classic")
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
                {"op": "build", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 39}):
        assert table.ledger.submit(cmd).ok
    table.tap("Anna")
    table.press("MENU", "9")
    table.tap("Ben")
    assert table.labels() == ["39 Schlossallee", "Fertig"]


def test_5_c_on_a_trade_preview_goes_back_one_step_each_time(table: Table) -> None:
    """C presses on a trade preview changed nothing (8 to leave)."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "9")
    table.tap("Ben")
    table.press("OK")  # Anna gives nothing
    table.press("OK")  # nor money
    table.press("OK")  # Ben gives nothing
    table.type("500")
    table.press("OK")  # but money
    assert table.bank.state is State.CONFIRM
    seen = [table.text()]
    while state_now(table.bank) is not State.CARD:  # each C one step back: no press that changes nothing
        table.press("C")
        assert table.text() != seen[-1]
        seen.append(table.text())
    assert len(seen) - 1 == 8  # confirm, Ben's 500 cleared, Ben's cards, Anna's money and cards, partner, menu


# -- Defects, each failed before its fix ------------------------------------------------


def test_trade_summary_says_one_card_in_the_singular(table: Table) -> None:
    """Grammar, "1 Karte"; the deeds by name, not counted ("1 Karte" named none)."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.tap("Anna")
    table.press("MENU")
    table.choose("Tausch")
    table.tap("Ben")
    table.choose("39 Schlossallee")
    table.choose("Fertig")
    table.press("OK")  # no money from Anna
    table.choose("Fertig")
    table.type("500")
    table.press("OK")
    assert table.text().splitlines()[1:] == ["Anna gibt:", "Schlossallee", "Ben gibt:", "500"]


def test_trade_a_mortgaged_deed_lifted_now_and_a_jail_card(table: Table) -> None:
    """"a 'lift now' choice for mortgaged deeds, jail cards can be traded", the fee as booked."""
    table.start("Anna", "Ben", edition="classic")
    for cmd in ({"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39},
                {"op": "jail_card", "player": "Anna", "delta": 1}):
        assert table.ledger.submit(cmd).ok
    table.tap("Anna")
    table.press("MENU")
    table.choose("Tausch")
    table.tap("Ben")
    table.choose("39 Schlossallee")
    table.choose("Gefängnis-frei-Karte")
    table.choose("Fertig")
    table.press("OK")  # no money from Anna
    table.choose("Fertig")  # Ben gives no deed
    table.press("OK")  # nor money
    table.choose("39 Schlossallee")  # lift the mortgage now
    table.choose("Fertig")
    assert table.text().splitlines()[1:] == ["Anna gibt:", "Schlossallee, 1 Karte", "Ben gibt:", "nichts"]
    table.press("DOWN")  # the knob scrolls the fee up
    assert table.text().splitlines()[-1] == "Ben an Bank: 220"
    table.press("OK")
    state = in_play(table.ledger)
    assert state.deeds[39].owner == "Ben" and not state.deeds[39].mortgaged
    assert state.players["Ben"].jail_cards == 1 and table.cash("Ben") == 1500 - 220


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_6_a_deed_tag_not_in_the_trade_is_refused_and_the_trade_kept(table: Table) -> None:
    """A tag the trade's list does not hold plays the refusal tone and says "nicht im Tausch"; the
    marks made so far stay (Badstraße is Cem's, not Anna's, so it cannot be among what Anna gives)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    assert table.ledger.submit({"op": "buy", "player": "Cem", "square": 1}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU")
    table.choose("Tausch")
    table.tap("Ben")
    table.tap(39)  # marks Schlossallee
    before = table.bank.scene
    assert before.options[0].selected  # type: ignore[attr-defined]
    table.tones()
    table.tap(1)
    assert table.bank.scene is before and before.options[0].selected  # type: ignore[attr-defined]
    assert "refused" in table.tones() and "nicht im Tausch" in table.text()
