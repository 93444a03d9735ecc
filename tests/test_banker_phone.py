"""Issue 31: the banker on the phone. Every booking is booked exactly once (a double tap, Back and send
again, a retry after a lost answer), Storno asks and names what it undoes, a logout ends the admin on
every phone at once; a form for every booking, from ``rules.legal`` as the device's menus.

Driven in Debian's headless Chromium at a phone's viewport, against ``bankleser run --sim``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import PHONE, browser, serious_violations  # noqa: F401  (the module's Chromium)

from bench.liveserver import PIN, LiveServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    s = LiveServer(tmp_path / "state").start()
    s.login()
    s.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
    yield s
    s.stop()


def admin(browser: Browser, base: str, width: int = 390) -> Page:  # noqa: F811
    page = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}).new_page()
    page.goto(base + "/admin")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#admin")).to_be_visible()
    return page


def log(server: LiveServer) -> list[str]:
    """The ledger's log, newest first (the public state's ``log``)."""
    return [e["text"] for e in server.get("/api/state")["log"]]


def player(server: LiveServer, name: str) -> dict[str, Any]:
    return next(p for p in server.get("/api/state")["players"] if p["name"] == name)


def open_form(page: Page, op: str) -> Any:
    """The booking form of ``op`` (its fold opened), as the page generated it."""
    box = page.locator(f'details.booking[data-op="{op}"]')
    if not box.evaluate("d => d.open"):
        box.locator("summary").click()
    return box.locator(f'form[data-op="{op}"]')


# -- Exactly once -------------------------------------------------------------------------------


def test_a_double_tap_on_senden_books_once_and_says_so(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    """Issue 31: "a double tap on "Senden" booked twice (the page sends no command id and does not hold the
    button while sending)"."""
    page = admin(browser, server.base)
    page.locator("details.expert summary").click()
    page.fill("#cmd", '{"op": "credit", "player": "Anna", "amount": 200}')
    before = len(log(server))
    page.dblclick("#raw button")
    expect(page.locator("#raw .answer")).to_contain_text("Gebucht")
    page.click("#raw button")  # a third tap, after the answer came: the same command, the same id
    expect(page.locator("#raw .answer")).to_contain_text("bereits gebucht")
    assert len(log(server)) == before + 1
    assert player(server, "Anna")["cash"] == 1700


def test_back_and_send_again_books_once(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    """Issue 31: "Back, then "Senden" again, booked again without a word"."""
    page = admin(browser, server.base)
    page.locator("details.expert summary").click()
    page.fill("#cmd", "{“op”: “credit”, „player“: “Anna”, ‘amount’: 300}")  # a phone's typographic quotes
    page.click("#raw button")
    expect(page.locator("#raw .answer")).to_contain_text("Gebucht")
    page.goto(server.base + "/")
    page.go_back()
    expect(page.locator("#admin")).to_be_visible()
    page.locator("details.expert summary").click()
    page.fill("#cmd", "{“op”: “credit”, „player“: “Anna”, ‘amount’: 300}")
    page.click("#raw button")
    expect(page.locator("#raw .answer")).to_contain_text("bereits gebucht")
    assert player(server, "Anna")["cash"] == 1800
    # Meant twice: the page books it again only when asked to.
    page.click("#raw [data-again]")
    expect(page.locator("#raw .answer")).to_contain_text("Gebucht")
    assert player(server, "Anna")["cash"] == 2100


def test_a_retry_after_a_lost_answer_books_once(server: LiveServer) -> None:
    """Issue 31: the same command id sent twice (the first answer lost on the way) is one booking, and the
    second answer says it was a repeat ("the API should tell a duplicate apart")."""
    cmd = {"op": "debit", "player": "Ben", "amount": 50, "id": "phone-1-abc"}
    status, first = server.post("/api/banker/book", cmd)
    assert status == 200 and first == {"ok": True, "duplicate": False, "text": "Ben zahlt 50 an die Bank",
                                       "balances": {"Ben": 1450}, "seq": first["seq"]}
    assert server.post("/api/banker/book", cmd)[1]["duplicate"] is True
    assert server.post("/api/commands", cmd) == (200, {"ok": True, "duplicate": True})
    assert player(server, "Ben")["cash"] == 1450


def test_the_page_retries_a_lost_answer_with_the_same_id(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    """Issue 31: "a retry after a lost answer: one booking, and the page says it was booked once"."""
    page = admin(browser, server.base)
    lost = {"once": True}

    def lose_the_answer(route: Any) -> None:
        if lost["once"]:
            lost["once"] = False
            route.fetch()  # the appliance books it ...
            route.abort()  # ... and the answer never reaches the phone
        else:
            route.continue_()

    page.route("**/api/banker/book", lose_the_answer)
    form = open_form(page, "credit")
    form.locator("[name=amount]").fill("120")
    form.locator("button.submit").click()
    form.locator("[data-confirm]").click()
    expect(form.locator(".answer")).to_contain_text("Keine Antwort")
    form.locator("[data-confirm]").click()
    expect(form.locator(".answer")).to_contain_text("bereits gebucht")
    assert player(server, "Anna")["cash"] == 1620
    page.context.close()  # with the connection route.fetch() kept open: the server's stop does not wait for it


def test_storno_asks_names_the_booking_and_two_taps_undo_one(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    """Issue 31: "a double tap on "Storno (letzte Buchung)" undid two bookings, without asking"."""
    for cmd in ({"op": "credit", "player": "Anna", "amount": 100}, {"op": "debit", "player": "Ben", "amount": 20}):
        assert server.post("/api/commands", cmd)[0] == 200
    page = admin(browser, server.base)
    page.click("#undo")
    ask = page.locator("#undo-ask")
    expect(ask).to_contain_text("Ben zahlt 20 an die Bank")
    page.dblclick("#undo-ask [data-confirm]")
    expect(page.locator("#game .answer")).to_contain_text("Storno: Ben zahlt 20 an die Bank")
    assert log(server)[:2] == ["Storno: Ben zahlt 20 an die Bank", "Ben zahlt 20 an die Bank"]
    assert player(server, "Anna")["cash"] == 1600
    assert player(server, "Ben")["cash"] == 1500


def test_a_logout_shows_the_login_on_every_phone_at_once(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    """Issue 31: "A logout on one phone shows the login on the others at once (the live stream says so)"."""
    first, second = admin(browser, server.base), admin(browser, server.base)
    first.click("#logout")
    expect(first.locator("#login")).to_be_visible()
    expect(second.locator("#login")).to_be_visible(timeout=5000)
    expect(second.locator("#admin")).to_be_hidden()
