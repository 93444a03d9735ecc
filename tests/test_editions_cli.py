"""`bankleser edition …` and `bankleser replay --editions DIR`: German answers, each problem with its
line and key, exit status 0 or 1, never a traceback; a broken family file never stops the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.daemon.cli import main
from device.store.editions import load
from rules import EDITIONS
from rules.editions import read_edition

HAMBURG = (Path(__file__).parent / "data" / "hamburg.toml").read_text(encoding="utf-8")
"""A family's edition of the classic board: its own currency, names and buildings (read by the rules' tests too)."""


def edition_dir(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "editions"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    return folder


def test_check_says_in_ordnung_with_a_summary_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = edition_dir(tmp_path, hamburg=HAMBURG)
    assert main(["edition", "check", str(folder / "hamburg.toml"), "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "hamburg.toml: in Ordnung – MONOPOLY Hamburg (hamburg, Basis classic): 2 eigene Namen" in out
    assert "Speicher/Speicher" in out


def test_check_names_each_problem_with_line_and_key_and_exits_1(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hamburg.toml"
    path.write_text(HAMBURG + "\n[deeds.39]\nrents = [50, 200, 600, 1400, 1800, 1700]\ncolor = 1\n", encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    rents = next(line for line in out.splitlines() if "deeds.39.rents" in line)  # the line, the key, the values
    assert rents.startswith("hamburg.toml: Zeile 15, deeds.39.rents: ") and rents.index("1800") < rents.index("1700")
    assert "Zeile 16, deeds.39.color: unbekannter Schlüssel" in out
    assert "2 Probleme – so ist diese Ausgabe nicht spielbar" in out and "Traceback" not in out


def test_check_of_a_file_that_is_not_there_or_not_text_is_one_line_and_1(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition", "check", str(tmp_path / "fehlt.toml"), "--state-dir", str(tmp_path)]) == 1
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe")
    assert main(["edition", "check", str(tmp_path / "bin.toml"), "--state-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "fehlt.toml: nicht lesbar" in err and "bin.toml: in UTF-16 gespeichert" in err  # with how to save it


def test_the_oled_measures_a_name_in_pixels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Within the rules' 32 characters, but wider than the one line of the OLED's font a square's name may take:
    the check asks for a short name; the short name the OLED shows is measured in its font too, and fits."""
    wide = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"
    path = tmp_path / "breit.toml"
    path.write_text(HAMBURG.replace('"Reeperbahn"', f'"{wide}"'), encoding="utf-8")
    assert read_edition(path.read_text(encoding="utf-8"), EDITIONS).edition is None
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path)]) == 1
    said = next(line for line in capsys.readouterr().out.splitlines() if "names.1: " in line)
    assert "31" in said and "21" in said and "[short]" in said  # its length, the limit, where a short name goes
    path.write_text(HAMBURG.replace('"Reeperbahn"', f'"{wide}"') + f'\n[short]\n1 = "{wide[:21]}"\n', encoding="utf-8")
    assert main(["edition", "check", str(path), "--state-dir", str(tmp_path)]) == 0


def test_list_shows_the_family_editions_and_a_broken_file_with_its_problems(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edition_dir(tmp_path, hamburg=HAMBURG, kaputt=HAMBURG.replace("hamburg", "kiel").replace(', gender = "m"', ""),
                altona=HAMBURG.replace('"hamburg"', '"altona"').replace('"classic"', '"hamburg"'),
                classic=HAMBURG.replace('"hamburg"', '"classic"'))
    assert main(["edition", "list", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "hamburg          MONOPOLY Hamburg (" in out and "altona" in out and "Basis hamburg" in out
    assert "kaputt.toml      ist nicht spielbar (1 Problem):" in out and "buildings.house.gender: fehlt" in out
    assert "'classic' ist eine mitgelieferte Ausgabe" in out
    catalogue = load(tmp_path)
    assert sorted(catalogue.family()) == ["altona", "hamburg"] and len(catalogue.broken) == 2
    assert set(EDITIONS) <= set(catalogue.editions)


def test_show_prints_an_edition_as_a_file_that_reads_back_the_same(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    assert main(["edition", "show", "skylanders", "--state-dir", str(tmp_path)]) == 0
    checked = read_edition(capsys.readouterr().out, EDITIONS)
    assert checked.edition == EDITIONS["skylanders"]
    assert main(["edition", "show", "atlantis", "--state-dir", str(tmp_path)]) == 1


def test_new_writes_a_commented_file_that_checks_and_plays_as_its_base(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mia.toml"
    assert main(["edition", "new", "--from", "skylanders", "-o", str(out), "--state-dir", str(tmp_path)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Eine eigene Ausgabe auf Grundlage von skylanders") and 'base = "skylanders"' in text
    assert "# Feldnummer (0 = LOS … 39) = der Name auf eurem Brett" in text
    checked = read_edition(text, EDITIONS)
    assert checked.edition is not None and checked.warnings == []
    assert checked.edition.key == "skylanders-familie" and checked.edition.names == EDITIONS["skylanders"].names
    assert main(["edition", "new", "--from", "skylanders", "-o", str(out), "--state-dir", str(tmp_path)]) == 1


def test_replay_with_editions_plays_a_hand_written_game_of_a_family_edition(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = edition_dir(tmp_path, hamburg=HAMBURG)
    game = tmp_path / "spiel.jsonl"
    game.write_text("\n".join(json.dumps(c) for c in (
        {"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]},
        {"op": "buy", "player": "Anna", "square": 39})) + "\n", encoding="utf-8")
    assert main(["replay", "--editions", str(folder), str(game)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"ok": True} and lines[1] == {"ok": True} and lines[2]["state"]["edition"] == "hamburg"
    assert main(["replay", str(game)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["code"] == "bad_command"


def test_the_deed_stickers_print_a_family_editions_names_and_prices(tmp_path: Path) -> None:
    """"the deed stickers … take the names, money and words from the game's edition"."""
    from device.prints.labels import deed_stickers

    edition_dir(tmp_path, hamburg=HAMBURG + "\n[deeds.39]\nprice = 440\nmortgage = 220\n")
    svg = deed_stickers("hamburg", load(tmp_path).editions)
    assert "Jungfernstieg" in svg and "Feld 39 · 440" in svg and "Reeperbahn" in svg
    with pytest.raises(ValueError, match="unbekannte Ausgabe"):
        deed_stickers("hamburg")
