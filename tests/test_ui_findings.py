"""Issue 18's findings, each as the banker met it at the table (three games on the virtual device)."""

from __future__ import annotations

from typing import Any

from told import told
from ui_table import UID, Table

import words
from device.scenes import SLEEP_AFTER, State
from device.scenes.flows import PLAYER_MENU, View, _to_houses
from device.scenes.layout import problems
from device.scenes.lists import ListScene
from device.scenes.said import key_prompt, say
from rules import EDITIONS


def _all_menu_labels(table: Table) -> list[str]:
    """The player's menu and every submenu it opens (each opened and left with C)."""
    labels = list(table.labels())
    for digit, label in [(o.digit, o.label) for o in table.choice.options]:
        table.press(digit)
        if isinstance(table.bank.scene, ListScene) and table.bank.scene.title == label:
            labels += table.labels()
        table.press("C")
    return labels


def test_1_bankruptcy_is_offered_only_from_a_refused_payment_and_storno_undoes_it(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann" — Cem with cash and no debt
    was offered bankruptcy from the menu, and the confirm said "unwiderruflich" though Storno undoes it."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Cem")
    table.press("MENU")
    assert "Bankrott" not in _all_menu_labels(table)
    table.press("C")
    table.press("SOLL")
    table.type("1600")
    table.tap("Ben")  # Cem owes Ben 1600 and has 1500
    table.press("OK")  # ZU WENIG GELD: OK: Geld beschaffen
    table.choose("Bankrott")  # to Ben, whom the payment was owed to
    # issue 28 #5: what Ben receives (Cem's 1500), then the debt
    assert table.text() == "OK bucht, C zurück\nBankrott\nCem an Ben: 1500\nStorno hebt es auf\nSchuld 1600"
    table.press("OK")
    assert table.ledger.game.state.players["Cem"].bankrupt
    assert table.ledger.submit({"op": "undo"}).ok and not table.ledger.game.state.players["Cem"].bankrupt


def test_2_the_card_that_wakes_the_reader_shows_its_balance(table: Table) -> None:
    """Seed 000: inserting a card shows the balance — waking swallowed the first tap."""
    table.start("Anna", "Ben")
    table.now += SLEEP_AFTER
    table.bank.tick()
    assert table.asleep
    table.tap("Ben")
    assert not table.asleep and table.text() == "Ben #2\n15M\n" + say(key_prompt("scenes.card.keys"))


def test_3_a_finished_booking_leaves_no_payer_behind(table: Table) -> None:
    """A second card after a booking started "Ben: Betrag – Anna zahlt"; SOLL then dropped the amount."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("LOS", "OK")  # booked; back to Anna's card
    table.tap("Ben")
    assert "zahlt" not in table.text()
    table.type("2KK")
    table.press("SOLL")  # the original's order: the amount, then one key books it
    assert table.cash("Ben") == 13_000_000 and table.cash("Anna") == 17_000_000


def test_4_no_frei_karte_eingesetzt_without_a_card(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "4")
    assert table.labels() == ["Strafe zahlen 50", "Gefängnis-frei-Karte gezogen"]


def test_4_no_ok_0_hint_where_the_rules_refuse_0(table: Table) -> None:
    """The hint "OK: 0" was offered and 0 refused, the flow lost."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU", "8", "1")  # Ereigniskarte, An alle zahlen
    assert "OK: 0" not in table.text()
    table.press("OK")  # nothing typed: said, and the prompt stays
    assert table.bank.state is State.ENTER and table.tones()[-1] == "refused"


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


def test_4_a_hotel_is_offered_only_the_ways_the_rules_accept() -> None:
    """Schalke: "ganz verkaufen" and "zurück in Tribünen" were offered and refused alike."""
    edition = EDITIONS["schalke"]

    class Game:
        pass

    game: Any = Game()
    game.edition = edition
    view = View(game, "Anna", {"square": 39}, str, accepts=lambda cmd: cmd["to_houses"] is False)
    assert [(say(label), value) for label, value in _to_houses(view)] == [("ganz verkaufen", False)]


