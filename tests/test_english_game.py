"""Done means: "English complete on the OLED, the pages, the reports, the CSV, the doctor, the API
and the printables, checked by a test that plays a whole game in English and finds no German word but the
edition's own names".

A whole daemon (simulated parts, a real journal) started with ``language = "en"``, the classic UK board (whose
names are English, so every German word found is ours): every kind of booking through the banker's API, some
refused, a Storno, the end; after each step the OLED's frame, the API's answer, and at the end every page, the
report, the CSV, the Bestenliste, the doctor and the printables are read, as a person would read them."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from daemon_fixture import PIN, running
from device.daemon.config import Config, UiConfig
from device.daemon.service import Daemon
from rules import EDITIONS

ROOT = Path(__file__).resolve().parent.parent

GERMAN = re.compile(
    r"[äöüÄÖÜß]|\b(und|oder|nicht|kein|keine|keinen|ist|hat|haben|wird|zahlt|erhält|bekommt|nimmt|baut|kauft|"
    r"verkauft|tauscht|Spieler|Spiel|Spiele|Spielende|Feld|Felder|Betrag|Karte|Karten|Gebucht|Abgelehnt|Haben|Soll|"
    r"Überweisung|Miete|Kaufen|Versteigerung|Gebot|Bauen|Verkaufen|Hypothek|Tausch|Steuer|Gefängnis|Bankrott|"
    r"Ereigniskarte|Gemeinschaftskarte|Neues|neues|Ende|Zeit|Minute|Minuten|Sekunden|Stunde|Stunden|Gewinner|"
    r"gewinnt|Bestenliste|Seite|Verlauf|Einstellungen|Sprache|Zurück|zurück|Weiter|Abbrechen|Bestätigen|Storno|"
    r"Buchung|Buchungen|Vermögen|Häuser|Straße|Bahnhof|mit|für|von|auf|bei|auch|noch|nur|schon|wieder|bitte|"
    r"Fehler|gestellt|unbekannt|Uhr|Datum|Topf|Frei Parken|jeder|jedem|alle|Mitspieler|Grundstück|Grundstücke|"
    r"Gruppe|Besitzer|gehört|Geld|genug|Stand|läuft|Anmelden|Abmelden|Drucken|Speichern|Schnellspiel|"
    r"Standardspiel|Ausgabe|Ausgaben|Hausregeln|Hausregel|Bank erhält|Startgeld|Gehalt|LOS)\b")
"""Words and letters that are German and not English (LOS is the key's name in the API only, never a text)."""


class Visible(HTMLParser):
    """What a person reads on a page: its text, its titles, labels, placeholders, values of buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("style",) or (tag == "script" and found.get("type") != "application/json"):
            self._skip += 1
        for name in ("title", "aria-label", "placeholder", "alt"):
            if found.get(name):
                self.parts.append(str(found[name]))
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.parts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.parts


def editions_own_words() -> list[str]:
    """Every name an edition brings (its board's names, title, money, building words, groups, quick game):
    the edition's own words, which stay as the box prints them in every language. Longest first, so that
    "Gefängnis / nur zu Besuch" goes before "Gefängnis"."""
    own: set[str] = set()
    for ed in EDITIONS.values():
        own.update(ed.names)
        own.update((ed.title, ed.currency, ed.stations, ed.utilities, ed.quick.name, *ed.house_word[:2],
                    *ed.hotel_word[:2]))
    return sorted((w for w in own if w), key=len, reverse=True)


def german_in(where: str, texts: list[str], own: list[str] | None = None) -> list[tuple[str, str]]:
    own = editions_own_words() if own is None else own
    found = []
    for t in texts:
        bare = t
        for word in own:
            bare = bare.replace(word, "")
        if GERMAN.search(bare):
            found.append((where, t))
    return found


@pytest.fixture
def appliance(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Daemon]:
    with running(Config(banker_pin=PIN, ui=UiConfig(language=request.param)), tmp_path / "state") as d:
        yield d


class Table:
    """The banker's phone and the device's screen, read after every step."""

    def __init__(self, daemon: Daemon) -> None:
        self.client: FlaskClient = daemon.app.test_client()
        csrf = self.client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
        self.headers = {"X-CSRF-Token": csrf}
        self.read: list[tuple[str, str]] = []
        self.n = 0

    def oled(self) -> None:
        self.read.append(("oled", self.client.get("/api/sim/display").get_json()["text"]))

    def book(self, refused: bool = False, **cmd: Any) -> dict[str, Any]:
        self.n += 1
        answer = self.client.post("/api/banker/book", json={**cmd, "id": f"en-{self.n}"}, headers=self.headers)
        body: dict[str, Any] = answer.get_json()
        assert (answer.status_code != 200) == refused, (cmd, body)
        self.read.extend((f"api {cmd['op']}", str(body.get(k))) for k in ("text", "message") if body.get(k))
        self.oled()
        return body

    def preview(self, **form: Any) -> None:
        body = self.client.post("/api/banker/preview", json=form, headers=self.headers).get_json()
        self.read.extend((f"preview {form['op']}", str(body.get(k))) for k in ("text", "message") if body.get(k))

    def cash(self, player: str) -> int:
        state = self.client.get("/api/state").get_json()
        return int(next(p["cash"] for p in state["players"] if p["name"] == player))

    def page(self, path: str, language: str) -> str:
        r = self.client.get(path, headers={"Accept-Language": language})
        assert r.status_code == 200, path
        body = r.get_data(as_text=True)
        if r.mimetype == "text/html":
            self.read.extend((path, t) for t in visible(body))
        else:
            self.read.append((path, body))
        return body


def play_and_read(appliance: Daemon, language: str, edition: str = "classic-uk") -> list[tuple[str, str]]:
    """A whole game of every kind of booking, and everything a person reads of it, in ``language``."""
    t = Table(appliance)
    assert t.client.post("/api/commands", json={"op": "new_game", "edition": edition, "mode": "standard",
                                                "players": ["Anna", "Ben", "Cem"]},
                         headers=t.headers).status_code == 200
    t.oled()
    moves: list[tuple[str, dict[str, str | int]]] = [
        ("credit", {"player": "Anna", "amount": 200}),
        ("debit", {"player": "Ben", "amount": 50}),
        ("transfer", {"from": "Anna", "to": "Ben", "amount": 20}),
        ("go", {"player": "Cem"}),
        ("buy", {"player": "Anna", "square": 37}),
        ("buy", {"player": "Anna", "square": 39}),
        ("rent", {"player": "Ben", "square": 39}),
        ("build", {"player": "Anna", "square": 39}),
        ("build", {"player": "Anna", "square": 37}),
        ("rent", {"player": "Cem", "square": 39}),
        ("sell_building", {"player": "Anna", "square": 37}),
        ("buy", {"player": "Ben", "square": 5}),
        ("rent", {"player": "Cem", "square": 5}),
        ("mortgage", {"player": "Ben", "square": 5}),
        ("unmortgage", {"player": "Ben", "square": 5}),
        ("tax", {"player": "Cem", "square": 4}),
        ("jail_fine", {"player": "Cem"}),
        ("pay_all", {"player": "Ben", "amount": 10}),
        ("collect_all", {"player": "Cem", "amount": 10}),
        ("repairs", {"player": "Anna", "per_house": 25, "per_hotel": 100})]
    for op, fields in moves:
        t.book(refused=False, op=op, **fields)
    t.book(refused=True, op="buy", player="Ben", square=39)         # already owned
    t.book(refused=True, op="build", player="Ben", square=5)         # not a street
    t.preview(op="credit", player="Anna", amount="abc")              # not an amount, as a person typed it
    t.preview(op="rent", player="Cem", square="39")                  # the rules' preview
    t.book(op="undo")
    t.book(op="debit", player="Cem", amount=t.cash("Cem"))
    t.book(op="bankrupt", player="Cem")
    t.book(op="debit", player="Ben", amount=t.cash("Ben"))
    t.book(op="bankrupt", player="Ben")                              # Anna is left: the game is over
    for path in ("/", "/admin", "/device", "/spiele", "/spiele/1", "/spiele/1.csv", "/bestenliste",
                 "/admin/ausgaben", "/admin/ausgaben/neu", "/admin/verdrahtung.svg", "/api/admin/doctor"):
        t.page(path, language)
    doctor = subprocess.run([sys.executable, "-m", "device.daemon.cli", "doctor", "--language", language,
                             "--state-dir", str(appliance.state_dir)], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    t.read.append(("doctor", doctor.stdout))
    return t.read


@pytest.mark.parametrize("appliance", ["en"], indirect=True)
def test_a_whole_game_in_english_has_no_german_word(appliance: Daemon) -> None:
    read = play_and_read(appliance, "en")
    found = [hit for where, text in read for hit in german_in(where, [text])]
    assert not found, found
    said = "\n".join(text for _, text in read)
    for english in ("Anna pays", "rent", "mortgage", "bankrupt", "wins"):  # the game was read, in English
        assert english in said.lower() if english.islower() else english in said, english


@pytest.mark.parametrize("appliance", ["en"], indirect=True)
def test_a_whole_english_game_on_the_german_board_says_no_german_word_but_its_names(appliance: Daemon) -> None:
    """A German box played in English: its square names stay as the board prints them, and nothing else is German
    (its houses are "houses", never „Häuser“; its stations "stations")."""
    classic = EDITIONS["classic"]
    own = sorted({*classic.names, *classic.short_names, classic.title}, key=len, reverse=True)
    read = play_and_read(appliance, "en", "classic")
    # the family form shows the base's file to edit (its data block): the file's words are the board's own there
    in_file = sorted({*own, classic.house, classic.houses, classic.hotel, classic.hotels, classic.stations,
                      classic.utilities, classic.quick.name}, key=len, reverse=True)
    found = [hit for where, text in read
             for hit in german_in(where, [text], in_file if text.startswith('{"auction_min_bid"') else own)]
    assert not found, found


@pytest.mark.parametrize("appliance", ["de"], indirect=True)
def test_the_same_game_in_german_is_found_german(appliance: Daemon) -> None:
    """The check can fail: the same game read in German is caught on every surface."""
    read = play_and_read(appliance, "de")
    caught = {where.split()[0] for w, t in read for where, _ in german_in(w, [t])}
    assert {"oled", "api", "preview", "/", "/admin", "/spiele", "/bestenliste", "doctor"} <= caught, caught
