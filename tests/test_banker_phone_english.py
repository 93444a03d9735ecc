"""Every word from the catalogue on the banker's phone in English, on an appliance that speaks German.

The phone pinned English (its own cookie, as the page's one tap sets it); the OLED and the other phones stay
German. Bookings of several kinds go through the forms as a person makes them (Chromium at 390 px): every
form, preview, answer, refusal and Storno question the phone shows is English, no German word in it but the
edition's names and the players'; each booking is checked against the ledger.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from page_words import german_in
from phone_helpers import PHONE, booking_number, log, newest, open_form, player
from playwright.sync_api import Browser, Page, expect

from bench.liveserver import PIN, LiveServer
from rules import EDITIONS

pytestmark = pytest.mark.live(game={"op": "new_game", "edition": "classic", "mode": "standard",
                                    "players": ["Anna", "Ben", "Cem"], "house_rules": ["double_go"]}, login=True)


def english_admin(browser: Browser, base: str) -> Page:
    """The admin page on a phone that chose English for itself (the pages' cookie), logged in."""
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "bank_lang", "value": "en", "url": base}])
    page = context.new_page()
    page.goto(base + "/admin")
    page.fill("#pin", PIN)
    page.click("#login button")
    expect(page.locator("#admin")).to_be_visible()
    return page


NAMES = [*(n for n in EDITIONS["classic"].names if n), *EDITIONS["classic"].house_word,
         *EDITIONS["classic"].hotel_word, "Anna", "Ben", "Cem"]
"""What may stay German on an English page: the edition's own words (its squares, its buildings) and the players."""


class EnglishPhone:
    def __init__(self, page: Page, server: LiveServer) -> None:
        self.page, self.server = page, server
        self.read: list[str] = []
        """Everything the booking part of the page showed, for the German check at the end."""
        self.last = 0
        """The number of the newest booking this phone made: the state read after it shows it."""

    def form(self, who: str, op: str) -> Any:
        if self.page.locator("#book-player").input_value() != who:
            self.page.select_option("#book-player", who)
        field = {"transfer": "from", "trade": "a"}.get(op, "player")
        expect(self.page.locator(f'#forms form[data-op="{op}"] select[name="{field}"] option[value="{who}"]')
               ).to_be_attached()
        form = open_form(self.page, op)
        self.read.append(self.page.locator("#book").inner_text())
        return form

    def book(self, who: str, op: str, fields: dict[str, str] | None = None, *, says: str) -> str:
        """Fill the form, read the English preview, confirm: one booking, the ledger's, said in English."""
        before = newest(self.server)
        form = self.form(who, op)
        for name, value in (fields or {}).items():
            control = form.locator(f'[name="{name}"]').first
            if control.evaluate("e => e.tagName") == "SELECT":
                control.select_option(value)
            elif control.get_attribute("type") == "checkbox":
                form.locator(f'[name="{name}"][value="{value}"]').check()
            else:
                control.fill(value)
        submit = form.locator("button.submit")
        if op == "jail_card":
            seq = booking_number(self.page, submit.click)
        else:
            submit.click()
            preview = form.locator(".preview .says")
            expect(preview).to_contain_text(says)
            self.read.append(form.inner_text())
            seq = booking_number(self.page, form.locator("[data-confirm]").click)
        self.last = seq
        answer = self.page.locator(f'details.booking[data-op="{op}"] .answer')
        expect(answer).to_contain_text("Booked: ")
        self.read.append(answer.inner_text())
        lines = answer.inner_text().split("\n")
        text = lines[0].removeprefix("Booked: ")
        assert says in text and newest(self.server, seq) == before + 1, (op, text)  # one booking: this one
        for moved in lines[1].split(" · ") if len(lines) > 1 else []:  # the balances shown are the ledger's
            name, _, amount = moved.partition(": ")
            assert int(re.sub(r"\D", "", amount)) == player(self.server, name, seq)["cash"], (op, moved)
        return text


def test_a_phone_in_english_books_through_the_forms_on_a_german_appliance(
        browser: Browser, server: LiveServer) -> None:
    phone = EnglishPhone(english_admin(browser, server.base), server)
    page = phone.page
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator("#book-player")).to_be_visible()
    phone.book("Anna", "credit", {"amount": "200"}, says="Anna")
    phone.book("Anna", "transfer", {"to": "Ben", "amount": "50"}, says="Anna")
    phone.book("Cem", "go", {"exact": "1"}, says="Cem")
    phone.book("Anna", "buy", {"square": "1"}, says="Badstraße")
    phone.book("Anna", "buy", {"square": "3", "price": "30"}, says="Turmstraße")
    phone.book("Ben", "buy", {"square": "12"}, says="Elektrizitätswerk")
    phone.book("Anna", "rent", {"square": "12", "dice": "7"}, says="Elektrizitätswerk")
    phone.book("Anna", "build", {"square": "1"}, says="Badstraße")
    phone.book("Cem", "jail_card", {"delta": "1"}, says="Cem")
    phone.book("Anna", "trade", {"b": "Ben", "a_gives.cash": "100", "b_gives.squares": "12"}, says="Anna")
    phone.book("Anna", "mortgage", {"square": "12"}, says="Elektrizitätswerk")
    phone.book("Anna", "pay_all", {"amount": "10"}, says="Anna")
    assert player(server, "Anna", phone.last)["cash"] == 1500 + 200 - 50 - 60 - 30 - 28 - 50 - 100 + 75 - 20
    assert player(server, "Cem", phone.last)["cash"] == 1500 + 400 + 10

    # A refusal a person can act on, in English.
    form = phone.form("Anna", "credit")
    form.locator("[name=amount]").fill("12,5")
    form.locator("button.submit").click()
    answer = form.locator(".answer")
    expect(answer).to_have_text("Refused: The amount must be a whole number: 12,5")
    phone.read.append(answer.inner_text())

    # Storno asks in English and names the booking; the answer too.
    page.click("#undo")
    expect(page.locator("#undo-ask")).to_be_visible()
    phone.read.append(page.locator("#undo-ask").inner_text())
    undone = booking_number(page, lambda: page.click("#undo-ask [data-confirm]"))
    expect(page.locator("#game .answer")).to_contain_text("Booked: ")
    phone.read.append(page.locator("#game .answer").inner_text())

    assert german_in(phone.read, *NAMES) == [], [t for t in phone.read if german_in([t], *NAMES)]
    # The appliance still speaks German: its log (what the OLED and the other phones read).
    assert "Anna erhält 200 von der Bank" in log(server, undone)
