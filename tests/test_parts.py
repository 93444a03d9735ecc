"""A loose wire must not kill the box: each part that fails to open is named with its cause and
fix, once in the log, on the page; the rest works; the part is tried again and taken in when it comes up.

Failures are faked where the real libraries meet the system: smbus2's bus (luma's own code raises its
errors), gpiozero's pin factory (MockFactory, and a factory whose hardware SPI cannot open, as lgpio's
``spi_open`` fails without ``/dev/spidev0.0``), and a fake ``/dev``.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import urllib.request
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, NoReturn

import pytest
import smbus2
from gpiozero import Device
from gpiozero.pins import SPI
from gpiozero.pins.mock import MockFactory
from parts_helpers import Calls, only

from drivers.hardware import Absent, HardwareConfig, open_hardware
from drivers.hints import Access, gpio_hint
from drivers.keypad import MatrixKeypad
from drivers.rfid import RfidReader
from drivers.screen import Screen


class Bus:
    """smbus2.SMBus as the kernel answers it: no ``/dev/i2c-N``, no permission, or no device at the address."""

    present = True
    allowed = True
    wired = False
    frames = 0

    def __init__(self, port: int) -> None:
        if not Bus.present:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")
        if not Bus.allowed:
            raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    def write_i2c_block_data(self, addr: int, reg: int, data: list[int]) -> None:
        if not Bus.wired:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def i2c_rdwr(self, *msgs: Any) -> None:
        if not Bus.wired:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        Bus.frames += 1

    def close(self) -> None:
        pass


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> type[Bus]:
    monkeypatch.setattr(smbus2, "SMBus", Bus)
    Bus.present, Bus.allowed, Bus.wired, Bus.frames = True, True, False, 0
    return Bus


def test_an_oled_with_swapped_wires_is_named_with_the_fix_and_taken_in_once_it_answers(
        bus: type[Bus], caplog: pytest.LogCaptureFixture) -> None:
    calls = Calls()
    with caplog.at_level(logging.WARNING):
        hw = open_hardware(only(display={"kind": "ssd1306"}), calls.callbacks())
    try:
        assert hw.faults["display"].startswith("Display: kein Gerät an 0x3C auf I²C-1 – SDA/SCL vertauscht")
        assert "`i2cdetect -y 1`" in hw.faults["display"]
        hw.display.show(Screen(title="Bankleser", big="Bereit"))  # drawing on the stand-in goes on
        assert hw.display.flush()
        hw.retry()
        hw.retry()
        said = [r.getMessage() for r in caplog.records if "0x3C" in r.getMessage()]
        assert len(said) == 1  # once in the log, not at every retry
        bus.wired = True  # the wire is fixed while the box runs
        assert hw.retry() == ["display"] and hw.faults == {} and calls.parts == 1
        assert hw.display.flush() and bus.frames >= 1  # the current screen reached the panel
        assert any("Display: jetzt da" in r.getMessage() for r in caplog.records)
    finally:
        hw.close()


def test_i2c_off_and_no_permission_are_told_apart(bus: type[Bus]) -> None:
    bus.present = False
    hw = open_hardware(only(display={"kind": "ssd1306"}), Calls().callbacks())
    assert "/dev/i2c-1 fehlt – I²C ist nicht eingeschaltet: dtparam=i2c_arm=on" in hw.faults["display"]
    hw.close()
    bus.present, bus.allowed = True, False
    hw = open_hardware(only(display={"kind": "ssd1306"}), Calls().callbacks())
    assert "kein Zugriff auf /dev/i2c-1" in hw.faults["display"] and "usermod -aG i2c" in hw.faults["display"]
    hw.close()


def lgpio_error(message: str) -> Exception:
    """What ``lgpio`` raises (its ``error`` class carries lgpio's error text)."""
    class error(Exception):
        pass

    return error(message)


def test_the_gpio_hint_names_the_real_cause(tmp_path: Path) -> None:
    """Not always "pip install lgpio": the library, the chip, or the permission."""
    missing_library = ModuleNotFoundError("No module named 'lgpio'")
    assert "Python-Modul lgpio fehlt" in gpio_hint(missing_library, dev=tmp_path)
    cannot_open = lgpio_error("can not open gpiochip")
    assert f"{tmp_path}/gpiochip0 fehlt" in gpio_hint(cannot_open, dev=tmp_path)
    chip = tmp_path / "gpiochip0"
    chip.write_bytes(b"")
    os.chmod(chip, 0o600)
    user = Access(uid=4321, groups=frozenset({4321}), name="bankleser")
    os.chown(chip, 0, 0)
    root_only = gpio_hint(cannot_open, dev=tmp_path, access=user)
    assert "gehört root:root" in root_only and "60-bankleser.rules" in root_only  # plain Debian
    os.chown(chip, 0, 64999)
    os.chmod(chip, 0o660)
    assert "nicht in der Gruppe 64999: sudo usermod -aG 64999 bankleser" in gpio_hint(cannot_open, dev=tmp_path, access=user)
    member = Access(uid=4321, groups=frozenset({4321, 64999}))
    assert "alle 1 gpiochip-Geräte sind lesbar" in gpio_hint(cannot_open, dev=tmp_path, access=member)


def test_without_gpio_the_box_comes_up_and_names_the_cause_once(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    calls = Calls()
    cfg = HardwareConfig.from_dict({"display": {"kind": "sim"}})
    failures = [ModuleNotFoundError("No module named 'lgpio'")]

    def factory() -> Any:
        if failures:
            raise failures[0]
        return MockFactory()

    with caplog.at_level(logging.ERROR):
        hw = open_hardware(cfg, calls.callbacks(), make_pin_factory=factory, dev=tmp_path)
    try:
        assert set(hw.faults) == {"keypad", "encoder", "buzzer", "led", "reader"}
        assert all("Python-Modul lgpio fehlt" in hint for hint in hw.faults.values())
        assert len([r for r in caplog.records if "lgpio fehlt" in r.getMessage()]) == 1
        assert isinstance(hw.keypad, Absent) and isinstance(hw.reader, Absent)
        assert calls.reader and calls.reader[0][0] is False  # the reader's status says it, as a lost reader does
        hw.start()
        assert hw.stalled(0.0) == []  # stand-ins never starve the watchdog
        assert [p["ok"] for p in hw.parts()] == [True, False, False, False, False, False]
    finally:
        hw.close()


def test_a_keypad_that_comes_up_late_is_started_and_heard(tmp_path: Path) -> None:
    calls = Calls()
    cfg = only(keypad={"kind": "matrix"})
    answers: list[Any] = [lgpio_error("can not open gpiochip")]

    def factory() -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    hw = open_hardware(cfg, calls.callbacks(), make_pin_factory=factory, dev=tmp_path)
    try:
        hw.start()
        assert isinstance(hw.keypad, Absent)
        answers.append(MockFactory())
        assert hw.retry() == ["keypad"]
        assert isinstance(hw.keypad, MatrixKeypad) and hw.keypad.alive and hw.parts()[1]["ok"]
    finally:
        hw.close()


class NoSpidevFactory(MockFactory):
    """Mock pins whose hardware SPI cannot open, as lgpio's ``spi_open`` fails without ``/dev/spidev0.0``:
    gpiozero's ``PiFactory.spi`` then warns and falls back to bit-banging the same pins."""

    spi_enabled = False

    def _get_spi_class(self, shared: bool, hardware: bool) -> Callable[..., SPI]:
        if hardware and not self.spi_enabled:
            def refuse(**_: Any) -> NoReturn:
                raise lgpio_error("can not open SPI device")
            return refuse
        return super()._get_spi_class(shared, hardware)


def test_gpiozeros_silent_fallback_to_software_spi_is_said_clearly() -> None:
    """Not "VersionReg 0x00" from a bit-banged bus, but "SPI ist nicht eingeschaltet"."""
    calls = Calls()
    factory = NoSpidevFactory()
    Device.pin_factory = factory  # gpiozero's software SPI asks the global factory for its pins
    try:
        hw = open_hardware(only(reader={"kind": "mfrc522"}), calls.callbacks(), pin_factory=factory)
        hint = hw.faults["reader"]
        assert "kein Hardware-SPI" in hint and "can not open SPI device" in hint
        assert "SPI ist nicht eingeschaltet: dtparam=spi=on" in hint and "VersionReg" not in hint
        assert calls.reader == [(False, hint.removeprefix("RFID-Leser: ").split(" – ")[0])]
        assert calls.reader[0][1].startswith("kein Hardware-SPI")
        factory.spi_enabled = True  # the reset pin and the SPI pins were given back: a retry can take them
        assert hw.retry() == ["reader"] and isinstance(hw.reader, RfidReader)
        assert calls.reader[-1] == (True, "")
        hw.close()
    finally:
        factory.reset()
        Device.pin_factory = None


def test_a_buzzer_and_led_that_come_up_late_sound_and_light() -> None:
    from gpiozero.pins.mock import MockPWMPin

    pins = MockFactory(pin_class=MockPWMPin)
    chip = {"there": False}

    def factory() -> Any:
        if not chip["there"]:
            raise lgpio_error("can not open gpiochip")
        return pins

    hw = open_hardware(only(buzzer={"kind": "gpio"}, led={"kind": "gpio"}), Calls().callbacks(),
                       make_pin_factory=factory, dev=Path("/nonexistent"))
    try:
        assert set(hw.faults) == {"buzzer", "led"}
        hw.buzzer.play("done")  # silent, no error
        chip["there"] = True
        assert sorted(hw.retry()) == ["buzzer", "led"]
        hw.led.toggle()
        assert pins.pin(23).state
        hw.buzzer.beep()
    finally:
        hw.close()
        pins.reset()


def every_part_missing(tmp_path: Path) -> AbstractContextManager[Any]:
    """The appliance as on a Pi with no I²C display at its port and no GPIO: every part missing."""
    from daemon_fixture import running
    from device.daemon.config import Config

    config = Config(hardware=HardwareConfig.from_dict({"display": {"i2c_port": 77}}), banker_pin="4711")
    return running(config, tmp_path / "state", sim=False)


def public_state(port: int, cookie: str = "") -> dict[str, Any]:
    """What a phone reads (``cookie``: its own language, ``bank_lang=en``)."""
    ask = urllib.request.Request(f"http://127.0.0.1:{port}/api/state", headers={"Cookie": cookie})
    with urllib.request.urlopen(ask, timeout=10) as answer:
        state: dict[str, Any] = json.loads(answer.read())
    return state


def test_the_appliance_with_every_part_missing_serves_its_page_and_names_each(tmp_path: Path) -> None:
    """No traceback and restart loop with a dark OLED: the page is up and says what is missing."""
    with every_part_missing(tmp_path) as daemon:
        state = public_state(daemon.port)
        parts = {p["name"]: p for p in state["parts"]}
        assert not parts["Display"]["ok"] and "/dev/i2c-77 fehlt" in parts["Display"]["hint"]
        assert not parts["Tastatur"]["ok"] and parts["Tastatur"]["hint"].startswith("GPIO: ")
        assert "Display: /dev/i2c-77 fehlt" in state["problem"]
        assert daemon.stuck(0.0) == []  # the watchdog is fed: systemd restarts nothing


def test_a_phone_reading_english_reads_what_is_missing_in_english(tmp_path: Path) -> None:
    """"each phone may also read the page in the language its browser asks for": the hints were worded
    once, in the appliance's language, so an English phone read "Display: /dev/i2c-77 fehlt" on a German box."""
    with every_part_missing(tmp_path) as daemon:
        german, english = public_state(daemon.port), public_state(daemon.port, "bank_lang=en")
        assert "Display: /dev/i2c-77 fehlt" in german["problem"] and "GPIO (Tastatur" in german["problem"]
        assert "Display: /dev/i2c-77 is missing" in english["problem"] and "GPIO (Keypad" in english["problem"]
        keypad = next(p for p in english["parts"] if p["id"] == "keypad")
        assert keypad["name"] == "Keypad" and "fehlt" not in keypad["hint"]


def no_pi() -> Any:
    """What gpiozero's lgpio factory raises on a board it does not know (Debian arm64 in a VM):
    gpiozero's ``get_pi_revision`` finds no revision code, before lgpio is even asked."""
    from gpiozero.exc import PinUnknownPi

    raise PinUnknownPi("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")


def readable_chips(tmp_path: Path) -> Path:
    """A /dev whose gpiochips anyone may open, and nothing else (no SPI device, no I²C bus)."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("gpiochip0", "gpiochip1"):
        (dev / name).write_bytes(b"")
        os.chmod(dev / name, 0o666)
    return dev


def test_doctor_and_daemon_open_gpio_one_way_and_name_the_same_cause(tmp_path: Path) -> None:
    """The daemon could not open GPIO ("unable to locate Pi revision … lgpio-Version prüfen", the wrong
    fix) while `bankleser doctor` showed GPIO ✓ and lgpio ✓. Both open it one way now and say one cause."""
    from device.daemon.doctor import System, check_gpio, check_lgpio, diagnose

    dev = readable_chips(tmp_path)
    hw = open_hardware(HardwareConfig.from_dict({"display": {"kind": "sim"}}), Calls().callbacks(),
                       make_pin_factory=no_pi, dev=dev)
    hw.close()
    daemon = hw.faults["keypad"]
    doctor = {c.name: c for c in diagnose(System(dev=dev, access=Access.of_process(), make_pin_factory=no_pi,
                                                 import_lgpio=lambda: None), (check_gpio, check_lgpio))}
    assert doctor["GPIO"].line() == f"✗ {daemon}"
    assert daemon.startswith("GPIO: kein Raspberry Pi erkannt") and "/proc/device-tree/system/linux,revision" in daemon
    assert "lgpio-Version" not in daemon and "bankleser run --sim" in daemon
    assert doctor["lgpio"].ok  # installed, and still GPIO does not open: the two lines no longer contradict


def test_a_hidden_proc_is_named_not_a_missing_pi() -> None:
    """gpiozero reads /proc/cpuinfo when the device tree has no revision: a sandbox hiding /proc is the cause."""
    hidden = FileNotFoundError(errno.ENOENT, "No such file or directory", "/proc/cpuinfo")
    assert "ProcSubset=pid" in gpio_hint(hidden)


def test_one_cause_is_one_line_naming_the_parts_it_affects(tmp_path: Path) -> None:
    """The page's banner repeated the same GPIO text once per part."""
    from device.daemon.parts import missing_names, parts_problem, start_screen
    from device.scenes.idle import missing_title

    cfg = HardwareConfig.from_dict({"display": {"kind": "sim"}, "reader": {"kind": "sim"}})
    hw = open_hardware(cfg, Calls().callbacks(), make_pin_factory=no_pi, dev=readable_chips(tmp_path))
    hw.close()
    problem = parts_problem(hw.parts())
    assert problem is not None and problem.count("kein Raspberry Pi erkannt") == 1
    assert problem.startswith("GPIO (Tastatur, Drehknopf, Summer, LED): kein Raspberry Pi erkannt")
    assert start_screen(hw).lines[0] == "Fehlt: GPIO"
    assert missing_title(missing_names(hw.parts(), but=["display"])) == "Fehlt: GPIO"


def test_every_missing_thing_is_named_at_once(tmp_path: Path, bus: type[Bus]) -> None:
    """The missing SPI device was named by doctor, but not by the daemon while GPIO failed: with
    GPIO, the SPI device and the I²C bus all missing, the builder learns of the three at once."""
    from device.daemon.doctor import System, check_gpio, check_i2c, check_spi, diagnose
    from device.daemon.parts import parts_problem, start_screen

    bus.present = False
    dev = readable_chips(tmp_path)
    hw = open_hardware(HardwareConfig(), Calls().callbacks(), make_pin_factory=no_pi, dev=dev)
    hw.close()
    problem = (parts_problem(hw.parts()) or "").splitlines()
    assert len(problem) == 3
    assert problem[0].startswith("Display: /dev/i2c-1 fehlt – I²C ist nicht eingeschaltet")
    assert problem[1].startswith("GPIO (Tastatur, Drehknopf, Summer, LED, RFID-Leser): kein Raspberry Pi erkannt")
    assert problem[2].startswith(f"RFID-Leser: {dev}/spidev0.0 fehlt – SPI ist nicht eingeschaltet: dtparam=spi=on")
    assert start_screen(hw).lines[0] == "Fehlt: Display, GPIO, RFID-Leser"
    doctor = diagnose(System(dev=dev, access=Access.of_process(), make_pin_factory=no_pi),
                      (check_i2c, check_spi, check_gpio))
    assert [c.name for c in doctor if not c.ok] == ["I²C-1", "SPI0", "GPIO"]
    said = {c.name: c for c in doctor}
    assert problem[2] == f"RFID-Leser: {said['SPI0'].detail}" and problem[1].endswith(said["GPIO"].detail
                                                                                        + " – " + said["GPIO"].fix)


def test_the_page_shows_each_cause_once_on_a_line_of_its_own(tmp_path: Path) -> None:
    """The banner said the same GPIO text five times in one run-on line. In a real browser, on the
    page of a daemon whose parts are missing on this machine: one line per cause, GPIO's naming its parts."""
    import threading

    from playwright.sync_api import sync_playwright

    from device.daemon.config import Config
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    config = Config(hardware=HardwareConfig.from_dict({"display": {"i2c_port": 77}}), banker_pin="4711")
    daemon = Daemon(config, tmp_path / "state", sim=False, host="127.0.0.1", port=0, notifier=Notifier(""))
    daemon.start()
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page(locale="de-DE")  # a German phone: the page follows its browser
                page.goto(f"http://127.0.0.1:{daemon.port}/")
                banner = page.locator("#problem")
                banner.wait_for(state="visible")
                lines = banner.inner_text().splitlines()
            finally:
                browser.close()
    finally:
        daemon.stop()
        loop.join(5)
        daemon.close()
    assert lines[0].startswith("Achtung: Display: /dev/i2c-77 fehlt – I²C ist nicht eingeschaltet")
    assert lines[1].startswith("GPIO (Tastatur, Drehknopf, Summer, LED, RFID-Leser): ")
    assert len(lines) == len(set(lines)) and sum(line.startswith("GPIO") for line in lines) == 1
