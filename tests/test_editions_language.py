"""A family writing its own edition reads every check, help and page text in its language: a broken
file checked with the English catalogue is told in English — by `bankleser edition`, in the family folder's list,
in the /admin/ausgaben API — with no German word but the file's own names; German stays as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from po_read import message_forms

import words
from device.daemon.cli import main
from device.store.editions import Shelf, at_hand, file_comments, told
from rules import EDITIONS
from rules.editions import read_edition
from words.compile import po_path

UK = '''key = "leeds"
title = "MONOPOLY Leeds"
base = "classic-uk"
currency = "£"

[names]
1 = "Kirkgate"
39 = "Briggate"

[buildings]
house = { singular = "Terrace", plural = "Terraces", gender = "n" }
hotel = { singular = "Mill", plural = "Mills", gender = "f" }
'''
"""A family's board written against the UK board: its own names and building words are English."""

BROKEN = UK.replace('currency = "£"', 'curency = "£"') + '''
[quick]
deeds_each = "two"

[taxes]
5 = 200

[deeds.7]
price = 100

[deeds.39]
rents = [50, 200, 600, 1400, 1800, 1700]
mortgage = 500

[deeds.47]
price = 10
'''
"""Seven mistakes of six kinds: a typo, a wrong type, a tax on a station, a deed on Chance, rents that fall, a
mortgage above the price, a square of MEGA's board."""

SAID_IN_ENGLISH = [
    "line 4, curency: unknown key – did you mean 'currency'?",
    'line 15, quick.deeds_each: must be a whole number, not "two"',
    "line 18, taxes.5: King's Cross Station is not a tax square (4 or 38)",
    "line 20, deeds.7: square 7 (Chance) has no title deed",
    "line 27, deeds.47: there is no square 47 (0–39) – boards with 52 squares (MEGA MONOPOLY) are not supported yet",
    "line 24, deeds.39.rents: the rents must rise: 1800 is followed by 1700",
    "line 25, deeds.39.mortgage: the mortgage (500) must not be higher than the price (400)",
]
SAID_IN_GERMAN = [
    "Zeile 4, curency: unbekannter Schlüssel – gemeint: 'currency'?",
    'Zeile 15, quick.deeds_each: muss eine ganze Zahl sein, nicht "two"',
    "Zeile 18, taxes.5: King's Cross Station ist kein Steuerfeld (4 oder 38)",
    "Zeile 20, deeds.7: zu Feld 7 (Chance) gibt es keine Besitzrechtkarte",
    "Zeile 27, deeds.47: Feld 47 gibt es nicht (0–39) – Bretter mit 52 Feldern (MEGA MONOPOLY) werden noch nicht "
    "unterstützt",
    "Zeile 24, deeds.39.rents: die Mieten müssen steigen: auf 1800 folgt 1700",
    "Zeile 25, deeds.39.mortgage: die Hypothek (500) darf nicht höher sein als der Preis (400)",
]


def _catalogue_words(code: str) -> set[str]:
    with open(po_path(code, "editions"), "rb") as f:
        catalog = read_po(f, locale=code)
    found: set[str] = set()
    for message in catalog:
        for text in message_forms(message):
            found |= set(re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text))
    return found


GERMAN_WORDS = _catalogue_words("de") - _catalogue_words("en")
"""Every word of the German catalogue that the English one never says ("Zeile", "fehlt", "Feld", "Hinweis" …)."""


