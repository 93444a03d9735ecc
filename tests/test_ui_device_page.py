"""The virtual device (the simulation's /device page) shows the tone and the LED, its deed buttons follow
the running game's edition, and a card learned beyond the six gets a button. In Chromium, as a phone opens it."""

from __future__ import annotations

import pytest
from phone_helpers import BANKING, PHONE
from playwright.sync_api import Browser, Page, expect

from bench.liveserver import LiveServer

pytestmark = pytest.mark.live(game=BANKING, login=True)


def _device(browser: Browser, server: LiveServer) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/device")
    expect(page.locator("#oled-text")).not_to_be_empty()
    return page


def test_14_a_refusals_low_tone_and_the_led_are_shown(browser: Browser, server: LiveServer) -> None:
    """A refusal's low tone could not be perceived on the virtual device; nor the LED (Selbsttest: 2 switches it)."""
    page = _device(browser, server)
    page.click('[data-key="0"]')  # no card: "0: hier nicht", the low tone
    expect(page.locator("#tone")).to_have_text("Ton: tiefer Ton: abgelehnt")
    expect(page.locator("#led")).to_have_attribute("aria-label", "LED aus")
    page.click('[data-key="MENU"]')
    page.click('[data-key="8"]')  # Selbsttest
    expect(page.locator("#oled-text")).to_contain_text("Selbsttest")
    page.click('[data-key="2"]')  # the LED
    expect(page.locator("#led")).to_have_attribute("aria-label", "LED an")
    expect(page.locator("#led")).to_have_class("led on")


def test_14_the_deed_buttons_follow_the_running_games_edition(browser: Browser, server: LiveServer) -> None:
    page = _device(browser, server)
    expect(page.locator('[data-uid="0d00000c"]')).to_have_text("12 Sony-Center")  # Banking's
    server.post("/api/commands", {"op": "new_game", "edition": "skylanders", "mode": "standard",
                                  "players": ["Anna", "Ben"], "replace": True})
    expect(page.locator('[data-uid="0d00000c"]')).to_have_text("12 Lichtkern Elektro")


def test_14_a_card_learned_beyond_the_six_gets_a_button(browser: Browser, server: LiveServer) -> None:
    page = _device(browser, server)
    server.post("/api/sim/tap", {"uid": "04c0ffee"})
    expect(page.locator("#oled-text")).to_contain_text("Unbekannte Karte")
    page.click('[data-key="OK"]')  # Bankkarte anlernen
    expect(page.locator('[data-uid="04c0ffee"]')).to_have_text("7 Spieler 7")
    page.click('[data-uid="04c0ffee"]')
    expect(page.locator("#oled-text")).to_contain_text("spielt nicht mit")
