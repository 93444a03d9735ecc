"""The web UI through Flask's test client against a real daemon: every route, auth, CSRF, bad input."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from flask.testing import FlaskClient
from told import told

import rules.commands
import rules.game
from daemon_fixture import PIN
from device.daemon.service import Daemon

NEW = {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]}


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    client: FlaskClient = daemon.app.test_client()
    return client


def login(client: FlaskClient) -> str:
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200
    token: str = r.get_json()["csrf"]
    return token


def command(client: FlaskClient, cmd: dict[str, Any], csrf: str | None) -> Any:
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    return client.post("/api/commands", json=cmd, headers=headers)


def test_pages_render_in_german(client: FlaskClient) -> None:
    for path, words in (("/", "Letzte Buchungen"), ("/admin", "Banker-PIN"), ("/device", "Bankkarten")):
        r = client.get(path)
        assert r.status_code == 200 and words in r.get_data(as_text=True)
    assert client.get("/static/app.js").status_code == 200
    qr = client.get("/qr.svg")
    assert qr.mimetype == "image/svg+xml" and b'xmlns="http://www.w3.org/2000/svg"' in qr.data


def test_state_is_the_contract_plus_log(client: FlaskClient) -> None:
    import words
    from rules import EDITIONS
    from rules.phrase import Cash, Place, phrase

    empty = client.get("/api/state").get_json()
    assert empty["players"] == [] and empty["log"] == []
    csrf = login(client)
    assert command(client, NEW, csrf).get_json() == {"ok": True}
    assert command(client, {"op": "buy", "player": "Anna", "square": 39}, csrf).status_code == 200
    state = client.get("/api/state").get_json()
    assert state["players"][0] == {"name": "Anna", "cash": 11_000_000, "net_worth": 15_000_000, "bankrupt": False,
                                   "jail_cards": 0, "properties": [{"square": 39, "houses": 0, "hotel": False,
                                                                    "mortgaged": False}]}
    assert state["bank"] == {"houses": 32, "hotels": 12} and state["ranking"] == ["Ben", "Anna"]
    bought = phrase("rules.buy.done", player="Anna", square=Place(39), amount=Cash(4_000_000))
    assert state["log"][0]["text"] == words.say(bought, EDITIONS["banking"])  # the booking's phrase, said
    assert "ends_at" not in state


def test_timed_game_state_has_the_seconds_left_not_an_end_time(client: FlaskClient) -> None:
    """Phones count down from what the appliance sends, never from their own idea of an end time."""
    csrf = login(client)
    command(client, {**NEW, "mode": "timed", "minutes": 60}, csrf)
    state = client.get("/api/state").get_json()
    assert "ends_at" not in state and 3590 < state["remaining"] <= 3600


def test_commands_need_a_login(client: FlaskClient) -> None:
    r = command(client, NEW, None)
    assert r.status_code == 401 and r.get_json()["ok"] is False


def test_commands_need_the_csrf_token(client: FlaskClient) -> None:
    login(client)
    assert command(client, NEW, None).status_code == 403
    assert command(client, NEW, "forged").status_code == 403


def test_a_refused_command_is_422_with_code_and_german_message(client: FlaskClient) -> None:
    csrf = login(client)
    command(client, NEW, csrf)
    r = command(client, {"op": "debit", "player": "Anna", "amount": 16_000_000}, csrf)
    assert r.status_code == 422
    assert r.get_json() == {"ok": False, "code": "insufficient_funds",
                            "message": "Nicht genug Geld. Es fehlen 1M – Anna hat 15M, braucht 16M"}


@pytest.mark.parametrize(("body", "status"), [
    ("not json", 400), ("[1, 2]", 400), ('{"op": "fly"}', 400), ('{"op": "credit", "player": "Anna"}', 400),
    ('{"op": "credit", "player": "Anna", "amount": "lots"}', 400), ('{"op": "buy", "player": 5, "square": []}', 400),
    ('{"op": []}', 400), ('{"op": {"x": 1}}', 400), ("[" * 1000 + "]" * 1000, 400),
    ('{"op": "credit", "player": "Cem", "amount": 10}', 422),
])
def test_bad_input_is_never_a_500(client: FlaskClient, body: str, status: int) -> None:
    csrf = login(client)
    command(client, NEW, csrf)
    r = client.post("/api/commands", data=body, content_type="application/json", headers={"X-CSRF-Token": csrf})
    assert r.status_code == status and r.get_json()["ok"] is False


@pytest.mark.parametrize("cmd", [
    {"op": "credit", "player": "Anna"}, {"op": "credit", "player": "Anna", "amount": True}, {"op": "fly"},
    {"op": "transfer", "from": "Anna", "to": "Anna", "amount": 10_000}, {"op": "trade", "a": "Anna", "b": "Ben"},
])
def test_a_malformed_command_reaches_the_rules_and_their_message_is_the_answer(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch, cmd: dict[str, Any]) -> None:
    """The web layer checks no command itself. The body arrives untouched at ``rules.parse``,
    the one place that refuses a command for its shape, and the rules' own message is answered, as 400."""
    real = rules.commands.parse  # the one the game's door calls, as rules.game imports it
    seen: list[object] = []

    def spy(obj: object) -> rules.Command:
        seen.append(obj)
        return real(obj)

    csrf = login(client)
    command(client, NEW, csrf)
    monkeypatch.setattr(rules.game, "parse", spy)
    r = command(client, cmd, csrf)
    with pytest.raises(rules.RuleError) as expected:
        real(cmd)
    assert r.status_code == 400
    assert r.get_json() == {"ok": False, "code": "bad_command", "message": told(expected)}
    # The past games are told beside the loop and parse their own commands meanwhile: what counts is that
    # this body reached the rules as it was sent, and no other form of it did.
    assert cmd in seen and [o for o in seen if isinstance(o, dict) and o.get("op") == cmd.get("op")] == [cmd]


