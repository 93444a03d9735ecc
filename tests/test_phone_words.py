"""Issue 27 for the banker's phone (issue 31's last part): the booking forms and the API's answers speak from
the ``phone`` catalogue, in the language of the page that asked; what programs read (ops, field names, codes)
stays the same in every language.

Through Flask's test client against a real daemon (its loop in a thread): these are the API's words, no
browser is needed to read them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

import words
from daemon_fixture import PIN
from device.daemon.service import Daemon


@pytest.fixture(autouse=True)
def german_again() -> Iterator[None]:
    yield
    words.use(words.DEFAULT)


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    return daemon.app.test_client()


@pytest.mark.parametrize(("code", "message"), [
    ("de", "Keine Karten-UID: 'zz' (8, 14 oder 20 Hex-Zeichen)"),
    ("en", "Not a card UID: 'zz' (8, 14 or 20 hex digits)"),
])
def test_the_api_refuses_a_card_uid_in_the_catalogues_words(client: FlaskClient, code: str, message: str) -> None:
    """Issue 27: "the API answers "not a card UID: 'zz'" in English" (whatever the language in force)."""
    words.use(code)
    r = client.post("/api/sim/tap", json={"uid": "zz"})
    assert r.status_code == 422 and r.get_json() == {"ok": False, "code": "bad_uid", "message": message}


def test_the_login_answers_in_the_language_in_force(client: FlaskClient) -> None:
    assert client.post("/api/login", json={"pin": "0000"}).get_json()["message"] == "Falsche PIN"
    words.use("en")
    assert client.post("/api/login", json={"pin": "0001"}).get_json() == {
        "ok": False, "code": "wrong_pin", "message": "Wrong PIN"}
    assert client.post("/api/login", json={}).get_json()["message"] == "Field 'pin' is missing"
    assert client.post("/api/login", data="[]", content_type="application/json").get_json()[
        "message"] == "A JSON object was expected"
    assert PIN


def banker(client: FlaskClient, edition: str = "classic") -> dict[str, str]:
    """Logged in, a new game of Anna, Ben and Cem; the CSRF header for the changes."""
    headers = {"X-CSRF-Token": client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]}
    assert client.post("/api/commands", json={"op": "new_game", "edition": edition, "mode": "standard",
                                              "players": ["Anna", "Ben", "Cem"]}, headers=headers).status_code == 200
    return headers


@pytest.mark.parametrize(("raw", "german", "english"), [
    ({"op": "credit", "player": "Anna", "amount": "zwei"}, "Betrag muss eine ganze Zahl sein: zwei",
     "The amount must be a whole number: zwei"),
    ({"op": "credit", "player": "Anna", "amount": " "}, "Kein Betrag eingegeben", "No amount entered"),
    ({"op": "rent", "player": "Anna", "square": "x"}, "Feld muss eine ganze Zahl sein: x",
     "Square must be a whole number: x"),
    ({"op": "rent", "player": "Anna", "square": ""}, "Feld fehlt", "Square is missing"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives.squares": ["eins"]},
     "Grundstück muss eine ganze Zahl sein: eins", "Property must be a whole number: eins"),
    ({"op": "credit", "player": "Anna", "amount": 200}, "Feld 'amount': Text erwartet",
     "Field 'amount': text expected"),
    ({"op": "credit", "player": "", "amount": "200"}, "Spieler fehlt", "No player chosen"),
    ({"op": "credit", "player": "Anna", "colour": "red"}, "Unbekanntes Feld: 'colour'", "Unknown field: 'colour'"),
    ({"op": "shout", "player": "Anna"}, "Unbekannte Buchung: 'shout'", "Unknown booking: 'shout'"),
])
def test_a_forms_refusal_says_what_to_correct_in_the_language_in_force(
        client: FlaskClient, raw: dict[str, object], german: str, english: str) -> None:
    """Issue 31: "a refusal a person can act on: "Betrag muss eine ganze Zahl sein""; issue 27: in English too.
    The code (what programs read) is the same in both."""
    headers = banker(client)
    answers = []
    for code in ("de", "en"):
        words.use(code)
        r = client.post("/api/banker/preview", json=raw, headers=headers)
        assert r.status_code == 400
        answers.append(r.get_json())
    assert [a["message"] for a in answers] == [german, english]
    assert answers[0]["code"] == answers[1]["code"] == "bad_command"
