"""The reports speak the language in force: a game's report, its CSV, the Bestenliste, the charts and
the printables come from the catalogue, German as before, English complete, with no German word but the names the
edition, the players and the squares bring."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from history_helpers import book, game, pages

import words
from device.prints.labels import deed_stickers, keypad_overlay, player_cards
from device.prints.svg import NS, parse
from device.prints.wiring import wiring_svg
from device.store.history import History, transactions_csv
from device.store.journal import Journal
from device.store.ledger import Ledger
from drivers.hardware import HardwareConfig
from rules import EDITIONS
from rules.editions import Mode
from rules.phrase import Phrase, to_data
from rules.titles import mode_title as rules_mode_title
from shapes.reports import GameSummary
from webui.chart import money_label, timeline_svg, worth_svg
from webui.games import duration, mode_title, names, status

GERMAN = re.compile(
    r"[äöüÄÖÜß]|\b(und|oder|nicht|nur|kein|keine|der|die|das|den|dem|des|für|von|vom|mit|auf|bei|bis|ist|gibt|"
    r"es|schon|zahlt|erhält|kauft|baut|nimmt|Miete|Spiel|Spiele|Spieler|Spielart|Zeit|Eintrag|Befehl|Zahler|"
    r"Betrag|Grund|Buchung|Buchungen|Hypothek|Hypotheken|Haben|Soll|LOS|Feld|Zeile|Spalte|Tastatur|Bankkarte|"
    r"Bankkarten|Verdrahtung|Aufkleber|Gewinner|Sieger|Gleichstand|Uhrzeit|Uhr|beendet|ersetzt|Neues|"
    r"Standardspiel|Schnellspiel|Topf|Hausregeln|Ausgabe|Summer|Drehknopf|Anode|Kathode|Stiftleiste|drucken|"
    r"schneiden|halten|neues|Noch|Bestenliste|Endstand|Herunterladen|Quote|Siege|alle|Zeigen|"
    r"Besitzrechte|Besitzrechtkarten|Leser|Minute|Minuten|Stunde|Stunden)\b")
"""German words the reports used or might use (the printables' and the pages' too), and German letters."""
ENGLISH_BOARD = "classic-uk"


def german_in(said: str, *allowed: str) -> list[str]:
    """The German words in ``said`` once the names that may stay (players, squares, the edition) are taken out."""
    for name in allowed:
        said = said.replace(name, "")
    return [m[0] for m in GERMAN.finditer(said)]


def uk_evening(tmp_path: Path) -> tuple[Ledger, History]:
    """A London game with the Free Parking pot, rent, a house, a mortgage, tax into the pot and out of it, and a
    bankruptcy that ends it; then a timed game, ended, for the Bestenliste's records."""
    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    book(ledger, game(ENGLISH_BOARD, players=("Anna", "Ben"), house_rules=["free_parking_pot"]),
         {"op": "buy", "player": "Anna", "square": 39},
         {"op": "buy", "player": "Anna", "square": 37},
         {"op": "build", "player": "Anna", "square": 39},
         {"op": "rent", "player": "Ben", "square": 39},
         {"op": "tax", "player": "Ben", "square": 4},
         {"op": "free_parking", "player": "Anna"},
         {"op": "buy", "player": "Anna", "square": 1},
         {"op": "mortgage", "player": "Anna", "square": 1},
         {"op": "bankrupt", "player": "Ben", "creditor": "Anna"})
    book(ledger, game(ENGLISH_BOARD, "timed", ("Anna", "Cem"), minutes=30, replace=True),
         {"op": "credit", "player": "Cem", "amount": 500}, {"op": "end"})
    return ledger, History(ledger.journal.path)


def csv_rows(one: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(transactions_csv(one)), delimiter=words.text("reports.csv.delimiter")))


