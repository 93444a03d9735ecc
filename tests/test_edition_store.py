"""A family's edition never changes money or loses data behind its back: one key is one edition (a backup copy
with the same key is said loudly, never chosen by the order of file names), nothing saved is lost without a
previous version, and every way a file comes in reads it with one reader."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from in_play import in_play

from daemon_fixture import PIN, ledger_of
from device.daemon.cli import main
from device.daemon.service import Daemon
from device.store.editions import load
from rules.phrase import Phrase

HAMBURG = '''key = "hamburg"
title = "MONOPOLY Hamburg"
base = "classic"
salary = 250
[names]
39 = "Jungfernstieg"
'''
KOPIE = HAMBURG.replace("salary = 250", "salary = 999")
MUENCHEN = '''key = "muenchen"
title = "MONOPOLY München"
base = "classic"
[names]
39 = "Marienplatz"
1 = "Hanauer Straße"
'''


def folder_of(daemon: Daemon) -> Path:
    folder: Path = daemon.state_dir / "editions"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def banker(client: FlaskClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]}


def new_game(client: FlaskClient, headers: dict[str, str], key: str) -> dict[str, object]:
    cmd = {"op": "new_game", "edition": key, "players": ["Anna", "Ben"], "replace": True}
    answer: dict[str, object] = client.post("/api/commands", json=cmd, headers=headers).get_json()
    return answer


# -- one key, one edition ------------------------------------------------------------------------------------


def test_two_files_with_one_key_are_both_broken_naming_both_and_no_game_starts_with_it(daemon: Daemon) -> None:
    folder = folder_of(daemon)
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    (folder / "hamburg kopie.toml").write_text(KOPIE, encoding="utf-8")
    catalogue = load(daemon.state_dir)
    assert "hamburg" not in catalogue.editions
    broken = {b.path.name: b.problems for b in catalogue.broken}
    assert set(broken) == {"hamburg.toml", "hamburg kopie.toml"}
    for problems in broken.values():
        assert [p.message.key for p in problems] == ["editions.problem.key_twins"]
        assert dict(problems[0].message.values)["files"] == "hamburg kopie.toml, hamburg.toml"
    client = daemon.app.test_client()
    headers = banker(client)
    page = client.get("/admin/ausgaben").get_data(as_text=True)
    assert "hamburg kopie.toml" in page and "hamburg.toml" in page
    refused = new_game(client, headers, "hamburg")  # the pages
    assert refused["ok"] is False and "hamburg kopie.toml, hamburg.toml" in str(refused["message"])
    outcome = ledger_of(daemon).submit({"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"],
                                        "replace": True})  # the device's way in
    assert not outcome.ok and outcome.said is not None and outcome.said.key == "editions.problem.key_twins"
    (folder / "hamburg kopie.toml").unlink()  # the family deletes the copy by hand: no restart
    assert new_game(client, headers, "hamburg") == {"ok": True}
    assert in_play(ledger_of(daemon)).edition.salary == 250


def test_the_command_line_check_of_a_twin_in_the_state_folder_says_it_does_not_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`edition check` of the backup in the box's folder said "in Ordnung – LOS 999" while /admin and the device
    refuse it: one file, one verdict; the twin is said with both files' names and the check fails."""
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    (folder / "hamburg kopie.toml").write_text(KOPIE, encoding="utf-8")
    assert main(["edition", "check", str(folder / "hamburg kopie.toml"), "--state-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "hamburg kopie.toml, hamburg.toml" in out and "in Ordnung" not in out
    (folder / "hamburg.toml").unlink()
    assert main(["edition", "check", str(folder / "hamburg kopie.toml"), "--state-dir", str(tmp_path)]) == 0


def test_a_file_added_changed_or_removed_by_hand_is_seen_at_the_next_use(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    headers = banker(client)
    assert new_game(client, headers, "classic") == {"ok": True}  # the catalogue read once
    folder = folder_of(daemon)
    (folder / "muenchen.toml").write_text(MUENCHEN, encoding="utf-8")
    assert "muenchen" in ledger_of(daemon).editions  # the device
    assert "MONOPOLY München" in client.get("/admin/ausgaben").get_data(as_text=True)  # /admin
    assert new_game(client, headers, "muenchen") == {"ok": True}
    (folder / "muenchen.toml").write_text(MUENCHEN.replace("Marienplatz", "Stachus"), encoding="utf-8")
    assert ledger_of(daemon).editions["muenchen"].names[39] == "Stachus"
    assert in_play(ledger_of(daemon)).edition.names[39] == "Marienplatz"  # the started game keeps its own
    (folder / "muenchen.toml").unlink()
    assert "muenchen" not in ledger_of(daemon).editions
    assert new_game(client, headers, "muenchen")["ok"] is False


# -- nothing a family made is lost ---------------------------------------------------------------------------


def test_saving_under_an_existing_key_asks_and_keeps_the_replaced_text(daemon: Daemon) -> None:
    folder = folder_of(daemon)
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    client = daemon.app.test_client()
    headers = banker(client)
    other = HAMBURG.replace("Jungfernstieg", "Elbchaussee")
    asked = client.post("/api/admin/editions", json={"text": other}, headers=headers)
    assert asked.status_code == 409 and "MONOPOLY Hamburg" in asked.get_json()["question"]
    assert (folder / "hamburg.toml").read_text(encoding="utf-8") == HAMBURG  # nothing written yet
    saved = client.post("/api/admin/editions", json={"text": other, "replace": True}, headers=headers)
    assert saved.status_code == 200 and (folder / "hamburg.toml").read_text(encoding="utf-8") == other
    previous = client.get("/admin/ausgaben").get_data(as_text=True)
    assert "hamburg.toml" in previous and "data-restore=" in previous
    name = next((folder / "previous").iterdir()).name
    back = client.post("/api/admin/editions/restore", json={"name": name}, headers=headers)
    assert back.status_code == 200 and (folder / "hamburg.toml").read_text(encoding="utf-8") == HAMBURG
    assert [p.read_text(encoding="utf-8") for p in (folder / "previous").iterdir()] == [other]  # kept in turn


def test_a_family_edition_is_deleted_on_admin_and_kept_as_a_previous_version(daemon: Daemon) -> None:
    folder = folder_of(daemon)
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    client = daemon.app.test_client()
    headers = banker(client)
    assert 'data-delete="hamburg.toml"' in client.get("/admin/ausgaben").get_data(as_text=True)
    gone = client.post("/api/admin/editions/delete", json={"file": "hamburg.toml"}, headers=headers)
    assert gone.status_code == 200 and not (folder / "hamburg.toml").exists()
    assert "hamburg" not in ledger_of(daemon).editions
    assert [p.read_text(encoding="utf-8") for p in (folder / "previous").iterdir()] == [HAMBURG]
    assert client.post("/api/admin/editions/delete", json={"file": "../config.toml"},
                       headers=headers).status_code == 404


def test_the_form_of_an_edition_with_a_changed_key_asks_before_it_makes_a_second(daemon: Daemon) -> None:
    folder = folder_of(daemon)
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    client = daemon.app.test_client()
    headers = banker(client)
    page = client.get("/admin/ausgaben/neu?von=hamburg").get_data(as_text=True)
    assert '"was": "hamburg"' in page
    data = {"key": "hamburg2", "title": "MONOPOLY Hamburg", "base": "classic"}
    asked = client.post("/api/admin/editions", json={"data": data, "was": "hamburg"}, headers=headers)
    assert asked.status_code == 409 and "hamburg2" in asked.get_json()["question"]
    assert not (folder / "hamburg2.toml").exists()


# -- one reader for every way in -----------------------------------------------------------------------------


def upload(client: FlaskClient, headers: dict[str, str], data: bytes) -> tuple[int, dict[str, object]]:
    r = client.post("/api/admin/editions", json={"file": base64.b64encode(data).decode()}, headers=headers)
    return r.status_code, r.get_json()


def test_a_latin1_upload_keeps_its_umlauts_with_a_word_and_is_saved_as_utf8(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    headers = banker(client)
    status, answer = upload(client, headers, MUENCHEN.encode("cp1252"))
    warnings = answer["warnings"]
    assert status == 200 and isinstance(warnings, list)
    assert [w["code"] for w in warnings][:1] == ["editions.warning.cp1252"]
    assert (folder_of(daemon) / "muenchen.toml").read_text(encoding="utf-8") == MUENCHEN
    assert ledger_of(daemon).editions["muenchen"].names[1] == "Hanauer Straße"


@pytest.mark.parametrize(("data", "code"), [
    (b"", "editions.problem.empty"), (b"  \n# nur ein Kommentar\n", "editions.problem.empty"),
    (b"x" * (41 * 1024), "editions.problem.too_big"),
    (MUENCHEN.encode("utf-16"), "editions.problem.encoding_utf16"),
    (MUENCHEN.replace("München", "M\ufffdnchen").encode(), "editions.problem.replacement"),
])
def test_an_upload_that_is_empty_too_big_or_lost_characters_is_refused_saying_so(daemon: Daemon, data: bytes,
                                                                                  code: str) -> None:
    client = daemon.app.test_client()
    status, answer = upload(client, banker(client), data)
    assert status == 422 and [p["code"] for p in answer["problems"]][:1] == [code]  # type: ignore[attr-defined]
    assert not list(folder_of(daemon).glob("*.toml"))


@pytest.mark.parametrize("data", [MUENCHEN.encode("utf-8-sig"), MUENCHEN.encode("cp1252")])
def test_the_command_line_and_the_state_folder_read_a_bom_and_a_latin1_file_as_the_upload_does(
        tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "muenchen.toml").write_bytes(data)
    assert main(["edition", "check", str(folder / "muenchen.toml"), "--state-dir", str(tmp_path / "x")]) == 0
    assert "MONOPOLY München" in capsys.readouterr().out
    assert load(tmp_path).editions["muenchen"].names[1] == "Hanauer Straße"


def test_the_command_line_refuses_an_empty_file_as_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "leer.toml").write_bytes(b"")
    assert main(["edition", "check", str(tmp_path / "leer.toml"), "--state-dir", str(tmp_path)]) == 1
    assert "leer" in capsys.readouterr().err


# -- keys a family can type; a loop of bases -----------------------------------------------------------------


def test_a_key_with_umlauts_or_only_a_title_suggests_one_that_can_be_typed() -> None:
    from device.store.editions import check_text
    from rules import EDITIONS

    for key, suggested in (("münchen", "muenchen"), ("", "muenchen"), ("Bad Tölz", "bad-toelz")):
        checked = check_text(MUENCHEN.replace('"muenchen"', f'"{key}"'), EDITIONS)
        [problem] = [p for p in checked.problems if p.path == "key"]
        assert problem.message.get("suggest") == suggested


def test_edition_new_refuses_the_key_the_form_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.toml"
    for key in ("München", "classic"):
        assert main(["edition", "new", "--from", "classic", "--key", key, "-o", str(out),
                     "--state-dir", str(tmp_path)]) == 1
        assert not out.exists()
    err = capsys.readouterr().err
    assert "„muenchen“" in err and "mitgelieferte Ausgabe" in err


def test_a_loop_of_bases_is_called_a_loop_naming_its_members(tmp_path: Path) -> None:
    folder = tmp_path / "editions"
    folder.mkdir()
    for key, base in (("stadt-a", "stadt-b"), ("stadt-b", "stadt-a")):
        (folder / f"{key}.toml").write_text(f'key = "{key}"\ntitle = "{key}"\nbase = "{base}"\n', encoding="utf-8")
    broken = {b.path.name: b.problems for b in load(tmp_path).broken}
    assert [p.message.key for p in broken["stadt-a.toml"]] == ["editions.problem.base_loop"]
    assert broken["stadt-a.toml"][0].message.get("keys") == "'stadt-a' → 'stadt-b' → 'stadt-a'"


def test_the_device_lists_a_twin_key_and_refuses_it_naming_both_files(tmp_path: Path) -> None:
    """On the OLED the family looks for "hamburg" among the editions: it is there, and OK says why it does not
    play (the files' names), instead of a list without it."""
    from ui_table import Table

    import words
    from device.scenes.layout import problems
    from device.store.editions import Editions

    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "hamburg.toml").write_text(HAMBURG, encoding="utf-8")
    (folder / "hamburg kopie.toml").write_text(KOPIE, encoding="utf-8")
    table = Table(tmp_path)
    try:
        table.ledger.editions = Editions(tmp_path)
        table.press("hold:C")
        table.choose("Ja: alle Stände neu")
        table.choose("hamburg")
        assert table.tones()[-1] == "refused" and isinstance(table.bank.note, Phrase)
        assert "hamburg kopie.toml, hamburg.toml" in words.say(table.bank.note)
        assert problems(table.screen()) == []  # in the OLED's lines
        assert "hamburg" in table.labels()  # still on the list: nothing started
    finally:
        table.buzzer.close()
        table.journal.close()


def test_the_devices_edition_list_is_one_moments_catalogue_whatever_happens_to_the_files(tmp_path: Path) -> None:
    """The OLED's list of editions is built from one reading of the folder: a file the family removes by hand
    while the list is built (between listing the keys and naming each) leaves it as it was read, never a
    KeyError in the middle of the wizard."""
    from collections.abc import Iterator

    from ui_table import Table

    from device.store.editions import Editions

    class RemovedWhileListed(Editions):
        def __iter__(self) -> Iterator[str]:
            keys = list(super().__iter__())
            (tmp_path / "editions" / "muenchen.toml").unlink(missing_ok=True)  # the family, at this moment
            return iter(keys)

    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "muenchen.toml").write_text(MUENCHEN, encoding="utf-8")
    table = Table(tmp_path)
    try:
        table.ledger.editions = RemovedWhileListed(tmp_path)
        table.press("hold:C")
        table.choose("Ja: alle Stände neu")
        assert "München" in table.labels()  # as the folder was when the list was read
    finally:
        table.buzzer.close()
        table.journal.close()


def test_an_edition_removed_while_its_name_is_on_the_oled_is_refused_when_chosen(tmp_path: Path) -> None:
    """The list stays on the OLED while the banker deletes the edition on /admin (or the family by hand): OK on it
    then says it is no longer there, as a new game of it from the pages is refused, never a KeyError that stops
    the device's input."""
    from ui_table import Table

    from device.scenes.layout import problems
    from device.store.editions import Editions

    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "muenchen.toml").write_text(MUENCHEN, encoding="utf-8")
    table = Table(tmp_path)
    try:
        table.ledger.editions = Editions(tmp_path)
        table.press("hold:C")
        table.choose("Ja: alle Stände neu")
        (folder / "muenchen.toml").unlink()
        table.choose("München")
        note = table.bank.note
        assert table.tones()[-1] == "refused" and isinstance(note, Phrase)
        assert (note.key, note.get("edition")) == ("scenes.new.edition_gone", "München")
        assert problems(table.screen()) == []  # in the OLED's lines
        assert "München" in table.labels()  # still the list: nothing started
    finally:
        table.buzzer.close()
        table.journal.close()
