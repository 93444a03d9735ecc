"""What every driver shares: it works under ``with``, and ``close()`` is idempotent."""

from __future__ import annotations

from typing import Self


class Part:
    """A piece of the table's hardware (or its twin). Twins keep these defaults: nothing to start or stop."""

    alive: bool = True
    """For the watchdog: the part's own thread, if it has one, is running."""

    def start(self) -> Self:
        return self

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
