"""A new game begun on the device: the wizard (edition, mode, minutes, house rules, the last game's as the
default), the join screen where each player taps a card, and the quick game's deal; a card tapped meanwhile
never throws the set-up away."""

from __future__ import annotations

from in_play import in_play
from ui_table import UID, Table

from device.scenes import State
from rules import square_name

# -- Findings (the second evening at the virtual device) --------------------------------


def test_4_a_card_tapped_during_the_set_up_keeps_it(table: Table) -> None:
    """Tapping a bank card on the edition list or the minutes prompt threw the whole set-up away and showed "Anna spielt
    nicht mit", about the old game. The set-up stays, and the note says when the cards come."""
    table.start("Anna", "Ben", edition="classic")
    table.press("hold:C")
    table.choose("Ja: ersetzen")
    table.tap("Cem")
    assert table.choice.title == "Ausgabe" and "Karte später" in table.text()
    table.choose("Banking")
    table.choose("Auf Zeit")
    table.type("3")
    table.tap("Dana")
    assert table.text().splitlines()[0] == "Minuten?" and "3" in table.text()
    table.press("0", "OK")
    table.tap("Cem")
    table.tap("Dana")
    table.press("OK")
    state = in_play(table.ledger)
    assert list(state.players) == ["Cem", "Dana"] and state.minutes == 30 and state.edition.key == "banking"


def test_11_the_quick_games_deal_is_in_the_phones_and_the_reports_bookings(table: Table) -> None:
    """Seed 000's Schnellspiel: "Jeder Spieler erhält zwei Besitzrechtkarten … und bezahlt der Bank den Kaufpreis" —
    the deal was only in the CSV, so the phone and the report could not explain 12,8M instead of 15M."""
    from device.store.history import History
    from rules import format_money

    table.start("Anna", "Ben", mode="quick", seed=7)
    state = in_play(table.ledger)
    ed = state.edition
    first = table.ledger.snapshot()["log"][-1]["text"]
    history = History(table.journal.path)
    report = history.report(history.games()[0]["id"])
    assert report is not None
    told = " ".join(report.said(event) for _, event in report.log)
    for name in ("Anna", "Ben"):
        deeds = [square_name(ed, sq) for sq, d in state.deeds.items() if d.owner == name]
        paid = format_money(ed.start_capital - state.players[name].cash, ed)
        for said in (first, told):
            assert all(deed in said for deed in deeds) and f"{name} zahlt {paid}" in said, (said, deeds, paid)


# -- Findings (three games on the virtual device) ---------------------------------------


def test_5_a_digit_in_the_edition_list_says_why_not_and_ok_still_picks(table: Table) -> None:
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.tones()
    table.press("3")
    assert table.tones() == ["refused"] and "3: hier nicht" in table.text()
    table.press("OK")
    assert table.choice.title == "Spielart"


def test_5_a_joined_card_tapped_again_leaves_the_game_to_be(table: Table) -> None:
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Banking")
    table.choose("Standard")
    table.tap("Anna")
    table.tap("Ben")
    table.tap("Anna")
    assert table.text().splitlines()[1:3] == ["1 Spieler", "Ben"]


def test_15_house_rules_are_chosen_on_the_device(table: Table) -> None:
    """The house rules could only be set in a raw JSON box."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("MONOPOLY")
    table.choose("Hausregeln: keine")
    table.choose("Frei-Parken-Topf")
    table.choose("Fertig")
    assert table.choice.title == "Spielart" and "Hausregeln: 1" in table.labels()
    table.choose("Standard")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK")
    assert in_play(table.ledger).house_rules == frozenset({"free_parking_pot"})


def test_a_tap_is_never_ignored_on_the_join_screen_by_a_deed(table: Table) -> None:
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Banking")
    table.choose("Standard")
    table.bank.handle("tap", next(uid for uid in UID.values()))
    table.tones()
    table.tap(39)
    assert table.tones() == ["refused"] and "Keine Bankkarte" in table.text()


# -- Defects, each failed before its fix ------------------------------------------------


def test_a_timed_game_of_zero_minutes_is_refused_when_typed(table: Table) -> None:
    """Refused when typed, not after every player tapped."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("MONOPOLY")
    table.choose("Auf Zeit")
    table.type("0")
    table.press("OK")
    assert table.bank.state is State.ENTER
    assert table.text().splitlines() == ["Minuten?", "0", "nur 1–1440, C zurück"]


def test_a_new_game_over_a_running_one_asks_and_then_replaces(table: Table) -> None:
    """"new_game over a running game needs an explicit confirmation" and carries replace."""
    table.start("Anna", "Ben")
    table.press("hold:C")
    assert table.text().splitlines()[:3] == ["Spiel ersetzen?", ">Ja: ersetzen", " Nein"]
    table.choose("Ja: ersetzen")
    table.choose("Banking")
    table.choose("Standard")  # the join screen starts empty
    table.tap("Cem")
    table.tap("Anna")
    table.press("OK")
    last = list(table.journal.records())[-1].cmd
    assert last["op"] == "new_game" and last["replace"] is True and last["players"] == ["Cem", "Anna"]


