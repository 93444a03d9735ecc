"""Menü → Selbsttest: every part of the box tried by hand, each shown as it is used."""

from __future__ import annotations

from ui_table import UID, Table

from device.scenes import State


def _open(table: Table) -> None:
    table.press("MENU")
    table.choose("Selbsttest")
    assert table.bank.state is State.SELFTEST


def test_each_key_pressed_shows_its_name(table: Table) -> None:
    _open(table)
    for key in ("5", "HABEN", "SOLL", "LOS", "MENU", "OK", ".", "K"):
        table.press(key)
        shown = {"MENU": "KNOPF"}.get(key, key)  # the box has no menu key: the knob opens the menu
        assert table.text().splitlines()[1].startswith(f"Taste {shown}")


def test_the_knob_shows_its_turns_and_pushes(table: Table) -> None:
    _open(table)
    table.press("DOWN", "DOWN", "UP")
    assert table.text().splitlines()[1:3] == ["Knopf links", "Knopf +1, 0x gedrückt"]
    table.press("PUSH")
    assert table.text().splitlines()[1:3] == ["Knopf gedrückt", "Knopf +1, 1x gedrückt"]


def test_1_plays_a_tone_and_2_toggles_the_led(table: Table) -> None:
    leds: list[bool] = []
    table.bank.led = leds.append
    _open(table)
    table.tones()
    table.press("1")
    assert table.tones() == ["done"] and "Ton" in table.text()
    table.press("2", "2")
    assert leds == [True, False] and "LED aus" in table.text()


def test_a_card_laid_on_shows_its_uid_and_length(table: Table) -> None:
    _open(table)
    table.tap("Anna")
    assert table.text().splitlines()[1:4] == [f"Karte: {len(UID['Anna']) // 2} Byte", "Knopf +0, 0x gedrückt",
                                              f"UID {UID['Anna']}"]
    table.press("C")
    assert table.bank.state is State.CHOOSE and table.text().startswith("Menü")
