"""The phone pages are valid HTML, legible on a phone, and offer the banker every option in a form.

Server-side checks through Flask's test client against a real daemon (its journal, its history); the
browser-side ones (ranking order, accessibility, screenshots, measured font sizes) are in test_browser.py.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pagecheck import html_errors
from profiles import examples

from daemon_fixture import PIN
from device.daemon.service import Daemon
from device.store.history import History
from device.store.journal import Journal
from webui.chart import timeline_svg, worth_svg
from webui.games import duration


def login(client: FlaskClient, **extra: Any) -> str:
    r = client.post("/api/login", json={"pin": PIN, **extra})
    assert r.status_code == 200, r.get_json()
    token: str = r.get_json()["csrf"]
    return token


def book(client: FlaskClient, csrf: str, *cmds: dict[str, Any]) -> None:
    for cmd in cmds:
        r = client.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, (cmd, r.get_json())


def ready(client: FlaskClient) -> None:
    """The history tells the journal beside the loop after start-up: wait for it."""
    deadline = time.monotonic() + 20
    while client.get("/spiele").status_code == 503:
        assert time.monotonic() < deadline, "history never warmed"
        time.sleep(0.05)


EVENING = (
    {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben", "Cem"],
     "house_rules": ["free_parking_pot"]},
    {"op": "tax", "player": "Anna", "square": 4},
    {"op": "free_parking", "player": "Ben"},
    {"op": "bankrupt", "player": "Cem"},
    {"op": "bankrupt", "player": "Anna"},
    {"op": "new_game", "edition": "skylanders", "mode": "timed", "players": ["Anna", "Ben"], "minutes": 30},
    {"op": "credit", "player": "Anna", "amount": 500},
    {"op": "end"},
    {"op": "new_game", "edition": "banking", "mode": "timed", "players": ["Anna", "Ben"], "minutes": 30},
    {"op": "credit", "player": "Ben", "amount": 3_000_000},
    {"op": "end"},
    {"op": "new_game", "edition": "schalke", "mode": "standard", "players": ["Anna", "Ben"], "speed_die": True},
)


@pytest.fixture
def evening(daemon: Daemon) -> Iterator[tuple[FlaskClient, str]]:
    """Four games: classic with the Frei-Parken pot (won), two timed games of other editions, Schalke running."""
    client = daemon.app.test_client()
    csrf = login(client)
    book(client, csrf, *EVENING)
    ready(client)
    yield client, csrf


class Tables(HTMLParser):
    """The cell texts of every table row, per table (a stand-in for a DOM, no third library)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(html: str) -> list[list[list[str]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def game_ids(client: FlaskClient) -> list[int]:
    return [int(i) for i in re.findall(r'href="/spiele/(\d+)"', client.get("/spiele").get_data(as_text=True))]


# -- 2. every page is valid HTML -------------------------------------------------------------


def test_every_page_is_valid_html(evening: tuple[FlaskClient, str], daemon: Daemon) -> None:
    """A broken template fails here, not on a phone. The Nu validator checks each page."""
    client, _ = evening
    paths = ["/", "/admin", "/device", "/spiele", "/bestenliste", "/bestenliste?mode=timed",
             "/bestenliste?edition=banking", *(f"/spiele/{i}" for i in game_ids(client))]
    pages = {}
    for path in paths:
        r = client.get(path)
        assert r.status_code == 200, path
        pages[path] = r.get_data(as_text=True)
    assert daemon.history is not None
    daemon.history.warming.set()  # the page a phone sees while the past games are read
    r = client.get("/spiele")
    daemon.history.warming.clear()
    assert r.status_code == 503
    pages["lesen"] = r.get_data(as_text=True)
    errors = html_errors(pages)
    assert errors == [], "\n".join(errors)


def test_the_validator_catches_a_stray_entity_and_a_misnested_table() -> None:
    """The check can fail: the two faults found in the Bestenliste are errors to it."""
    page = ('<!doctype html><html lang="de"><head><title>t</title></head><body>{}</body></html>')
    assert html_errors({"ok": page.format("<p>Schnell&shy;spiel</p>")}) == []
    assert html_errors({"entity": page.format("<p>a &shy b</p>")})
    assert html_errors({"nested": page.format("<table><tr><th>a<th>b</th>c</th></tr></table>")})


# -- 1. the Bestenliste --------------------------------------------------------------------


def test_the_bestenliste_has_one_header_per_column_and_no_stray_text(evening: tuple[FlaskClient, str]) -> None:
    """No "shy;spiel", as many cells as headers in every row."""
    client, _ = evening
    html = client.get("/bestenliste").get_data(as_text=True)
    assert "shy;" not in html
    found = tables(html)
    assert found
    for table in found:
        header, *rows = table
        assert len(set(header)) == len(header), header
        assert rows and all(len(row) == len(header) for row in rows), table


def test_a_best_result_is_in_its_own_editions_money_beside_its_edition(evening: tuple[FlaskClient, str]) -> None:
    """4723 Ringe and 18M € never share a column unlabelled: each best result names its edition
    and its mode, and a timed result stands under the timed game."""
    client, _ = evening
    records = next(t for t in tables(client.get("/bestenliste").get_data(as_text=True)) if "Bestes Ergebnis" in t[0])
    rows = {row[0]: row[1:] for row in records[1:]}
    assert rows == {"MONOPOLY Banking · Spiel auf Zeit": ["Ben", "18M €"],
                    "MONOPOLY Skylanders Swap Force · Spiel auf Zeit": ["Anna", "2.000"]}


# -- 3. every new_game option in the form ---------------------------------------------------


def test_the_new_game_form_offers_the_house_rules_and_every_option(evening: tuple[FlaskClient, str]) -> None:
    """House rules, the quick game's seed and deal, the speed die: a field each, not the JSON box."""
    client, _ = evening
    html = client.get("/admin").get_data(as_text=True)
    for rule, name in (("free_parking_pot", "Frei-Parken-Topf"), ("double_go", "doppeltes Gehalt auf LOS"),
                       ("no_auctions", "keine Versteigerungen")):
        assert re.search(rf'<input[^>]*name="house_rule"[^>]*value="{rule}"', html), rule
        assert name in html
    for field in ("edition", "mode", "minutes", "speed", "seed", "deal"):
        assert f'id="{field}"' in html, field


def test_the_report_names_the_house_rules_in_german(evening: tuple[FlaskClient, str]) -> None:
    """"Frei-Parken-Topf", not free_parking_pot."""
    client, _ = evening
    classic = game_ids(client)[-1]
    html = client.get(f"/spiele/{classic}").get_data(as_text=True)
    assert "Hausregeln: Frei-Parken-Topf" in html and "free_parking_pot" not in html


# -- 4. the chart legend at a phone's width --------------------------------------------------


def smallest_font_on_a_phone(svg: str, page_width: int) -> float:
    """The smallest text of an SVG drawn across a phone's page (16 px body, .8 rem padding each side)."""
    width = float(re.search(r'viewBox="0 0 ([\d.]+) [\d.]+"', svg).group(1))  # type: ignore[union-attr]
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    return min(sizes) * (page_width - 2 * 12.8) / width


@pytest.mark.parametrize("width", [320, 390])
def test_the_charts_text_is_at_least_9_px_on_a_phone(width: int) -> None:
    """The legend was 5.9 px at 320 px and 7.3 px at 390 px."""
    names = ["Anna", "Ben", "Cem", "Dana", "Emil", "Fritz", "Greta", "Hanna"]
    history = [{n: 1000 + i * k for k, n in enumerate(names)} for i in range(5)]
    label = str
    assert smallest_font_on_a_phone(worth_svg(history, names, label), width) >= 9
    points = [{"at": 1_700_000_000 + 60 * i, **h} for i, h in enumerate(history)]
    assert smallest_font_on_a_phone(timeline_svg(points, names, label), width) >= 9


def test_every_name_of_the_status_chart_is_in_it_once(evening: tuple[FlaskClient, str]) -> None:
    """The legend still names every player after it moved to fit a phone."""
    names = ["Anna", "Ben", "Cem", "Dana", "Emil", "Fritz", "Greta", "Hanna"]
    svg = worth_svg([{n: 100 for n in names}, {n: 200 for n in names}], names, str)
    assert [re.findall(rf">{n}<", svg) for n in names] == [[f">{n}<"] for n in names]


# -- 5. the CSV ------------------------------------------------------------------------------


def test_the_csv_names_the_pot_has_local_times_every_start_capital_and_one_charset(
        evening: tuple[FlaskClient, str]) -> None:
    """The CSV names the pot, says local times, every start capital, and one charset."""
    client, _ = evening
    classic = game_ids(client)[-1]
    r = client.get(f"/spiele/{classic}.csv")
    assert r.headers["Content-Type"].lower().count("charset") == 1
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff")), delimiter=";"))
    header, *body = rows
    assert header[1] == "Zeit"
    assert all(re.fullmatch(r"\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}", row[1]) for row in body), body
    starts = [(row[3], row[4], row[5]) for row in body if row[2] == "new_game"]
    assert starts == [("Bank", "Anna", "1.500"), ("Bank", "Ben", "1.500"), ("Bank", "Cem", "1.500")]  # Cem never paid
    tax = next(row for row in body if row[2] == "tax")
    assert (tax[3], tax[4]) == ("Anna", "Frei-Parken-Topf")
    taken = next(row for row in body if row[2] == "free_parking")
    assert (taken[3], taken[4], taken[5]) == ("Frei-Parken-Topf", "Ben", "200")


# -- 6. durations ----------------------------------------------------------------------------


def test_a_short_game_lasts_seconds_not_zero_minutes(tmp_path: Path) -> None:
    """A 55 s timed game was "0 min" on /spiele."""
    assert duration(55) == "55 s"
    assert duration(0) == "0 s"
    assert duration(125) == "2 min"
    assert duration(3 * 3600 + 5 * 60) == "3 h 05 min"
    journal = Journal(tmp_path / "journal.sqlite3")
    t0 = time.time() - 3600
    journal.append({"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Ben"],
                    "minutes": 1}, at=t0)
    journal.append({"op": "end"}, at=t0 + 55)
    journal.close()
    html = pages(History(tmp_path / "journal.sqlite3")).get("/spiele").get_data(as_text=True)
    assert "55 s" in html and "0 min" not in html


@pytest.mark.parametrize("span", [20, 55, 170, 600, 7200])
def test_the_reports_time_axis_never_repeats_a_label(span: int) -> None:
    """A short game's axis read "23:29 23:29 23:29 23:29"."""
    t0 = time.mktime((2026, 11, 23, 23, 29, 5, 0, 0, -1))
    points = [{"at": t0 + span * i / 4, "Anna": 100 + i, "Ben": 100} for i in range(5)]
    svg = timeline_svg(points, ["Anna", "Ben"], str)
    ticks = re.findall(r">(\d\d:\d\d(?::\d\d)?)</text>", svg)
    assert len(ticks) >= 2 and len(set(ticks)) == len(ticks), ticks


def pages(history: History) -> FlaskClient:
    from flask import Flask

    from webui.games import register
    from webui.language import speaking_app

    webui = Path(__file__).parent.parent / "webui"
    app = Flask("t", template_folder=str(webui / "templates"), static_folder=str(webui / "static"))
    speaking_app(app)  # the pages' words, as create_app installs them
    register(app, lambda: history)
    return app.test_client()


# -- 9. a lone surrogate ---------------------------------------------------------------------


@pytest.mark.parametrize(("path", "field"), [
    ("/api/login", "pin"), ("/api/commands", "player"), ("/api/cards", "name"), ("/api/cards/0a000001/name", "name"),
    ("/api/sim/key", "key"), ("/api/sim/tap", "uid"), ("/api/commands", "op"),
])
def test_a_lone_surrogate_is_a_4xx_never_a_500(daemon: Daemon, path: str, field: str) -> None:
    """{"pin": "\\ud800"} answered 500. Every field of every POST that takes text answers 4xx."""
    client = daemon.app.test_client()
    csrf = login(client) if path != "/api/login" else ""
    body = {"op": "credit", "player": "Anna", "amount": 10, "uid": "0a000001", "kind": "player", "name": "Ida",
            "pin": PIN, "key": "1", field: "\ud800"}
    r = client.post(path, data='{"' + field + '": "\\ud800"' + "".join(
        f', "{k}": {v!r}'.replace("'", '"') for k, v in body.items() if k != field) + "}",
        content_type="application/json", headers={"X-CSRF-Token": csrf})
    assert 400 <= r.status_code < 500, (r.status_code, r.get_data(as_text=True))


# -- The speed die is named ---------------------------------------------


def test_a_speed_die_game_is_named_so_on_the_phone_and_in_the_log(evening: tuple[FlaskClient, str]) -> None:
    """The Tempo-Würfel game was "Standardspiel" on the phone and in the log."""
    client, _ = evening
    state = client.get("/api/state").get_json()
    assert state["mode_title"] == "Standardspiel mit Tempo-Würfel"
    assert state["log"][-1]["text"].startswith(
        "MONOPOLY FC Schalke 04: neues Spiel, ") and "(Standardspiel mit Tempo-Würfel)" in state["log"][-1]["text"]
    listing = client.get("/spiele").get_data(as_text=True)
    assert "Standardspiel mit Tempo-Würfel" in listing


# -- 11. the reports' times: the banker's phone dates them when the Pi has no clock ---------------


DAYS = 3 * 86_400


def listed_dates(client: FlaskClient) -> list[str]:
    return re.findall(r"<strong>(\d\d\.\d\d\.\d{4}) \d\d:\d\d</strong>", client.get("/spiele").get_data(as_text=True))


def test_the_phone_dates_the_reports_when_the_pis_clock_is_not_set(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi without internet has no clock. The banker's phone's time at login dates the reports
    (list, report, CSV), the pages say so, and the play clock never follows it."""
    from device.store import clocks

    monkeypatch.setattr(clocks, "system_clock_synced", lambda: False)
    client = daemon.app.test_client()
    phone = time.time() + DAYS  # the Pi believes it is three days earlier than it is
    r = client.post("/api/login", json={"pin": PIN, "now": phone * 1000})
    assert r.get_json()["clock"].startswith("Handy-Uhr des Bankhalters")
    csrf = r.get_json()["csrf"]
    book(client, csrf, {"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Ben"],
                        "minutes": 60}, {"op": "credit", "player": "Anna", "amount": 100})
    ready(client)
    assert 3590 < client.get("/api/state").get_json()["remaining"] <= 3600  # the play clock: untouched
    phone_day = time.strftime("%d.%m.%Y", time.localtime(phone))
    assert listed_dates(client) == [phone_day]
    assert "Uhrzeit vom Handy des Bankhalters" in client.get("/spiele").get_data(as_text=True)
    (game,) = game_ids(client)
    report = client.get(f"/spiele/{game}").get_data(as_text=True)
    assert "Uhrzeiten: Handy-Uhr des Bankhalters" in report and phone_day in report
    body = client.get(f"/spiele/{game}.csv").get_data(as_text=True)
    assert all(row.split(";")[1].startswith(phone_day) for row in body.lstrip("\ufeff").splitlines()[1:])


def test_a_synchronised_pi_keeps_its_own_clock(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone's time is a fallback; a Pi whose clock is synchronised keeps its own."""
    from device.store import clocks

    monkeypatch.setattr(clocks, "system_clock_synced", lambda: True)
    client = daemon.app.test_client()
    csrf = login(client, now=(time.time() + DAYS) * 1000)
    book(client, csrf, {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
    ready(client)
    assert listed_dates(client) == [time.strftime("%d.%m.%Y")]
    assert "Handy" not in client.get("/spiele").get_data(as_text=True)


@pytest.mark.parametrize("now", [0, -1, 1e300, "morgen", True, None, [1], 5_000_000_000_000])
def test_only_the_bankers_login_with_a_plausible_time_dates_the_reports(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch, now: object) -> None:
    """A wrong PIN changes no clock, and a time outside 2020–2100 or not a number is
    ignored (the login itself still works)."""
    from device.store import clocks

    monkeypatch.setattr(clocks, "system_clock_synced", lambda: False)
    client = daemon.app.test_client()
    assert client.post("/api/login", json={"pin": "0000", "now": (time.time() + DAYS) * 1000}).status_code == 401
    r = client.post("/api/login", json={"pin": PIN, "now": now})
    assert r.status_code == 200 and "Handy-Uhr" not in r.get_json()["clock"]
    csrf = r.get_json()["csrf"]
    book(client, csrf, {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
    ready(client)
    assert listed_dates(client) == [time.strftime("%d.%m.%Y")]


# -- a property: no request body is ever a 500 ----------------------------------------------------

ODD_TEXT = st.one_of(st.text(max_size=8), st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\x00", "٣", "𝟘"]))
FIELDS = ("op", "player", "amount", "from", "to", "square", "pin", "name", "uid", "kind", "key", "now", "edition",
          "mode", "players", "house_rules", "deal")
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
              st.floats(allow_nan=False), ODD_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(ODD_TEXT, inner, max_size=3)),
    max_leaves=6)
BODIES = st.dictionaries(st.one_of(st.sampled_from(FIELDS), ODD_TEXT), JSON_VALUES, max_size=5)
BANKERS: dict[int, tuple[FlaskClient, str]] = {}
POSTS = ("/api/login", "/api/commands", "/api/cards", "/api/cards/0a000001/name", "/api/sim/key", "/api/sim/tap")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(POSTS), body=BODIES)
def test_no_body_is_ever_a_500(daemon: Daemon, path: str, body: dict[str, Any]) -> None:
    """As a property (malformed input answered 500 more than once): whatever JSON object a
    phone sends to whatever POST, the answer is never a server error."""
    import json

    if id(daemon) not in BANKERS:  # one login per daemon: the random logins use up the wrong-PIN limit
        client = daemon.app.test_client()
        BANKERS[id(daemon)] = (client, login(client))
    client, csrf = BANKERS[id(daemon)]
    text = json.dumps(body)  # lone surrogates travel as JSON escapes, as a browser would send them
    r = client.post(path, data=text, content_type="application/json", headers={"X-CSRF-Token": csrf})
    assert r.status_code < 500, (path, body, r.get_data(as_text=True))
