"""The confirmation is the contract, on the phone: what the banker confirmed is booked exactly once, with exactly
the effect shown, or not at all. The four ways a phone booked what was not meant: a stale preview booked today's
amount; "Noch einmal buchen" booked on every tap; a one-step form redrawn under a double tap booked the new
choice; Back and send again booked twice once anything else was booked meanwhile.

Driven in Debian's headless Chromium at a phone's viewport, against ``bankleser run --sim``.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone_helpers import (
    CLASSIC,
    PHONE,
    admin,
    booking_number,
    log,
    lose_the_first_answer,
    newest,
    open_form,
    player,
    serious_violations,
)
from playwright.sync_api import Browser, Page, expect

from bench.liveserver import LiveServer
from words import text as said

pytestmark = pytest.mark.live(game=CLASSIC, login=True)  # the banker's game of test_banker_phone.py


def credit(page: Page, amount: str) -> Any:
    """The credit form filled with ``amount``, previewed and confirmed: the form, for its answer."""
    form = open_form(page, "credit")
    form.locator("[name=amount]").fill(amount)
    form.locator("button.submit").click()
    form.locator("[data-confirm]").click()
    return form


def test_a_stale_preview_is_shown_anew_and_books_only_when_confirmed_again(
        browser: Browser, server: LiveServer) -> None:
    """Phone 1 shows "Anna zahlt Ben 100 Miete"; phone 2 builds a house there; phone 1 taps "Buchen": nothing is
    booked, the new preview (200) takes the old one's place, and only its own confirmation books it."""
    for sq in (37, 39):
        server.post("/api/commands", {"op": "buy", "player": "Ben", "square": sq})
    page = admin(browser, server.base)
    form = open_form(page, "rent")
    form.locator("select[name=square]").select_option("39")
    form.locator("button.submit").click()
    expect(form.locator(".preview .says")).to_contain_text("100")
    assert server.post("/api/commands", {"op": "build", "player": "Ben", "square": 39})[0] == 200  # phone 2
    before = newest(server)
    form.locator("[data-confirm]").dblclick()
    expect(form.locator(".preview .says")).to_contain_text("Inzwischen geändert")
    expect(form.locator(".preview .says")).to_contain_text("200")
    assert newest(server) == before and player(server, "Anna")["cash"] == 1500
    expect(page.locator(":focus")).to_have_class("says")  # the new preview has the focus, and is announced
    page.wait_for_timeout(800)
    seq = booking_number(page, form.locator("[data-confirm]").click)
    expect(form.locator(".answer")).to_contain_text("Gebucht")
    assert seq == before + 1
    assert player(server, "Anna", seq)["cash"] == 1300 and newest(server, seq) == seq


def test_the_same_again_is_asked_for_and_a_second_tap_books_nothing(
        browser: Browser, server: LiveServer) -> None:
    """"Bereits gebucht" with "Noch einmal buchen": tapped, it booked, and the answer stayed, so every tap booked."""
    page = admin(browser, server.base)
    seq = booking_number(page, lambda: credit(page, "21"))
    form = open_form(page, "credit")
    expect(form.locator(".answer")).to_contain_text("Gebucht")
    page.wait_for_timeout(800)
    form = credit(page, "21")
    answer = form.locator(".answer")
    expect(answer).to_contain_text("bereits gebucht")
    assert player(server, "Anna", seq)["cash"] == 1521
    answer.locator("[data-again]").click()
    expect(answer).to_contain_text("noch einmal")
    page.wait_for_timeout(800)
    seq = booking_number(page, answer.locator("[data-again-yes]").dblclick)
    expect(answer).to_contain_text("Gebucht")
    for _ in range(3):
        if answer.locator("button").count():
            answer.locator("button").first.click()
    assert player(server, "Anna", seq)["cash"] == 1542 and newest(server, seq) == seq


def test_a_double_tap_on_a_one_step_form_books_one_card(browser: Browser, server: LiveServer) -> None:
    """"Gefängnis: Frei-Karte" books at once; a second tap 300 ms later landed on the form redrawn with
    "eingesetzt" as its only choice: a card drawn and used, two false entries."""
    server.post("/api/commands", {"op": "jail_card", "player": "Ben", "delta": 1})  # one card left in the box
    page = admin(browser, server.base)
    form = open_form(page, "jail_card")
    expect(form.locator("select[name=delta] option")).to_have_count(1)
    before = newest(server)
    seq = booking_number(page, form.locator("button.submit").click)
    page.wait_for_timeout(300)
    page.locator('details.booking[data-op="jail_card"] button.submit').click()
    page.wait_for_timeout(1500)  # the time a wrong second booking would take to land: it must not come
    assert seq == before + 1 and newest(server, seq) == seq, log(server, seq)[:3]
    assert player(server, "Anna", seq)["jail_cards"] == 1


