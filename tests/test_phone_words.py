"""The banker's phone speaks from the catalogue too: the booking forms and the API's answers, from
the ``phone`` catalogue, in the language of the page that asked; what programs read (ops, field names, codes)
stays the same in every language.

Through Flask's test client against a real daemon (its loop in a thread): these are the API's words, no
browser is needed to read them.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from page_words import german_in
from ui_table import Table

import words
from bench.liveserver import LiveServer
from daemon_fixture import PIN, web_client
from device.daemon.booking import forms_for
from device.daemon.service import Daemon
from device.scenes.places import BY_OP
from rules import EDITIONS


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    return web_client(daemon)


@pytest.mark.parametrize(("code", "message"), [
    ("de", "Keine Karten-UID: 'zz' (8, 14 oder 20 Hex-Zeichen)"),
    ("en", "Not a card UID: 'zz' (8, 14 or 20 hex digits)"),
])
def test_the_api_refuses_a_card_uid_in_the_catalogues_words(client: FlaskClient, code: str, message: str) -> None:
    """"the API answers "not a card UID: 'zz'" in English" (whatever the language in force)."""
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
    """"a refusal a person can act on: "Betrag muss eine ganze Zahl sein""; in English too.
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


def form_texts(answer: dict[str, Any]) -> list[str]:
    """What a person reads of ``GET /api/banker/legal``: the forms' titles, their fields' labels and choices."""
    texts = [answer.get("message", "")]
    for form in answer["forms"]:
        texts.append(form["label"])
        for field in form["fields"]:
            texts += [field["label"], *(str(o["label"]) for o in field.get("options", []))]
    return texts


