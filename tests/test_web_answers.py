"""Every JSON route's answer as the phone's scripts read it: its keys and its HTTP status, pinned per route.

The answers are built in one place (:func:`webui.errors.json_response` over :mod:`webui.protocol`); these pins
hold that the phone receives the same keys, values and statuses it always did. The last test reads the web's
code: no route builds an answer dict by hand, so a new route cannot drift from the shape the scripts expect.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from daemon_fixture import PIN
from device.daemon.service import Daemon

ROOT = Path(__file__).resolve().parent.parent
NEW = {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]}
REFUSAL = {"ok", "code", "message"}


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    client: FlaskClient = daemon.app.test_client()
    return client


def keys(body: object) -> set[str]:
    assert isinstance(body, dict)
    return set(body)


def banker(client: FlaskClient) -> dict[str, str]:
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200 and keys(r.get_json()) == {"ok", "csrf", "clock", "set_pin"}
    assert r.get_json()["ok"] is True and r.get_json()["set_pin"] is False
    return {"X-CSRF-Token": r.get_json()["csrf"]}


def test_the_login_and_the_session_answer_their_keys(client: FlaskClient) -> None:
    wrong = client.post("/api/login", json={"pin": "0000"})
    assert wrong.status_code == 401 and keys(wrong.get_json()) == REFUSAL and wrong.get_json()["code"] == "wrong_pin"
    assert client.get("/api/session").get_json() == {"banker": False, "csrf": None, "pin_first": False}
    headers = banker(client)
    assert keys(client.get("/api/session").get_json()) == {"banker", "csrf", "pin_first"}
    pin = client.post("/api/pin", json={"pin": "4321"}, headers=headers)  # one is set: changed at the device only
    assert pin.status_code == 409 and keys(pin.get_json()) == REFUSAL and pin.get_json()["code"] == "pin_set"
    out = client.post("/api/logout", headers=headers)
    assert out.status_code == 200 and out.get_json() == {"ok": True}


def test_a_command_answers_ok_a_repeat_and_a_refusal(client: FlaskClient) -> None:
    headers = banker(client)
    first = client.post("/api/commands", json={**NEW, "id": "n1"}, headers=headers)
    assert first.status_code == 200 and first.get_json() == {"ok": True}
    again = client.post("/api/commands", json={**NEW, "id": "n1"}, headers=headers)
    assert again.status_code == 200 and again.get_json() == {"ok": True, "duplicate": True}
    refused = client.post("/api/commands", json={"op": "buy", "player": "Zoe", "square": 39}, headers=headers)
    assert refused.status_code == 422 and keys(refused.get_json()) == REFUSAL
    malformed = client.post("/api/commands", data="no json", headers=headers)
    assert malformed.status_code == 400 and keys(malformed.get_json()) == REFUSAL


def test_a_booking_from_the_forms_answers_what_moved(client: FlaskClient) -> None:
    headers = banker(client)
    assert client.post("/api/commands", json=NEW, headers=headers).status_code == 200
    r = client.post("/api/banker/book", json={"op": "buy", "player": "Anna", "square": 39}, headers=headers)
    assert r.status_code == 200
    assert keys(r.get_json()) == {"ok", "duplicate", "text", "balances", "seq", "edition"}
    assert r.get_json()["ok"] is True and r.get_json()["duplicate"] is False
    assert r.get_json()["balances"] == {"Anna": 11_000_000} and r.get_json()["edition"] == "banking"


def test_the_card_administration_answers_its_keys(client: FlaskClient) -> None:
    headers = banker(client)
    player = client.post("/api/cards", json={"uid": "0a0000aa", "kind": "player", "name": "Gus"}, headers=headers)
    assert player.status_code == 200 and keys(player.get_json()) == {"ok", "number"}
    deed = client.post("/api/cards", json={"uid": "0d0000aa", "kind": "deed", "square": 39}, headers=headers)
    assert deed.status_code == 200 and deed.get_json() == {"ok": True}
    again = client.post("/api/cards", json={"uid": "0d0000ab", "kind": "deed", "square": 0}, headers=headers)
    assert again.status_code == 422 and keys(again.get_json()) == REFUSAL
    renamed = client.post("/api/cards/0a0000aa/name", json={"name": "Ida"}, headers=headers)
    assert renamed.status_code == 200 and renamed.get_json() == {"ok": True}
    cards = client.get("/api/admin/cards").get_json()
    assert {keys(c) == {"uid", "kind", "number", "name", "square"} for c in cards} == {True}
    doctor = client.get("/api/admin/doctor").get_json()
    assert doctor and {keys(c) == {"name", "ok", "detail", "fix"} for c in doctor} == {True}


def test_the_language_answers_the_one_chosen(client: FlaskClient) -> None:
    headers = banker(client)
    r = client.post("/api/admin/language", json={"language": "de"}, headers=headers)
    assert r.status_code == 200 and r.get_json() == {"ok": True, "language": "de"}
    bad = client.post("/api/admin/language", json={"language": "xx"}, headers=headers)
    assert bad.status_code == 422 and keys(bad.get_json()) == REFUSAL and bad.get_json()["code"] == "bad_language"


def test_the_virtual_device_answers_its_keys(client: FlaskClient) -> None:
    key = client.post("/api/sim/key", json={"key": "C"})
    assert key.status_code == 200 and keys(key.get_json()) == {"ok", "seq"}
    tap = client.post("/api/sim/tap", json={"uid": "0a000001"})
    assert tap.status_code == 200 and keys(tap.get_json()) == {"ok", "seq"}
    bad = client.post("/api/sim/tap", json={"uid": "zz"})
    assert bad.status_code == 422 and keys(bad.get_json()) == REFUSAL and bad.get_json()["code"] == "bad_uid"
    assert keys(client.get("/api/sim/display").get_json()) == {"seq", "text"}


def test_the_editions_api_answers_its_statuses(client: FlaskClient) -> None:
    headers = banker(client)
    check = client.post("/api/admin/editions/check", json={"text": 'key = "kiel"\nbase = "atlantis"\n'},
                        headers=headers)
    assert check.status_code == 200 and check.get_json()["ok"] is False and check.get_json()["problems"]
    gone = client.post("/api/admin/editions/delete", json={"file": "nirgends.toml"}, headers=headers)
    assert gone.status_code == 404 and gone.get_json()["code"] == "no_file"
    lost = client.post("/api/admin/editions/restore", json={"file": "nirgends.toml"}, headers=headers)
    assert lost.status_code == 404 and lost.get_json()["code"] == "no_file"
    broken = client.post("/api/admin/editions", json={"text": 'key = "kiel"\nbase = "atlantis"\n'}, headers=headers)
    assert broken.status_code == 422 and broken.get_json()["ok"] is False


def test_the_web_refusals_share_the_shape(client: FlaskClient) -> None:
    nothing = client.get("/api/nothing")
    assert nothing.status_code == 404 and keys(nothing.get_json()) == REFUSAL and nothing.get_json()["code"] == "http"
    closed = client.get("/api/admin/cards")
    assert closed.status_code == 401 and keys(closed.get_json()) == REFUSAL


def _hand_built(tree: ast.AST) -> list[int]:
    """The lines of dict literals with an ``"ok"`` key and of calls given ``ok=``: an answer made by hand."""
    def by_hand(node: ast.AST) -> bool:
        if isinstance(node, ast.Dict):
            return any(isinstance(k, ast.Constant) and k.value == "ok" for k in node.keys)
        return isinstance(node, ast.Call) and any(k.arg == "ok" for k in node.keywords)

    return [node.lineno for node in ast.walk(tree) if by_hand(node) and isinstance(node, ast.expr)]


def test_no_route_builds_an_answer_by_hand() -> None:
    """The answer's shape is made in webui/protocol.py alone; the web and the device's adapter use its makers."""
    files = [*sorted((ROOT / "webui").rglob("*.py")), ROOT / "device" / "daemon" / "web.py",
             ROOT / "device" / "daemon" / "booking.py"]
    found = {}
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        if name == "webui/protocol.py":
            continue
        lines = _hand_built(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[name] = lines
    assert found == {}


def test_one_maker_says_every_refusal_a_debt_too() -> None:
    """A refusal that names a debt (``insufficient_funds``: what is owed) is the one refusal with ``owed`` beside
    it, made by the same maker: a second maker for it could drift from the shape every refusal shares."""
    from webui import protocol

    assert protocol.refused("insufficient_funds", "…", owed=40) == {
        "ok": False, "code": "insufficient_funds", "message": "…", "owed": 40}
    assert protocol.refused("unknown_player", "…", owed=None) == {"ok": False, "code": "unknown_player", "message": "…"}
    assert keys(protocol.refused("unknown_player", "…")) == REFUSAL
    makers = [node.name for node in ast.walk(ast.parse((ROOT / "webui" / "protocol.py").read_text(encoding="utf-8")))
              if isinstance(node, ast.FunctionDef) and node.returns is not None
              and ast.unparse(node.returns) in ("Refusal", "Owing")]
    assert makers == ["refused"]
