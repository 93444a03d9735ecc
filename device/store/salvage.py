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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .head import HeadFile
from .journal import Journal, _crc, link


@dataclass
class Report:
    exported: int = 0
    damaged: list[int] = field(default_factory=list)
    """Rows whose checksum failed or whose text is not a command."""
    gaps: list[tuple[int, int]] = field(default_factory=list)
    """Runs of missing sequence numbers (first, last)."""
    chain_breaks: list[int] = field(default_factory=list)
    acknowledged: int = 0
    """The last sequence number the head file says was acknowledged (0 if unknown)."""
    last: int = 0

    @property
    def complete(self) -> bool:
        return not self.damaged and not self.gaps and self.last >= self.acknowledged

    def text(self) -> str:
        lines = [f"{self.exported} Buchungen übernommen."]
        if self.damaged:
            lines.append(f"Beschädigt, nicht übernommen: Einträge {', '.join(map(str, self.damaged))}")
        for first, last in self.gaps:
            lines.append(f"Fehlen: Einträge {first}–{last}")
        if self.acknowledged > self.last:
            lines.append(f"Fehlen am Ende: Einträge {self.last + 1}–{self.acknowledged} (bestätigt, nicht im Journal)")
        if self.chain_breaks:
            lines.append(f"Kette unterbrochen vor: {', '.join(map(str, self.chain_breaks))}")
        if self.complete:
            lines.append("Nichts verloren.")
        return "\n".join(lines)


def salvage(source: Path, target: Path) -> Report:
    if not source.exists():
        raise OSError(f"{source}: nicht gefunden")
    if target.exists():
        raise ValueError(f"{target} gibt es schon: ein neues Journal wird nie überschrieben")
    report = Report()
    head = HeadFile(Path(f"{source}.head")).read()
    report.acknowledged = head.seq if head else 0
    with tempfile.TemporaryDirectory(prefix="bankleser-salvage-") as tmp:
        copy = Path(tmp) / source.name
        for suffix in ("", "-wal"):
            if Path(f"{source}{suffix}").exists():
                shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
        db = sqlite3.connect(copy)
        try:
            rows = db.execute("SELECT seq, at, cmd, crc FROM commands ORDER BY seq").fetchall()
            cols = {c[1] for c in db.execute("PRAGMA table_info(commands)")}
            links = dict(db.execute("SELECT seq, link FROM commands")) if "link" in cols else {}
            cards = db.execute("SELECT uid, kind, value FROM cards").fetchall()
            settings = db.execute("SELECT key, value FROM settings").fetchall()
        finally:
            db.close()
    out = Journal(target)
    try:
        for uid, kind, value in cards:
            out.register_card(uid, kind, value)
        for key, value in settings:
            out.set_setting(key, value)
        prev, expected_seq = "", 1
        keep: list[tuple[dict[str, Any], float, str]] = []
        for seq, at, text, crc in rows:
            if seq > expected_seq:
                report.gaps.append((expected_seq, seq - 1))
            expected_seq = seq + 1
            report.last = seq
            if links:
                good = link(prev, seq, at, text)
                if links.get(seq) != good:
                    report.chain_breaks.append(seq)
                prev = links.get(seq) or good
            if _crc(text) != crc:
                report.damaged.append(seq)
                continue
            try:
                cmd = json.loads(text)
            except ValueError:
                report.damaged.append(seq)
                continue
            keep.append((cmd, at, text))
            report.exported += 1
        out.append_many(keep)
    finally:
        out.close()
    return report
