"""Issue 31: the booking API behind the phone's forms, in this process (the daemon's loop in a thread).

What a person typed becomes the command as the edition writes money; a refusal says what to correct; the
preview is the rules' own text; the forms are the banker's only."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from daemon_fixture import PIN
from device.daemon.service import Daemon


@pytest.fixture
def banker(daemon: Daemon) -> tuple[FlaskClient, dict[str, str]]:
    client = daemon.app.test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    headers = {"X-CSRF-Token": csrf}
    assert client.post("/api/commands", json={"op": "new_game", "edition": "banking", "mode": "standard",
                                              "players": ["Anna", "Ben"]}, headers=headers).status_code == 200
    return client, headers


def preview(banker: tuple[FlaskClient, dict[str, str]], **raw: Any) -> tuple[int, Any]:
    client, headers = banker
    r = client.post("/api/banker/preview", json=raw, headers=headers)
    return r.status_code, r.get_json()


def test_the_forms_are_the_bankers_only(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    assert client.get("/api/banker/legal?player=Anna").status_code == 401
    assert client.post("/api/banker/preview", json={"op": "credit"}).status_code == 401
    assert client.post("/api/banker/book", json={"op": "credit"}).status_code == 401


def test_amounts_are_read_as_the_edition_types_them(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    status, answer = preview(banker, op="transfer", **{"from": "Anna"}, to="Ben", amount="2,5M")
    assert status == 200 and answer["command"] == {"op": "transfer", "from": "Anna", "to": "Ben",
                                                   "amount": 2_500_000}
    assert answer["text"] == "Anna zahlt Ben 2,5M"
    assert preview(banker, op="credit", player="Anna", amount="500k")[1]["command"]["amount"] == 500_000


@pytest.mark.parametrize(("raw", "message"), [
    ({"op": "credit", "player": "Anna", "amount": "200"}, "Betrag mit K oder M eingeben"),
    ({"op": "credit", "player": "Anna", "amount": ""}, "Kein Betrag eingegeben"),
    ({"op": "credit", "player": "Anna", "amount": "2,5,5M"}, "Ungültiger Betrag: 2,5,5M"),
    ({"op": "rent", "player": "Anna", "square": "x"}, "Feld muss eine ganze Zahl sein: x"),
    ({"op": "credit", "player": "Anna", "amount": 200}, "Feld 'amount': Text erwartet"),
    ({"op": "shout", "player": "Anna"}, "Unbekannte Buchung: 'shout'"),
    ({"op": "credit", "player": "Anna", "amount": "30M"}, "Betrag 30M geht nicht: erlaubt 10K bis 20M"),
])
def test_a_refusal_says_what_to_correct(banker: tuple[FlaskClient, dict[str, str]], raw: dict[str, Any],
                                        message: str) -> None:
    status, answer = preview(banker, **raw)
    assert status in (400, 422) and answer["ok"] is False and answer["message"] == message


def test_the_legal_forms_start_with_the_players_and_follow_the_rules(
        banker: tuple[FlaskClient, dict[str, str]]) -> None:
    client, headers = banker
    players = client.get("/api/banker/legal").get_json()
    assert players["players"] == ["Anna", "Ben"] and players["forms"] == [] and players["km"] is True
    forms = client.get("/api/banker/legal?player=Anna").get_json()["forms"]
    assert [f["op"] for f in forms] == ["credit", "debit", "transfer", "go", "buy", "tax", "jail_fine",
                                        "jail_card", "pay_all", "collect_all", "trade", "bankrupt"]
    buy = next(f for f in forms if f["op"] == "buy")
    assert buy["fields"][0]["options"][0] == {"value": 1, "label": "Badstraße"}
    assert client.post("/api/banker/book", json={"op": "buy", "player": "Anna", "square": 1, "id": "w1"},
                       headers=headers).status_code == 200
    forms = client.get("/api/banker/legal?player=Anna").get_json()["forms"]
    assert next(f for f in forms if f["op"] == "buy")["fields"][0]["options"][0]["label"] == "Turmstraße"
    assert "mortgage" in [f["op"] for f in forms]


def test_storno_names_what_it_would_take_back(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    client, headers = banker
    client.post("/api/banker/book", json={"op": "credit", "player": "Ben", "amount": 10_000}, headers=headers)
    assert client.get("/api/banker/undo").get_json() == {"number": 2, "text": "Ben erhält 10K von der Bank"}
    assert client.post("/api/banker/book", json={"op": "undo", "of": 2}, headers=headers).status_code == 200
    again = client.post("/api/banker/book", json={"op": "undo", "of": 2}, headers=headers)
    assert again.status_code == 422 and again.get_json()["code"] == "not_last"
