"""The device inside the whole daemon: PIN set on the keypad, then used on the web; the URL follows Wi-Fi."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sim_device import Device

from daemon_fixture import running
from device.daemon.config import Config
from device.daemon.service import Daemon


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Daemon]:
    """A daemon whose banker has not set a PIN yet (no PIN in the config)."""
    with running(Config(), tmp_path / "state") as d:
        yield d


@pytest.mark.parametrize("pin", ["1234", "12345", "123456", "1234567", "12345678"])
def test_every_pin_length_the_screen_allows_logs_in(fresh: Daemon, pin: str) -> None:
    """Menü → Banker-PIN says "4-8 Ziffern": each length works end to end."""
    device = Device(fresh)
    device.press("MENU")
    device.choose("Banker-PIN")
    device.type(pin)
    device.press("OK")
    assert device.text().splitlines()[1] == "GESPEICHERT"
    assert device.client.post("/api/login", json={"pin": pin}).status_code == 200
