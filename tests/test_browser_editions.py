"""The family's edition form in a real browser: valid HTML, axe-core, 320 px; the checks appear beside
the field as the banker types, and a corrected form is saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from pagecheck import html_errors
from phone_helpers import PHONE, logged_in_admin, serious_violations
from playwright.sync_api import Browser, Dialog, expect

from bench.liveserver import LiveServer

pytestmark = pytest.mark.live(login=True, editions={"kaputt.toml": 'key = "kiel"\nbase = "atlantis"\n'})


def test_the_edition_pages_pass_the_checks_at_phone_widths(browser: Browser, server: LiveServer) -> None:
    problems: list[str] = []
    drawn: dict[str, str] = {}
    for width in (320, 390):
        context = browser.new_context(**(PHONE | {"viewport": {"width": width, "height": 800}}))
        page = context.new_page()
        logged_in_admin(page, server.base)
        for name, path in (("ausgaben", "/admin/ausgaben"), ("formular", "/admin/ausgaben/neu?von=skylanders")):
            page.goto(server.base + path)
            drawn[f"{name} @ {width}"] = page.content()
            problems += [f"{name} @ {width}: {v}" for v in serious_violations(page)]
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > width:
                problems.append(f"{name} @ {width}: {wide} px wide")
        context.close()
    problems += html_errors(drawn)
    assert problems == [], "\n".join(problems)


def test_the_check_appears_beside_the_field_and_the_corrected_form_is_saved(browser: Browser,
                                                                            server: LiveServer) -> None:
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben/neu?von=classic")
    page.fill('[data-path="key"]', "dresden")
    page.fill('[data-path="names.39"]', "Zwinger")
    page.fill('[data-path="deeds.39.rents"]', "50, 200, 600, 1400, 1800, 1700")
    expect(page.locator('[data-check="deeds.39"]')).to_contain_text("die Mieten müssen steigen: auf 1800 folgt 1700")
    page.fill('[data-path="deeds.39.rents"]', "50, 200, 600, 1400, 1700, 2000")
    expect(page.locator('[data-check="deeds.39"]')).to_have_text("")
    page.click("#edition-form > button")
    expect(page.locator("#msg")).to_contain_text("Gespeichert: dresden")
    status, _ = server.post("/api/commands", {"op": "new_game", "edition": "dresden", "players": ["Anna", "Ben"]})
    assert status == 200


def test_a_hint_is_drawn_as_a_note_beside_its_field_never_as_a_problem(browser: Browser, server: LiveServer) -> None:
    """The cross-check's "Hinweis" (a rent that looks like a typo) is muted beside its field and in the list, a
    problem is red: a family reads at a glance what stops the save and what does not."""
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben/neu?von=classic")
    page.fill('[data-path="deeds.19.rents"]', "18, 80, 220, 600, 800, 1.000")
    hint = page.locator('[data-check="deeds.19"] span')
    expect(hint).to_have_class("note")
    expect(hint).to_contain_text("Hinweis: Mieten: ")
    expect(page.locator("#form-problems li")).to_have_class("note")
    assert page.locator("#form-problems .problem").count() == 0
    color = hint.evaluate("e => getComputedStyle(e).color")
    page.fill('[data-path="deeds.19.rents"]', "18, 80, 220, 600, 800, 700")
    problem = page.locator('[data-check="deeds.19"] span.problem')
    expect(problem).to_contain_text("die Mieten müssen steigen")
    assert problem.evaluate("e => getComputedStyle(e).color") != color


def test_a_name_longer_than_the_display_asks_for_a_short_name_beside_it(browser: Browser, server: LiveServer) -> None:
    """The OLED shows 21 characters a line: a longer name needs a short name, typed beside it; an empty short name is
    not given (the name is shown), and the edition saved shows the short name on the OLED."""
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben/neu?von=classic")
    page.fill('[data-path="key"]', "hamburg")
    page.fill('[data-path="names.39"]', "Jungfernstieg an der Alster")
    expect(page.locator('[data-check="names.39"]')).to_contain_text(
        "Name: dieser Name hat 27 Zeichen, die Anzeige zeigt höchstens 21: darunter einen kürzeren Namen für die Anzeige")
    page.fill('[data-path="short.39"]', "Jungfernstieg")
    expect(page.locator('[data-check="names.39"]')).to_have_text("")
    expect(page.locator("#form-problems")).to_have_text("")
    page.click("#edition-form > button")
    expect(page.locator("#msg")).to_contain_text("Gespeichert: hamburg")
    status, _ = server.post("/api/commands", {"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]})
    assert status == 200
    saved = (server.state_dir / "editions" / "hamburg.toml").read_text(encoding="utf-8")
    assert '39 = "Jungfernstieg"' in saved and '1 = ""' not in saved


def test_the_virtual_devices_deed_buttons_follow_a_new_games_edition_without_a_reload(
        browser: Browser, server: LiveServer) -> None:
    """"the virtual device's deed buttons (today they keep the edition loaded with the page until a
    reload)"."""
    server.post("/api/commands", {"op": "new_game", "edition": "classic", "players": ["Anna", "Ben"]})
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.base + "/device")
    button = page.locator('button.deed[data-square="5"]')
    expect(button).to_have_text("5 Südbahnhof")
    status, _ = server.post("/api/commands", {"op": "new_game", "edition": "skylanders", "players": ["Anna", "Ben"],
                                              "replace": True})
    assert status == 200
    expect(button).to_have_text("5 Flynns Ballon-Touren", timeout=10_000)