def test_5_a_deed_tag_not_in_the_list_opens_that_deed(table: Table) -> None:
    """A deed tag not in the current list was silently ignored."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.tap("Anna")
    table.press("MENU", "1")  # Kaufen: a list of free squares, 39 not among them
    table.tap(39)
    assert table.text().splitlines()[0] == "Schlossallee" and "Eingabe verworfen" not in table.text()
    assert table.tones()[-1] == "card"


def test_5_menu_during_an_amount_says_why_not(table: Table) -> None:
    """MENU during an amount entry did nothing, and the digits then built another amount."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("HABEN", "5")
    table.tones()
    table.press("MENU")
    assert table.tones() == ["refused"] and words.text("scenes.unused", key=words.text("scenes.key.menu")) in table.text()
    table.type("00K")
    table.press("OK")
    assert table.cash("Anna") == 15_500_000


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
    while table.bank.state is not State.CARD:  # each C one step back: no press that changes nothing
        table.press("C")
        assert table.text() != seen[-1]
        seen.append(table.text())
    assert len(seen) - 1 == 8  # confirm, Ben's 500 cleared, Ben's cards, Anna's money and cards, partner, menu


def test_6_menu_digits_never_move(table: Table) -> None:
    """Tausch was 7, then unnumbered, then 9; Renovierung sat past entry 9 (14 presses)."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    before = {o.label: o.digit for o in table.choice.options}
    table.press("C", "C")
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
                {"op": "build", "player": "Anna", "square": 1}, {"op": "buy", "player": "Ben", "square": 39}):
        assert table.ledger.submit(cmd).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU")
    after = {o.label: o.digit for o in table.choice.options}
    assert len(after) > len(before) and all(after[label] == digit for label, digit in before.items())
    assert {e.label: e.digit for e in PLAYER_MENU}["Tausch"] == after["Tausch"] == "9"
    table.press("8", "3")  # Renovierung in three presses
    assert table.text().splitlines()[0] == "Je Haus?"


def test_7_long_texts_wrap_never_cut(table: Table) -> None:
    """"Von allen kassiere", "Skylanders Swap Forc", previews losing "OK bucht"."""
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    while table.choice.options[table.choice.index].label != "Skylanders Swap Force":
        table.press("DOWN")
    assert ">Skylanders Swap" in table.text() and "Force" in table.text()
    assert problems(table.bank.screen()) == []


def test_7_a_long_preview_keeps_ok_bucht(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.tap("Ben")
    table.tap(39)
    table.choose("Miete zahlen")
    # the keys in the title bar, the whole preview under the amount: nothing to lose below
    assert table.text().splitlines() == ["OK bucht, C zurück", "50", "Schlossallee – Ben", "zahlt Anna 50 Miete",
                                         "(unbebaut)"]


def test_8_the_end_ranking_shows_every_player(table: Table) -> None:
    """Sonic, four players: the end's ranking showed 3 of 4."""
    table.start("Anna", "Ben", "Cem", "Dana", edition="sonic", mode="timed", minutes=30)
    assert table.ledger.submit({"op": "end"}).ok
    table.bank.refresh()
    shown = set(table.text().splitlines())
    table.press("DOWN")
    shown |= set(table.text().splitlines())
    assert sum(1 for line in shown if line[:2] in ("1.", "2.", "3.", "4.")) == 4


def test_10_repairs_ask_in_the_editions_words(table: Table) -> None:
    """Sonic's and Schalke's repairs prompt still said "Haus/Hotel"."""
    edition = EDITIONS["schalke"]
    table.start("Anna", "Ben", edition="schalke")
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
                {"op": "build", "player": "Anna", "square": 1}):
        assert table.ledger.submit(cmd).ok
    table.tap("Anna")
    table.press("MENU", "8", "3")
    assert table.text().splitlines()[0] == f"Je {edition.house}?"


