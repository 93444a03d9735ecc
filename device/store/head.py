"""The journal's head: the last acknowledged command's sequence number and chain link, kept apart.

The record lives outside the SQLite file so that damage to the journal or its WAL cannot take
it along: if the journal holds fewer rows than the head names, acknowledged commands are
missing, and the appliance says so instead of booking on a shortened game.

Two fixed slots, written alternately in place and fdatasync'd: a write torn by a power cut
spoils at most the slot being written, and the other still names the commit before.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"BLH1"
_SLOT = struct.Struct("<4sQ32sI")  # magic, seq, link (ASCII hex), crc32 of what precedes
SLOT_SIZE = 64


@dataclass(frozen=True, slots=True)
class Head:
    seq: int
    link: str


class HeadFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def read(self) -> Head | None:
        """The newest intact slot, or None when the file does not exist (a new journal)."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        best: Head | None = None
        for offset in (0, SLOT_SIZE):
            raw = data[offset:offset + _SLOT.size]
            if len(raw) < _SLOT.size:
                continue
            magic, seq, link, crc = _SLOT.unpack(raw)
            if magic != MAGIC or zlib.crc32(raw[: _SLOT.size - 4]) != crc:
                continue
            if best is None or seq > best.seq:
                best = Head(seq, link.decode("ascii").rstrip("\0"))
        if best is None:
            # Both slots spoilt: claim nothing rather than everything; the chain still checks each row.
            return Head(0, "")
        return best

    def write(self, head: Head) -> None:
        """Overwrite the older slot and fdatasync: one small in-place write per commit."""
        if self._fd is None:
            created = not self.path.exists()
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            if created:  # the new name itself must survive a power cut
                dirfd = os.open(self.path.parent, os.O_RDONLY)
                try:
                    os.fsync(dirfd)
                finally:
                    os.close(dirfd)
        body = struct.pack("<4sQ32s", MAGIC, head.seq, head.link.encode("ascii"))
        slot = body + struct.pack("<I", zlib.crc32(body))
        os.pwrite(self._fd, slot.ljust(SLOT_SIZE, b"\0"), (head.seq % 2) * SLOT_SIZE)
        os.fdatasync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
