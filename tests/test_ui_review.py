"""The findings of the independent review played on the virtual device (REVIEW.md), each a banker's sequence."""

from __future__ import annotations

from ui_table import Table

from device.scenes.lists import ConfirmScene


def test_2_bankruptcy_from_a_refused_payment_goes_to_its_creditor_only(table: Table) -> None:
    """Seed 000: "Der Mitspieler, dem Sie mehr Geld schulden, als Sie noch bezahlen können, erhält von Ihnen: das
    gesamte Guthaben …" — Ben cannot pay Anna 20M: the bankruptcy is to Anna, with no list to choose the bank."""
    table.start("Anna", "Ben")
    table.tap("Ben")
    table.press("SOLL")
    table.type("20")
    table.press("K", "K")
    table.tap("Anna")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene), table.text()
    assert scene.cmd["creditor"] == "Anna" and "an Anna" in table.text()
    table.press("DOWN", "OK")
    assert table.ledger.game.state.players["Ben"].bankrupt
    assert table.cash("Anna") == 30_000_000


def test_2_after_a_refused_an_alle_zahlen_the_estate_goes_to_the_bank(table: Table) -> None:
    """Seed 000 names one creditor ("Der Mitspieler, dem Sie … schulden") or the bank ("Schulden bei der Bank": the
    deeds are auctioned). Owed to every player at once, no one of them may take all: the bank takes the estate,
    and the debt is the whole sum (each player's share times the players)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Ben")
    table.press("MENU", "8")
    table.choose("An alle zahlen")
    table.type("1000")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene), table.text()
    assert "creditor" not in scene.cmd and "an die Bank" in table.text()
    assert scene.cmd.get("owed", 2000) == 2000


def test_1_a_refused_von_allen_kassieren_offers_the_payers_bankruptcy(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann" — Ben (100) cannot pay Anna's 200:
    OK raises money for Ben (here: nothing to raise, so his bankruptcy to Anna), never Anna's own deeds."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 1400}).ok
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU", "8")
    table.choose("Von allen kassieren")
    table.type("200")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text() and "OK: Geld beschaffen" in table.text()
    table.press("OK")
    assert "Hypothek" not in table.text()
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene) and scene.cmd["player"] == "Ben" and scene.cmd["creditor"] == "Anna"


def test_1_a_refused_von_allen_kassieren_raises_money_for_the_payer(table: Table) -> None:
    """Ben owns Badstraße: the raise-money list offers Ben's mortgage, not Anna's Schlossallee."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 1}).ok
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 1400}).ok
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU", "8")
    table.choose("Von allen kassieren")
    table.type("100")
    table.press("OK")
    table.press("OK")
    assert table.choice.player == "Ben"
    table.choose(table.labels()[0])
    assert table.labels() == [" 1 Badstraße"]


def test_3_storno_undoes_the_bankruptcy_that_ended_the_game(table: Table) -> None:
    """The bankruptcy's confirm promises "Storno hebt es auf": after the end it ended, MENU 4 still offers Storno."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.tap("Ben")
    table.press("OK")
    table.choose("Bankrott")
    assert "Storno hebt es auf" in table.text()
    table.press("OK")
    assert table.ledger.game.state.finished
    table.press("C", "MENU", "4")
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.cmd["op"] == "undo", table.text()
    table.press("OK")
    game = table.ledger.game.state
    assert not game.finished and not game.players["Anna"].bankrupt and table.cash("Anna") == 1500
    table.tap("Anna")
    assert "Anna" in table.text() and "1500" in table.text()


def test_9_after_sleep_the_next_card_starts_afresh(table: Table) -> None:
    """Seed 000: the display goes dark "nach ca. 1 Minute"; Anna's card before it arms no transfer for Cem's after."""
    table.start("Anna", "Ben", "Cem")
    table.tap("Anna")
    table.now += 65
    table.bank.tick()
    assert table.asleep
    table.tap("Cem")
    assert "zahlt" not in table.text(), table.text()
    table.type("100")
    table.press("OK")
    assert "Anna zahlt" not in table.text()


def test_6_a_deed_tag_not_in_the_trade_is_refused_and_the_trade_kept(table: Table) -> None:
    """Issue 18 #5: a tag the trade's list does not hold plays the refusal tone and says "nicht im Tausch"; the
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
    assert list(table.ledger.game.state.players) == ["Anna", "Ben", "Cem", "Dana"]


def test_12_house_rules_start_at_none_for_each_new_game(table: Table) -> None:
    """House rules are agreed before each game (seed 001's "Hausregeln"): none carry into the next game."""
    table.start("Anna", "Ben", edition="classic", house_rules=["double_go"])
    table.press("hold:C", "OK", "OK")
    assert "Hausregeln: keine" in table.labels()


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


def test_8_a_wrapped_entry_is_indented_in_every_list(table: Table) -> None:
    """">keine | Versteigerungen" read as two entries: a continuation line is indented deeper than any entry's
    start, in every list (the Ereigniskarte list already did it, the Hausregeln list did not)."""
    from device.scenes.lists import ListScene

    table.start("Anna", "Ben", edition="classic")
    table.press("hold:C", "OK", "OK")
    table.choose("Hausregeln: keine")
    scene = table.bank.scene
    assert isinstance(scene, ListScene)
    rows = scene._rows()
    starts = {r: i for r, (i, _) in enumerate(rows) if r == 0 or rows[r - 1][0] != i}
    wrapped = [text for r, (_, text) in enumerate(rows) if r not in starts]
    assert wrapped, rows
    for text in wrapped:
        assert text.startswith("   "), rows


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


def test_5_the_raise_money_list_says_when_it_is_not_enough(table: Table) -> None:
    """Ben owes Dana 2000 with 1100 and Seestraße (mortgage 70): "Beschaffbar 70" must say it will not do."""
    table.start("Anna", "Ben", "Cem", "Dana", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 11}).ok
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 260}).ok
    table.bank.refresh()
    table.tap("Ben")
    table.press("SOLL")
    table.type("2000")
    table.tap("Dana")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    assert "reicht nicht" in table.text(), table.text()