def test_oversized_request_is_refused(client: FlaskClient) -> None:
    r = client.post("/api/login", data="x" * 100_000, content_type="application/json")
    assert r.status_code == 413


def test_wrong_pins_are_rate_limited(client: FlaskClient) -> None:
    for _ in range(5):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 429 and "Zu viele" in r.get_json()["message"]


def test_login_needs_a_pin_string(client: FlaskClient) -> None:
    assert client.post("/api/login", json={"pin": 4711}).status_code == 400


def test_no_pin_set_means_no_admin(daemon: Daemon) -> None:
    daemon.config.banker_pin = None
    r = daemon.app.test_client().post("/api/login", json={"pin": "1234"})
    assert r.status_code == 409 and "am Gerät" in r.get_json()["message"]


def test_pin_set_on_the_device_opens_the_admin(daemon: Daemon) -> None:
    daemon.config.banker_pin = None
    assert daemon.call(lambda: daemon.set_pin("2468"))
    client = daemon.app.test_client()
    assert client.post("/api/login", json={"pin": "2468"}).status_code == 200
    # kept as a salted hash, never as the PIN: no field of it is the PIN (a hex digest may hold "2468" by chance)
    assert daemon.journal is not None
    kind, _, _, _ = stored = (daemon.journal.setting("banker_pin") or "").split("$")
    assert kind == "pbkdf2" and "2468" not in stored