SHORTAGE: list[dict[str, Any]] = [
    *[{"op": "credit", "player": n, "amount": 2000} for n in ("Anna", "Ben", "Cem") for _ in range(4)],
    *[{"op": "buy", "player": "Anna", "square": sq} for sq in (31, 32, 34, 37, 39)],
    *[{"op": "build", "player": "Anna", "square": sq} for _ in range(4) for sq in (31, 32, 34, 37, 39)],
    *[{"op": "buy", "player": "Ben", "square": sq} for sq in (26, 27, 29)],
    *[{"op": "buy", "player": "Cem", "square": sq} for sq in (11, 13, 14)],
    *[{"op": "build", "player": "Ben", "square": sq} for _ in range(3) for sq in (26, 27, 29)],
    {"op": "build", "player": "Ben", "square": 26},
]
"""A shortage of houses (the bank's building auction opens), a hotel to sell, streets to trade."""
POSITIONS: list[tuple[str, list[str], list[dict[str, Any]]]] = [
    ("classic", ["free_parking_pot", "double_go"], [
        {"op": "debit", "player": "Ben", "amount": 100}, {"op": "buy", "player": "Anna", "square": 1},
        {"op": "buy", "player": "Anna", "square": 3}, {"op": "build", "player": "Anna", "square": 1},
        {"op": "buy", "player": "Ben", "square": 12}, {"op": "mortgage", "player": "Ben", "square": 12},
        {"op": "buy", "player": "Ben", "square": 5}, {"op": "jail_card", "player": "Cem", "delta": 1},
        {"op": "jail_card", "player": "Ben", "delta": 1}]),
    ("classic", [], SHORTAGE),
    ("schalke", [], [
        {"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39},
        {"op": "debit", "player": "Anna", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1499},
        {"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 500}]),
    ("banking", [], [{"op": "buy", "player": "Anna", "square": 39}]),
]


def test_every_form_speaks_the_language_in_force(client: FlaskClient) -> None:
    """The forms in English: every form's title, field, choice and hint is English (no German
    word but the edition's names and the players'); the ops and field names are the same in both languages."""
    headers = banker(client)
    seen: set[str] = set()
    for edition, house_rules, cmds in POSITIONS:
        words.use("de")
        assert client.post("/api/commands", json={"op": "new_game", "edition": edition, "mode": "standard",
                                                  "players": ["Anna", "Ben", "Cem"], "house_rules": house_rules,
                                                  "replace": True}, headers=headers).status_code == 200
        for cmd in cmds:
            assert client.post("/api/commands", json=cmd, headers=headers).status_code == 200, cmd
        ed = EDITIONS[edition]
        names = [*(n for n in ed.names if n), *ed.house_word, *ed.hotel_word, "Anna", "Ben", "Cem"]
        for name in ("Anna", "Ben", "Cem", "Ida"):
            german = client.get(f"/api/banker/legal?player={name}").get_json()
            words.use("en")
            english = client.get(f"/api/banker/legal?player={name}").get_json()
            words.use("de")
            assert german_in(form_texts(english), *names) == [], (edition, name)
            assert german_in(form_texts(german), *names) or not german["forms"]  # the check sees German
            assert [(f["op"], [x["name"] for x in f["fields"]]) for f in english["forms"]] == [
                (f["op"], [x["name"] for x in f["fields"]]) for f in german["forms"]]
            seen |= {f["op"] for f in english["forms"]}
    assert seen == set(BY_OP)


def test_the_api_answers_in_the_language_of_the_page_that_asked(daemon: Daemon) -> None:
    """A phone that chose English (its cookie) gets English answers from the banker's API, also those the
    device's loop renders (the forms, a refusal of the rules); a phone without the choice, the appliance's
    German; the appliance's language (the OLED's) is not changed by either."""
    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie("bank_lang", "en")
    headers = {id(german): banker(german), id(english): {
        "X-CSRF-Token": english.post("/api/login", json={"pin": PIN}).get_json()["csrf"]}}
    for client, code in ((german, "de"), (english, "en")):
        h = headers[id(client)]
        forms = client.get("/api/banker/legal?player=Anna", headers=h).get_json()["forms"]
        assert forms[0]["label"] == {"de": "Haben", "en": "Credit"}[code]
        refused = client.post("/api/banker/preview", json={"op": "credit", "player": "Anna", "amount": "x"},
                              headers=h).get_json()
        assert refused["message"] == {"de": "Betrag muss eine ganze Zahl sein: x",
                                      "en": "The amount must be a whole number: x"}[code]
        assert client.get("/api/banker/legal?player=Ida", headers=h).get_json()["message"] == {
            "de": "Ida spielt nicht mit", "en": "Ida is not playing"}[code]
        assert client.post("/api/sim/tap", json={"uid": "zz"}).get_json()["message"] == {
            "de": "Keine Karten-UID: 'zz' (8, 14 oder 20 Hex-Zeichen)",
            "en": "Not a card UID: 'zz' (8, 14 or 20 hex digits)"}[code]
        assert words.appliance_language() == "de"


def test_the_public_state_is_said_in_the_language_of_the_page_that_reads_it(daemon: Daemon, tmp_path: Path) -> None:
    """"Each phone may also read the page in the language its browser asks for": the status page's
    state (its log) in the phone's chosen language, the appliance's for every other phone; through Flask's
    /api/state and through the front that serves the phones (/api/state, /api/events), each with its own ETag."""
    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie("bank_lang", "en")
    headers = banker(german)
    for cmd in ({"op": "credit", "player": "Anna", "amount": 200}, {"op": "undo"}):
        assert german.post("/api/commands", json=cmd, headers=headers).status_code == 200
    said = {}
    for client, code in ((german, "de"), (english, "en")):
        deadline = time.monotonic() + 5
        while (r := client.get("/api/state")).get_json()["log"][0]["op"] != "undo":  # published after the loop's turn
            assert time.monotonic() < deadline
            time.sleep(0.05)
        said[code] = r.get_json()["log"][0]["text"]
        assert client.get("/api/state", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    assert said["de"].startswith("Storno: ") and said["en"].startswith("Undone: "), said
    assert words.appliance_language() == "de"

    server = LiveServer(tmp_path / "live").start()
    try:
        server.login()
        cmds: list[dict[str, object]] = [
            {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]},
            {"op": "credit", "player": "Anna", "amount": 200}, {"op": "undo"}]
        for cmd in cmds:
            assert server.post("/api/commands", cmd)[0] == 200
        for cookie, starts in (("", "Storno: "), ("bank_lang=en", "Undone: ")):
            ask = urllib.request.Request(server.base + "/api/state", headers={"Cookie": cookie} if cookie else {})
            with urllib.request.urlopen(ask, timeout=10) as r:
                assert json.loads(r.read())["log"][0]["text"].startswith(starts)
            ask = urllib.request.Request(server.base + "/api/events", headers={"Cookie": cookie} if cookie else {})
            with urllib.request.urlopen(ask, timeout=10) as r:
                first = b""
                while not first.endswith(b"\n\n"):
                    first += r.read1(65536)
            event = json.loads(first.split(b"data: ", 1)[1])
            assert event["log"][0]["text"].startswith(starts)
    finally:
        server.stop()


def test_the_phone_offers_what_the_device_offers_behind_the_same_words_in_english(table: Table) -> None:
    """"the same choices in the same order … behind the same words", in English: the forms' flows and
    menu entries are the OLED's own words (its catalogue's), for a position with buildings, a mortgage, a jail
    card and a utility."""
    from phone_menus import POSITIONS, phone_menu

    words.use("en")
    device_only = {words.text("scenes.flow.undo"), words.text("scenes.flow.ranking")}
    submenus = {words.text(k) for k in ("scenes.menu.mortgage", "scenes.menu.card", "scenes.menu.more")}
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book(*POSITIONS["a monopoly with houses, a mortgage, a jail card, a utility"])
    for name in ("Anna", "Ben", "Cem"):
        table.tap(name)
        table.press("MENU")
        device: dict[str, list[str]] = {}
        for entry in table.labels():
            table.choose(entry)
            device[entry] = [f for f in table.labels() if f not in device_only] if entry in submenus else [entry]
            table.press("C")
        table.press("C")
        forms = forms_for(table.ledger.game, name)["forms"]
        assert phone_menu(forms) == {entry: flows for entry, flows in device.items() if flows}, name
        assert german_in([f["flow"] + " " + f["menu"] + " " + f["label"] for f in forms]) == [], name
