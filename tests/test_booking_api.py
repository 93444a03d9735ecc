"""The booking API behind the phone's forms, in this process (the daemon's loop in a thread).

What a person typed becomes the command as the edition writes money; a refusal says what to correct; the
preview is the rules' own text; the forms are the banker's only."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from fresh_player import CLOSED

from daemon_fixture import PIN
from device.daemon.service import Daemon
from device.scenes.places import FORMS


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
    import words
    from rules import EDITIONS
    from rules.phrase import Cash, phrase

    status, answer = preview(banker, op="transfer", **{"from": "Anna"}, to="Ben", amount="2,5M")
    assert status == 200 and answer["command"] == {"op": "transfer", "from": "Anna", "to": "Ben",
                                                   "amount": 2_500_000, "expect": answer["command"]["expect"]}
    paid = phrase("rules.transfer.done", payer="Anna", payee="Ben", amount=Cash(2_500_000))
    assert answer["text"] == words.say(paid, EDITIONS["banking"])
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
    # the device's forms in its order, each where a row of it is open at the start (or, without rows, asked of
    # the rules with a probe: the keys' bookings and a trade)
    assert [f["op"] for f in forms] == [p.op for p in FORMS if not p.rows or set(p.rows) - set(CLOSED)]
    assert [f["op"] for f in forms][:5] == ["credit", "debit", "transfer", "go", "buy"]
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


# -- The confirmation is the contract ------------------------------------------------------------


def _classic(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    client, headers = banker
    assert client.post("/api/commands", json={"op": "new_game", "edition": "classic", "mode": "standard",
                                              "players": ["Anna", "Ben"], "replace": True},
                       headers=headers).status_code == 200
    for sq in (37, 39):
        assert client.post("/api/commands", json={"op": "buy", "player": "Ben", "square": sq},
                           headers=headers).status_code == 200


def test_a_stale_preview_is_refused_changed_with_the_new_preview(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """Phone 1 shows "Anna zahlt Ben 100 Miete"; phone 2 builds a house there; phone 1 taps "Buchen": nothing is
    booked, the answer is ``changed`` with the rules' new preview (the rent with the house) to confirm afresh."""
    client, headers = banker
    _classic(banker)
    status, shown = preview(banker, op="rent", player="Anna", square="39")
    assert status == 200 and shown["transfers"] == [{"payer": "Anna", "payee": "Ben", "amount": 100}]
    assert client.post("/api/banker/book", json={"op": "build", "player": "Ben", "square": 39, "id": "phone-2"},
                       headers=headers).status_code == 200
    stale = client.post("/api/banker/book", json={**shown["command"], "id": "phone-1"}, headers=headers)
    answer = stale.get_json()
    assert stale.status_code == 409 and answer["code"] == "changed", answer
    assert answer["preview"]["transfers"] == [{"payer": "Anna", "payee": "Ben", "amount": 200}]
    assert "200" in answer["preview"]["text"] and "200" in answer["message"]
    state = client.get("/api/state").get_json()
    assert {p["name"]: p["cash"] for p in state["players"]}["Anna"] == 1500  # nothing booked
    again = client.post("/api/banker/book", json={**answer["preview"]["command"], "id": "phone-1"}, headers=headers)
    assert again.status_code == 200 and again.get_json()["balances"] == {"Anna": 1300, "Ben": 1500 - 350 - 400 - 200 + 200}