def test_the_csvs_header_bank_and_pot_are_the_languages_and_the_ops_stay_program_words(tmp_path: Path) -> None:
    """An English spreadsheet reads ',' and an ISO date; the ops (``rent``) stay the journal's words in every
    language, so a filter on them works on every family's file."""
    _, history = uk_evening(tmp_path)
    one = history.report(history.games()[-1]["id"])
    assert one is not None
    german = csv_rows(one)
    assert german[0] == ["Eintrag", "Zeit", "Befehl", "Zahler", "Empfänger", "Betrag (£)", "Grund", "Buchung"]
    words.use("en")
    header, *body = csv_rows(one)
    assert header == ["Entry", "Time", "Command", "Payer", "Payee", "Amount (£)", "Reason", "Booking"]
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", row[1]) for row in body), body
    assert [(r[3], r[4], r[5]) for r in body if r[2] == "new_game"] == [("Bank", "Anna", "1,500"), ("Bank", "Ben", "1,500")]
    assert [(r[3], r[4]) for r in body if r[2] == "tax"] == [("Ben", "Free Parking pot")]
    assert [(r[3], r[4]) for r in body if r[2] == "free_parking"] == [("Free Parking pot", "Anna")]
    assert {r[2] for r in body} == {r[2] for r in german[1:]}  # the same program words in both
    assert german_in(",".join(header + [cell for row in body for cell in row[:6]]), "Anna", "Ben") == []


@pytest.mark.parametrize(("language", "locale"), [("de", "de_DE"), ("en", "en_GB")])
def test_the_csvs_amounts_are_written_as_the_language_writes_them_and_its_spreadsheet_reads_them_back(
        tmp_path: Path, language: str, locale: str) -> None:
    """The CSV is made for a spreadsheet in the family's language (its separator says so): the amounts grouped
    as that language writes numbers ("1.500", "1,500"), each read back by that locale's number parser (CLDR's,
    through Babel) as the integer booked; the currency named once, in the amount's header."""
    from babel.numbers import parse_decimal

    _, history = uk_evening(tmp_path)
    one = history.report(history.games()[-2]["id"])
    assert one is not None
    words.use(language)
    header, *body = csv_rows(one)
    assert header[5] == words.text("reports.csv.amount_in", currency="£")
    booked = [t.amount for (_, event) in ([one.opening] if one.opening else []) + one.stack for t in event.transfers]
    assert [int(parse_decimal(row[5], locale=locale, strict=True)) for row in body] == booked
    assert [row[5] for row in body if row[2] == "new_game"] == [words.money(1500, EDITIONS[ENGLISH_BOARD])] * 2
    assert "1500" not in [row[5] for row in body]


def summary(mode: str, mode_said: Phrase | None = None, state: str = "läuft") -> GameSummary:
    """A game's summary as the history lists it, with the mode (and the rules' phrase for it) and the status a
    test reads; ``mode_said`` None: a summary without the phrase."""
    return {"id": 1, "started": 0.0, "ended": 0.0, "last_seq": 0, "edition": "classic", "edition_title": "",
            "mode": mode, "mode_said": [] if mode_said is None else to_data(mode_said), "players": ["Anna", "Ben"],
            "house_rules": [], "status": state, "winner": None, "winners": [], "ranking": [], "worth": {},
            "cash": {}, "commands": 0, "clock": "unknown"}


def test_durations_modes_and_status_follow_the_language_in_force() -> None:
    assert (duration(55), duration(125), duration(3 * 3600 + 5 * 60)) == ("55 s", "2 min", "3 h 05 min")
    timed = summary("timed", rules_mode_title(EDITIONS["classic"], Mode.TIMED, speed_die=True), state="beendet")
    assert (mode_title(timed), status(timed)) == ("Spiel auf Zeit mit Tempo-Würfel", "beendet")
    assert names(["Anna", "Ben", "Cem"]) == "Anna, Ben und Cem"
    quick = summary("quick", rules_mode_title(EDITIONS["classic"], Mode.QUICK))
    short = summary("quick", rules_mode_title(EDITIONS["skylanders"], Mode.QUICK))
    assert (mode_title(quick), mode_title(short), mode_title(summary("timed"))) == (
        "Schnellspiel", "kurzes Spiel", "Spiel auf Zeit")  # a summary without the phrase: the mode's name
    words.use("en")
    assert (duration(1), duration(60), duration(125), duration(3 * 3600 + 5 * 60)) == ("1 s", "1 min", "2 min",
                                                                                       "3 h 05 min")
    assert (mode_title(timed), status(timed)) == ("Time Limit Game with the Speed Die", "finished")
    assert (mode_title(quick), mode_title(short)) == ("Short Game", "Short Game")  # as the OLED says it
    assert names(["Anna", "Ben", "Cem"]) == "Anna, Ben and Cem" and names(["Anna"]) == "Anna"


