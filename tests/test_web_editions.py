"""A family's edition on the pages (issue 26 "Everywhere a name appears"): the status state, the board the virtual
device labels its deed buttons with, and a broken file beside it that never stops the appliance."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from daemon_fixture import PIN
from device.daemon.service import Daemon

HAMBURG = '''key = "hamburg"
title = "MONOPOLY Hamburg"
base = "classic"
[names]
39 = "Jungfernstieg"
[buildings]
house = { singular = "Speicher", plural = "Speicher", gender = "m" }
'''


@pytest.fixture
def family(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "state" / "editions"
    folder.mkdir(parents=True)
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    (folder / "kaputt.toml").write_text('key = "kiel"\nbase = "atlantis"\n', encoding="utf-8")
    yield folder


@pytest.fixture
def client(family: Path, daemon: Daemon) -> FlaskClient:
    return daemon.app.test_client()


def test_a_family_game_is_shown_with_its_own_names_and_words(client: FlaskClient) -> None:
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    new = {"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]}
    assert client.post("/api/commands", json=new, headers={"X-CSRF-Token": csrf}).get_json() == {"ok": True}
    buy = {"op": "buy", "player": "Anna", "square": 39}
    assert client.post("/api/commands", json=buy, headers={"X-CSRF-Token": csrf}).get_json() == {"ok": True}
    state = client.get("/api/state").get_json()
    assert state["edition"] == "hamburg" and state["mode_title"] == "Standardspiel"
    assert state["log"][0]["text"] == "Anna kauft Jungfernstieg für 400"
    board = client.get("/api/board?edition=hamburg").get_json()
    assert board["title"] == "MONOPOLY Hamburg" and board["squares"]["39"]["name"] == "Jungfernstieg"
    assert board["house"] == "Speicher" and board["squares"]["1"]["name"] == "Badstraße"
    assert client.get("/api/board?edition=kiel").status_code == 404