def test_a_tap_during_the_deal_leaves_no_deal_screens_for_later(table: Table) -> None:
    """Tapping during the quick-game deal does not leave deal screens popping up later."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Banking")
    table.choose("Schnellspiel")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK", "OK")  # start, first deal screen
    table.tap("Anna")
    table.press("LOS")
    assert table.text().splitlines()[0] == "Gebucht"
    table.press("C")
    assert table.bank.state is State.CARD and "Austeilen" not in table.text()


def test_skylanders_quick_game_is_kurzes_spiel_in_the_wizard_and_on_the_idle_screen(table: Table) -> None:
    """"Skylanders' quick game is 'kurzes Spiel' everywhere"."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Skylanders Swap Force")
    assert "Kurzes Spiel" in table.labels() and "Schnellspiel" not in table.labels()
    table.choose("Kurzes Spiel")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK", "C")
    assert table.text().splitlines()[1] == "Kurzes"


def test_the_new_game_wizard_offers_the_last_edition_and_mode(table: Table) -> None:
    """Fewer presses: "the new-game wizard offering the last edition, mode … as the default"; the players tap
    their cards (review finding 7: pre-filled players left when they tapped)."""
    table.start("Anna", "Ben", "Cem", edition="sonic", mode="quick", seed=7)
    table.press("hold:C")
    table.choose("Ja: ersetzen")
    assert table.labels()[table.choice.index] == "Sonic"
    table.press("OK")
    assert table.labels()[table.choice.index] == "Schnellspiel"
    table.press("OK")  # the last game's edition and mode: OK keeps them
    assert table.text().splitlines()[:2] == ["Karten auflegen", "0 Spieler"]
    for name in ("Anna", "Ben", "Cem"):
        table.tap(name)
    table.press("OK")
    last = list(table.journal.records())[-1].cmd
    assert (last["edition"], last["mode"], last["players"]) == ("sonic", "quick", ["Anna", "Ben", "Cem"])


def test_c_in_the_join_list_first_empties_it(table: Table) -> None:
    table.start("Anna", "Ben")
    table.press("hold:C")
    table.choose("Ja: ersetzen")
    table.choose("Banking")
    table.choose("Standard")
    table.tap("Anna")
    table.tap("Dana")
    table.press("C")
    assert table.text().splitlines()[:2] == ["Karten auflegen", "0 Spieler"]
    table.tap("Cem")
    table.tap("Ben")
    table.press("OK")
    assert list(table.journal.records())[-1].cmd["players"] == ["Cem", "Ben"]


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def _new_game_to_join(table: Table) -> None:
    """hold:C → Ja → the edition (the last game's) → Standard: the join screen."""
    table.press("hold:C", "OK", "OK")
    table.choose("Standard")


def test_7_the_join_screen_starts_empty_each_player_taps_a_card(table: Table) -> None:
    """docs/playing.md: "then each player taps a card" — after a game of Anna, Ben and Cem, tapping all four cards
    joins all four (the last game's players were pre-filled, and tapping them took them out)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    _new_game_to_join(table)
    assert "0 Spieler" in table.text(), table.text()
    for name in ("Anna", "Ben", "Cem", "Dana"):
        table.tap(name)
    assert "4 Spieler" in table.text()
    table.press("OK")
    assert list(in_play(table.ledger).players) == ["Anna", "Ben", "Cem", "Dana"]


def test_12_house_rules_start_at_none_for_each_new_game(table: Table) -> None:
    """House rules are agreed before each game (seed 001's "Hausregeln"): none carry into the next game."""
    table.start("Anna", "Ben", edition="classic", house_rules=["double_go"])
    table.press("hold:C", "OK", "OK")
    assert "Hausregeln: keine" in table.labels()


def test_12_the_new_games_first_screen_shows_minutes_and_house_rules_and_keeps_the_name_whole(table: Table) -> None:
    """"MONOPOLY FC Schalke | 04" broke the name and said nothing of the minutes or the house rules chosen."""
    table.press("hold:C", "OK")
    table.choose("FC Schalke 04")
    table.choose("Hausregeln: keine")
    table.choose("Frei-Parken-Topf")
    table.choose("Fertig")
    table.choose("Auf Zeit")
    table.type("30")
    table.press("OK")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK")
    lines = table.text().splitlines()
    assert "FC Schalke 04" in lines, lines
    assert any("30 Minuten" in line for line in lines), lines
    table.press("DOWN")  # the knob scrolls to the house rules
    assert "Frei-Parken-Topf" in table.text().replace("\n", " "), table.text()
