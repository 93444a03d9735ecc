"""The device's side of issues 19, 20 and 21: what the rules now book, the parts that are missing, the own Wi-Fi."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ui_table import Table, shown

from device.scenes.lists import ConfirmScene
from rules import GROUPS


def _cem_broke_with_a_mortgaged_deed(table: Table, *, ben_cash: int) -> None:
    """Schalke (seed 003 has the 10 %): Cem holds the last street, mortgaged, and no cash; Ben has ``ben_cash``."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    table.book({"op": "buy", "player": "Cem", "square": 39}, {"op": "mortgage", "player": "Cem", "square": 39},
          {"op": "debit", "player": "Cem", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1500 - ben_cash})


def _bankrupt_to_ben(table: Table) -> None:
    """Cem owes Ben 100 and cannot pay: ZU WENIG GELD, OK: Geld beschaffen, Bankrott to Ben."""
    table.tap("Cem")
    table.press("SOLL")
    table.type("100")
    table.tap("Ben")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    assert "Ben löst gleich auf:" in table.text()  # the mortgaged deed Ben receives: lift it at once, or not (issue 26)
    table.press("OK")  # "Fertig" is preselected: nothing lifted, the 10 %


def test_the_bankruptcys_confirm_shows_the_10_percent_the_creditor_pays(table: Table) -> None:
    """Seed 001: "Erhält ein Gläubiger … ein mit einer Hypothek belastetes Grundstück, so muss er sofort … 10 %
    Zinsen an die Bank bezahlen" — the confirm shows the rules' note, and that Storno undoes it."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=500)
    _bankrupt_to_ben(table)
    assert isinstance(table.bank.scene, ConfirmScene)
    lines = table.text().splitlines()
    assert lines[:2] == ["OK bucht, C zurück ↓", "Bankrott"] and "10 % an Bank: 20" in lines
    assert "Storno hebt es auf" in lines


def test_the_bankruptcys_confirm_shows_what_stays_owed_to_the_bank(table: Table) -> None:
    """A creditor who cannot pay the 10 % owes it to the bank: the confirm says so before OK."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=1)
    _bankrupt_to_ben(table)
    lines = table.text().splitlines()
    assert "offen an Bank: 19" in lines or "offen an Bank: 20" in lines
    assert "Storno hebt es auf" in lines


def _ben_owes_the_bank(table: Table) -> None:
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=1)
    _bankrupt_to_ben(table)
    table.press("OK")
    assert table.ledger.game.state.players["Ben"].debt == 20
    table.tones()


def _more_menu(table: Table, player: str) -> list[str]:
    table.press("C", "C", "C")
    table.tap(player)
    table.press("MENU")
    return table.labels()


def test_a_debt_to_the_bank_is_paid_from_the_menu(table: Table) -> None:
    """Seed 003: the creditor "muss sofort … 10 % Zinsen an die Bank bezahlen"; who could not owes it:
    Menü 0 (Mehr) → Schuld zahlen, the rules' preview, OK books ``pay_debt``."""
    _ben_owes_the_bank(table)
    table.book({"op": "credit", "player": "Ben", "amount": 100})
    _more_menu(table, "Ben")
    table.press("0")
    assert "Schuld zahlen" in table.labels()
    table.choose("Schuld zahlen")
    assert isinstance(table.bank.scene, ConfirmScene) and shown(table.bank.scene.cmd) == {"op": "pay_debt", "player": "Ben"}
    assert "20" in table.text()
    table.press("OK")
    assert table.ledger.game.state.players["Ben"].debt == 0 and table.cash("Ben") == 81


def test_while_a_debt_is_open_the_menu_offers_no_other_payment(table: Table) -> None:
    """Rules: a player who owes the bank pays nothing else first (``debt_open``): the menu offers none of it."""
    _ben_owes_the_bank(table)
    table.book({"op": "credit", "player": "Ben", "amount": 1000})
    labels = _more_menu(table, "Ben")
    for label in ("Kaufen", "Miete zahlen", "Steuer", "Bauen", "Hypothek"):
        assert label not in labels
    assert "Mehr" in labels
    assert "Schuld zahlen" not in _more_menu(table, "Anna")


def test_schuld_zahlen_keeps_the_digits_of_the_other_entries() -> None:
    """Issue 18, property 6: a new entry takes a digit no other entry had; Frei Parken stays MENU 0 1."""
    from device.scenes.flows import PLAYER_MENU

    more = next(e for e in PLAYER_MENU if e.digit == "0")
    assert [f.label for f in more.flows][:3] == ["Frei Parken", "Storno", "Rangliste"]
    assert {"Schuld zahlen", "Bauversteigerung"} <= {f.label for f in more.flows}


