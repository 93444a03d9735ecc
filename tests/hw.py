"""Fakes for the hardware, chosen on purpose: gpiozero's MockFactory, luma's dummy, the chip model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory per test (also the global one: gpiozero's software SPI asks for it)."""
    mock = MockFactory()
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = None


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = None
