"""Choosing the hardware: real or simulated per config, never a silent fallback to a simulation."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.display import SimDisplay
from drivers.hardware import Absent, Callbacks, HardwareConfig, HardwareError, open_hardware
from drivers.keypad import MatrixKeypad, MockKeyMatrix
from drivers.rfid import RfidReader

NOOP = Callbacks(on_key=lambda k: None, on_hold=lambda k: None, on_encoder=lambda e: None,
                 on_tap=lambda u: None, on_reader_status=lambda ok, why: None)


def test_config_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match=r"\[hardware\.display\] adress: unbekannter Schlüssel – bekannt sind kind, "):
        HardwareConfig.from_dict({"display": {"kind": "sim", "adress": 60}})


def test_simulated_hardware_opens_anywhere() -> None:
    hw = open_hardware(HardwareConfig().simulated(), NOOP)
    assert hw.simulated and isinstance(hw.display, SimDisplay)
    hw.start()
    assert hw.threads_alive()
    hw.close()


def test_real_display_without_a_panel_is_reported_never_a_simulation(factory: MockFactory) -> None:
    """Issue 20: a missing panel no longer ends the appliance; it is named, and never simulated."""
    cfg = HardwareConfig.from_dict({"display": {"kind": "ssd1306", "i2c_port": 77}, "buzzer": {"kind": "sim"}})
    hw = open_hardware(cfg, NOOP, pin_factory=factory)
    try:
        assert not hw.simulated and "Display" in hw.faults and "/dev/i2c-77 fehlt" in hw.faults["Display"]
    finally:
        hw.close()


def test_real_gpio_without_a_pin_factory_is_reported_not_pretended(tmp_path: Path) -> None:
    """Off a Pi, gpiozero finds no GPIO: the appliance says so instead of pretending."""
    cfg = HardwareConfig().simulated()
    cfg.keypad.kind = "matrix"
    hw = open_hardware(cfg, NOOP, dev=tmp_path)
    try:
        assert isinstance(hw.keypad, Absent) and "GPIO" in hw.faults["Tastatur"]
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
    assert isinstance(hw.keypad, MatrixKeypad) and isinstance(hw.reader, RfidReader)
    hw.start()
    assert hw.threads_alive()
    hw.close()


def test_the_receiver_gain_comes_from_the_config(factory: MockFactory) -> None:
    """Issue 9: [hardware.reader] rx_gain_db reaches the chip's RFCfgReg; a gain the chip has not is refused."""
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
    cfg.reader.rx_gain_db = 40
    with pytest.raises(HardwareError, match="rx_gain_db"):
        open_hardware(cfg, NOOP, pin_factory=factory)
