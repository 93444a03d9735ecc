"""The pages speak from the catalogue, in the appliance's language; the banker chooses it on
/admin (at once, kept across restarts); a phone whose browser asks for another language we have may pin it.

Through Flask's test client against a real daemon; the browser side (two open pages follow the choice without a
reload) is in test_browser_language.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from page_words import GERMAN, TEMPLATES, TemplateText, Text

import words
from daemon_fixture import PIN
from device.daemon.service import Daemon
from rules import Edition
from webui.language import COOKIE, JS_KEYS, STATUS_KEYS

ROOT = Path(__file__).resolve().parent.parent
OWN_TEMPLATES = ("base.html", "status.html", "admin.html", "device.html", "lesen.html", "fehler.html")
APP_JS = ROOT / "webui" / "static" / "app.js"

def login(client: FlaskClient) -> str:
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.get_json()
    token: str = r.get_json()["csrf"]
    return token


def shown(html: str, *names: str) -> tuple[str, dict[str, str]]:
    """The page's readable text without the given names (squares, editions, players), and its script words."""
    parser = Text()
    parser.feed(html)
    text = "\n".join(parser.parts)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    assert parser.words is not None, "no script words on the page"
    return text, parser.words


@pytest.fixture
def english(daemon: Daemon) -> Iterator[FlaskClient]:
    client = daemon.app.test_client()
    csrf = login(client)
    r = client.post("/api/admin/language", json={"language": "en"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.get_json()
    yield client


def edition_names(daemon: Daemon) -> list[str]:
    shelf = daemon.app.test_client().get("/api/board?edition=classic").get_json()
    return [*shelf["all_squares"], shelf["title"], *(e.title for e in _editions(daemon))]


def _editions(daemon: Daemon) -> list[Edition]:
    from device.store.editions import Shelf

    return list(Shelf(daemon.state_dir, daemon.ledger).all().values())


def test_every_page_of_ours_has_no_german_word_in_english(daemon: Daemon, english: FlaskClient) -> None:
    names = [*edition_names(daemon), "Anna", "Ben", "Cem", "Dana", "Emil", "Fine", "Bankleser"]
    for path in ("/", "/admin", "/device"):
        r = english.get(path)
        assert r.status_code == 200, path
        html = r.get_data(as_text=True)
        assert '<html lang="en">' in html, path
        text, script = shown(html, *names)
        assert not GERMAN.findall(text), (path, GERMAN.findall(text))
        said = "\n".join(v for k, v in script.items() if k.startswith("pages."))
        assert not GERMAN.findall(said), (path, GERMAN.findall(said))


def test_the_pages_speak_german_by_default_byte_for_byte_as_before(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    html = client.get("/admin").get_data(as_text=True)
    assert '<html lang="de">' in html
    for said in ("<h1>Bankhalter</h1>", "<button>Anmelden</button>", "<legend>Hausregeln</legend>",
                 '<a href="/admin/verdrahtung.svg">Verdrahtung dieses Geräts</a> (aus seiner Konfiguration)',
                 '<option value="timed">Spiel auf Zeit</option>', "doppeltes Gehalt auf LOS"):
        assert said in html, said
    device = client.get("/device").get_data(as_text=True)
    for said in ('data-key="hold:C">C halten</button>', 'data-key="HABEN">Haben</button>',
                 'aria-label="Knopf links"', '<span id="tone" class="tone" aria-live="polite">Ton: –</span>'):
        assert said in device, said


def test_the_banker_chooses_the_language_at_once_and_it_is_kept(daemon: Daemon, english: FlaskClient) -> None:
    state = english.get("/api/state").get_json()
    assert state["language"] == "en"  # open pages learn it from the live state
    assert words.appliance_language() == "en"  # the OLED's
    assert daemon.journal is not None and daemon.journal.setting("language") == "en"  # across restarts
    assert "Standings" in english.get("/").get_data(as_text=True)


def test_only_the_banker_chooses_the_language(daemon: Daemon) -> None:
    phone = daemon.app.test_client()
    assert phone.post("/api/admin/language", json={"language": "en"}).status_code == 401
    banker = daemon.app.test_client()
    login(banker)
    assert banker.post("/api/admin/language", json={"language": "en"}).status_code == 403  # no CSRF token
    assert words.appliance_language() == "de"


def test_a_language_without_a_catalogue_is_refused_in_words(daemon: Daemon) -> None:
    banker = daemon.app.test_client()
    csrf = login(banker)
    r = banker.post("/api/admin/language", json={"language": "xx"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422
    assert r.get_json() == {"ok": False, "code": "bad_language", "message": "Keine Sprache dieses Geräts: xx"}


def test_a_phone_asking_for_english_is_offered_it_and_keeps_it(daemon: Daemon) -> None:
    phone = daemon.app.test_client()
    html = phone.get("/", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)  # a region: its language
    assert '<html lang="en" data-pinned>' in html and "Standings" in html  # English from the first load
    back = re.search(r'<a class="lang" href="([^"]+)" lang="de" hreflang="de">Diese Seite auf Deutsch lesen</a>', html)
    assert back, html  # and the way back to the appliance's language, in it
    assert phone.get("/api/state", headers={"Accept-Language": "en-GB"}).status_code == 200
    r = phone.get(back.group(1).replace("&amp;", "&"), headers={"Accept-Language": "en-GB"})
    assert r.status_code == 303 and r.headers["Location"] == "/"
    html = phone.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="de">' in html and 'class="lang"' not in html  # the box's German chosen: it follows the box
    phone.set_cookie(COOKIE, "en")
    html = phone.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en" data-pinned>' in html and "Diese Seite auf Deutsch lesen" in html
    assert words.appliance_language() == "de"  # the OLED and every other phone: unchanged
    other = daemon.app.test_client().get("/").get_data(as_text=True)
    assert '<html lang="de">' in other and 'class="lang"' not in other


def test_an_api_refusal_speaks_the_phones_language(daemon: Daemon) -> None:
    phone = daemon.app.test_client()
    assert phone.post("/api/commands", json={}).get_json()["message"] == "Nur der Bankhalter: erst anmelden"
    phone.set_cookie(COOKIE, "en")
    assert phone.post("/api/commands", json={}).get_json()["message"] == "Only the banker: log in first"


def test_the_switch_never_leads_off_the_appliance(daemon: Daemon) -> None:
    phone = daemon.app.test_client()
    for away in ("https://example.org/", "//example.org/", "/\\example.org"):
        assert phone.get("/sprache", query_string={"lang": "en", "zurueck": away}).headers["Location"] == "/"


def test_the_script_asks_only_for_words_the_page_gives_it() -> None:
    asked = set(re.findall(r"""\bt\(\s*["']([\w.#]+)["']""", APP_JS.read_text(encoding="utf-8")))
    assert asked, "the script asks for no words"
    given = set(JS_KEYS) | set(STATUS_KEYS)
    assert asked <= given, asked - given
    by_code = ("pages.js.tone.", "pages.mode.", "pages.house_rule.")  # t(`pages.mode.${s.mode}`): one per code
    assert given - {"list.separator", "list.last", "number.decimal"} <= asked | {
        k for k in given if k.startswith(by_code)}, "JS_KEYS names words the script never shows"


def test_no_german_literal_is_left_in_the_script() -> None:
    source = APP_JS.read_text(encoding="utf-8")
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`', re.sub(r"^\s*//.*$|\s//\s.*$", "", source,
                                                                                 flags=re.M))
    texts = [a or b for a, b in literals]
    german = [t for t in texts if GERMAN.search(re.sub(r"\$\{[^}]*\}", "", t))]
    assert not german, german


@pytest.mark.parametrize("name", OWN_TEMPLATES)
def test_no_text_a_person_reads_is_left_in_the_template(name: str) -> None:
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    bare = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S)
    parser = TemplateText()
    parser.feed(bare)
    left = [t.strip(" –\n") for t in parser.found if re.search(r"[A-Za-zÄÖÜäöüß]{2,}", t)]
    allowed = {"Bankleser", "UID", "OLED", "Anna: 1, 3, 39", "04a1b2c3"}  # the product, a program's, examples
    assert [t for t in left if t not in allowed] == []


def test_the_template_scan_finds_a_german_word(tmp_path: Path) -> None:
    parser = TemplateText()
    parser.feed(re.sub(r"\{\{.*?\}\}", " ", '<p title="Hallo">{{ _("pages.x") }} Spielende</p>'))
    assert [t.strip() for t in parser.found] == ["Hallo", "Spielende"]


def test_the_admin_offers_every_kind_of_game_and_house_rule_the_rules_take_in_every_language() -> None:
    from rules import GROUP_NAMES, Mode
    from rules.game import HOUSE_RULE_NAMES
    from webui.pages import GROUP_WORDS, HOUSE_RULE_WORDS, MODE_WORDS

    assert set(MODE_WORDS) == set(Mode) and set(HOUSE_RULE_WORDS) == set(HOUSE_RULE_NAMES)
    assert list(GROUP_WORDS) == list(GROUP_NAMES)
    # German as the rules' own names said them before
    assert [words.text(HOUSE_RULE_WORDS[k]) for k in HOUSE_RULE_NAMES] == [words.say(n) for n in HOUSE_RULE_NAMES.values()]
    assert [words.text(GROUP_WORDS[k]) for k in GROUP_NAMES] == [words.say(n) for n in GROUP_NAMES.values()]


@pytest.mark.parametrize(("code", "seconds", "said"), [
    ("de", 1, "Zu viele falsche PINs: in 1 Sekunde wieder versuchen"),
    ("de", 42, "Zu viele falsche PINs: in 42 Sekunden wieder versuchen"),
    ("de", 60, "Zu viele falsche PINs: in 1 Minute wieder versuchen"),
    ("de", 299, "Zu viele falsche PINs: in 5 Minuten wieder versuchen"),
    ("en", 1, "Too many wrong PINs: try again in 1 second"),
    ("en", 299, "Too many wrong PINs: try again in 5 minutes"),
])
def test_the_pause_after_wrong_pins_is_said_with_its_length_in_the_language(code: str, seconds: float,
                                                                             said: str) -> None:
    from webui.auth import try_again_in

    with words.speaking(code):
        assert try_again_in(seconds) == said


def test_the_page_that_waits_for_the_games_speaks_english_too(daemon: Daemon) -> None:
    from flask import render_template

    with words.speaking("en"), daemon.app.test_request_context("/spiele"):
        html = render_template("lesen.html", first=1, last=9)
    text, _ = shown(html, "Bankleser")
    assert "entries 1 to 9" in text and not GERMAN.findall(text), GERMAN.findall(text)
    with daemon.app.test_request_context("/spiele"):
        html = render_template("lesen.html", first=None, last=None)
    assert "Die früheren Spiele werden nach dem Start einmal aus dem Journal gelesen. Die Seite lädt sich" in html


@pytest.mark.parametrize(("cookie", "asks", "reads", "offered"), [
    ("", "de-DE,de;q=0.9", "de", None),  # German phone, German appliance: nothing to offer
    ("", "en-US,en;q=0.9", "en", "de"),  # the browser asks for English: read in it, the way back offered
    ("", "fr-FR,fr;q=0.9", "de", None),  # a language we have no catalogue for: the appliance's
    ("", "fr-FR,en;q=0.5", "en", "de"),  # the best we have of what it asks
    ("en", "en-US", "en", "de"),         # pinned English: the way back to the appliance's German
    ("de", "en-US", "de", None),         # German: the appliance's, whatever the browser asks
    ("xx", "en", "de", None),            # a cookie naming no language of ours: the appliance's, as it asked once
    ("box", "en", "de", None),           # a phone that follows the appliance: its browser was asked once
])
def test_a_page_reads_in_the_browsers_language_and_offers_the_way_back(cookie: str, asks: str, reads: str,
                                                                        offered: str | None) -> None:
    from webui.language import offer, page_language

    assert words.appliance_language() == "de"
    cookies = {"bank_lang": cookie} if cookie else {}
    assert page_language(cookies, asks) == reads and offer(cookies, asks) == offered


def test_the_chart_is_drawn_in_the_language_of_the_page_that_asks(daemon: Daemon) -> None:
    """The chart is cached per version and language: an English phone never gets the chart a German phone asked
    for first."""
    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie(COOKIE, "en")
    assert "Noch keine Buchungen" in german.get("/api/chart.svg").get_data(as_text=True)
    with words.speaking("en"):
        said = words.text("reports.chart.empty")
    assert said in english.get("/api/chart.svg").get_data(as_text=True)


def test_a_body_too_large_is_refused_in_the_asking_pages_language() -> None:
    """The front refuses it before Flask sees it, so it reads the phone's cookie itself."""
    from webui.server import Front

    german = json.loads(Front._too_large({"headers": [(b"host", b"x")]}))
    english = json.loads(Front._too_large({"headers": [(b"cookie", f"{COOKIE}=en".encode())]}))
    assert german == {"ok": False, "code": "too_large", "message": "Anfrage zu groß"}
    assert english == {"ok": False, "code": "too_large", "message": "Request too large"}


def test_the_bankers_choice_holds_across_a_restart_of_the_service(tmp_path: Path) -> None:
    from bench.liveserver import LiveServer

    server = LiveServer(tmp_path / "state").start()
    try:
        server.login()
        assert server.post("/api/admin/language", {"language": "en"}) == (200, {"ok": True, "language": "en"})
    finally:
        assert server.stop() == 0
    again = LiveServer(tmp_path / "state").start()
    try:
        assert again.get("/api/state")["language"] == "en"
        with again.opener.open(again.base + "/", timeout=10) as r:
            assert '<html lang="en">' in r.read().decode()
    finally:
        again.stop()


def test_a_phone_reading_its_own_language_gets_the_log_in_it(daemon: Daemon) -> None:
    """The state is said in each language; a phone that pinned another than the appliance's reads its own."""
    banker = daemon.app.test_client()
    csrf = login(banker)
    for cmd in ({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]},
                {"op": "credit", "player": "Anna", "amount": 200}, {"op": "undo"}):
        assert banker.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf}).status_code == 200, cmd
    phone = daemon.app.test_client()
    phone.set_cookie(COOKIE, "en")
    german, own = banker.get("/api/state").get_json(), phone.get("/api/state").get_json()
    assert [e["seq"] for e in own["log"]] == [e["seq"] for e in german["log"]]
    assert german["log"][0]["text"].startswith("Storno") and own["log"][0]["text"].startswith("Undone")
    assert own["language"] == german["language"] == "de"  # the appliance's: what a following page reloads in


def test_a_journal_that_cannot_keep_the_choice_is_said_and_the_language_holds_until_the_next_start(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    from device.store.journal import JournalError

    def full(key: str, value: str) -> None:
        raise JournalError("service.journal.full", "journal.sqlite3: disk full", recoverable=True)

    assert daemon.journal is not None
    monkeypatch.setattr(daemon.journal, "set_setting", full)
    banker = daemon.app.test_client()
    csrf = login(banker)
    r = banker.post("/api/admin/language", json={"language": "en"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 503 and r.get_json()["code"] == "storage_error"
    assert words.appliance_language() == "en"  # in force all the same, until the next start


def test_a_refused_page_speaks_the_pages_language_not_werkzeugs_english(daemon: Daemon) -> None:
    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie(COOKIE, "en")
    gone = german.get("/gibt-es-nicht")
    assert gone.status_code == 404
    html = gone.get_data(as_text=True)
    assert "<h1>Fehler 404</h1>" in html and "Diese Seite gibt es hier nicht." in html and "Not Found" not in html
    html = english.get("/gibt-es-nicht").get_data(as_text=True)
    assert '<html lang="en" data-pinned>' in html and "There is no such page here." in html
    text, _ = shown(html, "Bankleser", "Diese Seite auf Deutsch lesen")  # the way back, said in German
    assert not GERMAN.findall(text)
    wrong = german.post("/admin", data="x")  # a method the page has not: the catalogue's words, with its code
    assert wrong.status_code == 405 and "Das geht hier nicht (HTTP 405)." in wrong.get_data(as_text=True)


def test_an_api_refusal_by_the_web_framework_speaks_the_pages_language(daemon: Daemon) -> None:
    """A method the API has not (GET on the commands) is refused in the catalogue's words, not werkzeug's English
    "The method is not allowed for the requested URL."."""
    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie(COOKIE, "en")
    wrong = german.get("/api/commands")
    assert wrong.status_code == 405 and wrong.get_json()["code"] == "http"
    assert wrong.get_json()["message"] == "Das geht hier nicht (HTTP 405)."
    assert "not allowed" not in english.get("/api/commands").get_json()["message"]


def test_the_oled_speaks_the_bankers_choice_at_once(daemon: Daemon) -> None:
    """The screen is drawn again in the chosen language at once, not in the language of the page that chose it
    (the banker's German page drew the idle screen in German again: 'Bereit' stayed until the next key)."""
    client = daemon.app.test_client()
    csrf = login(client)
    assert "Bereit" in client.get("/api/sim/display").get_json()["text"]
    r = client.post("/api/admin/language", json={"language": "en"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    assert "Ready" in client.get("/api/sim/display").get_json()["text"]
