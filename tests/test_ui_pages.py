"""Issue 28's findings on the pages around the device: /admin's pause after wrong PINs, the pages after the game, the
virtual device (its tone, its LED, its deed buttons)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from ui_table import Table

from daemon_fixture import PIN
from device.daemon.service import Daemon


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    return daemon.app.test_client()


def test_12_admin_after_five_wrong_pins_says_how_long_to_wait(client: FlaskClient) -> None:
    """Five wrong PINs refused the right one for five minutes "in ein paar Minuten": now it says how long."""
    for _ in range(5):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    r = client.post("/api/login", json={"pin": PIN})
    message = r.get_json()["message"]
    assert r.status_code == 429 and re.search(r"in 5 Minuten wieder", message), message


def test_12_the_pin_is_masked_on_the_oled_while_it_is_typed(table: Table) -> None:
    table.press("MENU")
    table.choose("Banker-PIN")
    table.type("4711")
    assert "4711" not in table.text() and "****" in table.text()
