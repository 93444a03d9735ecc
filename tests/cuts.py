"""Power cuts, modelled: the files a cut leaves behind, built with SQLite itself."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

from device.store.journal import SCHEMA


def cut_while_creating(path: Path, *, settings: dict[str, str] | None = None) -> Path:
    """A power cut on the first start, while SQLite wrote the new file through a rollback journal.

    The files are copied mid-transaction: the database holds pages of an uncommitted write (the
    cache spilled them) and ``-journal`` is still there, hot, exactly as a cut leaves them.
    """
    scratch = Path(tempfile.mkdtemp(prefix="bankleser-cut-")) / path.name
    db = sqlite3.connect(scratch, isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    if settings:
        db.executescript(SCHEMA)
        for key, value in settings.items():
            db.execute("INSERT INTO settings VALUES (?, ?)", (key, value))
    db.execute("PRAGMA cache_size=1")
    db.execute("BEGIN")
    statements = [] if settings else [s for s in SCHEMA.split(";") if s.strip()]
    for statement in [*statements, "CREATE TABLE filler (x)"]:  # executescript would COMMIT first
        db.execute(statement)
    for _ in range(500):
        db.execute("INSERT INTO filler VALUES (?)", ("x" * 300,))
    assert Path(f"{scratch}-journal").stat().st_size > 0
    for suffix in ("", "-journal"):
        shutil.copyfile(f"{scratch}{suffix}", f"{path}{suffix}")
    db.execute("ROLLBACK")
    db.close()
    shutil.rmtree(scratch.parent)
    return path
