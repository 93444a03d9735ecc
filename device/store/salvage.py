"""`bankleser salvage SRC DST`: rescue what can be verified from a damaged journal into a new one.

The damaged journal is never written: it and its WAL are copied aside and the copy is read.
Every row whose checksum holds is written to the new journal in order (with a fresh chain),
with the registered cards and settings; the report names every command that was lost or
damaged, so the banker knows which bookings to repeat.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import msgspec

from words import plural, text

from .head import HeadFile
from .journal import Journal, link, row_checksum


class Report(msgspec.Struct):
    exported: int = 0
    damaged: list[int] = []
    """Rows whose checksum failed or whose text is not a command."""
    gaps: list[tuple[int, int]] = []
    """Runs of missing sequence numbers (first, last)."""
    chain_breaks: list[int] = []
    acknowledged: int = 0
    """The last sequence number the head file says was acknowledged (0 if unknown)."""
    last: int = 0

    @property
    def complete(self) -> bool:
        return not self.damaged and not self.gaps and self.last >= self.acknowledged

    def text(self) -> str:
        lines = [plural("service.salvage.exported", self.exported)]
        if self.damaged:
            lines.append(text("service.salvage.damaged", entries=", ".join(map(str, self.damaged))))
        for first, last in self.gaps:
            lines.append(text("service.salvage.gap", first=first, last=last))
        if self.acknowledged > self.last:
            lines.append(text("service.salvage.gap_end", first=self.last + 1, last=self.acknowledged))
        if self.chain_breaks:
            lines.append(text("service.salvage.chain", entries=", ".join(map(str, self.chain_breaks))))
        if self.complete:
            lines.append(text("service.salvage.complete"))
        return "\n".join(lines)


class SalvageError(ValueError):
    """The source holds nothing salvage can read; the message (in the language in force) says what it is instead."""


class _Found(msgspec.Struct):
    rows: list[tuple[Any, Any, Any, Any]]
    links: dict[Any, Any]
    cards: list[tuple[Any, Any, Any]]
    settings: list[tuple[Any, Any]]


def _table(db: sqlite3.Connection, sql: str) -> list[Any]:
    """Rows of a side table, or none if it is missing or unreadable (the commands matter most)."""
    try:
        return db.execute(sql).fetchall()
    except sqlite3.DatabaseError:
        return []


def _read_copy(copy: Path) -> _Found:
    """Read the copy. Opened read-write: SQLite rolls back a leftover ``-journal`` (on the copy only)."""
    try:
        db = sqlite3.connect(copy)
    except sqlite3.DatabaseError as err:
        raise SalvageError(text("service.salvage.unreadable", file=copy.name, error=err)) from None
    db.text_factory = bytes  # a row whose text is not UTF-8 is a damaged row, not an end
    try:
        try:
            rows = db.execute("SELECT seq, at, cmd, crc FROM commands ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as err:
            said = str(err)
            if "no such table" in said:
                raise SalvageError(text("service.salvage.no_journal", file=copy.name)) from None
            raise SalvageError(text("service.salvage.not_sqlite", file=copy.name, error=said)) from None
        cols = {c[1] for c in _table(db, "PRAGMA table_info(commands)")}
        links = dict(_table(db, "SELECT seq, link FROM commands")) if b"link" in cols or "link" in cols else {}
        return _Found(rows, links, _table(db, "SELECT uid, kind, value FROM cards"),
                      _table(db, "SELECT key, value FROM settings"))
    finally:
        db.close()


def _text(value: Any) -> str | None:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return value if isinstance(value, str) else None


def salvage(source: Path, target: Path) -> Report:
    """Raises OSError (no source), ValueError (a target that exists, a source that is no journal),
    JournalError (the target cannot be written). Never anything else, whatever the source holds."""
    if not source.is_file():
        raise OSError(text("service.salvage.no_source", path=source))
    if target.exists():
        raise ValueError(text("service.salvage.target_exists", path=target))
    report = Report()
    head = HeadFile(Path(f"{source}.head")).read()
    report.acknowledged = head.seq if head else 0
    with tempfile.TemporaryDirectory(prefix="bankleser-salvage-") as tmp:
        copy = Path(tmp) / source.name
        for suffix in ("", "-wal", "-journal"):  # -journal: a power cut while SQLite created the file
            if Path(f"{source}{suffix}").is_file():
                shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
        found = _read_copy(copy)
    out = Journal(target)
    try:
        for uid, kind, value in found.cards:
            if all(_text(v) is not None for v in (uid, kind, value)) and _text(kind) in ("player", "deed"):
                out.register_card(str(_text(uid)), str(_text(kind)), str(_text(value)))
        for key, value in found.settings:
            if _text(key) is not None and _text(value) is not None:
                out.set_setting(str(_text(key)), str(_text(value)))
        prev, expected_seq = "", 1
        keep: list[tuple[dict[str, Any], float, str]] = []
        for seq, at, raw, crc in found.rows:
            if not isinstance(seq, int):
                continue  # not even a sequence number: nothing to name
            if seq > expected_seq:
                report.gaps.append((expected_seq, seq - 1))
            expected_seq = seq + 1
            report.last = seq
            body = _text(raw)
            if body is None or not isinstance(at, (int, float)) or not isinstance(crc, int):
                report.damaged.append(seq)
                continue
            if found.links:
                stored = _text(found.links.get(seq))
                good = link(prev, seq, at, body)
                if stored != good:
                    report.chain_breaks.append(seq)
                prev = stored or good
            if row_checksum(body) != crc:
                report.damaged.append(seq)
                continue
            try:
                cmd = json.loads(body)
            except (ValueError, RecursionError):
                report.damaged.append(seq)
                continue
            if not isinstance(cmd, dict):
                report.damaged.append(seq)
                continue
            keep.append((cmd, float(at), body))
            report.exported += 1
        out.append_many(keep)
    finally:
        out.close()
    return report
