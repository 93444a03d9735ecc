"""`bankleser salvage` on every kind of broken file: a report or one clear line, never a traceback."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from cuts import cut_while_creating
from device.store.journal import Journal
from device.store.salvage import salvage

NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
ROOT = Path(__file__).resolve().parent.parent


def good_journal(path: Path) -> Path:
    journal = Journal(path)
    journal.append(NEW)
    journal.append({"op": "credit", "player": "Anna", "amount": 10})
    journal.register_card("04A1B2C3", "player", "Anna")
    journal.close()
    return path


def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def empty(path: Path) -> None:
    path.write_bytes(b"")


def text_file(path: Path) -> None:
    path.write_text("Das ist kein Journal.\n" * 100)


def not_ours(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE other (x)")


def header_only(path: Path) -> None:
    good_journal(path)
    data = path.read_bytes()
    path.write_bytes(data[:100])
    Path(f"{path}-wal").unlink(missing_ok=True)


def truncated_page(path: Path) -> None:
    good_journal(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path.write_bytes(path.read_bytes()[:6000])


def garbage_wal(path: Path) -> None:
    good_journal(path)
    Path(f"{path}-wal").write_bytes(os.urandom(10000))


def second_page_garbled(path: Path) -> None:
    good_journal(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096:8192] = os.urandom(4096)
    path.write_bytes(bytes(data))


def not_utf8_rows(path: Path) -> None:
    good_journal(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE commands SET cmd = CAST(X'FFFE00' AS TEXT) WHERE seq = 2")
        db.execute("UPDATE cards SET value = CAST(X'FF' AS TEXT)")


def wrong_types(path: Path) -> None:
    good_journal(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE c2 AS SELECT * FROM commands")
        db.execute("DROP TABLE commands")
        db.execute("CREATE TABLE commands (seq, at, cmd, crc, link)")
        db.execute("INSERT INTO commands SELECT * FROM c2")
        db.execute("INSERT INTO commands VALUES ('drei', X'00', 42, 'crc', NULL)")
        db.execute("INSERT INTO commands VALUES (4, 1.0, '[1, 2]', 0, NULL)")


def garbage_head(path: Path) -> None:
    good_journal(path)
    Path(f"{path}.head").write_bytes(os.urandom(1024))


BROKEN: dict[str, Callable[[Path], object]] = {
    "random bytes": garbage, "empty file": empty, "text file": text_file, "another program's database": not_ours,
    "only the header": header_only, "a page cut off": truncated_page, "a WAL of random bytes": garbage_wal,
    "a garbled page": second_page_garbled, "rows that are not UTF-8": not_utf8_rows,
    "values of the wrong type": wrong_types, "a head of random bytes": garbage_head,
    "cut while created": cut_while_creating,
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_salvage_never_prints_a_traceback_whatever_the_file(tmp_path: Path, kind: str) -> None:
    source = tmp_path / "journal.sqlite3"
    BROKEN[kind](source)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    result = subprocess.run([sys.executable, "-m", "device.daemon.cli", "salvage", str(source),
                             str(tmp_path / "out" / "rescued.sqlite3")], capture_output=True, text=True, cwd=ROOT)
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode in (0, 1, 3), result.stderr
    if result.returncode == 1:
        assert result.stderr.startswith("bankleser salvage: ") and len(result.stderr.splitlines()) == 1
    else:
        assert re.match(r"(1 Buchung|([02-9]|\d\d+) Buchungen) übernommen\.\n", result.stdout), result.stdout
        Journal(tmp_path / "out" / "rescued.sqlite3").close()  # what it wrote checks out
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before  # the source untouched


def test_salvage_rolls_back_a_leftover_rollback_journal(tmp_path: Path) -> None:
    """A cut while SQLite created the journal left ``-journal``; salvage copied only the file and
    ``-wal`` and ended in "no such table: commands". It copies ``-journal`` too, and SQLite rolls back the copy."""
    source = cut_while_creating(tmp_path / "journal.sqlite3", settings={"banker_pin": "x"})
    report = salvage(source, tmp_path / "rescued.sqlite3")
    assert report.exported == 0 and report.complete
    rescued = Journal(tmp_path / "rescued.sqlite3")
    assert rescued.setting("banker_pin") == "x"
    assert Path(f"{source}-journal").exists()  # the source is never written


def test_salvage_names_rows_of_the_wrong_type_as_damaged(tmp_path: Path) -> None:
    source = tmp_path / "journal.sqlite3"
    wrong_types(source)
    report = salvage(source, tmp_path / "rescued.sqlite3")
    assert report.exported == 2 and report.damaged == [4]


def test_salvage_says_what_a_file_is_when_it_is_no_journal(tmp_path: Path) -> None:
    from device.store.salvage import SalvageError

    not_ours(tmp_path / "a.sqlite3")
    with pytest.raises(SalvageError, match="kein Bankleser-Journal"):
        salvage(tmp_path / "a.sqlite3", tmp_path / "b.sqlite3")
    text_file(tmp_path / "c.sqlite3")
    with pytest.raises(SalvageError, match="keine SQLite-Datenbank"):
        salvage(tmp_path / "c.sqlite3", tmp_path / "d.sqlite3")
