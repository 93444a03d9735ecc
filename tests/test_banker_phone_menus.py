""""the forms generated from rules.legal, so that the phone offers what the device offers (a test
compares the two for fixed positions)".

For each position, the device's player menu as its OLED lists it (the real scenes, driven by key presses:
its entries, each submenu's flows, each flow's squares) is compared with the phone's forms for the same
game (``device.daemon.booking.forms_for``, what ``GET /api/banker/legal?player=`` answers).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args

import pytest
from in_play import in_play
from phone_menus import POSITIONS, phone_menu
from ui_table import Table

from device.daemon.booking import forms_for, last_booking
from rules import square_name
from shapes.forms import Field, FieldKind, Form, Forms, LastBooking, Option

DEVICE_ONLY = {"Storno", "Rangliste"}
"""The device's "Mehr" entries that are no booking of a player: the phone has Storno as its own button, and the
ranking on the status page."""


def device_menu(table: Table, player: str) -> dict[str, list[str]]:
    """Every flow the device's menu opens for ``player``, under its entry, in the menu's order."""
    table.tap(player)
    table.press("MENU")
    entries = table.labels()
    menu: dict[str, list[str]] = {}
    for entry in entries:
        table.choose(entry)
        scene = table.bank.scene
        nested = getattr(scene, "title", "") == entry and len(table.labels()) > 0 and entry in (
            "Hypothek", "Ereignis/Gemeinsch.", "Mehr")
        menu[entry] = [f for f in table.labels() if f not in DEVICE_ONLY] if nested else [entry]
        table.press("C")
    table.press("C")
    return {entry: flows for entry, flows in menu.items() if flows}


def device_squares(table: Table, player: str, entry: str, flow: str) -> list[str]:
    """The squares the device lists for a flow, by name (its list reads "NN name")."""
    table.tap(player)
    table.press("MENU")
    table.choose(entry)
    if flow != entry:
        table.choose(flow)
    names = [label[3:] for label in table.labels()]
    table.press("C", "C", "C")
    return names


@pytest.mark.parametrize("edition", ["classic", "schalke"])
@pytest.mark.parametrize("position", list(POSITIONS))
def test_the_phone_offers_what_the_device_offers(table: Table, position: str, edition: str) -> None:
    table.start("Anna", "Ben", "Cem", edition=edition)
    table.book(*POSITIONS[position])
    game = table.ledger.game
    ed = in_play(table.ledger).edition
    for player in [n for n, p in in_play(table.ledger).players.items() if not p.bankrupt]:
        forms = forms_for(game, player)["forms"]
        device = device_menu(table, player)
        assert phone_menu(forms) == device, (position, player)
        for form in forms:
            square = next((f for f in form["fields"] if f["name"] == "square"), None)
            if square is None or not form["flow"]:
                continue
            assert [o["label"] for o in square["options"]] == device_squares(
                table, player, form["menu"], form["flow"]), (position, player, form["op"])
            assert all(o["label"] == square_name(ed, int(o["value"])) for o in square["options"])


def _fits(answer: Mapping[str, object], shape: Any) -> bool:
    """Every key the shape (a TypedDict class: typeshed gives its type no key sets) requires, and no other key."""
    required: frozenset[str] = shape.__required_keys__
    optional: frozenset[str] = shape.__optional_keys__
    return required <= set(answer) <= required | optional


@pytest.mark.parametrize("position", list(POSITIONS))
def test_the_forms_answer_the_keys_their_shapes_declare(table: Table, position: str) -> None:
    """The forms and Storno's last booking are typed for the web (``shapes.forms``): what the device sends has the
    keys those types declare, each field a kind the page draws, so the types cannot drift from the answers."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book(*POSITIONS[position])
    game = table.ledger.game
    players = [n for n, p in in_play(table.ledger).players.items() if not p.bankrupt]
    answers = [forms_for(game, None), forms_for(game, "Zoe"), *(forms_for(game, name) for name in players)]
    for answer in answers:
        assert _fits(answer, Forms), answer
        for form in answer["forms"]:
            assert _fits(form, Form), form
            for field in form["fields"]:
                assert _fits(field, Field) and field["kind"] in get_args(FieldKind), field
                assert all(_fits(option, Option) for option in field.get("options", [])), field
    assert sum(len(a["forms"]) for a in answers) > 10 and _fits(last_booking(game), LastBooking)


def test_the_start_log_says_whether_a_banker_pin_is_set_and_how(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """"`./dev run` says nothing about the banker PIN: say whether one is set and how to set it"."""
    from device.daemon.config import Config
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    for config, said in ((Config(), "Banker-PIN: keine. Setzen: auf der Bankhalter-Seite mit dem Code, den das Gerät "
                                    "im Ruhebild zeigt, oder am Gerät Menü ohne "
                                    "Karte → 7 Banker-PIN (in der Simulation auf /device), oder beim Start "
                                    "BANKLESER_BANKER_PIN=1234 ./dev run"),
                         (Config(banker_pin="4711"), "Banker-PIN: gesetzt (Konfiguration oder BANKLESER_BANKER_PIN)")):
        caplog.clear()
        with caplog.at_level(logging.INFO):
            d = Daemon(config, tmp_path / "state", sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
            d.start(web=False)
            d.close()
        assert said in caplog.messages
