"""The service speaks from the catalogue: the start log, the store's errors, the command line, the parts'
names and the first frame in the appliance's language; German as before, English complete."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import words
from device.daemon import cli
from device.store.cards import Cards
from device.store.journal import Journal, JournalError
from device.store.ledger import Ledger
from device.store.salvage import salvage
from drivers import splash
from drivers.display import render
from drivers.part import PART_NAMES, part_name

ROOT = Path(__file__).resolve().parent.parent
NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
GERMAN = re.compile(r"\b(Statusseite|läuft|keine|gesetzt|Gerät|Speicher|Journal beschädigt|Eintrag|Buchungen?|"
                    r"fehlt|fehlen|übernommen|Aufruf|Optionen|Fehler|Spieler|Leser|Startet)\b|[äöüß]")
"""Words the service's German says that no English text of it may: an English line with one of them is not English."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_log(tmp_path: Path, *flags: str) -> list[str]:
    """The log of a simulated appliance's start, up to the line that says it runs (then SIGTERM)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "BANKLESER_BANKER_PIN"}
    proc = subprocess.Popen([sys.executable, "-m", "device.daemon.cli", "run", "--sim", "--state-dir",
                             str(tmp_path / "state"), "--port", str(port), *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if "Traceback" in line or "Bankleser läuft" in line or "Bankleser is running" in line:
                break
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    assert not any("Traceback" in line for line in lines), lines
    return lines


def test_the_start_log_speaks_english_when_the_appliance_does(tmp_path: Path) -> None:
    """`bankleser run --language en`: where the page listens, the banker PIN's hint and the start's end, in English,
    and no German word in the log."""
    lines = start_log(tmp_path, "--language", "en")
    said = [line.partition(": ")[2] for line in lines]
    assert any(s.startswith("Status page on 127.0.0.1:") for s in said), lines
    assert "Banker PIN: none. To set one: on the banker's page with the code the device shows when idle, or on " \
           "the device, Menu without a card → 7 " \
           "Banker PIN (in the simulation on /device), or at the start BANKLESER_BANKER_PIN=1234 ./dev run" in said
    assert said[-1] == f"Bankleser is running (simulation), journal in {tmp_path / 'state'}"
    german = [line for line in lines if GERMAN.search(line)]
    assert not german


def test_the_start_log_stays_german_by_default(tmp_path: Path) -> None:
    said = [line.partition(": ")[2] for line in start_log(tmp_path)]
    assert any(s.startswith("Statusseite auf 127.0.0.1:") for s in said), said
    assert said[-1] == f"Bankleser läuft (Simulation), Journal in {tmp_path / 'state'}"


# --- The store's errors


def full_card(tmp_path: Path) -> Ledger:
    journal = Journal(tmp_path / "j.sqlite3")
    ledger = Ledger(journal)
    assert ledger.submit(NEW).ok
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")  # the card is full now
    return ledger


def test_a_full_card_is_said_in_english(tmp_path: Path) -> None:
    words.use("en")
    ledger = full_card(tmp_path)
    failed = next(o for o in (ledger.submit({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
                              for i in range(400)) if not o.ok)
    assert failed.code == "storage_error" and failed.message == "Storage full: not booked"
    assert ledger.problem == "Storage full"
    with words.speaking("de"):  # a phone reading its page in German on an English box
        assert ledger.problem == "Speicher voll"


def test_a_journal_error_is_said_in_the_language_in_force_when_read(tmp_path: Path) -> None:
    """The error keeps a key and a phrase: made in German, read after the banker chose English, it is English."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for i in range(6):
        journal.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
    journal.close()
    with sqlite3.connect(path) as db:  # a row changed in place, its checksum with it: the chain breaks there
        text = '{"amount":90,"id":"c4","op":"credit","player":"Anna"}'
        db.execute("UPDATE commands SET cmd = ?, crc = ? WHERE seq = 5", (text, zlib.crc32(text.encode())))
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert str(err.value) == "Journal beschädigt: Eintrag 5: Kette unterbrochen (fehlt ein Eintrag?)"
    words.use("en")
    assert (err.value.message, err.value.detail) == ("Journal damaged", "entry 5: chain broken (an entry missing?)")


@pytest.mark.parametrize(("code", "one", "two"), [
    ("de", "1 bestätigte Buchung fehlt", "2 bestätigte Buchungen fehlen"),
    ("en", "1 acknowledged booking missing", "2 acknowledged bookings missing")])
def test_missing_bookings_take_the_plural_rule(tmp_path: Path, code: str, one: str, two: str) -> None:
    """"1 bestätigte Buchungen fehlen" was the old German: the count takes the language's plural form now."""
    words.use(code)
    for lost in (1, 2):
        path = tmp_path / f"{lost}.sqlite3"
        journal = Journal(path)
        for i in range(5):
            journal.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
        journal.close()
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM commands WHERE seq > ?", (5 - lost,))
        with pytest.raises(JournalError) as err:
            Journal(path)
        assert err.value.detail.startswith(one if lost == 1 else two), err.value.detail