def test_a_phone_reading_english_sees_the_checks_and_the_answers_in_english(browser: Browser,
                                                                             server: LiveServer) -> None:
    """The same form on a phone that reads English (its own pinned language): the labels, the check beside
    the field as the banker types, the save's answer and the broken file's problem, all English."""
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "bank_lang", "value": "en", "url": server.base}])
    page = context.new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben")
    expect(page.locator("main")).to_contain_text("Files that cannot be played as they are")
    expect(page.locator("main")).to_contain_text("line 2, base: unknown edition 'atlantis' (known: ")
    page.goto(server.base + "/admin/ausgaben/neu?von=classic-uk")
    expect(page.locator("h2")).to_have_text("Family edition")
    page.fill('[data-path="key"]', "leeds")
    page.fill('[data-path="names.39"]', "Briggate")
    page.fill('[data-path="deeds.39.rents"]', "50, 200, 600, 1400, 1800, 1700")
    expect(page.locator('[data-check="deeds.39"]')).to_have_text("Rents: the rents must rise: 1800 is followed by 1700")
    expect(page.locator("#form-problems")).to_have_text(  # the square and the field, as the form labels them
        "Square 39 (Briggate), Rents: the rents must rise: 1800 is followed by 1700")
    page.fill('[data-path="deeds.39.rents"]', "50, 200, 600, 1400, 1700, 2000")
    expect(page.locator('[data-check="deeds.39"]')).to_have_text("")
    page.click("#edition-form > button")
    expect(page.locator("#msg")).to_have_text("Saved: leeds – available from the next new game")
    context.close()


def test_an_upload_sends_the_files_bytes_asks_before_it_replaces_and_a_deletion_is_kept(
        browser: Browser, server: LiveServer, tmp_path: Path) -> None:
    """A file an older editor saved in Latin-1 keeps its umlauts (the page sends its bytes, not the browser's UTF-8
    reading of them); the same key again asks "… gibt es schon: ersetzen?" (Cancel replaces nothing); "Löschen" keeps
    the file under "Frühere Fassungen", and "Zurückholen" brings it back."""
    text = 'key = "muenchen"\ntitle = "MONOPOLY München"\nbase = "classic"\n[names]\n1 = "Hanauer Straße"\n'
    latin1 = tmp_path / "muenchen.toml"
    latin1.write_bytes(text.encode("latin-1"))
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben")
    page.set_input_files("#upload-file", str(latin1))
    page.click("#upload button")
    expect(page.locator("#msg")).to_contain_text("Gespeichert: muenchen")
    saved = server.state_dir / "editions" / "muenchen.toml"
    assert saved.read_text(encoding="utf-8") == text
    page.wait_for_timeout(1000)  # the page reloads after a save
    page.goto(server.base + "/admin/ausgaben")
    asked: list[str] = []
    accept = [False]

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if accept[0]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.set_input_files("#upload-file", str(latin1))
    page.click("#upload button")
    expect(page.locator("#msg")).to_contain_text("Gespeichert: muenchen")
    assert asked == []  # the same text again: nothing to ask
    page.wait_for_timeout(1000)
    page.goto(server.base + "/admin/ausgaben")
    latin1.write_bytes(text.replace("Hanauer", "Münchner").encode("latin-1"))
    page.set_input_files("#upload-file", str(latin1))
    page.click("#upload button")
    expect(page.locator("#msg")).to_contain_text("Nicht gespeichert: nichts ersetzt.")
    assert asked and "„MONOPOLY München“ gibt es schon" in asked[0] and "ersetzen?" in asked[0]
    assert saved.read_text(encoding="utf-8") == text
    page.goto(server.base + "/admin/ausgaben")
    accept[0] = True
    page.click('[data-delete="muenchen.toml"]')
    expect(page.locator("#msg")).to_contain_text("Gelöscht: muenchen.toml")
    assert not saved.exists() and "löschen?" in asked[-1]
    page.wait_for_timeout(1000)
    page.goto(server.base + "/admin/ausgaben")
    page.click("[data-restore]")
    expect(page.locator("#msg")).to_contain_text("Zurückgeholt: muenchen.toml")
    assert saved.read_text(encoding="utf-8") == text


def test_an_upload_too_large_for_a_request_says_the_limit(browser: Browser, server: LiveServer,
                                                          tmp_path: Path) -> None:
    """A file over the editions' 40 KB says that limit whatever its size: sent as base64, one over about 48 KB
    would pass the web's 64 KB and be refused as "Anfrage zu groß" before the editions see it, a limit the family
    never heard of; the page measures the file first and sends nothing."""
    big = tmp_path / "gross.toml"
    big.write_bytes(b"# " + b"x" * (60 * 1024) + b"\n")
    page = browser.new_context(**PHONE).new_page()
    logged_in_admin(page, server.base)
    page.goto(server.base + "/admin/ausgaben")
    page.set_input_files("#upload-file", str(big))
    page.click("#upload button")
    expect(page.locator("#upload-problems")).to_contain_text("größer als 40 KB")
    expect(page.locator("#msg")).to_have_text("gross.toml: nicht gespeichert")
