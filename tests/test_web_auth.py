"""Deny by default: every route of the web is the banker's unless it is marked public.

The walk goes over Flask's own URL map, so a route added tomorrow is in it: it must either be named
below as public, on purpose, or answer 401 to a phone without the banker's session (and 403 to a
state change without the session's CSRF token).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from daemon_fixture import PIN
from device.daemon.service import Daemon, WebBackend
from webui.app import create_app
from webui.auth import is_public

PUBLIC = {
    "static", "pages.status_page", "pages.admin_page", "pages.wiring", "pages.device_page", "pages.qr",
    "pages.chart", "pages.api_state", "pages.api_board",
    "games.games_page", "games.game_page", "games.game_jsonl", "games.game_csv", "games.best_page",
    "banker.api_login", "banker.api_session",
    "sim.sim_key", "sim.sim_tap", "sim.sim_display", "sim.sim_display_png", "sim.sim_freeze",
    "language.choose_own",  # a phone pins its own language: its cookie only, nothing of the appliance
}
"""What a phone without the banker's session may open: reading, logging in, the simulation's virtual device."""
ARGUMENTS: dict[str, Any] = {"uid": "0a000001", "game_id": 1, "filename": "app.js", "key": "classic"}
"""A value for each of the routes' URL arguments (``url_for`` takes them as its keywords)."""


@pytest.fixture
def app(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The sim daemon's app with every route it can have (the watchdog test's freeze verb too)."""
    monkeypatch.setenv("BANKLESER_ALLOW_FREEZE", "1")
    return create_app(WebBackend(daemon))


def routes(app: Flask) -> Iterator[tuple[Rule, str, str]]:
    """Every rule with every method it answers (HEAD and OPTIONS are Flask's own), and a URL for it."""
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            url = app.url_for(rule.endpoint, **{name: ARGUMENTS[name] for name in rule.arguments})
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                yield rule, method, url


def login(client: FlaskClient) -> str:
    answer = client.post("/api/login", json={"pin": PIN})
    assert answer.status_code == 200
    token: str = answer.get_json()["csrf"]
    return token


def test_the_public_routes_are_exactly_the_ones_named(app: Flask) -> None:
    with app.test_request_context():
        marked = {rule.endpoint for rule in app.url_map.iter_rules() if is_public(rule.endpoint)}
    assert marked == PUBLIC


def test_every_other_route_refuses_a_phone_without_the_bankers_session(app: Flask) -> None:
    client = app.test_client()
    walked = []
    for rule, method, url in routes(app):
        if rule.endpoint in PUBLIC:
            continue
        answer = client.open(url, method=method, json={})
        assert answer.status_code == 401, (method, url)
        if url.startswith("/api/"):  # a page (the editions' form) answers the same refusal as a page
            assert answer.get_json() == {"ok": False, "code": "http", "message": "Nur der Bankhalter: erst anmelden"}
        else:
            assert "Nur der Bankhalter: erst anmelden" in answer.get_data(as_text=True), url
        walked.append(rule.endpoint)
    assert {"banker.api_commands", "banker.api_logout", "admin.api_doctor", "admin.api_cards", "admin.api_rename",
            "admin.api_register"} <= set(walked)


def test_every_state_change_needs_the_sessions_csrf_token(app: Flask) -> None:
    """Logged in, a change without the token (or with a forged one) is a 403; a read needs none."""
    client = app.test_client()
    csrf = login(client)
    for rule, method, url in routes(app):
        if rule.endpoint in PUBLIC:
            continue
        if method == "GET":
            assert client.get(url).status_code == 200, url
            continue
        for headers in ({}, {"X-CSRF-Token": "gefälscht"}, {"X-CSRF-Token": csrf[:-1]}):
            answer = client.open(url, method=method, json={}, headers=headers)
            assert answer.status_code == 403 and answer.get_json()["message"] == "CSRF-Token fehlt oder falsch"


def test_a_route_added_without_a_mark_is_the_bankers(daemon: Daemon) -> None:
    """Forgetting the check cannot leave a new route open: the hook refuses it before the view runs."""
    app = create_app(WebBackend(daemon))
    ran = []

    def new_route() -> str:
        ran.append(1)
        return "offen"

    app.add_url_rule("/api/neu", "neu", new_route, methods=["GET", "POST"])
    client = app.test_client()
    assert client.get("/api/neu").status_code == 401 and client.post("/api/neu", json={}).status_code == 401
    assert not ran


def test_routing_still_answers_unknown_paths_and_methods(app: Flask) -> None:
    """The hook refuses routes, not addresses: an unknown path is a 404, a wrong method a 405, as before."""
    client = app.test_client()
    assert client.get("/api/gibt-es-nicht").status_code == 404
    assert client.get("/api/commands").status_code == 405
