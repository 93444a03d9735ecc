"""Which clock dated the journal's entries, and the time a banker's phone gave.

A Pi without network has no clock to trust: no battery clock, and the time restored at boot is the last
shutdown's. The play clock never minds (it is monotonic), but the reports' wall times do. So at every start
the daemon notes from which journal entry on this boot's times run and whether the system clock was
synchronised; when the banker logs in on /admin while it is not, the phone's time gives this boot's
offset. The pages after the game add it to this boot's entries and say which clock they used. The
journal itself keeps the times it was given (they are in its hash chain): a correction is only a reading.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterator, Mapping
from pathlib import Path

import msgspec

from words import text

KEY = "wall_clocks"
"""The journal setting holding the boots' segments."""
MAX_SEGMENTS = 500
"""Boots remembered: a restart a day for more than a year; older entries are told by the Pi's clock."""
EARLIEST, LATEST = 1_577_836_800.0, 4_102_444_800.0
"""A phone's time is believed between 2020 and 2100 (a phone set to 1970 corrects nothing)."""
TIMESYNC = Path("/run/systemd/timesync")
"""systemd-timesyncd's runtime folder (its unit's ``RuntimeDirectory=``): there while it runs; it touches
``synchronized`` in it at each successful synchronisation (systemd-timesyncd.service(8), since 239)."""



class _Said(Mapping[str, str]):
    """A source's description in the language in force, read from the catalogue when it is looked up."""

    def __init__(self, keys: dict[str, str]) -> None:
        self._keys = keys

    def __getitem__(self, source: str) -> str:
        return text(self._keys[source])

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


SOURCES: Mapping[str, str] = _Said({
    "pi": "service.clock.pi", "pi_unsynced": "service.clock.pi_unsynced", "pi_unchecked": "service.clock.pi_unchecked",
    "phone": "service.clock.phone", "unknown": "service.clock.unknown",
})
"""Which clock dated a boot's entries, in words (the reports and pages say it)."""


class Segment(msgspec.Struct, frozen=True):
    first_seq: int
    """The first journal entry written in this boot."""
    source: str
    offset: float = 0.0
    """Seconds to add to this boot's entries' times (the phone's time minus the Pi's)."""

    @property
    def description(self) -> str:
        return SOURCES.get(self.source, SOURCES["unknown"])


def system_clock_synced(timesync: Path = TIMESYNC) -> bool | None:
    """Whether the wall clock is synchronised: True, False, or None when this cannot be told.

    Asked of systemd-timesyncd's marker file, never of the kernel: adjtimex(2) is in ``@clock``, which
    the unit's ``SystemCallFilter=`` forbids (the process was killed with SIGSYS before READY),
    and ``ProtectClock=`` alone makes it fail with EPERM. Without timesyncd (another NTP client, or
    none) nobody here vouches for the clock: unknown, which the callers treat like unsynchronised
    (the banker's phone may date the boot), never as synchronised.
    """
    try:
        if (timesync / "synchronized").exists():
            return True
        return False if timesync.is_dir() else None
    except OSError:  # a folder we may not look into: cannot tell
        return None


def phone_time(value: object) -> float | None:
    """A phone's ``Date.now()`` (milliseconds) as seconds, if it is a plausible time; else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    at = float(value) / 1000
    return at if math.isfinite(at) and EARLIEST <= at <= LATEST else None


def load(text: str | None) -> list[Segment]:
    """The segments a journal keeps; a damaged setting is no segments (times shown as written)."""
    try:
        rows = json.loads(text) if text else []
        segments = [Segment(int(r[0]), str(r[1]), float(r[2])) for r in rows]
    except (ValueError, TypeError, IndexError):
        return []
    return sorted(segments, key=lambda s: s.first_seq)


def dump(segments: list[Segment]) -> str:
    return json.dumps([[s.first_seq, s.source, s.offset] for s in segments[-MAX_SEGMENTS:]])


def started(segments: list[Segment], first_seq: int, *, synced: bool | None) -> list[Segment]:
    """The segments after a start whose first entry will be ``first_seq`` (``synced``: as
    :func:`system_clock_synced` answered, None for "cannot tell")."""
    kept = [s for s in segments if s.first_seq < first_seq]  # a boot that wrote nothing is replaced
    source = {True: "pi", False: "pi_unsynced", None: "pi_unchecked"}[synced]
    return [*kept, Segment(first_seq, source)][-MAX_SEGMENTS:]


def corrected(segments: list[Segment], phone: float, pi: float) -> list[Segment]:
    """This boot's segment dated by the phone: its entries' times move by ``phone - pi``."""
    if not segments:
        return segments
    return [*segments[:-1], Segment(segments[-1].first_seq, "phone", phone - pi)]


class Boots:
    """The segments, looked up by journal entry (a replay asks once per entry)."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments
        self._starts = [s.first_seq for s in segments]

    def of(self, seq: int) -> Segment | None:
        """The boot that wrote entry ``seq`` (None: before the first noted boot)."""
        i = bisect.bisect_right(self._starts, seq)
        return self.segments[i - 1] if i else None
