"""The journal: every accepted command, durably, in order. The state is its replay.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only after fdatasync. SQLite's
own WAL checksums drop a torn frame, but they drop every later frame with it, silently: one
flipped byte in the WAL would lose every acknowledged command after it. So each row also
carries a link of a hash chain over every row before it, and after each commit the head of
the chain (its sequence number and link) is written to a small file of its own
(:mod:`device.store.head`). At start the journal is read through a read-only connection and checked
against that head; a journal that lacks an acknowledged command, or whose chain is broken, is
reported and never opened for writing, so SQLite never merges or deletes a damaged WAL.

Registered cards and settings live in the same file and survive new games.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
import urllib.parse
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec

import words
from rules.phrase import Phrase, phrase

from .head import Head, HeadFile

log = logging.getLogger(__name__)

COMPANIONS = ("", "-wal", "-shm", "-journal", ".head")
"""The journal's files: the database, SQLite's WAL, its index, a rollback journal, and our head."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS commands (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    cmd TEXT NOT NULL,
    crc INTEGER NOT NULL,
    link TEXT
);
CREATE TABLE IF NOT EXISTS games (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoints (
    seq INTEGER PRIMARY KEY,
    link TEXT NOT NULL,
    body TEXT NOT NULL,
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

LOW_SPACE = 256 * 1024
"""Below this many free bytes a failed write is reported as a full card, whatever SQLite said."""
DAMAGED = "service.journal.damaged"
"""The key of "Journal beschädigt": a checksum, a link or SQLite's own check failed."""


class JournalError(Exception):
    """The journal cannot be read or written: what is wrong (a key of the catalogue) and the detail (a phrase, or
    the system's own words: a path, SQLite's message).

    Said in the language in force each time it is read (:attr:`message`, :attr:`detail`, ``str()``): the OLED, the
    log and a phone each say it when they show it."""

    def __init__(self, what: str, detail: str | Phrase = "", *, recoverable: bool = False) -> None:
        super().__init__(what, detail)
        self.what = what
        self._detail = detail
        self.recoverable = recoverable
        """True when the cause may pass by itself (a full card): try again later."""

    @property
    def message(self) -> str:
        """What is wrong, short, for the screen ("Speicher voll")."""
        return words.text(self.what)

    @property
    def detail(self) -> str:
        return words.say(self._detail) if isinstance(self._detail, Phrase) else self._detail

    def __str__(self) -> str:
        return f"{self.message}: {self.detail}" if self._detail else self.message


class Unstorable(ValueError):
    """A command that cannot be written as UTF-8 JSON (a lone surrogate, a NaN): refused, never applied."""


class Record(msgspec.Struct, frozen=True):
    seq: int
    at: float
    cmd: dict[str, Any]


def encode(cmd: Mapping[str, Any]) -> str:
    """The exact text a command is stored as; raises :class:`Unstorable` for what UTF-8 JSON cannot hold.

    The ledger calls this before the rules apply a command, so memory is never ahead of the journal.
    """
    try:
        text = json.dumps(cmd, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False)
        text.encode("utf-8")
    except (ValueError, TypeError, RecursionError) as err:
        raise Unstorable(str(err)) from None
    return text


def row_checksum(text: str) -> int:
    """A row's CRC-32, stored beside its text: the journal and the salvage check each row against it."""
    return zlib.crc32(text.encode("utf-8"))


def link(prev: str, seq: int, at: float, text: str) -> str:
    """The chain's link for a row: it covers every row before it, so a lost or changed row breaks it."""
    import hashlib  # OpenSSL loads at the first row written or read, not before READY of an empty journal

    return hashlib.sha256(f"{prev}|{seq}|{at!r}|{text}".encode()).hexdigest()[:32]


def storage_error(err: BaseException, where: Path, action: str) -> JournalError:
    """Name the true cause: a full card, an unreachable one, or a damaged file. ``action``: the key of what
    failed ("service.journal.failed.open")."""
    text = str(err)
    try:
        st = os.statvfs(where if where.is_dir() else where.parent)  # shutil.disk_usage's own reckoning
        free = st.f_bavail * st.f_frsize
    except OSError:
        free = None
    if "full" in text.lower() or (free is not None and free < LOW_SPACE):
        return JournalError("service.journal.full", f"{where}: {text}", recoverable=True)
    if isinstance(err, OSError) or "unable to open" in text or "readonly" in text.lower():
        return JournalError("service.journal.unreachable", f"{where}: {text}", recoverable=True)
    if isinstance(err, sqlite3.OperationalError) and ("I/O" in text or "locked" in text):
        return JournalError(action, f"{where}: {text}", recoverable=True)
    return JournalError(DAMAGED, f"{where}: {text}")


def _private_file(path: Path) -> None:
    """Create the journal 0600 before SQLite does: it holds the session key and every name.

    SQLite gives its -wal and -shm files the mode of the database file.
    """
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    elif path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)


def read_records(db: sqlite3.Connection, first: int, last: int) -> Iterator[Record]:
    """Commands ``first`` to ``last`` inclusive, in order, each checked against its checksum."""
    try:
        rows = db.execute("SELECT seq, at, cmd, crc FROM commands WHERE seq BETWEEN ? AND ? ORDER BY seq",
                          (first, last))
        for seq, at, text, crc in rows:
            if row_checksum(text) != crc:
                raise JournalError(DAMAGED, phrase("service.journal.checksum", seq=seq))
            yield Record(seq, at, json.loads(text))
    except sqlite3.DatabaseError as err:
        raise JournalError("service.journal.unreadable", str(err)) from err


def uri(path: Path, **params: str) -> str:
    """A SQLite URI for ``path`` (quoted: a folder may hold ``?`` or ``#``) with query parameters.

    Every connection passes ``psow=0``: SQLite then assumes a power cut may garble the whole sector
    being written (many SD cards do) and pads each WAL commit to a sector boundary, so the next
    commit never writes into the sector that holds the end of an acknowledged one.
    """
    query = urllib.parse.urlencode({**params, "psow": "0"})
    return f"file:{urllib.parse.quote(str(path.absolute()))}?{query}"


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that can never write (nor merge or delete a WAL): for checks and for the history."""
    try:
        ro = sqlite3.connect(uri(path, mode="ro"), uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.DatabaseError as err:
        raise storage_error(err, path, "service.journal.failed.read") from err
    try:
        yield ro
    except sqlite3.DatabaseError as err:
        raise JournalError(DAMAGED, f"{path}: {err}") from err
    finally:
        ro.close()


def _checkpoint_on_chain(db: sqlite3.Connection) -> tuple[int, str] | None:
    """Sequence number and link of the newest checkpoint whose link is its command row's own.

    The link ties it to the chain: a checkpoint left from a journal that was later salvaged or
    restored from a backup never matches.
    """
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'checkpoints'").fetchone():
        return None  # a journal from before checkpoints, read before it was opened for writing
    row = db.execute("SELECT c.seq, c.link FROM checkpoints c JOIN commands m ON m.seq = c.seq AND m.link = c.link "
                     "ORDER BY c.seq DESC LIMIT 1").fetchone()
    return (row[0], row[1]) if row is not None else None


def _check_chain(ro: sqlite3.Connection, head: Head | None, start: int, prev: str) -> None:
    """Rows after ``start`` (whose link is ``prev``) against their checksums, the chain and the head."""
    last, matched = start, head is None or head.seq == 0 or (head.seq == start and head.link == prev)
    for seq, at, text, crc, stored in ro.execute("SELECT seq, at, cmd, crc, link FROM commands WHERE seq > ? "
                                                 "ORDER BY seq", (start,)):
        if row_checksum(text) != crc:
            raise JournalError(DAMAGED, phrase("service.journal.checksum", seq=seq))
        expected = link(prev, seq, at, text)
        if stored != expected:
            raise JournalError(DAMAGED, phrase("service.journal.chain", seq=seq))
        if head is not None and seq == head.seq:
            matched = stored == head.link
        prev, last = expected, seq
    if head is not None and last < head.seq:
        raise JournalError("service.journal.incomplete",
                           phrase("service.journal.missing", n=head.seq - last, last=last, acknowledged=head.seq))
    if not matched:
        raise JournalError(DAMAGED, phrase("service.journal.head", seq=head.seq if head else 0))


def verify_file(path: Path) -> JournalError | None:
    """Check a journal file as start-up does, every row, without opening it for writing (``bankleser doctor``)."""
    try:
        with read_only(path) as ro:
            check = ro.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                return JournalError(DAMAGED, f"{path}: {check}")
            if any(col[1] == "link" for col in ro.execute("PRAGMA table_info(commands)")):
                _check_chain(ro, HeadFile(Path(f"{path}.head")).read(), 0, "")
    except JournalError as err:
        return err
    return None


class Journal:
    """One writer connection, one transaction per command, opened only after the file checked out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.head_file = HeadFile(Path(f"{path}.head"))
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as err:
            raise storage_error(err, path.parent, "service.journal.failed.create") from err
        head = self.head_file.read()
        existed = path.exists() and path.stat().st_size > 0
        if existed:
            try:
                self._verify(head)
            except JournalError as err:
                if not (self.head_file.says_nothing_acknowledged() and Path(f"{path}-journal").exists()):
                    raise  # something acknowledged may be at stake, or it is not a cut: never touched, reported
                head = self._recover_unacknowledged(err)
        elif head is not None and head.seq > 0:
            raise JournalError("service.journal.gone", phrase("service.journal.no_file", path=str(path), n=head.seq))
        try:
            _private_file(path)
            self._db = sqlite3.connect(uri(path), uri=True, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            # Appends need few pages in memory; the default 2 MB cache only grew the appliance's memory.
            self._db.execute("PRAGMA cache_size=-256")
            self._db.executescript(SCHEMA)
            self._migrate()
            row = self._db.execute("SELECT seq, link FROM commands ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as err:
            raise storage_error(err, path, "service.journal.failed.open") from err
        except OSError as err:
            raise storage_error(err, path, "service.journal.failed.open") from err
        self._last: tuple[int, str] = (row[0], row[1]) if row else (0, "")
        if head is None or head.seq != self._last[0]:
            # The head lags by at most the one unacknowledged commit a power cut interrupted.
            self._write_head()

    # Checking before opening for writing ---------------------------------------------------

    def _verify(self, head: Head | None) -> None:
        """Read the rows start-up needs through a read-only connection; raise if anything acknowledged is
        missing or damaged.

        Those are the rows after the newest checkpoint (whose link ties it to the chain), so start-up
        does not grow with years of past games; :meth:`verify_history` checks the rest afterwards.
        """
        with read_only(self.path) as ro:
            check = ro.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise JournalError(DAMAGED, f"{self.path}: {check}")
            if not any(col[1] == "link" for col in ro.execute("PRAGMA table_info(commands)")):
                return  # a journal from before the chain: migrated once it is opened
            start, prev = _checkpoint_on_chain(ro) or (0, "")
            _check_chain(ro, head, start, prev)

    def _recover_unacknowledged(self, err: JournalError) -> Head | None:
        """A journal that never acknowledged a command, cut while SQLite wrote it: nothing to lose, so recover.

        The usual cause is a power cut on the very first start, while SQLite created the file and
        switched it to WAL through a rollback journal (``-journal`` left on disk, which the read-only
        check cannot roll back). Every file is first copied aside; then a read-write open lets SQLite
        roll back (cards and settings written before the cut stay); if the result still does not
        check out, the journal starts empty. Said once in the log, with where the old files are.
        """
        import shutil
        import tempfile

        try:
            aside = Path(tempfile.mkdtemp(prefix=f"{self.path.name}.beiseite-{time.strftime('%Y%m%d-%H%M%S')}-",
                                          dir=self.path.parent))
            for suffix in COMPANIONS:
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    shutil.copy2(source, aside / source.name)
        except OSError as copy_err:
            raise storage_error(copy_err, self.path.parent, "service.journal.failed.copy") from copy_err
        try:
            with contextlib.closing(sqlite3.connect(uri(self.path), uri=True)) as rw:
                rw.execute("PRAGMA integrity_check").fetchone()
            self._verify(None)
            how = "service.journal.rolled_back"
        except (sqlite3.DatabaseError, JournalError):
            for suffix in COMPANIONS:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            how = "service.journal.made_anew"
        log.warning("%s", words.text("service.journal.recovered", error=err, how=words.text(how), path=aside))
        return self.head_file.read()

    def verify_history(self) -> JournalError | None:
        """Check every row's checksum and link, on a connection of its own (a thread after start-up)."""
        try:
            with read_only(self.path) as ro:
                _check_chain(ro, self.head_file.read(), 0, "")
        except JournalError as err:
            return err
        return None

    def _migrate(self) -> None:
        """Give a journal from before the chain its links and its index of games, once."""
        cols = {col[1] for col in self._db.execute("PRAGMA table_info(commands)")}
        if "link" not in cols:
            self._db.execute("ALTER TABLE commands ADD COLUMN link TEXT")
        if self._db.execute("SELECT 1 FROM commands WHERE link IS NULL LIMIT 1").fetchone() is None:
            return
        self._db.execute("BEGIN")
        prev = ""
        for seq, at, text in self._db.execute("SELECT seq, at, cmd FROM commands ORDER BY seq").fetchall():
            prev = link(prev, seq, at, text)
            self._db.execute("UPDATE commands SET link = ? WHERE seq = ?", (prev, seq))
            if json.loads(text).get("op") == "new_game":
                self._db.execute("INSERT OR IGNORE INTO games (seq, at) VALUES (?, ?)", (seq, at))
        self._db.execute("COMMIT")

    def _write_head(self) -> None:
        try:
            self.head_file.write(Head(*self._last))
        except OSError as err:
            raise storage_error(err, self.head_file.path, "service.journal.failed.store") from err

    # Writing -------------------------------------------------------------------------------

    def append(self, cmd: Mapping[str, Any], at: float | None = None, text: str | None = None) -> int:
        """Write one command durably (WAL fdatasync, then the head); returns its sequence number."""
        return self.append_many([(cmd, time.time() if at is None else at, text)])

    def append_many(self, items: Iterable[tuple[Mapping[str, Any], float, str | None]]) -> int:
        """Write commands (command, time, stored text or None) in one durable transaction: all or none.

        For salvage and benchmarks; the ledger appends one command at a time, acknowledged each.
        """
        last = self._last
        with self._transaction():
            for cmd, at, stored in items:
                text = encode(cmd) if stored is None else stored
                seq = last[0] + 1
                last = (seq, link(last[1], seq, at, text))
                self._db.execute("INSERT INTO commands (seq, at, cmd, crc, link) VALUES (?, ?, ?, ?, ?)",
                                 (seq, at, text, row_checksum(text), last[1]))
                if cmd.get("op") == "new_game":
                    self._db.execute("INSERT INTO games (seq, at) VALUES (?, ?)", (seq, at))
        self._last = last
        self._write_head()
        return last[0]

    # Reading -------------------------------------------------------------------------------

    def records(self, first_seq: int | None = None, last_seq: int | None = None) -> Iterator[Record]:
        """Commands in order, from ``first_seq`` to ``last_seq`` inclusive. A damaged row is an error."""
        return read_records(self._db, first_seq or 0, last_seq if last_seq is not None else self._last[0])

    def game_starts(self) -> list[tuple[int, float]]:
        """Sequence number and time of every ``new_game``, from the index (no scan of the commands)."""
        return [(seq, at) for seq, at in self._db.execute("SELECT seq, at FROM games ORDER BY seq")]

    # Checkpoints: a cache of the replayed memory, never the truth ----------------------------

    def write_checkpoint(self, seq: int, body: str) -> None:
        """Store what the replay up to ``seq`` gave, replacing older ones; ``seq`` must be the last command."""
        if seq != self._last[0]:
            raise ValueError(f"checkpoint at {seq}, journal at {self._last[0]}")
        with self._transaction():
            self._db.execute("DELETE FROM checkpoints")
            self._db.execute("INSERT INTO checkpoints (seq, link, body, crc) VALUES (?, ?, ?, ?)",
                             (seq, self._last[1], body, row_checksum(body)))

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One durable transaction (synchronous=FULL: COMMIT returns after fdatasync), all or nothing."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as err:
            raise storage_error(err, self.path, "service.journal.failed.store") from err

    def read_checkpoint(self) -> tuple[int, str] | None:
        """The newest checkpoint on the chain (:func:`_checkpoint_on_chain`) whose checksum holds, else None."""
        found = _checkpoint_on_chain(self._db)
        if found is None:
            return None
        body, crc = self._db.execute("SELECT body, crc FROM checkpoints WHERE seq = ?", (found[0],)).fetchone()
        return (found[0], body) if row_checksum(body) == crc else None

    @property
    def last_seq(self) -> int:
        return self._last[0]

    def __len__(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
        return count

    # Cards and settings --------------------------------------------------------------------

    def cards(self) -> dict[str, tuple[str, str]]:
        return {uid: (kind, value) for uid, kind, value in self._db.execute("SELECT uid, kind, value FROM cards")}

    def register_card(self, uid: str, kind: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO cards (uid, kind, value) VALUES (?, ?, ?)", (uid, kind, value))

    def register_cards(self, cards: Iterable[tuple[str, str, str]], settings: Mapping[str, str]) -> None:
        """Many cards and settings in one transaction: one fdatasync instead of one per row."""
        with self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO cards (uid, kind, value) VALUES (?, ?, ?)", cards)
            self._db.executemany("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", settings.items())

    def setting(self, key: str, default: str | None = None) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_setting(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        try:
            for arg in args:
                if isinstance(arg, str):
                    arg.encode("utf-8")
        except UnicodeEncodeError as err:
            raise JournalError("service.journal.bad_text", str(err)) from None
        try:
            self._db.execute(sql, args)
        except sqlite3.DatabaseError as err:
            raise storage_error(err, self.path, "service.journal.failed.store") from err

    def close(self) -> None:
        self._db.close()
        self.head_file.close()