def test_logout_ends_the_session(client: FlaskClient) -> None:
    csrf = login(client)
    assert client.post("/api/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert command(client, NEW, csrf).status_code == 401


def test_cards_can_be_renamed_but_not_while_playing(client: FlaskClient) -> None:
    csrf = login(client)
    cards = client.get("/api/admin/cards").get_json()
    cem = next(c for c in cards if c["name"] == "Cem")
    r = client.post(f"/api/cards/{cem['uid']}/name", json={"name": "Oma"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    command(client, {**NEW, "players": ["Oma", "Ben"]}, csrf)
    r = client.post(f"/api/cards/{cem['uid']}/name", json={"name": "Opa"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and "spielt gerade" in r.get_json()["message"]


def test_register_a_card_from_the_admin(client: FlaskClient) -> None:
    csrf = login(client)
    r = client.post("/api/cards", json={"uid": "04c0ffee", "kind": "player", "name": "Gast"},
                    headers={"X-CSRF-Token": csrf})
    assert r.get_json() == {"ok": True, "number": 7}
    r = client.post("/api/cards", json={"uid": "nonsense", "kind": "player"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422


def test_admin_card_list_needs_login(client: FlaskClient) -> None:
    assert client.get("/api/admin/cards").status_code == 401


def test_sim_keys_and_taps_drive_the_real_state_machine(client: FlaskClient) -> None:
    csrf = login(client)
    command(client, NEW, csrf)
    assert client.post("/api/sim/tap", json={"uid": "0a000001"}).status_code == 200
    for key in ("HABEN", "2", "M", "OK"):
        assert client.post("/api/sim/key", json={"key": key}).status_code == 200
    display = client.get("/api/sim/display").get_json()
    assert display["text"].startswith("Gebucht\n17M") and display["seq"] > 0
    assert client.get("/api/state").get_json()["players"][0]["cash"] == 17_000_000
    png = client.get("/api/sim/display.png")
    assert png.mimetype == "image/png" and png.data[:4] == b"\x89PNG"
    assert client.post("/api/sim/key", json={"key": "X"}).status_code == 422
    assert client.post("/api/sim/tap", json={"uid": "zz"}).status_code == 422


def test_chart_is_an_svg_of_every_player(client: FlaskClient) -> None:
    csrf = login(client)
    command(client, NEW, csrf)
    command(client, {"op": "credit", "player": "Ben", "amount": 1_000_000}, csrf)
    svg = client.get("/api/chart.svg").get_data(as_text=True)
    assert svg.count("<polyline") == 2 and ">Anna<" in svg and ">16M<" in svg


def test_board_names_follow_the_edition(client: FlaskClient) -> None:
    board = client.get("/api/board?edition=skylanders").get_json()
    assert board["squares"]["5"]["name"] == "Flynns Ballon-Touren" and board["houses"] == "Hütten"
    assert board["group_order"][0] == "brown" and board["group_order"][-2:] == ["station", "utility"]
    assert client.get("/api/board?edition=nope").status_code == 404


def test_a_non_ascii_csrf_token_is_a_403_not_a_500(client: FlaskClient) -> None:
    """Hmac.compare_digest raised on a non-ASCII header."""
    login(client)
    r = client.post("/api/commands", json=NEW, headers={"X-CSRF-Token": "ä" * 10})
    assert r.status_code == 403 and r.get_json()["ok"] is False


def test_odd_json_on_the_sim_keypad_and_login_is_refused_not_a_500(client: FlaskClient) -> None:
    assert client.post("/api/sim/key", json={"key": ["5"]}).status_code == 422
    assert client.post("/api/sim/key", json={"key": {"a": 1}}).status_code == 422
    r = client.post("/api/login", data="[" * 1000 + "]" * 1000, content_type="application/json")
    assert r.status_code == 400
    r = client.post("/api/login", data='{"pin": ' + "[" * 1000 + "]" * 1000 + "}", content_type="application/json")
    assert r.status_code == 400


@pytest.mark.parametrize(("name", "why"), [
    ("A" * 5034, "zu lang"), ("An\nna", "Unsichtbares Zeichen"), ("An\u200bna", "Unsichtbares Zeichen"), ("   ", "fehlt"),
])
def test_a_name_must_be_short_visible_and_present(client: FlaskClient, name: str, why: str) -> None:
    """One rule for names (rules.clean_name), used by the API as by the device and new_game."""
    csrf = login(client)
    uid = next(c["uid"] for c in client.get("/api/admin/cards").get_json() if c["name"] == "Cem")
    r = client.post(f"/api/cards/{uid}/name", json={"name": name}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and why in r.get_json()["message"]


def test_a_second_anna_is_refused_and_spaces_around_a_name_are_dropped(client: FlaskClient) -> None:
    csrf = login(client)
    cards = client.get("/api/admin/cards").get_json()
    cem = next(c["uid"] for c in cards if c["name"] == "Cem")
    r = client.post(f"/api/cards/{cem}/name", json={"name": "anna"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and r.get_json()["code"] == "name_taken"
    r = client.post("/api/cards", json={"uid": "04c0ffee", "kind": "player", "name": "ANNA"},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and r.get_json()["code"] == "name_taken"
    r = client.post(f"/api/cards/{cem}/name", json={"name": "  Oma  "}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    assert any(c["name"] == "Oma" for c in client.get("/api/admin/cards").get_json())


def test_a_copied_cookie_is_worthless_after_logout(daemon: Daemon) -> None:
    """A session cookie stayed valid for 31 days, after logout and after a PIN change."""
    phone, thief = daemon.app.test_client(), daemon.app.test_client()
    csrf = login(phone)
    cookie = phone.get_cookie("session")
    assert cookie is not None
    thief.set_cookie("session", cookie.value)
    assert command(thief, NEW, csrf).status_code == 200
    assert phone.post("/api/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert command(thief, NEW | {"replace": True}, csrf).status_code == 401


def test_a_pin_change_on_the_device_ends_every_session(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    csrf = login(client)
    assert daemon.call(lambda: daemon.set_pin("13579"))
    assert command(client, NEW, csrf).status_code == 401


def test_a_session_ends_after_a_game_night(daemon: Daemon) -> None:
    from webui.app import SESSION_HOURS

    client = daemon.app.test_client()
    csrf = login(client)
    with client.session_transaction() as sess:
        sess["at"] -= SESSION_HOURS * 3600 + 1
    assert command(client, NEW, csrf).status_code == 401


def test_a_shared_win_is_named_whole_on_the_phone(client: FlaskClient) -> None:
    """Seed 000, the timed game: "Der reichste Spieler hat gewonnen!" Two as rich share the win: the state
    the phones read names both (``rules.winners``), not only the contract's one ``winner``."""
    csrf = login(client)
    for cmd in ({"op": "new_game", "edition": "banking", "mode": "timed", "players": ["Anna", "Ben", "Cem"],
                 "minutes": 30},
                {"op": "debit", "player": "Cem", "amount": 1_000_000}, {"op": "end"}):
        assert command(client, cmd, csrf).status_code == 200, cmd
    state = client.get("/api/state").get_json()
    assert state["finished"] and state["winners"] == ["Anna", "Ben"]
    games = ""
    for _ in range(100):  # the past games are read beside the loop after the start (503 until then)
        page = client.get("/spiele")
        if page.status_code == 200:
            games = page.get_data(as_text=True)
            break
        time.sleep(0.05)
    assert "Gleichstand: <strong>Anna und Ben</strong>\n    (je 15M €)" in games
    game_id = re.search(r'href="/spiele/(\d+)"', games)
    assert game_id is not None
    assert client.get(f"/spiele/{game_id[1]}").get_data(as_text=True).count("<strong>(Sieger)</strong>") == 2


def test_a_running_game_has_no_winners_yet(client: FlaskClient) -> None:
    csrf = login(client)
    assert command(client, NEW, csrf).status_code == 200
    assert client.get("/api/state").get_json()["winners"] == []
