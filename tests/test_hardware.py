"""Choosing the hardware: real or simulated per config, never a silent fallback to a simulation."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.hardware import Absent, Callbacks, HardwareConfig, HardwareError, open_hardware
from drivers.keypad import MatrixKeypad, MockKeyMatrix
from drivers.rfid import RfidReader

NOOP = Callbacks(on_key=lambda k: None, on_hold=lambda k: None, on_encoder=lambda e: None,
                 on_tap=lambda u: None, on_reader_status=lambda ok, why: None)


def test_config_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match=r"\[hardware\.display\] adress: unbekannter Schlüssel – bekannt sind kind, "):
        HardwareConfig.from_dict({"display": {"kind": "sim", "adress": 60}})


def test_simulated_hardware_opens_anywhere() -> None:
    """No GPIO, no panel, no reader: every part is its driver on the virtual table, and a key pressed is heard."""
    keys: list[str] = []
    hw = open_hardware(HardwareConfig().simulated(), Callbacks(
        on_key=keys.append, on_hold=lambda k: None, on_encoder=lambda e: None, on_tap=lambda u: None,
        on_reader_status=lambda ok, why: None))
    try:
        assert hw.simulated and hw.virtual is not None and hw.faults == {}
        hw.start()
        assert isinstance(hw.keypad, MatrixKeypad)
        hw.virtual.press("LOS")
        assert keys == ["LOS"]
    finally:
        hw.close()


def test_real_display_without_a_panel_is_reported_never_a_simulation(factory: MockFactory) -> None:
    """A missing panel no longer ends the appliance; it is named, and never simulated."""
    cfg = HardwareConfig.from_dict({"display": {"kind": "ssd1306", "i2c_port": 77}, "buzzer": {"kind": "sim"}})
    hw = open_hardware(cfg, NOOP, pin_factory=factory)
    try:
        assert not hw.simulated and "display" in hw.faults and "/dev/i2c-77 fehlt" in hw.faults["display"]
    finally:
        hw.close()


def test_real_gpio_without_a_pin_factory_is_reported_not_pretended(tmp_path: Path) -> None:
    """Off a Pi, gpiozero finds no GPIO: the appliance says so instead of pretending."""
    cfg = HardwareConfig().simulated()
    cfg.keypad.kind = "matrix"
    hw = open_hardware(cfg, NOOP, dev=tmp_path)
    try:
        assert isinstance(hw.keypad, Absent) and "GPIO" in hw.faults["keypad"]
    finally:
        hw.close()


def test_real_gpio_parts_open_on_mock_pins(factory: MockFactory) -> None:
    from drivers.mfrc522_model import Mfrc522Model

    Mfrc522Model(pin_factory=factory)
    MockKeyMatrix(factory, (5, 6, 13, 19), (12, 16, 20, 21))
    cfg = HardwareConfig()
    cfg.display.kind = "sim"
    cfg.buzzer.kind = "sim"  # PWM mock pins cannot share a factory with the SPI model's pins
    hw = open_hardware(cfg, NOOP, pin_factory=factory)
    try:
        assert isinstance(hw.keypad, MatrixKeypad) and isinstance(hw.reader, RfidReader)
        assert not hw.keypad.alive and not hw.reader.alive  # nothing scans before start()
        hw.start()
        assert hw.keypad.alive and hw.reader.alive  # their own threads scan and poll now
        assert hw.stalled(time.monotonic()) == []
    finally:
        hw.close()
    assert not hw.keypad.alive and not hw.reader.alive  # closed: the threads have ended


def test_the_receiver_gain_comes_from_the_config(factory: MockFactory) -> None:
    """[hardware.reader] rx_gain_db reaches the chip's RFCfgReg; a gain the chip has not is refused."""
    from drivers.mfrc522_model import Mfrc522Model

    chip = Mfrc522Model(pin_factory=factory)
    cfg = HardwareConfig.from_dict({"display": {"kind": "sim"}, "keypad": {"kind": "sim"}, "encoder": {"kind": "none"},
                                    "buzzer": {"kind": "sim"}, "led": {"kind": "sim"}, "reader": {"rx_gain_db": 43}})
    hw = open_hardware(cfg, NOOP, pin_factory=factory)
    try:
        assert isinstance(hw.reader, RfidReader)
        hw.reader.poll(0.0)
        assert chip.rx_gain_db == 43
    finally:
        hw.close()
    cfg.reader.rx_gain_db = 40  # type: ignore[assignment]  # on purpose: a gain the type forbids is refused here too
    with pytest.raises(HardwareError, match="rx_gain_db"):
        open_hardware(cfg, NOOP, pin_factory=factory)


def test_the_configs_words_are_the_drivers() -> None:
    """The allowed values the config names are the ones the drivers take (one list each, checked here)."""
    from typing import get_args, get_type_hints

    from drivers.hardware import DisplayConfig, ReaderConfig
    from drivers.panel import KINDS
    from drivers.rfid import RX_GAINS_DB

    assert get_args(get_type_hints(DisplayConfig)["kind"]) == (*KINDS, "sim")
    assert set(get_args(get_type_hints(ReaderConfig)["rx_gain_db"])) == set(RX_GAINS_DB)


def test_the_admin_pages_doctor_says_one_cause_once(tmp_path: Path) -> None:
    """The running service's doctor: each part points to its cause, and GPIO's cause is one line."""
    from gpiozero.exc import PinUnknownPi

    from device.daemon.doctor import for_daemon

    def no_pi() -> None:
        raise PinUnknownPi("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")

    cfg = HardwareConfig.from_dict({"display": {"kind": "sim"}})
    hw = open_hardware(cfg, NOOP, make_pin_factory=no_pi, dev=tmp_path)
    hw.close()
    checks = {c["name"]: c for c in for_daemon(cfg, tmp_path, sim=False, watchdog=None, parts=hw.parts())}
    assert checks["Tastatur"]["detail"] == "siehe GPIO" and checks["Display"]["detail"] == "in Betrieb"
    assert not checks["GPIO"]["ok"] and checks["GPIO"]["detail"].startswith("kein Raspberry Pi erkannt")