def test_the_charts_say_their_words_and_amounts_in_the_language_in_force() -> None:
    points = [{"at": 1_700_000_000 + 60 * i, "Anna": 2_500_000 - 1000 * i, "Ben": 100} for i in range(3)]
    german = timeline_svg(points, ["Anna", "Ben"], money_label("banking"))
    assert 'aria-label="Vermögen im Spielverlauf (Uhrzeit)"' in german and ">2,5M<" in german
    assert "Noch keine Buchungen" in worth_svg([], [], str)
    words.use("en")
    english = timeline_svg(points, ["Anna", "Ben"], money_label("banking"))
    assert 'aria-label="Net worth over the game (time of day)"' in english and ">2.5M<" in english
    assert "No bookings yet" in worth_svg([], [], str)
    assert german_in(worth_svg([{"Anna": 1}, {"Anna": 2}], ["Anna"], str), "Anna") == []


def svg_words(svg_text: str) -> str:
    """Every text of a picture a person reads: its texts and its titles (a wire's tooltip)."""
    root = parse(svg_text)
    return "\n".join(t.text or "" for t in root.iter() if t.tag in (f"{{{NS}}}text", f"{{{NS}}}title"))


@pytest.mark.parametrize("picture", ["keypad", "cards", "deeds", "wiring"])
def test_every_printable_is_english_when_asked(picture: str) -> None:
    """The keypad overlay, the bank cards, the London deed stickers and the wiring sheet: no German word but the
    product's name; the same picture in German still carries the seeds' words. (The keypad as printed with
    ``--one-language``: by default it carries both languages' key words, so the OLED may speak either.)"""
    pictures: dict[str, Callable[[], str]] = {
        "keypad": lambda: keypad_overlay(HardwareConfig().keypad.layout, one_language=True),
        "cards": lambda: player_cards(6), "deeds": lambda: deed_stickers(ENGLISH_BOARD),
        "wiring": lambda: wiring_svg(HardwareConfig())}
    draw = pictures[picture]
    german = svg_words(draw())
    words.use("en")
    english = svg_words(draw())
    assert english != german
    assert german_in(english, "Bankleser") == [], english
    assert german_in(german, "Bankleser") != []


def test_the_english_printables_say_what_the_german_say() -> None:
    words.use("en")
    keys = {t for t in svg_words(keypad_overlay(HardwareConfig().keypad.layout)).splitlines()}
    assert {"Credit", "Debit", "GO", "C", "K", "hold: new game"} <= keys
    assert "Bank card 3" in svg_words(player_cards(3))
    deeds = svg_words(deed_stickers(ENGLISH_BOARD))
    assert "Mayfair" in deeds and "Square 39 · 400" in deeds
    assert "Buzzer (passive) + → pin 12 (GPIO18)" in svg_words(wiring_svg(HardwareConfig()))


@pytest.mark.parametrize(("part", "field", "value", "german", "english"), [
    ("buzzer", "pin", 5, "Summer +: GPIO5 ist schon belegt (Tastatur Zeile 1)",
     "Buzzer +: GPIO5 is already taken (Keypad row 1)"),
    ("encoder", "a", 0, "ist für das ID-EEPROM (ID_SD) reserviert", "is reserved for the ID-EEPROM (ID_SD)"),
    ("keypad", "cols", (12, 16, 20, 28), "GPIO28 gibt es auf der Stiftleiste nicht", "the header has no GPIO28"),
    ("display", "i2c_port", 0, "nur I²C-Bus 1 ist verdrahtbar", "only I²C bus 1 can be wired"),
    ("reader", "spi_device", 2, "SPI0.2 gibt es nicht", "there is no SPI0.2"),
])
def test_a_config_the_pi_cannot_wire_is_refused_in_the_language_in_force(
        part: str, field: str, value: object, german: str, english: str) -> None:
    """The drawing's own refusals, behind the config's checks (a configuration made in code, not read)."""
    hw = HardwareConfig()
    setattr(getattr(hw, part), field, value)
    with pytest.raises(ValueError, match=re.escape(german)):
        wiring_svg(hw)
    words.use("en")
    with pytest.raises(ValueError, match=re.escape(english)) as refused:
        wiring_svg(hw)
    assert german_in(str(refused.value)) == []


def test_an_unknown_edition_and_too_many_cards_are_refused_in_english() -> None:
    words.use("en")
    with pytest.raises(ValueError, match="unknown edition 'monopoly-junior'"):
        deed_stickers("monopoly-junior")
    with pytest.raises(ValueError, match="1 to 8 bank cards"):
        player_cards(9)


