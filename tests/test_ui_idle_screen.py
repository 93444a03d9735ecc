"""The OLED's idle screen: a part that is missing is named there until it comes, and the QR codes follow
in turn (the own Wi-Fi's first, then the page's), drawn only after the first frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ui_table import Table

# -- The device's side of the rules' new bookings, of missing parts and of the box's own Wi-Fi ---------


def test_a_missing_part_is_named_on_the_idle_screen_until_it_comes(table: Table) -> None:
    """"says what is missing on the OLED (if it works)" — lasting, not a note that goes."""
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
    """A keypad whose GPIO cannot open is retried; the OLED says so until it comes up."""
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
    assert hw is not None and hw.opener is not None and "keypad" in hw.faults
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
    """"the OLED shows a QR code to join it (WIFI:S:…;T:WPA;P:…;;), then the page's QR code"; the
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
    """READY within 3 s on a Pi core — segno (urllib, ssl) is imported after the first frame."""
    from device.scenes import Ui

    bank = Ui(ledger=table.ledger, cards=table.cards, show=table.display.show, tone=table.buzzer.play,
              url="http://192.168.1.20:8080/", clock=lambda: table.now, qr_later=True)
    assert bank.screen().qr is None and "192.168.1.20" in bank.screen().text()
    bank.tick()
    assert bank.screen().qr == "http://192.168.1.20:8080/"