def test_back_and_send_again_books_once_however_much_was_booked_meanwhile(
        browser: Browser, server: LiveServer) -> None:
    """docs/playing.md promises "bereits gebucht" for Back and send again; the id was kept only while nothing else
    was booked: a booking from another phone in between, and the same form booked twice."""
    page = admin(browser, server.base)
    seq = booking_number(page, lambda: credit(page, "300"))
    form = open_form(page, "credit")
    expect(form.locator(".answer")).to_contain_text("Gebucht")
    for amount in (10, 20):  # another phone, the device
        assert server.post("/api/commands", {"op": "debit", "player": "Ben", "amount": amount})[0] == 200
    seq += 2
    page.wait_for_timeout(500)
    page.goto(server.base + "/")
    page.go_back()
    expect(page.locator("#admin")).to_be_visible()
    form = credit(page, "300")
    expect(form.locator(".answer")).to_contain_text("bereits gebucht")
    assert player(server, "Anna", seq)["cash"] == 1800 and newest(server, seq) == seq


def test_a_reload_after_a_lost_answer_sends_the_forms_id_again(browser: Browser, server: LiveServer) -> None:
    """The form's id is kept in the tab: the answer lost, the banker reloads the page and books the same again
    from the same form; the appliance had booked it, and answers "bereits gebucht"."""
    page = admin(browser, server.base)
    lose_the_first_answer(page)
    form = credit(page, "120")
    expect(form.locator(".answer")).to_contain_text("Keine Antwort")
    page.reload()
    expect(page.locator("#admin")).to_be_visible()
    form = credit(page, "120")
    expect(form.locator(".answer")).to_contain_text("bereits gebucht")
    assert player(server, "Anna")["cash"] == 1620
    page.context.close()  # with the connection route.fetch() kept open: the server's stop does not wait for it


def test_a_booking_elsewhere_never_redraws_a_form_under_a_focused_field(
        browser: Browser, server: LiveServer) -> None:
    """A field the banker is in (nothing typed yet) stays as it is when another phone books: the redraw waits."""
    page = admin(browser, server.base)
    form = open_form(page, "buy")
    square = form.locator('select[name="square"]')
    expect(square.locator("option").first).to_have_text("Badstraße")
    square.focus()
    page.evaluate("() => { window.__field = document.activeElement; }")
    before = newest(server)
    assert server.post("/api/commands", {"op": "buy", "player": "Ben", "square": 1})[0] == 200  # phone 2
    page.wait_for_timeout(1500)  # the live state has come, and the quiet time passed
    assert newest(server) == before + 1
    assert page.evaluate("() => window.__field.isConnected && document.activeElement === window.__field")


def test_bankrott_to_a_player_lifts_the_mortgaged_deeds_chosen_on_the_phone(
        browser: Browser, server: LiveServer) -> None:
    """The phone's Bankrott form could not lift mortgaged deeds at once, as the device can (the 10 % paid once,
    not the 10 % now and the lifting later): the choice shows for a player creditor only, and books."""
    for cmd in ({"op": "buy", "player": "Anna", "square": 1}, {"op": "mortgage", "player": "Anna", "square": 1},
                {"op": "debit", "player": "Anna", "amount": 1460}):
        assert server.post("/api/commands", cmd)[0] == 200
    page = admin(browser, server.base)
    form = open_form(page, "bankrupt")
    lift = form.locator('input[name="lift"][value="1"]')
    form.locator('select[name="creditor"]').select_option("")  # the bank: nothing to lift
    expect(lift).to_be_hidden()
    form.locator('select[name="creditor"]').select_option("Ben")
    expect(lift).to_be_visible()
    lift.check()
    form.locator('[name="owed"]').fill("500")
    form.locator("button.submit").click()
    form.locator("[data-confirm]").click()
    expect(form.locator(".answer")).to_contain_text("Gebucht")
    ben = player(server, "Ben")
    assert ben["cash"] == 1500 + 10 - 33  # Anna's 10, less the Badstraße's mortgage of 30 and its 10 %
    assert ben["properties"] == [{"square": 1, "houses": 0, "hotel": False, "mortgaged": False}]
    assert player(server, "Anna")["bankrupt"]


# -- read and tapped by a person -----------------------------------------------------------------