def german_in(text: str, *own: str) -> list[str]:
    """The German words in ``text``, leaving out the file's (and its base's) own names."""
    for name in own:
        text = text.replace(name, "")
    return sorted({w for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", text) if w in GERMAN_WORDS or re.search("[äöüß]", w)})


def test_the_detector_finds_german() -> None:
    """The check below can fail: a German answer is caught."""
    assert german_in("Zeile 3, key: fehlt") == ["Zeile", "fehlt"]
    assert german_in("line 3, key: missing") == []


def test_each_problem_is_told_in_english_with_the_boards_names() -> None:
    checked = read_edition(BROKEN, EDITIONS)
    assert checked.edition is None and checked.base is EDITIONS["classic-uk"]
    with words.speaking("en"):
        assert [told(p, checked.base) for p in checked.problems] == SAID_IN_ENGLISH
    assert [told(p, checked.base) for p in checked.problems] == SAID_IN_GERMAN  # German, the default, as before


def test_a_file_without_base_names_squares_by_the_board_its_reader_knows() -> None:
    """No base to take names from: German says the classic board's, English the UK board's."""
    checked = read_edition('key = "x"\n[deeds.7]\nprice = 1\n', EDITIONS)
    problem = next(p for p in checked.problems if p.path == "deeds.7")
    assert checked.base is None and told(problem) == "Zeile 2, deeds.7: zu Feld 7 (Ereignisfeld) gibt es " \
                                                     "keine Besitzrechtkarte"
    with words.speaking("en"):
        assert at_hand(None) is EDITIONS["classic-uk"]
        assert told(problem) == "line 2, deeds.7: square 7 (Chance) has no title deed"


@pytest.mark.parametrize("mistake", [
    ('key = "leeds"', 'key = "Leeds Süd"'), ("[names]", 'board = "mega"\n[names]'),
    ("[names]", "km_notation = true\n[names]"), ("[names]", "scale = 0\n[names]"), ("[names]", "salary = -200\n[names]"),
    ('39 = "Briggate"', '39 = "Kirkgate"'), ('39 = "Briggate"', '39 = "Briggate and the Headrow, Leeds LS1"'),
    ('gender = "n" }', "}"), ('gender = "f"', 'gender = "x"'), ("[names]", "[quick]\ndeeds_each = 9\n[names]"),
    ("[names]", "[stock]\nhouses = 0\n[names]"), ("[names]", "[groups]\nstations = \"\"\n[names]"),
    ("[names]", "[deeds.12]\nhouse_price = 50\n[names]"), ("[names]", "[deeds.1]\nrents = [2, 10]\n[names]"),
    ('base = "classic-uk"', 'base = "atlantis"'), ('key = "leeds"', 'key = "leeds'), ('key = "leeds"', ""),
    ("[names]", "[names]\n52 = \"x\""), ("[names]", "[names]\nx = \"y\""), ("[names]", "[speed]\nx = 1\n[names]"),
    ("[buildings]", "[taxes]\n4 = []\n[buildings]"), ("[names]", "names = 1\n[xnames]"),
])
def test_every_kind_of_mistake_is_english_in_english(mistake: tuple[str, str]) -> None:
    """Each check of the file format, told in English: no German word but the file's names (and no key unsaid)."""
    text = UK.replace(*mistake)
    assert text != UK
    checked = read_edition(text, EDITIONS)
    assert checked.problems, mistake
    with words.speaking("en"):
        said = [told(p, checked.base) for p in checked.problems]
    for line in said:
        assert german_in(line, "Leeds Süd") == [], line
        assert not re.search(r"\beditions\.", line), line  # every key has its words


def test_bankleser_edition_check_answers_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "leeds.toml"
    path.write_text(BROKEN, encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path), "--language", "en"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"leeds.toml: {line}" for line in SAID_IN_ENGLISH] + \
        ["leeds.toml: 7 problems – this edition cannot be played as it is"]
    assert german_in("\n".join(out)) == []

    path.write_text(UK, encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path), "--language", "en"]) == 0
    assert capsys.readouterr().out == "leeds.toml: OK – MONOPOLY Leeds (leeds, based on classic-uk): 2 names " \
        "of its own, Terrace/Terraces and Mill/Mills, starting money £1500, GO £200\n"


def test_the_check_takes_the_configs_language_and_german_stays_as_it_was(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "leeds.toml"
    path.write_text(BROKEN.replace("[quick]", "[deeds.1]\nprice = 55\n[quick]"), encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "en"\n', encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "leeds.toml: 7 problems – this edition cannot be played as it is" in out and german_in(out) == []
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path)]) == 1  # no config: German
    out = capsys.readouterr().out
    assert "leeds.toml: 7 Probleme – so ist diese Ausgabe nicht spielbar" in out


def test_a_copy_error_is_a_note_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "leeds.toml"
    path.write_text(UK + "\n[deeds.19]\nrents = [18, 80, 220, 600, 800, 1000]\n", encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path), "--language", "en"]) == 0
    out = capsys.readouterr().out
    assert "leeds.toml: note: line 15, deeds.19.rents: 18 where classic-uk has 16: a typo?" in out
    assert german_in(out) == []


def test_the_list_of_a_family_folder_is_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "leeds.toml").write_text(UK, encoding="utf-8")
    (folder / "broken.toml").write_text(UK.replace("leeds", "york").replace(', gender = "n"', ""), encoding="utf-8")
    assert main(["edition", "list", "--state-dir", str(tmp_path), "--language", "en"]) == 0
    out = capsys.readouterr().out
    assert f"classic          {EDITIONS['classic'].title} (shipped)" in out
    assert f"leeds            MONOPOLY Leeds ({folder / 'leeds.toml'}, based on classic-uk)" in out
    assert "broken.toml      cannot be played (1 problem):\n    line 11, buildings.house.gender: missing (m, f or n: " \
           "the German article der, die, das; English says “a” and “the” for all three)" in out
    assert german_in(out.replace("der, die, das", ""), *(e.title for e in EDITIONS.values())) == []


