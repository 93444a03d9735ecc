"""A real browser (Debian's headless Chromium, driven by Playwright) at a phone's viewport:
the virtual device credits, debits and transfers; a second page, the status page, updates live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pagecheck import html_errors
from phone_helpers import BANKING, PHONE, cash, logged_in_admin, serious_violations
from playwright.sync_api import Browser, ConsoleMessage, Dialog, Error, Page, expect

from bench.liveserver import LiveServer

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
pytestmark = pytest.mark.live(game=BANKING, login=True)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def console_errors_into(errors: list[str]) -> Callable[[ConsoleMessage], None]:
    """A console listener that keeps the page's errors (a page's script error shows there first)."""
    def heard(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)
    return heard


def page_errors_into(errors: list[str]) -> Callable[[Error], None]:
    """A listener for the page's uncaught exceptions, kept as text."""
    def thrown(error: Error) -> None:
        errors.append(str(error))
    return thrown


def test_virtual_device_books_and_the_status_page_follows_live(browser: Browser, server: LiveServer) -> None:
    device = browser.new_context(**PHONE).new_page()
    status = browser.new_context(**PHONE).new_page()
    status.goto(server.base + "/")
    expect(cash(status, "Anna")).to_have_text("15M €")
    device.goto(server.base + "/device")

    def press(*keys: str) -> None:
        for key in keys:
            device.click(f'[data-key="{key}"]')

    # Haben: tap Anna, HABEN, 2, M, OK
    device.click('[data-uid="0a000001"]')
    expect(device.locator("#oled-text")).to_contain_text("Anna #1")
    press("HABEN", "2", "M", "OK")
    expect(device.locator("#oled-text")).to_contain_text("Gebucht")
    expect(cash(status, "Anna")).to_have_text("17M €")
    shot(device, "device-after-haben")

    # Soll: Ben pays the bank 500K
    device.click('[data-uid="0a000002"]')
    press("SOLL", "5", "0", "0", "K", "OK")
    expect(cash(status, "Ben")).to_have_text("14,5M €")

    # Transfer: tap the payer, SOLL, amount, tap the payee, OK
    device.click('[data-uid="0a000001"]')
    press("SOLL", "2", ".", "5", "M")
    device.click('[data-uid="0a000002"]')
    expect(device.locator("#oled-text")).to_contain_text("Anna zahlt Ben")
    press("OK")
    expect(cash(status, "Anna")).to_have_text("14,5M €")
    expect(cash(status, "Ben")).to_have_text("17M €")
    expect(status.locator("#log li").first).to_have_text("Anna zahlt Ben 2,5M")
    expect(status.locator("#live")).to_have_class("live on")
    assert status.locator(".qr img").evaluate("img => img.naturalWidth") > 100  # the QR code really loads
    shot(status, "status-live")
    # The OLED picture on the page is the simulated display's frame.
    assert device.locator("#oled").evaluate("img => img.naturalWidth") == 512


def test_admin_logs_in_and_starts_a_timed_game(browser: Browser, server: LiveServer) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/admin")
    page.fill("#pin", "0000")
    page.click("#login button")
    expect(page.locator("#login-msg")).to_have_text("Falsche PIN")
    page.fill("#pin", "4711")
    page.click("#login button")
    expect(page.locator("#admin")).to_be_visible()
    page.select_option("#edition", "skylanders")
    page.select_option("#mode", "timed")
    page.fill("#minutes", "45")
    page.check('input[name=player][value="Cem"]')
    page.check('input[name=player][value="Dana"]')
    # A running game is not wiped with one click; the page asks first.
    questions: list[str] = []
    answer = {"yes": True}

    def asked(dialog: Dialog) -> None:
        questions.append(dialog.message)
        if answer["yes"]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", asked)
    page.click("#newgame button")
    expect(page.locator("#msg")).to_have_text("Gebucht")
    answer["yes"] = False
    page.click("#newgame button")
    expect(page.locator("#msg")).to_contain_text("Spiel läuft noch")
    assert questions and "Ersetzen?" in questions[-1]
    answer["yes"] = True
    page.click("#newgame button")
    expect(page.locator("#msg")).to_have_text("Gebucht")
    status = browser.new_context(**PHONE).new_page()
    status.goto(server.base + "/")
    expect(status.locator("#clock")).to_contain_text("Noch 0:4")
    expect(status.locator("#scores h2")).to_have_text("Punktestand")
    expect(status.locator("#title")).to_contain_text("Skylanders")
    shot(status, "status-timed")


