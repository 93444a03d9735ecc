"""The journal: durable, ordered, and honest about damage (torn writes, corruption, a full card)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.journal import Journal, JournalError
from device.ledger import Ledger

NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}


def credit(n: int) -> dict[str, object]:
    return {"op": "credit", "player": "Anna", "amount": 10, "id": f"c{n}"}


def test_commands_come_back_in_order_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for cmd in (NEW, credit(1), credit(2)):
        journal.append(cmd)
    journal.close()
    assert [r.cmd for r in Journal(path).records()] == [NEW, credit(1), credit(2)]


def test_wal_and_full_synchronous_are_in_force(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


WRITER = """
import os, sys
from pathlib import Path
from device.journal import Journal
j = Journal(Path(sys.argv[1]))
j.append({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
for i in range(20):
    j.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
os._exit(0)  # power cut: no checkpoint, the WAL holds the commits
"""


def test_a_torn_last_record_is_dropped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    subprocess.run([sys.executable, "-c", WRITER, str(path)], check=True, cwd=Path(__file__).parent.parent)
    wal = Path(f"{path}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    with open(wal, "r+b") as f:  # the last write only half reached the card
        f.truncate(wal.stat().st_size - 2000)
    records = list(Journal(path).records())
    assert 0 < len(records) < 21
    assert records[0].cmd == NEW
    assert [r.cmd["id"] for r in records[1:]] == [f"c{i}" for i in range(len(records) - 1)]


def test_a_damaged_row_is_reported_not_replayed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.append(NEW)
    journal.append(credit(1))
    journal._db.execute("UPDATE commands SET cmd = replace(cmd, '10', '99') WHERE seq = 2")
    with pytest.raises(JournalError, match="Prüfsumme"):
        list(journal.records())


def test_a_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for i in range(200):
        journal.append(credit(i))
    journal.close()
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert err.value.message in ("Journal nicht lesbar", "Journal beschädigt")


def test_full_disk_refuses_the_command_and_keeps_everything_acknowledged(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    ledger = Ledger(journal)
    assert ledger.submit(NEW).ok
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")  # the card is full now
    before = ledger.snapshot()["state"]
    outcomes = [ledger.submit(credit(i)) for i in range(400)]
    failed = [o for o in outcomes if not o.ok]
    assert failed and failed[0].code == "storage_error" and "Speicher voll" in failed[0].message
    acknowledged = sum(o.ok for o in outcomes)
    assert ledger.game.state.players["Anna"].cash == before["players"][0]["cash"] + 10 * acknowledged
    assert len(list(journal.records())) == 1 + acknowledged
    assert ledger.problem == "Speicher voll"


def test_cards_and_settings_survive_new_games(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.register_card("04a1b2c3", "player", "1")
    journal.set_setting("name:04a1b2c3", "Oma")
    journal.append(NEW)
    journal.append(NEW)
    journal.close()
    again = Journal(path)
    assert again.cards() == {"04a1b2c3": ("player", "1")} and again.setting("name:04a1b2c3") == "Oma"


def test_unwritable_directory_is_a_clear_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        target = Path("/proc/bankleser/j.sqlite3")  # even root cannot create files in /proc
    else:
        target = tmp_path / "ro" / "j.sqlite3"
        target.parent.mkdir()
        target.parent.chmod(0o500)
    with pytest.raises(JournalError):
        Journal(target)


def test_integrity_check_runs_at_start(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
