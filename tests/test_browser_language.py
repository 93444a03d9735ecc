"""The languages in a real browser: the banker's choice of language on /admin reaches every open page at once, without
anyone reloading them (the reports' pages too, on the pages' base); a phone whose browser asks for English reads
the pages in English with one tap, and keeps it, while the appliance and every other phone stay German.
"""

from __future__ import annotations

import re

import pytest
from page_words import GERMAN
from phone_helpers import PHONE, cash, logged_in_admin
from playwright.sync_api import Browser, Page, expect

from bench.liveserver import LiveServer

pytestmark = pytest.mark.live(game={"op": "new_game", "edition": "classic", "mode": "quick", "players": ["Anna", "Ben"],
                                    "seed": 7, "house_rules": ["double_go"]}, login=True)


def german_words(page: Page) -> list[str]:
    """German words in what the page shows, but the game's own names (squares, the edition, the players) and what
    other surfaces write into it: the rules' texts (the log, the mode's title), the booking forms (``phone.*``)
    and the self-test (the doctor's, whose parts' names are identifiers still)."""
    text = page.evaluate("""() => {
        const copy = document.querySelector("main").cloneNode(true);
        copy.querySelectorAll("#log, #title, .deeds, .deed, #oled-text, #players, #deeds, select#edition, #forms, #doctor")
            .forEach((n) => n.remove());
        const nav = document.querySelector("nav").cloneNode(true);
        nav.querySelectorAll("[lang]").forEach((n) => n.remove());  // the offer to read it in German, said in German
        return nav.innerText + "\\n" + copy.innerText;
    }""")
    return GERMAN.findall(text.replace("Bankleser", ""))


def test_two_open_pages_follow_the_bankers_choice_of_language_without_a_reload(browser: Browser,
                                                                                server: LiveServer) -> None:
    status = browser.new_context(**PHONE).new_page()
    device = browser.new_context(**PHONE).new_page()
    status.goto(server.base + "/")
    device.goto(server.base + "/device")
    games = browser.new_context(**PHONE).new_page()  # a page of the reports, on the pages' base
    games.goto(server.base + "/spiele")
    expect(games.locator("nav a").first).to_have_text("Stand")
    expect(status.locator("#scores h2")).to_have_text("Punktestand")
    expect(status.locator("#houserules")).to_have_text("Hausregeln: doppeltes Gehalt auf LOS")
    expect(device.locator('[data-key="HABEN"]')).to_have_text("Haben")
    expect(device.locator("#oled-text")).not_to_be_empty()
    oled = device.locator("#oled-text").inner_text()
    admin = browser.new_context(**PHONE).new_page()
    logged_in_admin(admin, server.base)
    admin.select_option("#language", "en")
    admin.click("#language-form button")
    # Nobody touches the two pages: the live state names the language, and they are drawn again in it.
    expect(status.locator("html")).to_have_attribute("lang", "en", timeout=10_000)
    expect(status.locator("#scores h2")).to_have_text("Scores")
    expect(status.locator("nav a").first).to_have_text("Standings")
    expect(device.locator("html")).to_have_attribute("lang", "en", timeout=10_000)
    expect(device.locator('[data-key="HABEN"]')).to_have_text("Credit")
    expect(device.locator("#oled-text")).not_to_have_text(oled)  # the OLED itself speaks it too
    expect(admin.locator("html")).to_have_attribute("lang", "en", timeout=10_000)
    expect(games.locator("html")).to_have_attribute("lang", "en", timeout=10_000)
    expect(games.locator("nav a").first).to_have_text("Standings")
    expect(admin.locator("#admin h2").first).to_have_text("Book")  # still logged in, in English
    expect(status.locator('[data-player="Anna"] .meta')).to_contain_text("Net worth")
    expect(status.locator("#houserules")).to_have_text("House rules: double salary on GO")
    for page in (status, device, admin):
        assert german_words(page) == [], page.url
    # and back: the same way
    admin.select_option("#language", "de")
    admin.click("#language-form button")
    expect(status.locator("#scores h2")).to_have_text("Punktestand", timeout=10_000)


def test_a_phone_asking_for_english_reads_it_from_its_first_load(browser: Browser,
                                                                 server: LiveServer) -> None:
    for cmd in ({"op": "credit", "player": "Anna", "amount": 200}, {"op": "undo"}):
        assert server.post("/api/commands", cmd)[0] == 200, cmd
    english = browser.new_context(**(PHONE | {"locale": "en-GB"})).new_page()
    english.goto(server.base + "/")
    expect(english.locator("html")).to_have_attribute("lang", "en")  # the browser's English from the first load
    expect(english.locator("#scores h2")).to_have_text("Scores")
    expect(english.locator("#log li").first).to_contain_text("Undone")  # the bookings said in its language too
    expect(cash(english, "Anna")).to_have_text(re.compile(r"^\d,\d{3}$"))  # grouped as English writes it
    # The same version in another language is another URL (and another ETag): never the other language's chart.
    expect(english.locator("#chart")).to_have_attribute("src", re.compile(r"lang=en"))
    english.goto(server.base + "/device")  # kept for this phone
    expect(english.locator('[data-key="SOLL"]')).to_have_text("Debit")
    assert german_words(english) == []
    german = browser.new_context(**PHONE).new_page()  # a German phone: the appliance's German, no offer
    german.goto(server.base + "/")
    expect(german.locator("#scores h2")).to_have_text("Punktestand")
    expect(cash(german, "Anna")).to_have_text(re.compile(r"^\d\.\d{3}$"))
    expect(german.locator("nav a.lang")).to_have_count(0)
    english.click("nav a.lang")  # the way back names the appliance's language in it
    expect(english.locator("html")).to_have_attribute("lang", "de")