def test_while_the_answer_is_awaited_the_form_is_busy_and_says_so(browser: Browser, server: LiveServer) -> None:
    """Nothing said "sending": with a slow network a tap seemed not taken, and was tapped again."""
    page = admin(browser, server.base)

    def slow(route: Any) -> None:
        page.wait_for_timeout(1500)
        route.continue_()

    page.route("**/api/banker/book", slow)
    form = open_form(page, "credit")
    form.locator("[name=amount]").fill("30")
    form.locator("button.submit").click()
    confirm = form.locator("[data-confirm]")
    confirm.click()
    answer = form.locator(".answer")
    expect(answer).to_contain_text(said("pages.js.sending"))
    expect(answer).to_have_attribute("aria-busy", "true")
    expect(confirm).to_be_disabled()
    expect(confirm).to_have_attribute("aria-busy", "true")
    expect(answer).to_contain_text("Gebucht", timeout=10000)
    expect(answer).not_to_have_attribute("aria-busy", "true")
    assert player(server, "Anna")["cash"] == 1530


def test_weiter_moves_the_focus_to_the_preview_and_it_is_announced(browser: Browser, server: LiveServer) -> None:
    """The focus fell to <body> after "Weiter", and the preview was not read out."""
    page = admin(browser, server.base)
    form = open_form(page, "credit")
    form.locator("[name=amount]").fill("40")
    form.locator("button.submit").click()
    says = form.locator(".preview .says")
    expect(says).to_contain_text("40")
    expect(says).to_be_focused()
    assert form.locator(".preview").get_attribute("aria-live") == "polite"


def test_the_focus_returns_to_storno_once_its_question_is_answered(browser: Browser, server: LiveServer) -> None:
    """The question's buttons were hidden under the thumb that tapped them, and the focus fell to <body>: a screen
    reader lost its place, and the next swipe started at the top of the page."""
    for amount in (80, 90):
        server.post("/api/commands", {"op": "credit", "player": "Anna", "amount": amount})
    page = admin(browser, server.base)
    page.click("#undo")
    page.click("#undo-ask [data-cancel]")
    expect(page.locator("#undo")).to_be_focused()
    page.click("#undo")
    page.click("#undo-ask [data-confirm]")
    expect(page.locator("#game .answer")).to_contain_text("Storno")
    expect(page.locator("#undo")).to_be_focused()


def test_the_status_page_with_a_bankrupt_player_and_every_chip_passes_the_contrast_check(
        browser: Browser, server: LiveServer) -> None:
    """axe-core found a bankrupt player's name at 3.63:1 and its line at 2.15:1, mortgaged and utility chips at
    3.86:1: the check now runs with a bankrupt player, mortgaged deeds and every kind of chip."""
    server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                  "players": ["Anna", "Ben", "Cem"], "replace": True})
    for cmd in ({"op": "buy", "player": "Anna", "square": sq} for sq in (1, 3, 5, 12, 28, 37)):
        assert server.post("/api/commands", cmd)[0] == 200
    for sq in (3, 12):
        assert server.post("/api/commands", {"op": "mortgage", "player": "Anna", "square": sq})[0] == 200
    assert server.post("/api/commands", {"op": "debit", "player": "Ben", "amount": 1500})[0] == 200
    assert server.post("/api/commands", {"op": "bankrupt", "player": "Ben", "owed": 100})[0] == 200
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/")
    expect(page.locator('[data-player="Anna"] .deed').first).to_be_visible()
    expect(page.locator('[data-player="Ben"]')).to_be_visible()
    assert serious_violations(page) == []