def test_any_api_client_books_what_it_confirmed(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """The raw API takes the same digest: a client that previewed books only that."""
    client, headers = banker
    _classic(banker)
    _, shown = preview(banker, op="rent", player="Anna", square="39")
    client.post("/api/commands", json={"op": "build", "player": "Ben", "square": 39}, headers=headers)
    r = client.post("/api/commands", json=shown["command"], headers=headers)
    assert r.status_code == 409 and r.get_json()["code"] == "changed"
    assert r.get_json()["preview"]["transfers"][0]["amount"] == 200


def test_a_one_step_form_whose_choices_changed_books_nothing(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """"Gefängnis: Frei-Karte" books at once: drawn when Anna had a card, it offered "eingesetzt"; the card was
    used from another phone meanwhile, and the choices the page shows are no longer the rules'."""
    client, headers = banker
    client.post("/api/commands", json={"op": "jail_card", "player": "Anna", "delta": 1}, headers=headers)
    form = next(f for f in client.get("/api/banker/legal?player=Anna").get_json()["forms"] if f["op"] == "jail_card")
    assert [o["value"] for o in form["fields"][0]["options"]] == [1, -1]
    client.post("/api/commands", json={"op": "jail_card", "player": "Anna", "delta": -1}, headers=headers)
    status, answer = preview(banker, op="jail_card", player="Anna", delta="1", form=form["version"])
    assert status == 409 and answer["code"] == "changed"
    assert [o["value"] for o in answer["form"]["fields"][0]["options"]] == [1]
    status, answer = preview(banker, op="jail_card", player="Anna", delta="1", form=answer["form"]["version"])
    assert status == 200 and answer["confirm"] is False


def test_a_refusal_never_shows_an_internal_word(banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """"Spiel auf Zeit beenden" in a standard game was answered with the command's name, 'end'."""
    client, headers = banker
    r = client.post("/api/commands", json={"op": "end"}, headers=headers)
    assert r.status_code == 400 and "'end'" not in r.get_json()["message"]


def test_the_bankrupt_form_lifts_mortgaged_deeds_at_once_for_a_player_creditor(
        banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """The device offers a player creditor to lift the mortgaged deeds at once (docs/rules.md: 193 against 211);
    the phone's Bankrott form could not."""
    client, headers = banker
    _classic(banker)
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "mortgage", "player": "Anna", "square": 1}):
        assert client.post("/api/commands", json=cmd, headers=headers).status_code == 200
    client.post("/api/commands", json={"op": "debit", "player": "Anna", "amount": 1460}, headers=headers)
    form = next(f for f in client.get("/api/banker/legal?player=Anna").get_json()["forms"] if f["op"] == "bankrupt")
    lift = next(f for f in form["fields"] if f["name"] == "lift")
    assert lift["options"] == [{"value": 1, "label": "Badstraße"}] and lift["when"] == ["creditor", "player"]
    creditor = next(f for f in form["fields"] if f["name"] == "creditor")
    assert [o.get("flags") for o in creditor["options"]] == [None, ["player"]]
    status, answer = preview(banker, op="bankrupt", player="Anna", creditor="Ben", owed="500", lift=["1"])
    assert status == 200 and answer["command"]["lift"] == [1], answer


def _creditors(client: FlaskClient, player: str) -> tuple[list[str], str]:
    form = next(f for f in client.get(f"/api/banker/legal?player={player}").get_json()["forms"]
                if f["op"] == "bankrupt")
    field = next(f for f in form["fields"] if f["name"] == "creditor")
    return [o["value"] for o in field["options"]], field["label"]


def test_the_bankrupt_form_offers_only_the_creditors_the_rules_accept_now(
        banker: tuple[FlaskClient, dict[str, str]]) -> None:
    """The device offers bankruptcy only to the creditor of the payment refused. A player who owes the bank (the
    10 % of a bankruptcy received) can pay nobody else first: their bankruptcy is the bank's, and the form offers
    the bank alone. With no debt open the rules judge the sum owed, not whom: any player still in the game, or the
    bank, and the form says the creditor is the one the refused payment was for. (An edition whose creditor pays
    the 10 % on mortgaged deeds received.)"""
    client, headers = banker
    assert client.post("/api/commands", json={"op": "new_game", "edition": "classic-uk", "mode": "standard",
                                              "players": ["Anna", "Ben", "Cem"], "replace": True},
                       headers=headers).status_code == 200
    options, label = _creditors(client, "Ben")
    assert options == ["", "Anna", "Cem"] and "Zahlung" in label, label
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "mortgage", "player": "Anna", "square": 1},
                {"op": "debit", "player": "Anna", "amount": 1470}, {"op": "debit", "player": "Ben", "amount": 1499},
                {"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 100}):
        assert client.post("/api/commands", json=cmd, headers=headers).status_code == 200, cmd
    state = client.get("/api/state").get_json()
    assert [p.get("debt") for p in state["players"] if p["name"] == "Ben"] == [3], state["players"]
    options, label = _creditors(client, "Ben")
    assert options == [""], options  # the bank alone: the debt open is the bank's
    assert _creditors(client, "Cem")[0] == ["", "Ben"]  # Anna is out of the game
