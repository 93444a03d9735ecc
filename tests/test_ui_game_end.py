"""The end of a game on the OLED: the ranking shows every player, names the winner and stays until it was
read; after the end a card says the game is over."""

from __future__ import annotations

from ui_table import Table

from device.scenes import SLEEP_AFTER, State

# -- Findings (the second evening at the virtual device) --------------------------------


def test_7_the_ranking_at_its_end_says_so_in_the_title_and_stays(table: Table) -> None:
    """docs/playing.md: "turning past the end says so in the title bar, the last line kept" — Rangliste and Letztes
    Spiel jumped back to the menu on a turn."""
    table.start("Anna", "Ben", edition="classic")
    table.press("MENU")
    table.choose("Rangliste")
    table.press("DOWN")
    assert table.text().splitlines()[0] == "Schon am Ende" and "2. Ben 1500" in table.text()
    table.book({"op": "bankrupt", "player": "Ben"})
    table.press("C")
    table.press("MENU")
    table.choose("Letztes Spiel")
    table.press("DOWN")
    assert table.text().splitlines()[0] == "Schon am Ende" and "Anna gewinnt" in table.text()


# -- Findings (three games on the virtual device) ---------------------------------------


def test_8_the_end_ranking_shows_every_player(table: Table) -> None:
    """Sonic, four players: the end's ranking showed 3 of 4."""
    table.start("Anna", "Ben", "Cem", "Dana", edition="sonic", mode="timed", minutes=30)
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    shown = set(table.text().splitlines())
    table.press("DOWN")
    shown |= set(table.text().splitlines())
    assert sum(1 for line in shown if line[:2] in ("1.", "2.", "3.", "4.")) == 4


def test_13_after_the_end_a_card_says_the_game_is_over(table: Table) -> None:
    """After the end a tap showed "Haben Soll LOS Menü" and LOS silently returned."""
    table.start("Anna", "Ben", mode="timed", minutes=30)
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    table.press("C")
    table.tap("Anna")
    assert table.text().splitlines()[0] == "Spielende" and "Haben Soll" not in table.text()
    table.tones()
    table.press("C", "LOS")
    assert table.tones() == ["refused"] and "LOS: hier nicht" in table.text()


def test_17_a_game_ended_from_the_phone_wakes_the_reader_with_the_ranking(table: Table) -> None:
    table.start("Anna", "Ben", mode="timed", minutes=30)
    table.now += SLEEP_AFTER
    table.bank.tick()
    assert table.asleep
    assert table.ledger.submit({"op": "end"}).ok  # from /admin
    table.bank.refresh()
    assert not table.asleep and table.text().splitlines()[0] == "Spielende"


# -- Defects, each failed before its fix ------------------------------------------------


def test_the_ranking_after_a_bankruptcy_stays_until_a_key(table: Table) -> None:
    """"the ranking stays on the OLED until a key is pressed (no sleep after 3 s)"."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.press("OK", "OK")  # ZU WENIG GELD, OK: Geld beschaffen
    table.choose("Bankrott")  # to the bank, whom she owed
    table.press("OK")  # Storno could still undo it
    table.now += 120
    table.bank.tick()
    assert table.bank.state is State.PAGES and not table.asleep
    assert table.text().splitlines()[:2] == ["Spielende", "Ben gewinnt"]


def test_after_a_timed_end_no_ranking_or_storno_is_offered(table: Table) -> None:
    table.start("Anna", "Ben", mode="timed", minutes=30)
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    table.press("C")  # the end's ranking
    table.press("MENU")
    assert "Rangliste" not in table.labels() and "Storno" not in table.labels()


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_10_letztes_spiel_keeps_its_last_line_and_names_the_winner(table: Table) -> None:
    """"Letztes Spiel": turning past the end says so in the title bar, the fourth player's line stays; the big
    line says "Dana gewinnt", as the end did."""
    table.start("Anna", "Ben", "Cem", "Dana", edition="classic", mode="timed", minutes=30)
    assert table.ledger.submit({"op": "credit", "player": "Dana", "amount": 500}).ok
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    table.press("C")
    table.press("MENU", "2")
    assert table.text().splitlines()[1] == "Dana gewinnt", table.text()
    table.press("DOWN", "DOWN", "DOWN")
    lines = table.text().splitlines()
    assert any(line.startswith("4. ") for line in lines), lines
    assert "Schon am Ende" in lines[0]


# -- The device's side of the rules' new bookings, of missing parts and of the box's own Wi-Fi ---------


def test_a_shared_win_says_gleichstand_on_the_oled(table: Table) -> None:
    """Seed 000, the timed game: "Der reichste Spieler hat gewonnen!" — two as rich share the win
    (``rules.winners``): the end names both, under "Gleichstand", and the idle screen after it too."""
    table.start("Anna", "Ben", "Cem", mode="timed", minutes=30)
    table.book({"op": "debit", "player": "Cem", "amount": 1_000_000})
    table.press("MENU")
    table.choose("Spiel beenden")
    table.press("OK")
    lines = table.text().splitlines()
    assert lines[:2] == ["Spielende", "Gleichstand"] and "1. Anna 15M" in lines and "2. Ben 15M" in lines
    table.press("OK")
    assert "Gleichstand" in table.text() and "Anna gewinnt" not in table.text()


def test_a_single_winner_is_named_as_before(table: Table) -> None:
    table.start("Anna", "Ben", mode="timed", minutes=30)
    table.book({"op": "debit", "player": "Ben", "amount": 1_000_000})
    table.press("MENU")
    table.choose("Spiel beenden")
    table.press("OK")
    assert table.text().splitlines()[:2] == ["Spielende", "Anna gewinnt"]