def test_the_pages_errors_speak_english(tmp_path: Path) -> None:
    ledger, history = uk_evening(tmp_path)
    client = pages(history)
    words.use("en")
    assert "There is no such game" in client.get("/spiele/999").get_data(as_text=True)
    assert "Unknown edition or game mode" in client.get("/bestenliste?mode=fast").get_data(as_text=True)
    assert client.get("/spiele/1.csv").headers["Content-Disposition"] == 'attachment; filename="game-1.csv"'
    words.use("de")
    assert client.get("/spiele/1.csv").headers["Content-Disposition"] == 'attachment; filename="spiel-1.csv"'
    assert ledger.game.state is not None


def test_print_speaks_the_language_asked_else_the_configs(tmp_path: Path) -> None:
    """`bankleser print cards --language en`, or `language = "en"` under [ui] in the config file."""
    from device.daemon.cli import main

    out = tmp_path / "cards.svg"
    assert main(["print", "cards", "--players", "2", "--language", "en", "-o", str(out)]) == 0
    assert "Bank card 2" in svg_words(out.read_text(encoding="utf-8"))
    words.use("de")
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "en"\n', encoding="utf-8")
    assert main(["print", "wiring", "--config", str(config), "-o", str(out)]) == 0
    assert german_in(svg_words(out.read_text(encoding="utf-8")), "Bankleser") == []
    words.use("de")
    assert main(["print", "cards", "--players", "2", "-o", str(out)]) == 0
    assert "Bankkarte 2" in svg_words(out.read_text(encoding="utf-8"))


REPORT_TEMPLATES = ("spiele.html", "spiel.html", "bestenliste.html")


@pytest.mark.parametrize("name", REPORT_TEMPLATES)
def test_no_text_a_person_reads_is_left_in_the_reports_templates(name: str) -> None:
    """The pages' own template scan (tests/test_pages_language.py) over the reports' templates."""
    from page_words import TEMPLATES, TemplateText

    source = (TEMPLATES / name).read_text(encoding="utf-8")
    parser = TemplateText()
    parser.feed(re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S))
    left = [t.strip(" –←·()#:\n") for t in parser.found if re.search(r"[A-Za-zÄÖÜäöüß]{2,}", t)]
    assert [t for t in left if t not in ("Bankleser", "bankleser replay --journal")] == []


def page_text(client: Any, path: str) -> str:
    """What a person reads of a page: its main part's text, tags taken out, entities read."""
    from html import unescape

    html = client.get(path).get_data(as_text=True)
    main = html.split("<main>", 1)[1].split("</main>", 1)[0]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", main)))


def test_the_list_the_bestenliste_and_the_reports_frame_speak_english(tmp_path: Path) -> None:
    """The pages after the game in English: every word of theirs; the bookings are the rules' (their own test)."""
    _, history = uk_evening(tmp_path)
    client = pages(history)
    german = {path: page_text(client, path) for path in ("/spiele", "/spiele/1", "/bestenliste")}
    assert "Gewinner: Anna (3.000 £)" in german["/spiele"] and "10 Buchungen" in german["/spiele"]
    assert "Endstand" in german["/spiele/1"] and "Hausregeln: Frei-Parken-Topf" in german["/spiele/1"]
    assert "Beste Ergebnisse" in german["/bestenliste"]
    words.use("en")
    listing, board = page_text(client, "/spiele"), page_text(client, "/bestenliste")
    assert "Winner: Anna (£3,000)" in listing and "10 bookings" in listing and "Time Limit Game finished" in listing
    assert "Leaderboard" in board and "Cem 1 1 100%" in board and "Best results" in board
    report = page_text(client, "/spiele/1")
    assert "House rules: Free Parking pot" in report and "Final standings" in report
    assert "Anna (winner) £3,000" in report and "Most profitable property Mayfair (£200)" in report
    frame = report.split("Biggest payment")[0] + report.split("Download")[1].split("All bookings")[0]
    names = ("Anna", "Ben", "Cem", "MONOPOLY UK (London)", "Mayfair", "Bankleser")
    assert german_in(listing + board + frame, *names) == []


def test_the_status_charts_words_follow_each_phones_language(daemon: Any) -> None:
    """The chart is drawn once per version, however many phones ask, and once per language: a phone that reads
    English gets an English chart even when a German phone asked first."""
    from webui.language import COOKIE

    german, english = daemon.app.test_client(), daemon.app.test_client()
    english.set_cookie(COOKIE, "en")
    assert "Noch keine Buchungen" in german.get("/api/chart.svg").get_data(as_text=True)  # no game yet
    assert "No bookings yet" in english.get("/api/chart.svg").get_data(as_text=True)
    assert "Noch keine Buchungen" in german.get("/api/chart.svg").get_data(as_text=True)


