"""A square's name on the OLED is one line: an edition may give a square a short name for the display (``[short]``).

The OLED holds 21 characters a line (Terminus 12 px, 6 px a character). A booking's confirmation must carry who,
which building and which square on its first screen, which it can only when the square's name fits one line. So
the board's names stay as printed (pages, reports, CSV, printables: up to ``MAX_SQUARE_NAME``), and a name the
OLED shows (a deed's, a tax square's) is at most ``MAX_DISPLAY_NAME``: the edition's short name where it gives one,
else the name itself, which must then fit.
"""

from __future__ import annotations

import json
import re
import time
import tomllib
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from told import told
from ui_table import Table

import words
from conftest import apply, start
from daemon_fixture import PIN
from device.daemon.service import Daemon
from device.store.cards import SIM_PLAYER_CARDS
from device.store.editions import check_text
from device.store.replay import replay_lines
from rules import DEEDS, EDITIONS, square_name
from rules.board import TAX_SQUARES
from rules.editions import Edition, edition_data, edition_from_data, journal_data, read_edition, to_toml
from rules.editions.fileformat import MAX_DISPLAY_NAME, MAX_SQUARE_NAME, Problem

SHOWN = (*DEEDS, *TAX_SQUARES)
"""The squares the OLED names: those a booking names (never "Gehen Sie in das Gefängnis")."""

HAMBURG = '''key = "hamburg"
title = "MONOPOLY Hamburg"
base = "classic"

[names]
1 = "Reeperbahn"
39 = "Jungfernstieg an der Alster"
'''
"""A family's board with a name of 27 characters: more than one line of the OLED."""


def said(problem: Problem, language: str = "de") -> str:
    with words.speaking(language):
        return words.say(problem.said, EDITIONS["classic"])


def problems(text: str, language: str = "de") -> list[str]:
    checked = read_edition(text, EDITIONS)
    assert checked.edition is None, "the file should have been refused"
    return [said(p, language) for p in checked.problems]


