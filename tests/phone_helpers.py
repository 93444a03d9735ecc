"""What the tests of the pages in a real browser share: Debian's headless Chromium at a German family's phone,
the banker's login, axe-core's findings, and the readers that wait for a booking to reach the public state.

A plain module, not a test module: a test module imports its helpers from here, never from another test module
(whose tests would then be collected under two names, and whose fixtures would shadow each other's)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypedDict

from pagecheck import AXE
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from bench.liveserver import PIN, LiveServer

CHROMIUM = "/usr/bin/chromium"


class Phone(TypedDict):
    """The browser context's options of a phone (Playwright's ``new_context`` keywords): typed, so that a context
    opened with them is checked like any call."""

    viewport: ViewportSize
    device_scale_factor: float
    is_mobile: bool
    has_touch: bool
    locale: str


PHONE: Phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True, "locale": "de-DE"}
"""A German family's phone: a browser asking for English reads the pages in English (webui/language.py)."""
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

BANKING = {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]}
"""The game the status page and the virtual device are read with: Banking's amounts in K and M."""
CLASSIC = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
"""The game the banker's forms are booked in: the classic board, with its streets, houses and rents."""


def cash(page: Page, name: str) -> Locator:
    """A player's cash as the status page shows it."""
    return page.locator(f'[data-player="{name}"] .cash')


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (contrast, labels, names)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} – ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)""")
    return list(found)


def logged_in_admin(page: Page, base: str) -> None:
    """The admin page, logged in with the banker's PIN, its forms drawn."""
    page.goto(base + "/admin")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#admin")).to_be_visible()
    expect(page.locator("input[name=player]").first).to_be_attached()


def admin(browser: Browser, base: str, width: int = 390) -> Page:
    """The admin page on a new phone ``width`` pixels wide, logged in."""
    page = browser.new_context(**(PHONE | {"viewport": {"width": width, "height": 844}})).new_page()
    page.goto(base + "/admin")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#admin")).to_be_visible()
    return page


def state(server: LiveServer, after: int = 0) -> dict[str, Any]:
    """The public state once it shows the booking numbered ``after`` (its answer's ``seq``) or a later one.

    A test that reads the state after a booking names the booking, never a pause: a read returns the state
    published last, and a read that came before the booking's was published got the state without it (a
    ``KeyError: 'debt'`` under load). The deadline bounds a state that never comes; it is no wait."""
    deadline = time.monotonic() + 10
    while True:
        current: dict[str, Any] = server.get("/api/state")
        shown = current["log"][0]["seq"] if current["log"] else 0
        if shown >= after:
            return current
        assert time.monotonic() < deadline, f"the state never showed booking {after} (its newest: {shown})"
        time.sleep(0.01)


def log(server: LiveServer, after: int = 0) -> list[str]:
    """The ledger's log, newest first (the public state's ``log``), once it shows booking ``after``."""
    return [e["text"] for e in state(server, after)["log"]]


def newest(server: LiveServer, after: int = 0) -> int:
    """The journal's number of the newest booking: one booking more, one more (the log shows the last 30 only)."""
    return int(state(server, after)["log"][0]["seq"])


def player(server: LiveServer, name: str, after: int = 0) -> dict[str, Any]:
    """A player of the public state once it shows booking ``after`` (``debt`` is absent when there is none)."""
    found: dict[str, Any] = next(p for p in state(server, after)["players"] if p["name"] == name)
    return {"debt": 0, **found}


def booking_number(page: Page, act: Callable[[], None]) -> int:
    """The number (``seq``) of the booking the page sends when ``act`` taps (the first answer, if tapped twice)."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(
            ("/api/banker/book", "/api/commands"))) as sent:
        act()
    return int(sent.value.json().get("seq") or 0)


def lose_the_first_answer(page: Page) -> None:
    """The next booking reaches the appliance, which books it, but its answer never reaches the phone."""
    lost = {"once": True}

    def lose_the_answer(route: Any) -> None:
        if lost["once"]:
            lost["once"] = False
            route.fetch()  # the appliance books it ...
            route.abort()  # ... and the answer never reaches the phone
        else:
            route.continue_()

    page.route("**/api/banker/book", lose_the_answer)


def open_form(page: Page, op: str) -> Any:
    """The booking form of ``op`` (its fold opened), as the page generated it."""
    box = page.locator(f'details.booking[data-op="{op}"]')
    if not box.evaluate("d => d.open"):
        box.locator("summary").click()
    return box.locator(f'form[data-op="{op}"]')