def test_the_english_pages_after_the_game_are_valid_html(tmp_path: Path) -> None:
    """The Nu validator over the list, a report and the Bestenliste in English (lang="en", every word escaped)."""
    from pagecheck import html_errors

    _, history = uk_evening(tmp_path)
    client = pages(history)
    words.use("en")
    drawn = {path: client.get(path).get_data(as_text=True) for path in ("/spiele", "/spiele/1", "/bestenliste")}
    assert all('<html lang="en"' in html for html in drawn.values())
    assert html_errors(drawn) == []


def test_an_old_game_is_told_in_todays_language(tmp_path: Path) -> None:
    """The journal keeps commands, not texts: a London game played while the appliance spoke German, its summary
    kept in the cache, is told in English once English is in force, and the same replayed report in German again:
    the list, the report's frame and its bookings (the rules' phrases, said when the page is drawn) and the CSV."""
    import device.store.history as history_module

    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    book(ledger, game(ENGLISH_BOARD, players=("Anna", "Ben")), {"op": "buy", "player": "Anna", "square": 39},
         {"op": "credit", "player": "Ben", "amount": 100}, {"op": "undo"}, {"op": "bankrupt", "player": "Ben"})
    for _ in range(history_module.OPEN_GAMES):  # the London game leaves Storno's reach: its summary is cached
        book(ledger, game(ENGLISH_BOARD, players=("Dana", "Emil"), replace=True))
    cache = tmp_path / "history-cache.json"
    History(ledger.journal.path, cache=cache).games()  # told while German is in force, and kept
    kept = cache.read_text(encoding="utf-8")
    assert "Standardspiel" not in kept and "Uhr des" not in kept  # program words only: said when shown
    words.use("en")
    history = History(ledger.journal.path, cache=cache)
    client = pages(history)
    names = ("Anna", "Ben", "Dana", "Emil", "MONOPOLY UK (London)", "Mayfair", "Bankleser")
    listing = page_text(client, "/spiele")
    assert "Standard game finished" in listing and german_in(listing, *names) == []
    first = min(g["id"] for g in history.games())
    report = page_text(client, f"/spiele/{first}")
    frame, bookings = report.split("All bookings")
    assert "Final standings" in frame and "Undone: " in bookings
    one = history.report(first)
    assert one is not None
    undone = next(event for _, event in one.log if event.op == "undo")
    assert one.said(undone).startswith("Undone: ") and csv_rows(one)[0][:2] == ["Entry", "Time"]
    words.use("de")
    assert one.said(undone).startswith("Storno: ") and csv_rows(one)[0][:2] == ["Eintrag", "Zeit"]
    assert "Alle Buchungen" in page_text(client, f"/spiele/{first}")


def test_a_whole_report_and_its_csv_are_english_bookings_and_payments_too(tmp_path: Path) -> None:
    """A London game replayed and shown in English: every booking of the report (the rules' phrases, said with the
    edition's names and buildings), the biggest payments, and every cell of the CSV, without a German word but the
    players' and squares' names; the same report in German still says "kauft"."""
    _, history = uk_evening(tmp_path)
    client = pages(history)
    words.use("en")
    names = ("Anna", "Ben", "MONOPOLY UK (London)", "Mayfair", "Park Lane", "Old Kent Road", "Income Tax",
             "Bankleser")
    report = page_text(client, "/spiele/1")
    assert german_in(report, *names) == []
    one = history.report(1)
    assert one is not None
    bought = one.said(next(event for _, event in one.log if event.op == "buy"))
    assert "Mayfair" in bought and f"Biggest payment £400: {bought}" in report
    rent = one.said(next(event for _, event in one.log if event.op == "rent"))  # the rules' wording, said now
    assert all(word in rent for word in ("Ben", "Anna", "rent", "Mayfair", "house")) and rent in report
    rows = csv_rows(one)
    assert [(r[5], r[6]) for r in rows if r[2] == "rent"] == [("200", "Rent Mayfair")]
    cells = ",".join(cell for row in rows for cell in row)
    assert german_in(cells, *names) == []
    words.use("de")
    assert "kauft Mayfair" in page_text(client, "/spiele/1")