def test_a_new_file_is_written_in_english_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine.toml"
    assert main(["edition", "new", "--from", "classic-us", "-o", str(out), "--state-dir", str(tmp_path),
                 "--language", "en"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# A family edition based on classic-us: change what your board prints differently, delete what stays the same.")
    assert "# square number (0 = GO … 39) = the name on your board" in text
    assert 'key = "classic-us-family"' in text and 'title = "MONOPOLY US (Atlantic City) (family)"' in text
    comments = "\n".join(line for line in text.splitlines() if "#" in line)
    assert german_in(comments.replace("der, die, das", "")) == []
    assert f"{out}: written (classic-us-family, based on classic-us)" in capsys.readouterr().out
    checked = read_edition(text, EDITIONS)
    assert checked.edition is not None and checked.warnings == []
    assert main(["edition", "show", "atlantis", "--state-dir", str(tmp_path), "--language", "en"]) == 1
    assert capsys.readouterr().err.startswith("bankleser edition show: there is no edition 'atlantis' (banking, classic")


def test_the_comments_say_what_the_gender_is_for_in_each_language() -> None:
    assert "der, die, das" in file_comments(EDITIONS["classic"])["buildings"]
    with words.speaking("en"):
        said = file_comments(EDITIONS["classic-uk"])
    assert "German" in said["buildings"] and "“a” and “the”" in said["buildings"]
    assert said["names"] == "square number (0 = GO … 39) = the name on your board"


def test_the_help_is_english_with_language_en(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["edition", "check", "--language", "en", "--help"])
    out = capsys.readouterr().out
    assert "check a family's edition file" in out or "the edition's TOML file" in out
    assert german_in(out) == [] and "editions." not in out
    words.use(words.DEFAULT)
    with pytest.raises(SystemExit):
        main(["edition", "--help"])
    assert "eine eigene Ausgabe-Datei prüfen" in capsys.readouterr().out


def test_the_admin_api_tells_a_broken_file_in_the_pages_language(tmp_path: Path) -> None:
    """The shelf the page reads: problems and notes said in the language of the request that asks."""
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "leeds.toml").write_text(BROKEN, encoding="utf-8")
    shelf = Shelf(tmp_path)
    with words.speaking("en"):
        overview = shelf.overview()
        _, answer = shelf.check(BROKEN)
    assert [p["text"] for p in overview["broken"][0]["problems"]] == SAID_IN_ENGLISH
    assert [p["text"] for p in answer["problems"]] == SAID_IN_ENGLISH
    assert answer["problems"][5]["message"] == "the rents must rise: 1800 is followed by 1700"
    assert answer["problems"][5]["code"] == "editions.problem.rents_rise"  # what a program reads: no language
    assert [p["text"] for p in shelf.check(BROKEN)[1]["problems"]] == SAID_IN_GERMAN


# -- the page: /admin/ausgaben and its script ---------------------------------------------------------------


def test_the_template_and_the_script_say_nothing_themselves() -> None:
    """editions.html writes no text of its own (every one by key) and editions.js takes its texts from the page."""
    from page_words import TEMPLATES, TemplateText

    source = (TEMPLATES / "editions.html").read_text(encoding="utf-8")
    parser = TemplateText()
    parser.feed(re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S))
    left = [t.strip(" –\n") for t in parser.found if re.search(r"[A-Za-zÄÖÜäöüß]{2,}", t)]
    assert [t for t in left if t != "Bankleser"] == []  # the product's name
    script = (TEMPLATES.parent / "static" / "editions.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("//"))
    literals = re.findall(r'"([^"\n]*)"|`([^`\n]*)`', code)
    said = [a or b for a, b in literals if re.search(r"[A-Za-zÄÖÜäöüß]{3,}", a or b)]
    program = {"use strict", "/api/session", "Content-Type", "application/json", "X-CSRF-Token", "POST", "data-list",
               "data-optional",
               "number", "#edition-words", "#edition-data", "[data-path]", "[data-check]", "#msg", "#edition-form",
               "#form-problems", "input", "submit", "/api/admin/editions/check", "/api/admin/editions", "#upload",
               "#upload-file", "#upload-problems", '[data-check="${path}"]', "[data-delete]", "[data-restore]",
               "click", "/api/admin/editions/delete", "/api/admin/editions/restore", "data-number", "span", "note",
               "problem"}
    from webui.editions import JS_KEYS  # the catalogue's keys the page renders for the script

    assert [s for s in said if s not in program and not s.startswith("editions.page.") and s not in JS_KEYS] == []


@pytest.fixture
def family(tmp_path: Path) -> Path:
    folder = tmp_path / "state" / "editions"
    folder.mkdir(parents=True)
    (folder / "leeds.toml").write_text(UK + "\n[deeds.19]\nrents = [18, 80, 220, 600, 800, 1000]\n", encoding="utf-8")
    (folder / "broken.toml").write_text(BROKEN.replace('"leeds"', '"york"'), encoding="utf-8")
    return folder


def english_page(html: str, *names: str) -> list[str]:
    """The German words an English page shows, its editions' own names left out."""
    from page_words import GERMAN, Text

    parser = Text()
    parser.feed(html)
    text = "\n".join(parser.parts)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return sorted(set(GERMAN.findall(text)) | set(german_in(text)))


def test_the_editions_page_and_the_form_are_english_with_the_editions_own_names(family: Path, daemon: Any) -> None:
    from daemon_fixture import PIN

    client = daemon.app.test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    assert client.post("/api/admin/language", json={"language": "en"}, headers={"X-CSRF-Token": csrf}).status_code == 200
    names = [e.title for e in Shelf(daemon.state_dir).all().values()] + ["Bankleser"]
    html = client.get("/admin/ausgaben").get_data(as_text=True)
    assert '<html lang="en">' in html and "Files that cannot be played as they are" in html
    assert "leeds, family edition, based on classic-uk" in html
    assert "Note: line 15, deeds.19.rents: 18 where classic-uk has 16: a typo?" in html
    assert "line 20, deeds.7: square 7 (Chance) has no title deed" in html
    assert english_page(html, *names) == []
    words_block = json.loads(re.search(r'id="edition-words">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    assert words_block["editions.page.saved"] == "Saved: {key}" and german_in(" ".join(words_block.values())) == []

    uk = EDITIONS["classic-uk"]
    form = client.get("/admin/ausgaben/neu?von=classic-uk").get_data(as_text=True)
    assert "Square 1 (brown)" in form and "Square 5 (stations)" in form and 'value="classic-uk-family"' in form
    assert "m (German “der”)" in form
    cited = ("“der”", "“die”", "“das”", "(der, die, das)")  # the German articles a gender stands for, as quoted
    assert english_page(form, *uk.names, uk.title, "stations", "utilities", "Bankleser", *cited) == []

    answer = client.post("/api/admin/editions/check", json={"text": BROKEN}, headers={"X-CSRF-Token": csrf}).get_json()
    assert [p["text"] for p in answer["problems"]] == SAID_IN_ENGLISH
    saved = client.post("/api/admin/editions", json={"text": BROKEN}, headers={"X-CSRF-Token": csrf})
    assert saved.status_code == 422 and saved.get_json()["problems"][0]["message"] == \
        "unknown key – did you mean 'currency'?"
    missing = client.get("/admin/ausgaben/neu?von=atlantis")
    assert missing.status_code == 404 and "There is no such edition" in missing.get_data(as_text=True)


def test_the_editions_page_in_german_is_as_it_was(family: Path, daemon: Any) -> None:
    from daemon_fixture import PIN

    client = daemon.app.test_client()
    client.post("/api/login", json={"pin": PIN})
    html = client.get("/admin/ausgaben").get_data(as_text=True)
    assert '<html lang="de">' in html and "<h2>Dateien, die so nicht spielbar sind</h2>" in html
    assert "(leeds, eigene Ausgabe, Basis classic-uk)" in html and "(classic, mitgeliefert)" in html
    assert "Hinweis: Zeile 15, deeds.19.rents: 18 statt 16 wie in classic-uk: ein Tippfehler?" in html
    form = client.get("/admin/ausgaben/neu?von=classic").get_data(as_text=True)
    assert "Feld 1 (Braun)" in form and "Haus: Geschlecht" in form and ">das</option>" in form


def test_the_log_names_a_broken_file_in_the_appliances_language(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The banker fixes the file from the log: its line is in the appliance's language, even when the folder is first
    read for a phone's page in another."""
    from device.store.editions import family_editions

    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "york.toml").write_text(UK.replace("leeds", "york").replace(', gender = "n"', ""), encoding="utf-8")
    with words.speaking("en"):
        family_editions(tmp_path)
    assert "Ausgabe york.toml ist nicht spielbar: Zeile 11, buildings.house.gender: fehlt (m, f oder n: der, die, das)" \
        in caplog.text
    words.use("en")
    family_editions(tmp_path)
    assert "edition york.toml cannot be played: line 11, buildings.house.gender: missing" in caplog.text
