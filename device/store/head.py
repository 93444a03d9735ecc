"""The journal's head: the last acknowledged command's sequence number and chain link, kept apart.

The record lives outside the SQLite file so that damage to the journal or its WAL cannot take
it along: if the journal holds fewer rows than the head names, acknowledged commands are
missing, and the appliance says so instead of booking on a shortened game.

Two fixed slots, written alternately in place and fdatasync'd: a write torn by a power cut
spoils at most the slot being written, and the other still names the commit before. The slots
sit in different 512-byte sectors: many SD cards garble the whole sector being written on a power
cut, and with both slots in one sector that spoilt both. Files from before kept their slots at
bytes 0 and 64; those are still read.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import msgspec

MAGIC = b"BLH1"
_SLOT = struct.Struct("<4sQ32sI")  # magic, seq, link (ASCII hex), crc32 of what precedes
SLOT_SIZE = 64
SECTOR = 512
"""Each slot starts a sector of its own: slot 0 at byte 0, slot 1 at byte 512."""
OLD_OFFSETS = (0, SLOT_SIZE)
"""Where files written before the slots moved apart keep them (such a file is 128 bytes long)."""


class Head(msgspec.Struct, frozen=True):
    seq: int
    link: str


class HeadFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def read(self) -> Head | None:
        """The newest intact slot, or None when the file does not exist (a new journal)."""
        slots = self._intact()
        if slots is None:
            return None
        # Both slots spoilt: claim nothing rather than everything; the chain still checks each row.
        return max(slots, key=lambda h: h.seq, default=Head(0, ""))

    def says_nothing_acknowledged(self) -> bool:
        """No file, or an intact slot saying 0 and none saying more: not the same as two spoilt slots."""
        slots = self._intact()
        return slots is None or (bool(slots) and max(h.seq for h in slots) == 0)

    def _intact(self) -> list[Head] | None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        slots = []
        offsets = {0, SECTOR} | (set(OLD_OFFSETS) if len(data) <= 2 * SLOT_SIZE else set())
        for offset in sorted(offsets):
            raw = data[offset:offset + _SLOT.size]
            if len(raw) < _SLOT.size:
                continue
            magic, seq, link, crc = _SLOT.unpack(raw)
            if magic == MAGIC and zlib.crc32(raw[: _SLOT.size - 4]) == crc:
                slots.append(Head(seq, link.decode("ascii", errors="replace").rstrip("\0")))
        return slots

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
        os.pwrite(self._fd, slot.ljust(SLOT_SIZE, b"\0"), (head.seq % 2) * SECTOR)
        os.fdatasync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