def test_house_rules_and_the_pot_are_on_the_status_page(browser: Browser, server: LiveServer) -> None:
    """House rules are shown on the status page, with the Frei-Parken pot."""
    status = browser.new_context(**PHONE).new_page()
    status.goto(server.base + "/")
    assert server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                         "players": ["Anna", "Ben"], "house_rules": ["free_parking_pot"],
                                         "replace": True})[0] == 200
    assert server.post("/api/commands", {"op": "tax", "player": "Anna", "square": 4})[0] == 200
    expect(status.locator("#houserules")).to_have_text("Hausregeln: Frei-Parken-Topf · Topf: 200")


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page {width} px wide"  # type: ignore[index]


def test_past_games_their_reports_and_the_bestenliste_read_on_a_phone(browser: Browser, server: LiveServer) -> None:
    """After scripted games of several editions and modes, the list, a report with its chart and the
    Bestenliste load in the real browser at 390 px and 320 px, without overflow or console errors."""
    post = server.post
    for cmd in ({"op": "transfer", "from": "Ben", "to": "Anna", "amount": 2_000_000},
                {"op": "bankrupt", "player": "Ben", "creditor": "Anna"},
                {"op": "new_game", "edition": "skylanders", "mode": "quick", "players": ["Anna", "Cem", "Dana"],
                 "seed": 3},
                {"op": "credit", "player": "Cem", "amount": 100},
                {"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Cem"],
                 "minutes": 20, "replace": True},
                {"op": "go", "player": "Cem"}, {"op": "end"}):
        assert post("/api/commands", cmd)[0] == 200, cmd
    for width in (390, 320):
        context = browser.new_context(**(PHONE | {"viewport": {"width": width, "height": 800}}))
        page = context.new_page()
        errors: list[str] = []
        page.on("console", console_errors_into(errors))
        page.on("pageerror", page_errors_into(errors))
        page.goto(server.base + "/spiele")
        games = page.locator(".game")
        expect(games).to_have_count(3)
        expect(games.nth(0)).to_contain_text("MONOPOLY")
        expect(games.nth(0)).to_contain_text("beendet")
        expect(games.nth(1)).to_contain_text("ersetzt")
        expect(games.nth(2)).to_contain_text("Gewinner: Anna")
        no_overflow(page)
        shot(page, f"spiele-{width}")
        games.nth(2).locator("a").click()
        expect(page.locator("h1")).to_contain_text("Standardspiel")
        expect(page.locator(".timeline svg polyline")).to_have_count(2)
        expect(page.locator(".legend li")).to_have_count(2)
        expect(page.locator(".log.full li")).to_have_count(3)
        expect(page.locator(".figures").first).to_contain_text("Größte Zahlung")
        no_overflow(page)
        shot(page, f"spiel-{width}")
        page.goto(server.base + "/bestenliste?mode=timed")
        expect(page.locator("table.best tbody tr")).to_have_count(2)
        no_overflow(page)
        page.goto(server.base + "/bestenliste")
        rows = page.locator("table.best tbody tr")
        expect(rows).to_have_count(3)  # Anna (2 games, 1 win), Cem (1 of 1), Ben (0 of 1); Dana's game was replaced
        expect(rows.nth(0)).to_contain_text("Cem")
        expect(rows.nth(1)).to_contain_text("Anna")
        expect(rows.nth(1)).to_contain_text("50 %")
        no_overflow(page)
        shot(page, f"bestenliste-{width}")
        assert errors == []
        context.close()


# -- Read on a phone, by a person ------------------------------------------------------

SCREENSHOTS = ARTIFACTS / "screenshots"


