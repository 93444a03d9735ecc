"""A family's edition on the pages ("Everywhere a name appears"): the status state, the board the virtual
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
    client: FlaskClient = daemon.app.test_client()
    return client


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


def banker(client: FlaskClient) -> str:
    token: str = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    return token


def test_the_editions_page_lists_the_family_files_and_a_broken_one_with_its_problems(client: FlaskClient) -> None:
    assert client.get("/admin/ausgaben").status_code == 401  # banker only
    banker(client)
    page = client.get("/admin/ausgaben").get_data(as_text=True)
    assert "MONOPOLY Hamburg" in page and "eigene Ausgabe, Basis classic" in page
    assert "kaputt.toml" in page and "base: unbekannte Ausgabe &#39;atlantis&#39;" in page


def test_the_form_shows_the_board_in_board_order_with_group_colours(client: FlaskClient) -> None:
    banker(client)
    page = client.get("/admin/ausgaben/neu?von=skylanders").get_data(as_text=True)
    assert 'value="skylanders-familie"' in page and "MONOPOLY Skylanders Swap Force (Familie)" in page
    positions = [page.index(f'data-path="names.{sq}"') for sq in range(40)]
    assert positions == sorted(positions)
    assert 'value="Flynns Ballon-Touren"' in page and "border-left: .5rem solid #8b4513" in page
    assert client.get("/admin/ausgaben/neu?von=atlantis").status_code == 404


def test_the_checks_are_the_rules_and_a_valid_form_is_saved_and_playable(client: FlaskClient, family: Path) -> None:
    csrf = banker(client)
    form = client.get("/api/board?edition=classic")  # warm: any public read
    assert form.status_code == 200
    data = {"key": "altona", "title": "MONOPOLY Altona", "base": "hamburg", "names": {"1": "Große Bergstraße"},
            "deeds": {"39": {"rents": [50, 200, 600, 1400, 1800, 1700]}}}
    bad = client.post("/api/admin/editions/check", json={"data": data}, headers={"X-CSRF-Token": csrf}).get_json()
    assert bad["ok"] is False and bad["problems"][0]["path"] == "deeds.39.rents"
    problem = bad["problems"][0]  # on the form: the field named as the form labels it, no line, no TOML key
    assert problem["code"] == "editions.problem.rents_rise" and problem["line"] is None
    assert problem["message"].startswith("Mieten: ") and problem["message"].index("1800") < problem["message"].index("1700")
    assert problem["text"].startswith("Feld 39, Mieten: ")
    r = client.post("/api/admin/editions", json={"data": data}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and not (family / "altona.toml").exists()
    del data["deeds"]
    r = client.post("/api/admin/editions", json={"data": data}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.get_json()["key"] == "altona" and (family / "altona.toml").exists()
    new = {"op": "new_game", "edition": "altona", "players": ["Anna", "Ben"]}
    assert client.post("/api/commands", json=new, headers={"X-CSRF-Token": csrf}).get_json() == {"ok": True}
    state = client.get("/api/state").get_json()
    assert state["edition"] == "altona"


def test_a_file_downloads_and_uploads_to_another_box(client: FlaskClient, family: Path) -> None:
    csrf = banker(client)
    r = client.get("/admin/ausgaben/datei?von=hamburg")
    assert r.status_code == 200 and 'attachment; filename="hamburg.toml"' in r.headers["Content-Disposition"]
    assert r.get_data(as_text=True) == HAMBURG
    text = r.get_data(as_text=True).replace('"hamburg"', '"hamburg2"')
    r = client.post("/api/admin/editions", json={"text": text}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and (family / "hamburg2.toml").read_text(encoding="utf-8") == text
    shipped = client.get("/admin/ausgaben/datei?von=sonic").get_data(as_text=True)
    assert 'key = "sonic"' in shipped and "[deeds.39]" in shipped
    r = client.post("/api/admin/editions", json={"text": shipped}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and "mitgelieferte Ausgabe" in r.get_json()["problems"][0]["text"]
    assert client.post("/api/admin/editions", json={"text": text}).status_code == 403  # no CSRF token


def test_a_family_games_report_csv_and_bestenliste_name_its_squares(client: FlaskClient) -> None:
    import time

    csrf = banker(client)
    for cmd in ({"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]},
                {"op": "buy", "player": "Anna", "square": 39},
                {"op": "bankrupt", "player": "Ben", "creditor": "Anna"}):
        assert client.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf}).status_code == 200
    deadline = time.monotonic() + 20
    while client.get("/spiele").status_code == 503:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    listing = client.get("/spiele").get_data(as_text=True)
    assert "MONOPOLY Hamburg" in listing
    report = client.get("/spiele/1").get_data(as_text=True)
    assert "Jungfernstieg" in report and "Schlossallee" not in report
    assert "Jungfernstieg" in client.get("/spiele/1.csv").get_data(as_text=True)
    assert '"edition_data"' in client.get("/spiele/1.jsonl").get_data(as_text=True)
    assert client.get("/bestenliste?edition=hamburg").status_code == 200
