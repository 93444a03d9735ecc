"""Begin from the phone: with no banker PIN set, the OLED shows a one-time code; a phone that types it becomes
the banker and sets the PIN there. Someone within reach of the box, not anyone on the Wi-Fi: the code is only
on the OLED, works once, and wrong tries count toward the login's limit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from device.daemon.service import Daemon
from webui.auth import LOGIN_ATTEMPTS

NEW = {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]}


@pytest.fixture
def no_pin(daemon: Daemon) -> Daemon:
    """The daemon as it first starts: no PIN in the config, none in the journal."""
    daemon.config.banker_pin = None
    daemon.call(daemon.renew_begin_code)
    return daemon


def oled_text(daemon: Daemon) -> str:
    def run() -> str:
        assert daemon.banker is not None
        daemon.banker.refresh()
        screen = daemon.banker.last_screen
        assert screen is not None
        return " ".join((screen.title, str(screen.big), *screen.lines))

    result: str = daemon.call(run)
    return result


def code_of(daemon: Daemon) -> str:
    code = daemon.call(lambda: daemon.begin_code)
    assert isinstance(code, str) and len(code) == 6 and code.isdigit()
    return code


def post(client: FlaskClient, url: str, body: dict[str, Any], csrf: str | None = None) -> Any:
    return client.post(url, json=body, headers={"X-CSRF-Token": csrf} if csrf else {})


def test_the_oled_shows_the_code_while_no_pin_is_set(no_pin: Daemon) -> None:
    assert code_of(no_pin) in oled_text(no_pin)
    assert no_pin.call(lambda: no_pin.set_pin("2468"))
    assert no_pin.call(lambda: no_pin.begin_code) is None
    assert not any(c.isdigit() and len(c) == 6 for c in oled_text(no_pin).split())


def test_the_code_logs_a_phone_in_and_it_sets_the_pin(no_pin: Daemon) -> None:
    client = no_pin.app.test_client()
    r = post(client, "/api/login", {"code": code_of(no_pin)})
    assert r.status_code == 200 and r.get_json()["set_pin"] is True
    csrf = r.get_json()["csrf"]
    assert post(client, "/api/commands", NEW, csrf).status_code == 403  # the PIN first
    assert post(client, "/api/pin", {"pin": "123"}, csrf).status_code == 422  # 4 to 8 digits, as on the device
    r = post(client, "/api/pin", {"pin": "2468"}, csrf)
    assert r.status_code == 200
    csrf = r.get_json()["csrf"]  # the PIN change ended every older session; this phone keeps a new one
    assert post(client, "/api/commands", NEW, csrf).status_code == 200
    # kept as a salted hash, never as the PIN: no field of it is the PIN (a hex digest may hold "2468" by chance)
    assert no_pin.journal is not None
    kind, _, _, _ = stored = (no_pin.journal.setting("banker_pin") or "").split("$")
    assert kind == "pbkdf2" and "2468" not in stored
    other = no_pin.app.test_client()
    assert post(other, "/api/login", {"pin": "2468"}).status_code == 200


def test_a_wrong_code_is_refused_and_counts_toward_the_limit(no_pin: Daemon) -> None:
    client = no_pin.app.test_client()
    code = code_of(no_pin)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(LOGIN_ATTEMPTS):
        assert post(client, "/api/login", {"code": wrong}).status_code == 401
    assert post(client, "/api/login", {"code": code}).status_code == 429


def test_the_code_works_once(no_pin: Daemon) -> None:
    code = code_of(no_pin)
    first = no_pin.app.test_client()
    assert post(first, "/api/login", {"code": code}).status_code == 200
    assert post(no_pin.app.test_client(), "/api/login", {"code": code}).status_code == 401
    fresh = code_of(no_pin)
    assert fresh != code and fresh in oled_text(no_pin)


def test_no_code_once_a_pin_is_set(daemon: Daemon) -> None:
    assert daemon.call(lambda: daemon.begin_code) is None
    assert post(daemon.app.test_client(), "/api/login", {"code": "123456"}).status_code == 401


def test_a_pin_cannot_be_set_over_one_from_the_phone(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    csrf = post(client, "/api/login", {"pin": "4711"}).get_json()["csrf"]
    assert post(client, "/api/pin", {"pin": "2468"}, csrf).status_code == 409


def test_the_admin_page_offers_the_code_only_while_no_pin_is_set(daemon: Daemon) -> None:
    def code_form_shown() -> bool:
        page = daemon.app.test_client().get("/admin").get_data(as_text=True)
        assert 'id="code-login"' in page and 'id="set-pin"' in page
        return '<form id="code-login" class="card">' in page  # not hidden

    assert not code_form_shown()
    daemon.config.banker_pin = None
    assert code_form_shown()


def test_a_session_from_the_code_sees_that_it_must_set_the_pin(no_pin: Daemon) -> None:
    client = no_pin.app.test_client()
    csrf = post(client, "/api/login", {"code": code_of(no_pin)}).get_json()["csrf"]
    assert client.get("/api/session").get_json()["pin_first"] is True
    assert post(client, "/api/logout", {}, csrf).status_code == 200
    assert client.get("/api/session").get_json()["banker"] is False


@pytest.mark.parametrize("code", ['"\\ud800"', '""', '"' + "1" * 10_000 + '"', '"12345\\uff16"'])
def test_a_strange_code_is_a_wrong_one(no_pin: Daemon, code: str) -> None:
    """A lone surrogate, nothing, too long, a full-width digit: refused as wrong, never an error of the server."""
    answer = no_pin.app.test_client().post("/api/login", data='{"code": ' + code + "}",
                                           content_type="application/json")
    assert answer.status_code in (400, 401)


def test_a_phone_begins_as_the_banker_with_the_code_from_the_oled_in_the_browser(tmp_path: Path) -> None:
    """The whole way as a family takes it: the box shows a code, a phone at the table types it on the banker's
    page, sets the PIN there, and the banker's page opens (Debian's Chromium at a phone's viewport)."""
    from phone_helpers import CHROMIUM, FLAGS, PHONE
    from playwright.sync_api import expect, sync_playwright

    from bench.liveserver import LiveServer

    server = LiveServer(tmp_path / "state", {"BANKLESER_BANKER_PIN": ""}).start()
    try:
        shown = server.get("/api/sim/display")["text"]
        code = re.search(r"\b\d{6}\b", shown)
        assert code is not None, shown
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            try:
                page = browser.new_context(**PHONE).new_page()
                page.goto(server.base + "/admin")
                expect(page.locator("#code-login")).to_be_visible()
                page.fill("#code", code[0])
                page.click("#code-login button")
                expect(page.locator("#set-pin")).to_be_visible()
                page.fill("#new-pin", "2468")
                page.click("#set-pin button")
                expect(page.locator("#admin")).to_be_visible()
                expect(page.locator("#code-login")).to_be_hidden()
            finally:
                browser.close()
        assert server.post("/api/login", {"pin": "2468"})[0] == 200  # the PIN the phone set, for every phone
    finally:
        server.stop()