def edition(text: str) -> Edition:
    checked = read_edition(text, EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return checked.edition


# -- the file: [short] and its checks ------------------------------------------------------------------------


def test_the_limit_is_one_line_of_the_oled() -> None:
    from drivers.display import font
    from drivers.panel import WIDTH

    assert MAX_DISPLAY_NAME == 21 < MAX_SQUARE_NAME
    assert font(12).getlength("W" * MAX_DISPLAY_NAME) <= WIDTH - 1 < font(12).getlength("W" * (MAX_DISPLAY_NAME + 1))


def test_a_name_longer_than_a_line_without_a_short_name_is_refused_in_the_familys_words() -> None:
    assert problems(HAMBURG) == [
        'Zeile 7, names.39: dieser Name hat 27 Zeichen, die Anzeige zeigt höchstens 21: unter [short] einen '
        'kurzen Namen angeben, etwa 39 = "…"']
    assert problems(HAMBURG, "en") == [
        'line 7, names.39: this name has 27 characters, the display shows at most 21: give it a short name under '
        '[short], e.g. 39 = "…"']


def test_with_a_short_name_it_is_accepted_and_the_board_keeps_its_name() -> None:
    ed = edition(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n')
    assert ed.names[39] == "Jungfernstieg an der Alster" == square_name(ed, 39)
    assert ed.short_names[39] == "Jungfernstieg" and ed.short_names[1] == "Reeperbahn" == ed.names[1]
    assert len(ed.short_names) == 40 and ed.short_names[:39] == ed.names[:39]


def test_a_short_name_is_checked_like_a_name() -> None:
    assert problems(HAMBURG + '\n[short]\n39 = " "\n') == [
        "Zeile 10, short.39: der kurze Name ist leer oder beginnt oder endet mit einem Leerzeichen"]
    long = "Jungfernstieg am Wasser"
    assert problems(HAMBURG + f'\n[short]\n39 = "{long}"\n') == [
        f"Zeile 10, short.39: zu lang für eine Zeile der Anzeige ({len(long)} Zeichen, höchstens 21)"]
    assert problems(HAMBURG + f'\n[short]\n39 = "{long}"\n', "en") == [
        f"line 10, short.39: too long for one line of the display ({len(long)} characters, at most 21)"]
    assert problems(HAMBURG + '\n[short]\n39 = 5\n')[0].startswith("Zeile 10, short.39: muss ein Text")


def test_a_short_name_for_a_square_that_does_not_exist_is_refused() -> None:
    found = problems(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n40 = "Rathausmarkt"\n')
    assert found == ["Zeile 11, short.40: Feld 40 gibt es nicht (0–39) – Bretter mit 52 Feldern (MEGA MONOPOLY) "
                     "werden noch nicht unterstützt"]
    assert problems(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n99 = "Alster"\n') == [
        "Zeile 11, short.99: Feld 99 gibt es nicht (0–39)"]
    assert problems(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\nx = "Alster"\n')[0].startswith(
        "Zeile 11, short.x: eine Feldnummer ist eine Zahl")


def test_two_deeds_the_display_names_alike_are_refused() -> None:
    """On the OLED a deed is known by its short name alone (a trade's list, a rent's confirmation)."""
    assert problems(HAMBURG + '\n[short]\n39 = "Reeperbahn"\n') == [
        "Zeile 10, short.39: „Reeperbahn“ zeigt die Anzeige schon für Feld 1: jedes Grundstück braucht dort einen "
        "eigenen Namen"]


def test_the_short_names_checks_speak_english_too() -> None:
    assert problems(HAMBURG + '\n[short]\n39 = ""\n', "en") == [
        "line 10, short.39: the short name is empty or begins or ends with a space"]
    assert problems(HAMBURG + '\n[short]\n39 = "Reeperbahn"\n', "en") == [
        "line 10, short.39: the display already shows “Reeperbahn” for square 1: every property needs a name of its "
        "own there"]
    from device.store.editions import as_file

    with words.speaking("en"):
        text = as_file(EDITIONS["skylanders"])
    assert "# square number = a short name for the display where the name on your board is longer than one line (at " \
           "most 21 characters)\n[short]\n" in text


def test_a_name_only_the_pages_show_needs_no_short_name() -> None:
    """Square 10 ("Gefängnis / nur zu Besuch", 25) is never named by a booking: it keeps its name everywhere."""
    ed = edition(HAMBURG.replace("[names]", '[names]\n10 = "Gefängnis oder nur zu Besuch"') +
                 '\n[short]\n39 = "Jungfernstieg"\n')
    assert ed.short_names[10] == ed.names[10] == "Gefängnis oder nur zu Besuch"


def test_a_name_too_long_for_the_pages_is_named_once() -> None:
    long = "Jungfernstieg an der Binnenalster"
    assert len(long) > MAX_SQUARE_NAME
    assert problems(HAMBURG.replace("Jungfernstieg an der Alster", long)) == [
        f"Zeile 7, names.39: zu lang ({len(long)} Zeichen, höchstens {MAX_SQUARE_NAME})"]


# -- the data: round trip, inheritance, old journals ------------------------------------------------------------


def test_the_short_names_go_round_the_file_and_the_journal() -> None:
    ed = edition(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n')
    data = edition_data(ed)
    assert data["short"] == {39: "Jungfernstieg"}
    again = read_edition(to_toml(data), EDITIONS).edition
    assert again == ed and again is not None and again.short_names == ed.short_names
    kept = json.loads(json.dumps(journal_data(ed)))
    assert kept["short"] == {"39": "Jungfernstieg"} and edition_from_data(kept) == ed


def test_an_edition_without_short_names_writes_no_short_table() -> None:
    data = edition_data(EDITIONS["classic"])
    assert "short" not in data and "[short]" not in to_toml(data)
    assert EDITIONS["classic"].short_names == EDITIONS["classic"].names


def test_an_edition_inherits_the_short_names_of_the_names_it_keeps() -> None:
    """A renamed square drops its base's short name: it belonged to the base's name."""
    mia = edition('key = "skylanders-mia"\ntitle = "Skylanders bei Mia"\nbase = "skylanders"\n'
                  '[names]\n35 = "Schiffe"\n')
    sky = EDITIONS["skylanders"]
    assert mia.short_names[35] == mia.names[35] == "Schiffe"
    assert mia.short_names[38] == sky.short_names[38] and mia.names[38] == sky.names[38]
    renamed = 'key = "skylanders-mia"\ntitle = "Skylanders bei Mia"\nbase = "skylanders"\n' \
              '[names]\n38 = "Persephones Edelsteinladen"\n'
    assert problems(renamed) == [
        'Zeile 5, names.38: dieser Name hat 26 Zeichen, die Anzeige zeigt höchstens 21: unter [short] einen '
        'kurzen Namen angeben, etwa 38 = "…"']
    assert edition(renamed + '[short]\n38 = "Edelsteinladen"\n').short_names[38] == "Edelsteinladen"


def test_an_old_journals_edition_without_short_names_still_loads_and_replays() -> None:
    """Journals written before ``[short]`` keep Skylanders' data with its long names and no short ones: the game
    replays as it was played, each square shown by its name."""
    from told import means

    old = journal_data(EDITIONS["skylanders"])
    del old["short"]
    ed = edition_from_data(old)
    assert ed.short_names == ed.names and ed.names == EDITIONS["skylanders"].names
    family = journal_data(edition(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n'))
    del family["short"]
    assert edition_from_data(family).short_names[39] == "Jungfernstieg an der Alster"

    lines = [json.dumps({"op": "new_game", "edition": "skylanders", "players": ["Anna", "Ben"], "edition_data": old}),
             json.dumps({"op": "tax", "player": "Anna", "square": 38})]
    results = list(replay_lines(lines, journal=True))
    assert [r.get("ok") for r in results[:-1]] == [True, True], results
    assert results[-1]["state"]["players"][0]["cash"] == 1500 - 100
    game = start("skylanders", edition_data=old)
    event = apply(game, op="tax", player="Anna", square=38)
    assert means(event, "rules.tax.done", player="Anna", square=38, amount=100)
    assert "Persephones Juwelen-Laden" in told(event, game)  # the square by its long name, kept in the journal


# -- the shipped editions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(EDITIONS))
def test_every_shipped_edition_shows_each_booked_square_in_one_line(key: str) -> None:
    ed = EDITIONS[key]
    assert all(len(ed.short_names[sq]) <= MAX_DISPLAY_NAME for sq in SHOWN), key
    assert all(len(name) <= MAX_SQUARE_NAME for name in ed.names)


def test_skylanders_keeps_its_board_names_and_gives_the_long_ones_short_names() -> None:
    """Seed 004's names stay whole on the pages; the OLED says a word the family knows from the board."""
    sky = EDITIONS["skylanders"]
    assert (sky.names[4], sky.names[35], sky.names[38]) == \
        ("Aurics Reisebüro-Gebühr", "Schreckliche Schiffstransporte", "Persephones Juwelen-Laden")
    assert (sky.short_names[4], sky.short_names[35], sky.short_names[38]) == \
        ("Reisebüro-Gebühr", "Schiffstransporte", "Persephones Laden")
    assert [sq for sq in range(40) if sky.short_names[sq] != sky.names[sq]] == [4, 35, 38]


# -- the device: the OLED says the short names, the pages the board's --------------------------------------------


def test_a_skylanders_tax_and_station_are_confirmed_by_their_short_names(table: Table) -> None:
    table.start("Anna", "Ben", edition="skylanders")
    table.book({"op": "buy", "player": "Ben", "square": 35})
    table.tap("Anna")
    table.press("MENU", "3")
    assert "38 Persephones Laden" in table.labels()
    table.choose("38 Persephones Laden")
    shown = table.text()
    assert shown.splitlines()[1:3] == ["100", "Anna zahlt"] and "Persephones Laden" in " ".join(
        shown.split()) and "Juwelen" not in shown, shown
    table.press("OK")
    assert "Persephones Laden" in " ".join(table.text().split()) and "Juwelen" not in table.text()

    table.tap("Anna")
    table.press("MENU", "2")
    table.choose("35 Schiffstransporte")
    shown = table.text()
    table.press("DOWN")  # the rent's confirmation names the station below its first screen (the lead's)
    shown += "\n" + table.text()
    assert "Schiffstransporte" in shown and "Schreckliche" not in shown, shown
    table.press("OK")
    # the log (what the pages say) keeps the board's names
    game = table.ledger.game
    said = [told(event, game) for event in list(game.history)[-2:]]
    assert "Persephones Juwelen-Laden" in said[0] and "Schreckliche Schiffstransporte" in said[1], said


def test_a_family_edition_with_a_long_name_is_refused_by_the_device_and_with_a_short_name_shown(table: Table) -> None:
    refused = check_text(HAMBURG.replace("Jungfernstieg an der Alster", "Jungfernstieg am Alsterufer"), EDITIONS)
    assert refused.edition is None
    assert [words.say(p.said, EDITIONS["classic"]) for p in refused.problems] == [
        'Zeile 7, names.39: dieser Name hat 27 Zeichen, die Anzeige zeigt höchstens 21: unter [short] einen '
        'kurzen Namen angeben, etwa 39 = "…"']
    checked = check_text(HAMBURG + '\n[short]\n39 = "Jungfernstieg"\n', EDITIONS)
    assert checked.edition is not None and checked.problems == []
    table.ledger.editions = {**EDITIONS, "hamburg": checked.edition}
    table.start("Anna", "Ben", edition="hamburg")
    table.tap("Anna")
    table.press("MENU", "1")
    assert "39 Jungfernstieg" in table.labels()
    table.choose("39 Jungfernstieg")
    shown = " ".join(table.text().split())
    assert "Jungfernstieg" in shown and "Alster" not in shown, shown


def test_a_long_name_on_the_device_is_measured_in_one_line() -> None:
    """The device measures what the OLED shows in its font: a short name of 21 characters fits one line."""
    checked = check_text(HAMBURG + f'\n[short]\n39 = "{"W" * MAX_DISPLAY_NAME}"\n', EDITIONS)
    assert checked.problems == [] and checked.edition is not None


def test_a_short_name_wider_than_the_line_in_the_oleds_font_is_named_by_the_device() -> None:
    """The rules count characters; the device measures what the OLED shows in its font (were it ever wider)."""
    from dataclasses import replace

    from device.store.editions import oled_problems

    sky = EDITIONS["skylanders"]
    wide = replace(sky, short_names=(*sky.short_names[:38], "W" * (MAX_DISPLAY_NAME + 1), sky.short_names[39]))
    assert [(p.path, words.say(p.message)) for p in oled_problems(wide)] == [
        ("short.38", f"„{'W' * 22}“ passt nicht in eine Zeile der Anzeige")]
    assert oled_problems(sky) == []


UID = {name: uid for uid, name in SIM_PLAYER_CARDS.items()}


def _wait_for_reports(client: FlaskClient) -> int:
    deadline = time.monotonic() + 20
    while client.get("/spiele").status_code == 503:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return int(re.findall(r'href="/spiele/(\d+)"', client.get("/spiele").get_data(as_text=True))[0])


def test_the_oled_shows_the_short_name_and_the_pages_the_boards(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    cmd = {"op": "new_game", "edition": "skylanders", "mode": "standard", "players": ["Anna", "Ben"]}
    assert client.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf}).status_code == 200
    assert client.post("/api/sim/tap", json={"uid": UID["Anna"]}).status_code == 200
    for key in ("MENU", "3", "DOWN"):  # Steuer, the second tax square: Persephones
        assert client.post("/api/sim/key", json={"key": key}).status_code == 200
    oled = client.get("/api/sim/display").get_json()["text"]
    assert ">38 Persephones Laden" in oled, oled
    for key in ("OK", "OK"):
        assert client.post("/api/sim/key", json={"key": key}).status_code == 200
    oled = " ".join(client.get("/api/sim/display").get_json()["text"].split())
    assert oled.startswith("Gebucht") and "Persephones Laden" in oled and "Juwelen" not in oled, oled

    state = client.get("/api/state").get_data(as_text=True)
    assert "Persephones Juwelen-Laden" in state and "Persephones Laden" not in state
    board = client.get("/api/board?edition=skylanders").get_json()  # the status page's board: the names printed
    assert board["all_squares"][38] == "Persephones Juwelen-Laden" and board["squares"]["35"]["name"] == \
        "Schreckliche Schiffstransporte"
    game = _wait_for_reports(client)
    report = client.get(f"/spiele/{game}").get_data(as_text=True)
    assert "Persephones Juwelen-Laden" in report and "Persephones Laden" not in report
    csv = client.get(f"/spiele/{game}.csv").get_data(as_text=True)
    assert "Persephones Juwelen-Laden" in csv and "Persephones Laden" not in csv


def test_the_files_keys_and_the_written_file_explain_short(tmp_path: Path) -> None:
    """``bankleser edition new --from skylanders`` writes the short names with a comment the family reads."""
    from device.store.editions import as_file

    text = as_file(EDITIONS["skylanders"])
    data = tomllib.loads(text)
    assert data["short"] == {"4": "Reisebüro-Gebühr", "35": "Schiffstransporte", "38": "Persephones Laden"}
    comment = text.split("[short]")[0].rstrip().splitlines()[-1]
    assert comment.startswith("# ") and "21" in comment, comment


def test_the_docs_example_file_reads_with_its_short_name() -> None:
    """docs/editions.md's family file shows ``[short]``: it must be a file the checks accept."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "editions.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None and "[short]" in example.group(1)
    ed = edition(example.group(1))
    assert ed.names[39] == "Jungfernstieg an der Alster" and ed.short_names[39] == "Jungfernstieg"


# -- /admin/ausgaben: the form has a short name beside each name a booking says -------------------------------------


def test_the_edition_form_offers_a_short_name_beside_each_booked_squares_name(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    page = client.get("/admin/ausgaben/neu?von=skylanders").get_data(as_text=True)
    assert re.search(r'<input data-path="short\.35" data-optional value="Schiffstransporte"', page)
    assert re.search(r'<input data-path="short\.39" data-optional value=""', page)
    assert 'data-path="short.30"' not in page  # "Gehen Sie in das Gefängnis": no booking names it
    assert "Name auf der Anzeige, wenn der Name länger als 21 Zeichen ist" in page

    data = edition_data(EDITIONS["skylanders"])
    data = {**data, "key": "skylanders-mia", "base": "skylanders", "names": {**data["names"], 39: "Kaos' Turm am Ende"},
            "short": {}}
    data["names"][38] = "Persephones Edelsteinladen"
    answer = client.post("/api/admin/editions/check", json={"data": json.loads(json.dumps(data))},
                         headers={"X-CSRF-Token": csrf}).get_json()
    assert [p["path"] for p in answer["problems"]] == ["names.38"], answer  # 4 and 35 keep the base's names
    data["short"] = {38: "Edelsteinladen"}
    answer = client.post("/api/admin/editions/check", json={"data": json.loads(json.dumps(data))},
                         headers={"X-CSRF-Token": csrf}).get_json()
    assert answer["problems"] == [], answer