def test_salvage_reports_in_the_language_in_force(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append(NEW)
    journal.close()
    assert salvage(tmp_path / "j.sqlite3", tmp_path / "de.sqlite3").text() == "1 Buchung übernommen.\nNichts verloren."
    words.use("en")
    assert salvage(tmp_path / "j.sqlite3", tmp_path / "en.sqlite3").text() == "1 booking copied.\nNothing lost."
    with pytest.raises(ValueError, match="already exists: a new journal is never overwritten"):
        salvage(tmp_path / "j.sqlite3", tmp_path / "en.sqlite3")


def test_a_card_registered_without_a_name_keeps_the_name_of_its_day(tmp_path: Path) -> None:
    """A game books under the card's name: a change of language must not rename a card that plays."""
    cards = Cards(Journal(tmp_path / "j.sqlite3"))
    assert cards.register_player("0a0000aa").name == "Spieler 1"
    words.use("en")
    assert cards.get("0a0000aa").name == "Spieler 1"  # type: ignore[union-attr]
    assert cards.register_player("0a0000bb").name == "Player 2"


# --- The command line


def bankleser(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}, "LANG": lang}
    return subprocess.run([sys.executable, "-m", "device.daemon.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


@pytest.mark.parametrize(("args", "lang"), [(("--help",), "en_GB.UTF-8"), (("run", "--language", "en", "--help"),
                                                                          "C.UTF-8")])
def test_the_help_speaks_english_when_asked(args: tuple[str, ...], lang: str) -> None:
    done = bankleser(*args, lang=lang)
    assert done.returncode == 0 and done.stdout.startswith("usage: bankleser")
    assert not [line for line in done.stdout.splitlines() if GERMAN.search(line)], done.stdout


def test_the_help_is_german_by_default() -> None:
    out = " ".join(bankleser("--help").stdout.split())  # argparse wraps the lines
    assert out.startswith("Aufruf: bankleser") and "MONOPOLY-Bankkartenleser für den Raspberry Pi" in out
    assert "das Gerät starten (ohne Raspberry Pi mit simulierter Hardware)" in out
    assert "diese Hilfe zeigen und beenden" in out


def test_a_wrong_command_line_is_said_in_the_language_asked() -> None:
    assert "bankleser run: Fehler: Argument --port: ungültiger Wert (int): 'x'" in bankleser("run", "--port", "x").stderr
    english = bankleser("run", "--port", "x", "--language", "en").stderr
    assert "bankleser run: error: argument --port: invalid int value: 'x'" in english


def test_argparse_speaks_english_again_after_a_help_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's words reach argparse through its gettext hook for its own parse only: another parser in
    the same process (a test runner's, a tool's) keeps argparse's English."""
    import argparse
    import gettext

    with pytest.raises(SystemExit):
        cli.main(["run", "--language", "de", "--help"])
    assert "Aufruf: bankleser run" in capsys.readouterr().out
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert argparse.ArgumentParser(prog="tool").format_usage() == "usage: tool [-h]\n"


def test_the_parser_is_built_without_the_catalogue() -> None:
    """`run` parses its line before the first frame: the catalogues (and the rules they need) load after it."""
    out = subprocess.run([sys.executable, "-c", "import sys\nfrom device.daemon import cli\n"
                          "cli._parser().parse_args(['run', '--sim'])\nprint('words' in sys.modules)"],
                         capture_output=True, text=True, cwd=ROOT, check=True, timeout=60).stdout
    assert out.strip() == "False"


# --- The parts and the first frame


def test_every_part_has_a_name_in_every_language() -> None:
    assert part_name("reader") == "RFID-Leser" and part_name("keypad") == "Tastatur"
    words.use("en")
    assert part_name("reader") == "RFID reader" and part_name("keypad") == "Keypad"
    assert len({part_name(p) for p in PART_NAMES}) == len(PART_NAMES)


class Said:
    def __init__(self) -> None:
        self.told: list[str] = []

    def status(self, status: str) -> None:
        self.told.append(status)


@pytest.mark.parametrize(("code", "big"), [("de", "Startet…"), ("en", "Starting…")])
def test_the_first_frame_speaks_the_flags_or_the_configs_language(tmp_path: Path, code: str, big: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pi's path reads the config file's [ui] language (smbus2's bus here with the model of a panel behind it);
    the flag speaks in the simulation too."""
    import smbus2

    from drivers.oled_model import Bus, Panel

    panel = Panel("ssd1306")
    monkeypatch.setattr(smbus2, "SMBus", lambda port: Bus(panel))
    config = tmp_path / "config.toml"
    config.write_text(f'[ui]\nlanguage = "{code}"\n', encoding="utf-8")
    by_config, by_flag = Said(), Said()
    assert not isinstance(cli._first_screen(config, sim=False, notifier=by_config), Exception)
    greeted = cli._first_screen(None, sim=True, notifier=by_flag, language=code)
    assert by_config.told == by_flag.told == [big] and splash.screen(code).big == big
    assert panel.visible() == greeted.bus.panels[0x3C].visible() == render(splash.screen(code)).tobytes()


def test_the_first_frames_default_is_the_catalogues() -> None:
    assert splash.LANGUAGE == words.DEFAULT and set(splash.load()["status"]) == set(words.LANGUAGES)