def test_the_phone_that_sets_the_pin_stays_the_banker_when_the_news_of_its_own_pin_comes_first(
        tmp_path: Path) -> None:
    """Setting the PIN ends every session, this phone's old one too, and the live stream tells every page so.
    When the stream's news comes before the PIN's answer (with its new session) has reached the page, the
    page's question "am I still the banker?" goes out with the old session; its "no" must not sign out the
    phone that has just become the banker. The schedule is forced: the PIN's answer is held at the network
    until the stream has spoken, and a question asked meanwhile is answered, after the PIN's answer, as the
    server answers the old session."""
    from phone_helpers import CHROMIUM, FLAGS, PHONE
    from playwright.sync_api import Route, expect, sync_playwright

    from bench.liveserver import LiveServer

    server = LiveServer(tmp_path / "state", {"BANKLESER_BANKER_PIN": ""}).start()
    try:
        code = re.search(r"\b\d{6}\b", server.get("/api/sim/display")["text"])
        assert code is not None
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            try:
                context = browser.new_context(**PHONE)
                page = context.new_page()
                page.goto(server.base + "/admin")
                page.fill("#code", code[0])
                page.click("#code-login button")
                expect(page.locator("#set-pin")).to_be_visible()
                old = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
                held_pin: list[tuple[Route, Any]] = []
                early: list[Route] = []
                released = False

                def pin(route: Route) -> None:
                    held_pin.append((route, route.fetch()))  # the server has set the PIN; the answer waits

                def session(route: Route) -> None:
                    if released:
                        route.continue_()
                    else:
                        early.append(route)  # asked before this page had its new session

                page.route("**/api/pin", pin)
                page.route("**/api/session", session)
                page.fill("#new-pin", "2468")
                page.click("#set-pin button")
                for _ in range(40):  # the stream's news of the new epoch, and what the page does about it
                    page.wait_for_timeout(50)
                    if held_pin and early:
                        break
                assert held_pin, "the PIN never reached the server"
                route, answer = held_pin[0]
                released = True
                route.fulfill(response=answer)
                expect(page.locator("#admin")).to_be_visible()
                for asked in early:  # the old session's "no", after the page has shown the banker's page
                    asked.fulfill(response=asked.fetch(headers={**asked.request.headers, "cookie": old}))
                page.wait_for_timeout(300)
                expect(page.locator("#admin")).to_be_visible()
                expect(page.locator("#login")).to_be_hidden()
            finally:
                browser.close()
    finally:
        server.stop()