def test_11_a_rounded_balance_after_a_booking_says_so_and_shows_the_exact_amount(table: Table) -> None:
    """"Gebucht 13.4M" for 13,420,000 had no ≈ and no exact amount."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("SOLL")
    table.type("1.58M")
    table.press("OK")
    assert table.cash("Anna") == 13_420_000
    lines = table.text().splitlines()
    assert "≈" in lines[0] and "genau: 13,42M" in lines


def test_12_one_german_decimal_format_on_the_oled(table: Table) -> None:
    """"11.5M" beside "3,5M"."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("SOLL")
    table.type("3.5M")
    table.press("OK")
    assert "11,5M" in table.text() and "11.5M" not in table.text()


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


def test_14_the_tempo_wuerfel_game_is_named_so_on_the_idle_screen(table: Table) -> None:
    table.start("Anna", "Ben", edition="schalke", speed_die=True)
    assert table.text().splitlines()[1] == "Tempo"


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
    assert table.ledger.game.state.house_rules == frozenset({"free_parking_pot"})


def test_17_a_game_ended_from_the_phone_wakes_the_reader_with_the_ranking(table: Table) -> None:
    table.start("Anna", "Ben", mode="timed", minutes=30)
    table.now += SLEEP_AFTER
    table.bank.tick()
    assert table.asleep
    assert table.ledger.submit({"op": "end"}).ok  # from /admin
    table.bank.refresh()
    assert not table.asleep and table.text().splitlines()[0] == "Spielende"


def test_a_tap_is_never_ignored_on_the_join_screen_by_a_deed(table: Table) -> None:
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("Banking")
    table.choose("Standard")
    table.bank.handle("tap", next(uid for uid in UID.values()))
    table.tones()
    table.tap(39)
    assert table.tones() == ["refused"] and "Keine Bankkarte" in table.text()


def test_9_building_words_carry_their_gender(table: Table) -> None:
    """"ein Tribüne", "ein Hightech-Anlage", "das Hightech-Anlage", "ein Hütte"."""
    import words

    for edition in EDITIONS.values():
        assert edition.house_word.gender in ("m", "f", "n") and edition.hotel_word.gender in ("m", "f", "n")
    assert words.counted(EDITIONS["schalke"].house_word, 1) == "eine Tribüne"
    assert words.definite(EDITIONS["sonic"].hotel_word) == "die Hightech-Anlage"
    table.start("Anna", "Ben", edition="schalke")
    for sq in (1, 3):
        assert table.ledger.submit({"op": "buy", "player": "Anna", "square": sq}).ok
    for _ in range(2):
        for sq in (1, 3):
            assert table.ledger.submit({"op": "build", "player": "Anna", "square": sq}).ok
    outcome = table.ledger.submit({"op": "sell_building", "player": "Anna", "square": 3})
    assert outcome.ok and outcome.event is not None and "Anna: eine Tribüne von Turmstraße verkauft" in told(outcome.event, table.ledger.game)


def test_14_the_tempo_wuerfel_game_is_named_so_in_the_log(table: Table) -> None:
    """The Tempo-Würfel game was "Standardspiel" on the phone and in the log."""
    table.start("Anna", "Ben", edition="schalke", speed_die=True)
    assert "Standardspiel mit Tempo-Würfel" in told(table.ledger.game.history[0], table.ledger.game)


def test_1_the_bankruptcy_carries_the_debt_where_the_rules_take_it() -> None:
    """docs/commands.md: `bankrupt` takes `owed`; the device passes it once the rules' parser knows it."""
    from dataclasses import fields

    from device.scenes.flows import bankrupt_command
    from rules.commands import COMMANDS

    cmd = bankrupt_command("Cem", "Ben", 1600)
    assert cmd["creditor"] == "Ben"
    assert ("owed" in cmd) == ("owed" in {f.name for f in fields(COMMANDS["bankrupt"])})