def _shortage(table: Table) -> None:
    """Classic: Cem's 24 houses leave the bank 8; Anna (8 to build) and Ben (12) both want more."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    cmds: list[dict[str, Any]] = [{"op": "credit", "player": p, "amount": 2000} for p in ("Anna", "Ben", "Cem")
                                  for _ in range(3)]
    owners = {"Anna": ("brown",), "Ben": ("lightblue",), "Cem": ("pink", "orange")}
    for player, groups in owners.items():
        for group in groups:
            cmds += [{"op": "buy", "player": player, "square": sq} for sq in GROUPS[group]]
    for _ in range(4):
        cmds += [{"op": "build", "player": "Cem", "square": sq} for g in owners["Cem"] for sq in GROUPS[g]]
    table.book(*cmds)
    assert table.ledger.game.state.bank_houses == 8


def test_the_building_auction_is_booked_with_a_typed_bid(table: Table) -> None:
    """Seed 000: "werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt
    der niedrigste, gedruckte Preis" — Menü 0 → Bauversteigerung, the street, the bid (no 20M cap), OK."""
    _shortage(table)
    table.tap("Anna")
    table.press("MENU", "0")
    table.choose("Bauversteigerung")
    table.choose(table.labels()[0])
    assert "ab 50" in table.text()
    table.type("2100")  # more than the typing limit of a credit (2000), less than Anna's cash
    table.press("OK")
    assert isinstance(table.bank.scene, ConfirmScene)
    assert shown(table.bank.scene.cmd) == {"op": "build_auction", "player": "Anna", "square": 1, "price": 2100}
    table.press("OK")
    assert table.ledger.game.state.deeds[1].houses == 1 and table.cash("Anna") == 7500 - 60 - 60 - 2100


