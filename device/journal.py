"""The journal: every accepted command, durably, in order. The state is its replay.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only after fdatasync, and a
power cut mid-commit leaves a torn WAL frame that SQLite's own checksums detect and drop on
the next open, keeping every earlier commit. Each row also carries a CRC32 of its command,
so a row damaged on the card is reported instead of replayed. Registered cards and settings
live in the same file and survive new games.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS commands (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    cmd TEXT NOT NULL,
    crc INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
    uid TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('player', 'deed')),
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class JournalError(Exception):
    """The journal cannot be read or written; ``message`` is German, for the screen."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(f"{message}: {detail}" if detail else message)
        self.message = message
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Record:
    seq: int
    at: float
    cmd: dict[str, Any]


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


class Journal:
    """One writer connection, one transaction per command."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            check = self._db.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise JournalError("Journal beschädigt", f"{path}: {check}")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as err:
            raise JournalError("Journal nicht lesbar", f"{path}: {err}") from err
        except OSError as err:
            raise JournalError("Speicher nicht erreichbar", f"{path}: {err}") from err

    def append(self, cmd: dict[str, Any], at: float | None = None) -> int:
        """Write one command durably; returns its sequence number once fdatasync'd."""
        text = json.dumps(cmd, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            cur = self._db.execute(
                "INSERT INTO commands (at, cmd, crc) VALUES (?, ?, ?)",
                (time.time() if at is None else at, text, _crc(text)),
            )
        except sqlite3.OperationalError as err:
            full = "full" in str(err).lower()
            raise JournalError("Speicher voll" if full else "Speichern fehlgeschlagen", str(err)) from err
        except sqlite3.DatabaseError as err:
            raise JournalError("Journal beschädigt", str(err)) from err
        seq: int = cur.lastrowid or 0
        return seq

    def records(self) -> Iterator[Record]:
        """Every command in order. A row whose checksum fails is an error, never replayed."""
        try:
            for seq, at, text, crc in self._db.execute("SELECT seq, at, cmd, crc FROM commands ORDER BY seq"):
                if _crc(text) != crc:
                    raise JournalError("Journal beschädigt", f"Eintrag {seq}: Prüfsumme falsch")
                yield Record(seq, at, json.loads(text))
        except sqlite3.DatabaseError as err:
            raise JournalError("Journal nicht lesbar", str(err)) from err

    def __len__(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
        return count

    # Cards and settings ------------------------------------------------------------------

    def cards(self) -> dict[str, tuple[str, str]]:
        return {uid: (kind, value) for uid, kind, value in self._db.execute("SELECT uid, kind, value FROM cards")}

    def register_card(self, uid: str, kind: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO cards (uid, kind, value) VALUES (?, ?, ?)", (uid, kind, value))

    def forget_card(self, uid: str) -> None:
        self._write("DELETE FROM cards WHERE uid = ?", (uid,))

    def setting(self, key: str, default: str | None = None) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_setting(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        try:
            self._db.execute(sql, args)
        except sqlite3.DatabaseError as err:
            raise JournalError("Speichern fehlgeschlagen", str(err)) from err

    def close(self) -> None:
        self._db.close()