@pytest.mark.parametrize("path", ["/", "/admin"])
def test_every_link_and_control_a_thumb_hits_is_44_px(browser: Browser, server: LiveServer, path: str) -> None:
    """The nav links were 19–22 px high (a link inside a sentence aside: it is read, not aimed at)."""
    page = admin(browser, server.base) if path == "/admin" else browser.new_context(**PHONE).new_page()
    if path == "/":
        page.goto(server.base + "/")
    small = page.evaluate("""() => [...document.querySelectorAll('nav a, main a, button, select, summary')]
        .filter((e) => e.offsetParent !== null && !(e.matches('main a') && e.parentElement.textContent.trim() !== e.textContent.trim()))
        .map((e) => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == []


def test_after_the_storno_of_a_new_game_the_balances_are_in_the_restored_games_money(
        browser: Browser, server: LiveServer) -> None:
    """"Cem: 280 Dollar" in classic: the answer wrote the restored game's balances in the replaced game's currency."""
    server.post("/api/commands", {"op": "credit", "player": "Anna", "amount": 80})
    page = admin(browser, server.base)
    server.post("/api/commands", {"op": "new_game", "edition": "schalke", "mode": "standard",
                                  "players": ["Anna", "Ben"], "replace": True})
    expect(page.locator('#forms select[name="player"] option[value="Anna"]').first).to_be_attached()
    page.wait_for_timeout(1000)  # the page follows the new game (its board, its money)
    page.click("#undo")
    expect(page.locator("#undo-ask")).to_be_visible()
    page.click("#undo-ask [data-confirm]")
    answer = page.locator("#game .answer")
    expect(answer).to_contain_text("Storno")
    assert "Dollar" not in answer.inner_text()
    assert server.get("/api/state")["edition"] == "classic"


def test_the_timed_games_forms_only_in_a_timed_game_and_the_storno_question_takes_the_focus(
        browser: Browser, server: LiveServer) -> None:
    """"Spiel auf Zeit beenden" and "Minuten" appeared in a standard game; the focus fell to <body> after
    "Storno …", and the question was not announced."""
    server.post("/api/commands", {"op": "credit", "player": "Anna", "amount": 80})
    page = admin(browser, server.base)
    expect(page.locator("#end")).to_be_hidden()
    expect(page.locator("#minutes")).to_be_hidden()
    page.select_option("#mode", "timed")
    expect(page.locator("#minutes")).to_be_visible()
    page.click("#undo")
    expect(page.locator("#undo-ask p")).to_be_focused()
    assert page.locator("#undo-ask p").get_attribute("aria-live") == "polite"
    server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "timed", "minutes": 30,
                                  "players": ["Anna", "Ben"], "replace": True})
    expect(page.locator("#end")).to_be_visible()


def test_a_player_switch_holds_the_forms_until_the_new_players_arrive(
        browser: Browser, server: LiveServer) -> None:
    """With a slow network, switching the player left the old player's forms under the new name (a tap booked for
    the old player), and the previous player's answer stayed under the next player's form."""
    page = admin(browser, server.base)
    form = credit(page, "10")
    expect(form.locator(".answer")).to_contain_text("Gebucht: Anna")
    page.wait_for_timeout(800)

    def slow(route: Any) -> None:
        page.wait_for_timeout(1500)
        route.continue_()

    page.route("**/api/banker/legal*", slow)
    page.select_option("#book-player", "Ben")
    assert page.evaluate("() => document.querySelector('#forms').inert") is True
    assert page.locator("#forms").get_attribute("aria-busy") == "true"
    expect(page.locator('#forms form[data-op="credit"] select[name="player"] option[value="Ben"]')).to_be_attached(
        timeout=10000)
    assert page.evaluate("() => document.querySelector('#forms').inert") is False
    expect(page.locator('details.booking[data-op="credit"] .answer')).not_to_contain_text("Anna")


def test_a_player_switch_keeps_what_was_typed_or_says_it_was_dropped(
        browser: Browser, server: LiveServer) -> None:
    """A player switch dropped what was typed in the previous player's forms without a word. What fits the new
    player's same form stays (an amount: the banker picked the wrong player first); what does not (a deed of the
    previous player's own in a trade) is dropped, and the page says so."""
    server.post("/api/commands", {"op": "buy", "player": "Anna", "square": 1})
    page = admin(browser, server.base)
    trade = open_form(page, "trade")
    trade.locator('input[name="a_gives.squares"][value="1"]').check()
    credit = open_form(page, "credit")
    credit.locator("[name=amount]").fill("120")
    page.wait_for_timeout(800)
    page.select_option("#book-player", "Ben")
    expect(page.locator('#forms form[data-op="credit"] select[name="player"] option[value="Ben"]')).to_be_attached(
        timeout=10000)
    expect(page.locator('#forms form[data-op="credit"] [name=amount]')).to_have_value("120")
    expect(page.locator("#book-msg")).to_contain_text("verworfen")
    assert page.locator('#forms form[data-op="trade"] input[name="a_gives.squares"]:checked').count() == 0
    page.select_option("#book-player", "Anna")  # nothing typed was dropped this time: nothing said
    expect(page.locator('#forms form[data-op="credit"] select[name="player"] option[value="Anna"]')).to_be_attached(
        timeout=10000)
    expect(page.locator('#forms form[data-op="credit"] [name=amount]')).to_have_value("120")
    expect(page.locator("#book-msg")).not_to_contain_text("verworfen")
    page.context.close()