def test_the_building_auction_is_offered_only_in_a_shortage(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic")
    table.book(*[{"op": "buy", "player": "Anna", "square": sq} for sq in GROUPS["brown"]])
    table.tap("Anna")
    table.press("MENU", "0")
    assert "Bauversteigerung" not in table.labels()


def test_a_debt_that_a_mortgage_covers_offers_the_mortgage_not_bankruptcy(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann": Schuld zahlen refused for want of
    cash leads to Hypothek, and Bankrott stays off while a mortgage would pay the 20 owed."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    table.book({"op": "buy", "player": "Ben", "square": 1}, {"op": "buy", "player": "Cem", "square": 39},
          {"op": "mortgage", "player": "Cem", "square": 39}, {"op": "debit", "player": "Cem", "amount": 1300},
          {"op": "debit", "player": "Ben", "amount": 1439})
    _bankrupt_to_ben(table)
    table.press("OK")
    assert table.ledger.game.state.players["Ben"].debt == 20
    _more_menu(table, "Ben")
    table.press("0")
    table.choose("Schuld zahlen")  # the rules' preview refuses at once: the result, not a confirm
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    assert [label.split(" (")[0] for label in table.labels()] == ["Hypothek"]


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


def test_a_missing_part_is_named_on_the_idle_screen_until_it_comes(table: Table) -> None:
    """Issue 20: "says what is missing on the OLED (if it works)" — lasting, not a note that goes."""
    missing = ["Tastatur"]
    table.bank.missing = lambda: list(missing)
    table.bank.refresh()
    assert table.text().splitlines()[0] == "Fehlt: Tastatur"
    table.now += 30
    table.bank.tick()
    assert table.text().splitlines()[0] == "Fehlt: Tastatur"
    missing.clear()
    table.bank.refresh()
    assert table.text().splitlines()[0] == "Bankleser"


def test_the_daemon_names_a_missing_keypad_on_the_oled_and_drops_it_once_the_retry_takes_it_in(
        tmp_path: Path) -> None:
    """Issue 20: a keypad whose GPIO cannot open is retried; the OLED says so until it comes up."""
    import threading

    from gpiozero.pins.mock import MockFactory

    from device.daemon.config import Config
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon
    from drivers.hardware import HardwareConfig

    parts: dict[str, dict[str, Any]] = {"display": {"kind": "sim"}, "keypad": {"kind": "matrix"},
                                        "encoder": {"kind": "none"}, "buzzer": {"kind": "sim"},
                                        "led": {"kind": "sim"}, "reader": {"kind": "sim"}}
    config = Config(hardware=HardwareConfig.from_dict(parts), banker_pin="4711")
    daemon = Daemon(config, tmp_path / "state", sim=False, host="127.0.0.1", port=0, notifier=Notifier(""))
    daemon.start(web=False)
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    hw = daemon.hardware
    assert hw is not None and "keypad" in hw.faults
    try:
        daemon.call(lambda: None)
        assert hw.display.screen is not None and hw.display.screen.title == "Fehlt: Tastatur"
        hw.opener.make_pin_factory = MockFactory  # the wire is fixed
        hw.opener.pin_factory = None
        assert hw.retry() == ["keypad"]
        daemon.call(lambda: None)  # the loop has handled the part's arrival
        assert hw.display.screen.title == "Bankleser"
    finally:
        daemon.stop()
        loop.join(5)
        daemon.close()


def test_the_own_wifi_is_shown_first_then_the_page_in_turn(table: Table) -> None:
    """Issue 21: "the OLED shows a QR code to join it (WIFI:S:…;T:WPA;P:…;;), then the page's QR code"; the
    network's code 10 s (as large as the panel allows), its name and password 20 s (time to type it), the page's
    code 10 s, in turn while the Wi-Fi is open."""
    from device.daemon.hotspot import JoinInfo, wifi_qr_payload
    from device.scenes.idle import JOIN_SHOWN, PASSWORD_SHOWN
    from device.scenes.layout import problems

    def wait(seconds: float) -> None:
        for _ in range(int(seconds) + 1):
            table.now += 1
            table.bank.tick()

    join: list[JoinInfo] = [JoinInfo("Bankleser", "abcdefghjkmn", wifi_qr_payload("Bankleser", "abcdefghjkmn"))]
    table.bank.join = lambda: join[0] if join else None
    table.bank.refresh()
    screen = table.bank.screen()
    assert screen.qr == "WIFI:S:Bankleser;T:WPA;P:abcdefghjkmn;;"
    assert screen.lines == ("WLAN", "beitreten:", "Code", "scannen") and problems(screen) == []
    wait(JOIN_SHOWN)
    screen = table.bank.screen()
    assert screen.qr is None and screen.title == "WLAN beitreten" and problems(screen) == []
    assert screen.lines == ("Bankleser", "Passwort:", "abcdefghjkmn")
    wait(PASSWORD_SHOWN)
    assert table.bank.screen().qr == "http://192.168.1.20:8080/"
    wait(JOIN_SHOWN - 1)
    assert table.bank.screen().qr == join[0].wifi_qr
    join.clear()  # a known network came back: only the page
    table.bank.tick()
    assert table.bank.screen().qr == "http://192.168.1.20:8080/"


def test_the_daemons_first_idle_frame_has_no_qr_code_until_the_first_tick(table: Table) -> None:
    """Issue 21: READY within 3 s on a Pi core — segno (urllib, ssl) is imported after the first frame."""
    from device.scenes import Ui

    bank = Ui(ledger=table.ledger, cards=table.cards, show=table.display.show, tone=table.buzzer.play,
              url="http://192.168.1.20:8080/", clock=lambda: table.now, qr_later=True)
    assert bank.screen().qr is None and "192.168.1.20" in bank.screen().text()
    bank.tick()
    assert bank.screen().qr == "http://192.168.1.20:8080/"


def test_the_creditor_may_lift_a_mortgage_from_a_bankruptcy_at_once(table: Table) -> None:
    """Issue 26, seeds 001/003/004: "Der Mitspieler muss sofort für jedes belastete Grundstück … 10 % Zinsen an die
    Bank bezahlen. Dies gilt auch dann, wenn er die Hypothek zu diesem Zeitpunkt noch nicht auflösen möchte" — lifting
    at once costs the mortgage plus the 10 % once (Schlossallee: 200 + 20 = 220), not the 10 % and later 220 again."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=500)
    table.tap("Cem")
    table.press("SOLL")
    table.type("100")
    table.tap("Ben")
    table.press("OK")
    table.choose("Bankrott")
    table.choose("39 Schlossallee: 220")  # marked; lifting it costs the mortgage and 10 %
    table.choose("Fertig")
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.cmd["lift"] == [39]
    table.press("OK")
    state = table.ledger.game.state
    assert state.deeds[39].owner == "Ben" and not state.deeds[39].mortgaged
    assert state.players["Ben"].cash == 500 - 220
