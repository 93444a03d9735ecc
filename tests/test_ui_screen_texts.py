"""How the OLED says things: long texts wrap and are never cut, one German number format, a rounded
balance marked as such, the edition's own words with their gender, the game's mode by its name, the
idle screen's address whole, prompts and refusals that say why."""

from __future__ import annotations

from told import told
from ui_table import Table

import words
from device.scenes import State
from device.scenes.layout import problems
from device.scenes.lists import ListScene
from rules import EDITIONS

# -- Findings (three games on the virtual device) ---------------------------------------


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
    game = table.ledger.game
    preview = told(game.preview({"op": "rent", "player": "Ben", "square": 39}), game)
    keys, amount, *body = table.text().splitlines()
    assert (keys, amount, " ".join(body)) == (words.text("scenes.confirm.ok"), "50", preview)


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


def test_14_the_tempo_wuerfel_game_is_named_so_on_the_idle_screen(table: Table) -> None:
    table.start("Anna", "Ben", edition="schalke", speed_die=True)
    assert table.text().splitlines()[1] == "Tempo"


def test_9_building_words_carry_their_gender(table: Table) -> None:
    """"ein Tribüne", "ein Hightech-Anlage", "das Hightech-Anlage", "ein Hütte"."""

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


# -- Defects, each failed before its fix ------------------------------------------------


def test_the_dice_prompt_names_its_range(table: Table) -> None:
    """"the dice prompt accepts only 2–12 (2–15 with the speed die) and says so"."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 12}).ok
    table.tap("Ben")
    table.tap(12)
    table.choose("Miete zahlen")
    assert "2-12" in table.text()
    table.type("13")
    table.press("OK")
    assert table.bank.state is State.ENTER and "2-12" in table.text()


def test_no_refusal_says_just_fehler(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.bank.scenes.why = "LOS"  # as if a key on the card had built it
    table.bank.submit({"op": "credit", "player": "Anna"}, "Anna")  # malformed
    table.bank.render()
    assert table.text().splitlines()[:3] == ["Abgelehnt !", "UNGÜLTIG", "Feld 'amount' fehlt"]


def test_the_idle_screen_never_splits_an_address(table: Table) -> None:
    """"192.168.1.20" and ":8080" on two lines read as another port."""
    table.bank.url = "http://192.168.100.200:8080/"
    table.bank.refresh()
    assert table.text().splitlines()[2:] == ["192.168.100.", "200", "Port 8080"]  # the address before "Karte drauf"


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


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_8_a_wrapped_entry_is_indented_in_every_list(table: Table) -> None:
    """">keine | Versteigerungen" read as two entries: a continuation line is indented deeper than any entry's
    start, in every list (the Ereigniskarte list already did it, the Hausregeln list did not)."""

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