def play_an_evening(server: LiveServer) -> None:
    """A standard game won, a quick game replaced, a timed game ended (the fixture started the first)."""
    for cmd in ({"op": "transfer", "from": "Ben", "to": "Anna", "amount": 2_000_000},
                {"op": "bankrupt", "player": "Ben", "creditor": "Anna"},
                {"op": "new_game", "edition": "skylanders", "mode": "quick", "players": ["Anna", "Cem", "Dana"],
                 "seed": 3},
                {"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Cem"],
                 "minutes": 20, "replace": True, "house_rules": ["free_parking_pot"]},
                {"op": "tax", "player": "Anna", "square": 4}, {"op": "end"},
                {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben", "Cem"]},
                {"op": "credit", "player": "Ben", "amount": 1_000_000}):
        assert server.post("/api/commands", cmd)[0] == 200, cmd


def test_every_page_passes_the_accessibility_check_and_is_screenshot_at_phone_widths(
        browser: Browser, server: LiveServer) -> None:
    """Axe-core finds no serious or critical violation on any page, and the pages as their script
    drew them are valid HTML; the status page, the admin page, the list, a report and the Bestenliste are kept
    as screenshots at 320 px and 390 px."""
    play_an_evening(server)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    report = "/spiele/1"
    problems: list[str] = []
    drawn: dict[str, str] = {}
    for width in (320, 390):
        context = browser.new_context(**(PHONE | {"viewport": {"width": width, "height": 800}}))
        page = context.new_page()
        for name, path in (("status", "/"), ("admin", "/admin"), ("spiele", "/spiele"), ("spiel", report),
                           ("bestenliste", "/bestenliste"), ("device", "/device")):
            if name == "admin":
                logged_in_admin(page, server.base)
            else:
                page.goto(server.base + path)
            if name == "status":
                expect(page.locator('[data-player="Anna"] .cash')).to_be_visible()
            drawn[f"{name} @ {width}"] = page.content()  # as the page's script left it, before axe is added
            problems += [f"{name} @ {width}: {v}" for v in serious_violations(page)]
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > width:
                problems.append(f"{name} @ {width}: {wide} px wide")
            if name != "device":
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)
        context.close()
    problems += html_errors(drawn)
    assert problems == [], "\n".join(problems)
    assert len(list(SCREENSHOTS.glob("*-320.png"))) == 5 and len(list(SCREENSHOTS.glob("*-390.png"))) == 5


def test_the_accessibility_check_can_fail(browser: Browser, server: LiveServer) -> None:
    """The check finds what it is for: a button without a name, an input without a label, pale text."""
    page = browser.new_context(**PHONE).new_page()
    page.set_content('<!doctype html><html lang="de"><head><title>t</title></head><body><main>'
                     '<button></button><input><p style="color:#ddd">blass</p></main></body></html>')
    found = " ".join(serious_violations(page))
    assert "button-name" in found and "label" in found and "color-contrast" in found


@pytest.mark.parametrize("width", [320, 390])
def test_the_charts_text_is_at_least_9_px_as_drawn(browser: Browser, server: LiveServer, width: int) -> None:
    """Measured in the browser, the chart's smallest text (legend, axes) is 9 px or more."""
    play_an_evening(server)
    page = browser.new_context(**(PHONE | {"viewport": {"width": width, "height": 800}})).new_page()
    page.goto(server.base + "/")
    expect(page.locator('[data-player="Anna"] .cash')).to_be_visible()
    page.wait_for_function("document.querySelector('#chart').complete && document.querySelector('#chart').naturalWidth")
    status = page.evaluate("""async () => {
        const img = document.querySelector("#chart");
        const svg = new DOMParser().parseFromString(await (await fetch(img.src)).text(), "image/svg+xml");
        const width = Number(svg.documentElement.getAttribute("viewBox").split(" ")[2]);
        const sizes = [...svg.querySelectorAll("[font-size]")].map((e) => Number(e.getAttribute("font-size")));
        return Math.min(...sizes) * img.getBoundingClientRect().width / width;
    }""")
    assert status >= 9, f"status chart text {status:.1f} px at {width} px"
    page.goto(server.base + "/spiele/1")
    report = page.evaluate("""() => Math.min(...[...document.querySelectorAll(".timeline svg text")].map(
        (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))""")
    assert report >= 9, f"report chart text {report:.1f} px at {width} px"


