"""Findings on the pages around the device: /admin's pause after wrong PINs, the pages after the game, the
virtual device (its tone, its LED, its deed buttons)."""

from __future__ import annotations

import re
import time

import pytest
from flask.testing import FlaskClient
from ui_table import Table

from daemon_fixture import PIN, web_client
from device.daemon.service import Daemon


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    return web_client(daemon)


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


def _played(client: FlaskClient) -> int:
    """A Banking game under way, logged in as the banker: its id on /spiele."""
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    for cmd in ({"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]},
                {"op": "credit", "player": "Anna", "amount": 100_000}):
        assert client.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf}).status_code == 200
    deadline = time.monotonic() + 20
    while client.get("/spiele").status_code == 503:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return int(re.findall(r'href="/spiele/(\d+)"', client.get("/spiele").get_data(as_text=True))[0])


@pytest.mark.parametrize("path", ["/spiele", "/spiele/{id}", "/bestenliste"])
def test_13_the_pages_after_the_game_link_to_the_device_and_the_status(client: FlaskClient, path: str) -> None:
    """/spiele, a report and /bestenliste had no link to the device page (the simulation's virtual device)."""
    game = _played(client)
    html = client.get(path.format(id=game)).get_data(as_text=True)
    assert 'href="/device"' in html and 'href="/"' in html


def test_13_a_running_game_is_listed_with_its_duration_so_far(client: FlaskClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """"läuft · 12 s" after four minutes: the time to its last booking, not the game's so far."""
    import webui.games

    _played(client)
    later = time.time() + 240
    monkeypatch.setattr(webui.games, "now", lambda: later)
    html = client.get("/spiele").get_data(as_text=True)
    assert re.search(r"läuft\s*· 4 min", html), html


def test_13_a_report_shows_the_currency_word_the_phone_shows(client: FlaskClient) -> None:
    game = _played(client)
    html = client.get(f"/spiele/{game}").get_data(as_text=True)
    assert "15,1M €" in html or "15.1M €" in html, re.findall(r"15[.,]1M[^<]*", html)
