"""What every driver shares: it works under ``with``, ``close()`` is idempotent, and it can say it is stuck."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Self

from words import text

PART_NAMES = {
    "display": "service.part.display", "keypad": "service.part.keypad", "encoder": "service.part.encoder",
    "buzzer": "service.part.buzzer", "led": "service.part.led", "reader": "service.part.reader",
    "gpio": "service.part.gpio",
}
"""A part's identifier (what programs read: the faults' keys, the pages' JSON, the watchdog's list) and the key of
the name a person reads ("RFID-Leser", "RFID reader"); "gpio" names the cause every GPIO part shares."""


def part_name(part: str) -> str:
    """The name of the part ``part`` (an identifier of :data:`PART_NAMES`) in the language in force."""
    return text(PART_NAMES[part])


class Part:
    """A piece of the table's hardware (or its stand-in while missing, which keeps these defaults: nothing to start
    or stop)."""

    @property
    def alive(self) -> bool:
        """For the watchdog: the part's own thread, if it has one, is running (a stand-in has none: always)."""
        return True

    stall_after: float = 5.0
    """Seconds one operation (a scan, a poll, a tune) may take before the part counts as hung."""
    _busy_since: float | None = None

    @contextmanager
    def working(self) -> Iterator[None]:
        """Wrap each turn of the part's thread: a turn that never ends (an SPI transfer that hangs) shows."""
        self._busy_since = time.monotonic()
        try:
            yield
        finally:
            self._busy_since = None

    def stalled(self, now: float) -> bool:
        """For the watchdog: the thread died, or it is stuck in one operation. Sleeping while idle is fine."""
        since = self._busy_since
        return not self.alive or (since is not None and now - since > self.stall_after)

    def start(self) -> Self:
        return self

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
