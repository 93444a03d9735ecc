"""Issue 10's defects, each as the banker met it at the table (each failed before its fix)."""

from __future__ import annotations

from typing import Any

from ui_table import UID, Table

from device.daemon.service import Daemon, WebBackend
from device.daemon.simulation import Simulation
from device.scenes import State
from device.scenes.lists import ConfirmScene


def test_tap_los_los_books_los_twice(table: Table) -> None:
    """Defect 4: "Tap, LOS, LOS must book LOS twice" — no key only dismisses "Gebucht"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "LOS")
    assert table.cash("Anna") == 15_000_000 + 2 * 2_000_000


def test_haben_on_a_result_screen_acts_at_once(table: Table) -> None:
    """Defect 4: "Haben, Menü and digits pressed on a result screen act at once"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "HABEN")
    table.type("1M")
    table.press("OK")
    assert table.cash("Anna") == 15_000_000 + 2_000_000 + 1_000_000


def test_a_tap_on_the_result_screen_selects_that_card(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS")
    table.tap("Ben")
    table.press("LOS")
    assert table.cash("Ben") == 17_000_000


def test_a_deed_tag_on_a_station_offers_no_building(table: Table) -> None:
    """Defect 6: a station is no street: Bauen/Verkaufen are never offered for it."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 5}).ok
    table.tap("Anna")
    table.tap(5)
    assert table.labels() == ["Hypothek aufnehmen"]


def test_the_player_menu_offers_only_legal_actions(table: Table) -> None:
    """Defect 6: nobody owns anything, so Miete, Bauen, Verkaufen, Hypothek are not offered."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    labels = table.labels()
    for illegal in ("Miete zahlen", "Bauen", "Gebäude verkaufen", "Hypothek aufnehmen", "Hypothek auflösen"):
        assert illegal not in labels
    assert labels == ["Kaufen", "Steuer", "Gefängnis", "Ereignis/Gemeinsch.", "Tausch", "Mehr"]


def test_the_confirm_screen_shows_what_the_rules_will_book(table: Table) -> None:
    """Defect 6: "the confirm screen shows what the rules will book (previewing the command)"."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Steuer")
    table.choose("38 Zusatzsteuer")
    assert table.text().splitlines() == ["OK bucht, C zurück", "100", "Anna zahlt", "Zusatzsteuer: 100"]


def test_a_pin_of_eight_digits_is_kept_whole(table: Table) -> None:
    """Defect 3: the screen says "4-8 Ziffern"; every length it allows must reach the PIN."""
    for pin in ("4711", "12345678"):
        pins: list[str] = []
        table.bank.set_pin = lambda p, pins=pins: pins.append(p) or True  # type: ignore[misc]
        table.press("MENU")
        table.choose("Banker-PIN")
        table.type(pin)
        table.press("OK")
        assert pins == [pin]
        table.press("C")


def test_the_ranking_after_a_bankruptcy_stays_until_a_key(table: Table) -> None:
    """Defect 7: "the ranking stays on the OLED until a key is pressed (no sleep after 3 s)"."""
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


def test_bankruptcy_to_the_bank_is_to_the_bank(table: Table) -> None:
    """Defect 8: a refused payment to the bank: the creditor is the bank (review finding 2: no other choice)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.press("OK", "OK")  # ZU WENIG GELD, OK: Geld beschaffen
    table.choose("Bankrott")
    assert isinstance(table.bank.scene, ConfirmScene) and "creditor" not in table.bank.scene.cmd
    assert "an die Bank" in table.text()


def test_zu_wenig_geld_says_how_much_is_missing(table: Table) -> None:
    """Defect 10: "ZU WENIG GELD always shows how much is missing"."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.press("OK")
    assert table.text().splitlines()[1:4] == ["ZU WENIG GELD", "Es fehlen 500 – Anna", "hat 1500, braucht"]


def test_a_timed_game_of_zero_minutes_is_refused_when_typed(table: Table) -> None:
    """Defect 11: refused when typed, not after every player tapped."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("MONOPOLY")
    table.choose("Auf Zeit")
    table.type("0")
    table.press("OK")
    assert table.bank.state is State.ENTER
    assert table.text().splitlines() == ["Minuten?", "0", "nur 1–1440, C zurück"]


def test_the_dice_prompt_names_its_range(table: Table) -> None:
    """Defect 11: "the dice prompt accepts only 2–12 (2–15 with the speed die) and says so"."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 12}).ok
    table.tap("Ben")
    table.tap(12)
    table.choose("Miete zahlen")
    assert "2-12" in table.text()
    table.type("13")
    table.press("OK")
    assert table.bank.state is State.ENTER and "2-12" in table.text()


def test_a_bankrupt_players_card_refuses_input_at_once(table: Table) -> None:
    table.start("Anna", "Ben", "Cem", edition="classic")
    assert table.ledger.submit({"op": "bankrupt", "player": "Cem"}).ok
    table.bank.refresh()
    table.tap("Cem")
    assert table.bank.state is not State.CARD
    assert "BANKROTT" in table.text()


def test_no_refusal_says_just_fehler(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.bank.scenes.why = "LOS"  # as if a key on the card had built it
    table.bank.submit({"op": "credit", "player": "Anna"}, "Anna")  # malformed
    table.bank.render()
    assert table.text().splitlines()[:3] == ["Abgelehnt !", "UNGÜLTIG", "Feld 'amount' fehlt"]


def test_trade_summary_says_one_card_in_the_singular(table: Table) -> None:
    """Defect 12: grammar, "1 Karte"; issue 28 #8: the deeds by name, not counted ("1 Karte" named none)."""
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


def test_the_idle_screen_never_splits_an_address(table: Table) -> None:
    """Defect 14: "192.168.1.20" and ":8080" on two lines read as another port."""
    table.bank.url = "http://192.168.100.200:8080/"
    table.bank.refresh()
    assert table.text().splitlines()[2:] == ["192.168.100.", "200", "Port 8080"]  # the address before "Karte drauf"


def test_a_web_new_game_leaving_out_the_tapped_player_does_not_crash(daemon: Daemon) -> None:
    """Defect 1: the device survives any change the web makes (here: a new game without Anna)."""
    web, device = WebBackend(daemon), Simulation(daemon)
    assert web.submit({"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]})["ok"]
    device.tap(UID["Anna"])
    answer: dict[str, Any] = web.submit({"op": "new_game", "edition": "banking", "mode": "standard",
                                         "players": ["Ben", "Cem"], "replace": True})
    assert answer["ok"]
    banker = daemon.banker
    assert banker is not None
    daemon.call(banker.tick)
    device.press("LOS")
    assert daemon.call(lambda: banker.state) is State.IDLE
    state = daemon.ledger.game.state if daemon.ledger else None
    assert state is not None and state.players["Ben"].cash == 15_000_000


def test_a_new_game_over_a_running_one_asks_and_then_replaces(table: Table) -> None:
    """Defect 2: "new_game over a running game needs an explicit confirmation" and carries replace."""
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


def test_a_tap_in_a_menu_switches_to_that_player_with_a_note(table: Table) -> None:
    """Defect 5: "a tap always either switches to that player … or is used by the menu"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("MENU")
    table.tap("Ben")
    assert table.text().splitlines()[0] == "Ben #2"
    assert "Eingabe verworfen" in table.text()
    table.press("LOS")
    assert table.cash("Ben") == 17_000_000 and table.cash("Anna") == 15_000_000


def test_a_tap_while_typing_haben_switches_player(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("HABEN", "5")
    table.tap("Ben")
    assert table.text().splitlines()[0] == "Ben #2"


def test_a_tap_during_the_deal_leaves_no_deal_screens_for_later(table: Table) -> None:
    """Defect 9: tapping during the quick-game deal does not leave deal screens popping up later."""
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


def test_tax_and_jail_fine_in_at_most_four_presses_after_the_tap(table: Table) -> None:
    """Fewer presses: "tax and jail fine reachable in ≤ 4 presses" (today 13)."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    assert table.labels()[1] == "Steuer"  # the numbered menu: its digit picks it
    table.press("3", "OK", "OK")  # 3 Steuer, Einkommensteuer (first), confirm
    assert table.cash("Anna") == 1300
    table.press("MENU")
    assert table.labels()[2] == "Gefängnis"
    table.press("4")
    assert table.labels()[0] == "Strafe zahlen 50"  # marked first: OK takes it
    table.press("OK", "OK")  # Strafe zahlen, confirm
    assert table.cash("Anna") == 1250


def test_skylanders_quick_game_is_kurzes_spiel_in_the_wizard_and_on_the_idle_screen(table: Table) -> None:
    """Defect 13: "Skylanders' quick game is 'kurzes Spiel' everywhere"."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Skylanders Swap Force")
    assert "Kurzes Spiel" in table.labels() and "Schnellspiel" not in table.labels()
    table.choose("Kurzes Spiel")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK", "C")
    assert table.text().splitlines()[1] == "Kurzes"


def test_the_idle_screen_follows_a_changed_address(table: Table) -> None:
    """The daemon passes the URL as a function: a new Wi-Fi address shows at the next tick."""
    address = ["http://192.168.1.20:8080/"]
    table.bank.url = lambda: address[0]
    table.bank.refresh()
    assert table.text().splitlines()[3:] == ["192.168.1.20", "Port 8080"]
    address[0] = "http://10.0.0.7/"
    table.bank.tick()
    assert table.text().splitlines()[3:] == ["10.0.0.7"]
    assert table.frames.last is not None and table.frames.last.screen.qr == "http://10.0.0.7/"


def test_two_cards_on_the_reader_ask_for_one(table: Table) -> None:
    from device.scenes import TWO_CARDS

    table.bank.reader_status(False, TWO_CARDS)
    assert table.text().splitlines()[1:3] == ["ZWEI KARTEN", "Nur eine Karte!"]


def test_the_originals_order_type_then_one_key(table: Table) -> None:
    """Seed 000: insert the card, type the amount, press one key (Haben or Soll)."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.type("2KK")
    table.press("HABEN")
    assert table.cash("Anna") == 17_000_000
    table.type("500K")
    table.press("SOLL")
    assert table.cash("Anna") == 16_500_000


def test_the_originals_transfer_order_both_cards_then_the_amount(table: Table) -> None:
    """Fewer presses: "the original's transfer order (both cards first, then the amount)"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.tap("Ben")
    table.type("2KK")
    table.press("OK")
    assert table.text().splitlines() == ["OK bucht, C zurück", "2M", "Anna zahlt Ben 2M"]
    table.press("OK")
    assert table.cash("Anna") == 13_000_000 and table.cash("Ben") == 17_000_000


def test_a_second_card_then_haben_is_that_players_own_haben(table: Table) -> None:
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.tap("Ben")
    table.press("HABEN")
    table.type("1KK")
    table.press("OK")
    assert table.cash("Ben") == 16_000_000 and table.cash("Anna") == 15_000_000


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


def test_a_web_undo_or_end_while_a_menu_is_open_never_acts_on_a_stale_screen(table: Table) -> None:
    """Defect 1: "The device must survive any change the web makes: new game, undo, end"."""
    table.start("Anna", "Ben", mode="timed", minutes=30)
    table.tap("Anna")
    table.press("LOS")
    table.press("MENU")
    assert table.ledger.submit({"op": "undo"}).ok
    table.bank.refresh()
    assert table.bank.state is State.CHOOSE  # same game, same player: the menu stays
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    assert table.bank.state is State.PAGES and table.text().splitlines()[0] == "Spielende"  # finding 17
    table.press("C")
    assert table.bank.state is State.IDLE and table.text().splitlines()[1] == "Ende"
    table.press("OK")
    assert "Rangliste" not in table.labels() and "Storno" not in table.labels()


def test_a_confirmation_the_web_made_impossible_is_withdrawn(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Kaufen")
    table.type("39")
    table.press("OK")
    table.choose("Preis 400")
    assert table.bank.state is State.CONFIRM
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 39}).ok  # from /admin
    table.bank.refresh()
    assert table.bank.state is State.CARD
    table.press("OK")
    assert table.ledger.game.state.deeds[39].owner == "Ben"


def test_trade_a_mortgaged_deed_lifted_now_and_a_jail_card(table: Table) -> None:
    """Defect 12: "a 'lift now' choice for mortgaged deeds, jail cards can be traded", the fee as booked."""
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
    state = table.ledger.game.state
    assert state.deeds[39].owner == "Ben" and not state.deeds[39].mortgaged
    assert state.players["Ben"].jail_cards == 1 and table.cash("Ben") == 1500 - 220


def test_pay_everyone_on_the_device_in_few_presses(table: Table) -> None:
    """Issue 13: "Zahle jedem Spieler 50" was one transfer per player; now one flow."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Ereignis/Gemeinsch.")
    table.choose("An alle zahlen")
    table.type("50")
    table.press("OK")
    table.press("OK")
    state = table.ledger.game.state
    assert state is not None
    assert [p.cash for p in state.players.values()] == [1400, 1550, 1550]


def test_birthday_on_the_device(table: Table) -> None:
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    table.choose("Ereignis/Gemeinsch.")
    table.choose("Von allen kassieren")
    table.type("10")
    table.press("OK")
    table.press("OK")
    state = table.ledger.game.state
    assert state is not None and state.players["Anna"].cash == 1520
