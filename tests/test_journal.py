"""The journal: durable, ordered, and honest about damage (torn writes, corruption, a full card)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from in_play import in_play

from device.store.journal import Journal, JournalError
from device.store.ledger import Ledger

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
from device.store.journal import Journal
j = Journal(Path(sys.argv[1]))
j.append({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
for i in range(20):
    j.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
acknowledged = j.head_file.path.read_bytes()
Path(sys.argv[1] + ".walsize").write_text(str(os.path.getsize(sys.argv[1] + "-wal")))
j.append({"op": "credit", "player": "Anna", "amount": 10, "id": "c20"})
if len(sys.argv) > 2:  # the power failed after the commit, before its acknowledgement
    j.head_file.path.write_bytes(acknowledged)
os._exit(0)  # power cut: no checkpoint, the WAL holds the commits
"""


def write_in_a_child(path: Path, *args: str) -> Path:
    subprocess.run([sys.executable, "-c", WRITER, str(path), *args], check=True, cwd=Path(__file__).parent.parent)
    wal = Path(f"{path}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    return wal


def files_of(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)
            and not p.name.endswith("-shm")}


def test_a_torn_unacknowledged_last_record_is_dropped_and_the_rest_kept(tmp_path: Path) -> None:
    """A power cut in the middle of a commit: that one command was never acknowledged, every earlier one stays."""
    path = tmp_path / "j.sqlite3"
    write_in_a_child(path, "cut-before-ack")
    wal = Path(f"{path}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    before = int(Path(f"{path}.walsize").read_text())
    with open(wal, "r+b") as f:  # the last write only half reached the card (psow=0 pads it: cut the real frame)
        f.truncate(before + 2000)
    records = list(Journal(path).records())
    assert 20 <= len(records) < 22
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
    assert in_play(ledger).players["Anna"].cash == before["players"][0]["cash"] + 10 * acknowledged
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


def test_a_flipped_byte_in_the_wal_is_reported_and_nothing_is_written(tmp_path: Path) -> None:
    """SQLite drops every WAL frame after a damaged one; acknowledged commands must not vanish silently."""
    path = tmp_path / "j.sqlite3"
    wal = write_in_a_child(path)
    data = bytearray(wal.read_bytes())
    data[len(data) * 2 // 3] ^= 0x40
    wal.write_bytes(bytes(data))
    before = files_of(path)
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert err.value.message in ("Journal unvollständig", "Journal beschädigt")
    assert files_of(path) == before  # the WAL was neither merged nor deleted: the evidence stays


def test_half_a_wal_is_reported_not_an_empty_game(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    wal = write_in_a_child(path)
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size // 2)
    with pytest.raises(JournalError, match="fehlen"):
        Journal(path)


def test_a_lost_journal_is_reported_when_the_head_remembers_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    write_in_a_child(path)
    for p in tmp_path.iterdir():
        if not p.name.endswith(".head"):
            p.unlink()
    with pytest.raises(JournalError, match="Journal fehlt"):
        Journal(path)


def test_a_damaged_journal_is_never_written_by_the_ledger_either(tmp_path: Path) -> None:
    """The appliance opening a damaged journal keeps every file as it was (no checkpoint, no WAL merge)."""
    path = tmp_path / "j.sqlite3"
    wal = write_in_a_child(path)
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0x01
    wal.write_bytes(bytes(data))
    before = files_of(path)
    for _ in range(3):
        with pytest.raises(JournalError):
            Ledger(Journal(path))
    assert files_of(path) == before


def test_a_command_that_cannot_be_stored_is_refused_before_it_is_applied(tmp_path: Path) -> None:
    """An id with a lone surrogate was applied in memory, then failed to write."""
    path = tmp_path / "j.sqlite3"
    ledger = Ledger(Journal(path))
    assert ledger.submit(NEW).ok
    outcome = ledger.submit({"op": "credit", "player": "Anna", "amount": 10, "id": "x\ud800"})
    assert not outcome.ok and outcome.code == "bad_command"
    assert in_play(ledger).players["Anna"].cash == 1500
    ledger.journal.close()
    again = Ledger(Journal(path))
    assert again.game.state is not None and again.game.state.players["Anna"].cash == 1500


def test_a_name_that_cannot_be_stored_is_a_clear_error(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(JournalError, match="Ungültiger Text"):
        journal.set_setting("name:04a1b2c3", "x\ud800")


def test_the_journal_is_private_to_its_user(tmp_path: Path) -> None:
    """The journal holds the session signing key, so other users must not read it."""
    path = tmp_path / "state" / "j.sqlite3"
    journal = Journal(path)
    journal.append(NEW)
    assert path.stat().st_mode & 0o777 == 0o600
    assert Path(f"{path}-wal").stat().st_mode & 0o077 == 0
    assert journal.head_file.path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o077 == 0


def test_start_up_replays_only_the_games_a_command_can_still_reach(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for game in range(5):
        journal.append({**NEW, "id": f"g{game}"})
        journal.append(credit(game))
    assert [seq for seq, _ in journal.game_starts()] == [1, 3, 5, 7, 9]
    ledger = Ledger(journal)
    seen = set(ledger.game.applied_ids).union(*(set(r.applied_ids) for r in ledger.game.previous))
    assert seen == {"g3", "c3", "g4", "c4"}
    assert in_play(ledger).players["Anna"].cash == 1510


def test_salvage_exports_every_verifiable_command_and_names_what_was_lost(tmp_path: Path) -> None:
    """`bankleser salvage` rescues a damaged journal without writing to it."""
    from device.store.salvage import salvage

    path = tmp_path / "j.sqlite3"
    wal = write_in_a_child(path)
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size // 2)
    before = files_of(path)
    report = salvage(path, tmp_path / "rescued.sqlite3")
    assert files_of(path) == before
    assert not report.complete and report.acknowledged == 22 and report.exported == report.last < 22
    assert "Fehlen am Ende" in report.text()
    rescued = Journal(tmp_path / "rescued.sqlite3")
    assert next(r.cmd for r in rescued.records()) == NEW and len(rescued) == report.exported


def test_salvage_of_a_damaged_row_skips_it_and_keeps_the_rest(tmp_path: Path) -> None:
    from device.store.salvage import salvage

    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for cmd in (NEW, credit(1), credit(2)):
        journal.append(cmd)
    journal._db.execute("UPDATE commands SET cmd = replace(cmd, '10', '99') WHERE seq = 2")
    journal.close()
    report = salvage(path, tmp_path / "out.sqlite3")
    assert report.damaged == [2] and report.exported == 2
    assert "Beschädigt, nicht übernommen: Einträge 2" in report.text()


def test_the_chart_of_a_long_game_stays_small_and_ends_at_the_present(tmp_path: Path) -> None:
    """The chart kept a point per command (memory and replay grew with the game)."""
    from device.store.ledger import CHART_POINTS

    ledger = Ledger(Journal(tmp_path / "j.sqlite3"))
    ledger.submit(NEW)
    for i in range(3000):
        assert ledger.submit(credit(i)).ok
    _, points = ledger.worth_history()
    assert CHART_POINTS <= len(points) <= 2 * CHART_POINTS + 1
    assert points[0]["Anna"] == 1500 and points[-1]["Anna"] == 1500 + 10 * 3000
    assert [p["seq"] for p in points] == sorted(p["seq"] for p in points)