def test_the_players_keep_their_seats_on_the_phone(browser: Browser, server: LiveServer) -> None:
    """In a standard game the players re-sorted after every booking (a tie moved Anna from
    1st to 3rd). They keep their seat order, whoever is richer."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/")
    order = page.locator("[data-player]")
    expect(order).to_have_count(2)
    assert server.post("/api/commands", {"op": "credit", "player": "Ben", "amount": 1_000_000})[0] == 200
    expect(cash(page, "Ben")).to_have_text("16M €")
    assert [order.nth(i).get_attribute("data-player") for i in range(2)] == ["Anna", "Ben"]


def test_house_rules_chosen_on_the_admin_form_reach_the_game(browser: Browser, server: LiveServer) -> None:
    """The new-game form chooses house rules without the JSON box."""
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.on("dialog", lambda d: d.accept())
    page.select_option("#edition", "classic")
    page.check('input[name=player][value="Anna"]')
    page.check('input[name=player][value="Ben"]')
    page.check('input[name=house_rule][value="free_parking_pot"]')
    page.check('input[name=house_rule][value="double_go"]')
    page.click("#newgame button")
    expect(page.locator("#msg")).to_have_text("Gebucht")
    status = browser.new_context(**PHONE).new_page()
    status.goto(server.base + "/")
    expect(status.locator("#houserules")).to_contain_text("Hausregeln: doppeltes Gehalt auf LOS, Frei-Parken-Topf")


def test_keys_clicked_0_ms_apart_reach_the_device_in_the_order_clicked(browser: Browser, server: LiveServer) -> None:
    """Six keys clicked 0 ms apart arrived "134256"; inputs go in arrival order."""
    device = browser.new_context(**PHONE).new_page()
    device.goto(server.base + "/device")
    device.click('[data-uid="0a000001"]')
    device.click('[data-key="HABEN"]')
    expect(device.locator("#oled-text")).to_contain_text("Anna: Haben")
    device.evaluate("""() => { for (const k of ["1", "2", "3", "4", "5", "6"]) {
                                   document.querySelector(`[data-key="${k}"]`).click(); } }""")
    expect(device.locator("#oled-text")).to_contain_text("123456")


def test_a_debt_to_the_bank_shows_on_the_phone(browser: Browser, server: LiveServer) -> None:
    """A creditor who could not pay the 10 % on a mortgaged deed owes it to the bank; the status page
    says so beside their cash until "Schuld zahlen" is booked."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/")
    for cmd in ({"op": "new_game", "edition": "schalke", "mode": "standard", "players": ["Anna", "Ben"],
                 "replace": True},
                {"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39},
                {"op": "debit", "player": "Anna", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1499},
                {"op": "bankrupt", "player": "Anna", "creditor": "Ben"}):
        assert server.post("/api/commands", cmd)[0] == 200, cmd
    expect(page.locator('[data-player="Ben"] .debt')).to_have_text("Schuld bei der Bank: 20 Dollar")
    expect(page.locator('[data-player="Anna"] .debt')).to_have_count(0)
    assert html_errors({"status-with-debt": page.content()}) == []


def test_a_shared_win_names_both_on_the_status_page(browser: Browser, server: LiveServer) -> None:
    """Seed 000: "Der reichste Spieler hat gewonnen!" Two as rich share the win: the phone names both."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/")
    for cmd in ({"op": "new_game", "edition": "banking", "mode": "timed", "players": ["Anna", "Ben", "Cem"],
                 "minutes": 30, "replace": True},
                {"op": "debit", "player": "Cem", "amount": 1_000_000}, {"op": "end"}):
        assert server.post("/api/commands", cmd)[0] == 200, cmd
    expect(page.locator("#winner")).to_have_text("Spielende – Gleichstand: Anna und Ben gewinnen gemeinsam!")
    assert server.post("/api/commands", {"op": "undo"})[0] == 200
    assert server.post("/api/commands", {"op": "debit", "player": "Ben", "amount": 10_000})[0] == 200
    assert server.post("/api/commands", {"op": "end"})[0] == 200
    expect(page.locator("#winner")).to_have_text("Spielende – Anna gewinnt!")
