"""One state, many readers: the public state built and serialized once per version.

The daemon's loop (the one thread that owns the game) publishes after each change; every
`/api/state` answer and every live stream sends these same bytes. Readers never take the
ledger's lock or touch SQLite, so a slow SD card's fsync never holds up a phone.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:  # asyncio is the web server's: imported once it runs, not at the daemon's start-up
    import asyncio

BOOT = os.urandom(4).hex()
"""This start's id in the ETags (the bytes secrets.token_hex reads, without importing hmac and OpenSSL for it)."""


class Published(msgspec.Struct, frozen=True):
    version: int
    body: bytes
    """The public state as UTF-8 JSON, in the appliance's language."""
    said: dict[str, bytes] = {}
    """The same state said in each language (its log, its titles): a phone may read its pages in its own."""
    language: str = ""
    """The language of ``body`` when it was chosen for a page (:meth:`in_language`); "" the appliance's."""

    def in_language(self, code: str) -> Published:
        """The state as a page in ``code`` reads it (the appliance's, when it was not said in that language)."""
        body = self.said.get(code)
        return self if body is None else Published(self.version, body, language=code)

    @property
    def etag(self) -> str:
        """Versions start again at each start: the boot id keeps a phone's cached copy from matching; a page in
        another language has other bytes."""
        return f'"{BOOT}-{self.version}{"-" + self.language if self.language else ""}"'

    @property
    def event(self) -> bytes:
        """The same bytes as one Server-Sent Event."""
        return b"event: state\ndata: " + self.body + b"\n\n"


class Bell:
    """A wake-up rung from any thread, heard on the web server's loop: the virtual device's stream waits on it
    for the OLED's next frame (a coroutine waiting costs no thread, so a page that leaves holds no worker)."""

    def __init__(self) -> None:
        self.rung = 0
        """How often it rang (read on the loop): a waiter that saw ``rung`` misses no ring after it."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The web server's event loop: the waiters wait on it."""
        import asyncio

        with self._lock:
            self._loop = loop
            self._event = asyncio.Event()

    def ring(self) -> None:
        """From any thread; never raises (the display's thread calls it after each frame)."""
        with self._lock:
            loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
                loop.call_soon_threadsafe(self._ring)

    def _ring(self) -> None:
        import asyncio

        self.rung += 1
        if self._event is not None:
            self._event.set()
            self._event = asyncio.Event()

    async def wait(self, seen: int, timeout: float) -> int:
        """Once it rang after ``seen``, or after ``timeout``: how often it has rung."""
        import asyncio

        if self.rung != seen:
            return self.rung
        if self._event is None:  # not attached yet: nothing can ring
            await asyncio.sleep(timeout)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), timeout)
        return self.rung


class Publisher:
    """An atomic reference to the newest :class:`Published`, and a wake-up for the asyncio streams."""

    def __init__(self) -> None:
        self.current = Published(0, b"{}")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._lock = threading.Lock()

    def publish(self, published: Published) -> None:
        """Called from the daemon's loop: swap the reference, wake every stream (cheap, never blocks)."""
        self.current = published
        self.wake()

    def wake(self) -> None:
        """From any thread: every waiting stream looks up now (at a stop, to see the stop flag)."""
        with self._lock:
            loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The web server's event loop: the streams wait on it."""
        import asyncio

        with self._lock:
            self._loop = loop
            self._changed = asyncio.Event()

    def _wake(self) -> None:
        import asyncio

        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()  # one event per version: waiters of the old one all wake

    async def wait(self, version: int, timeout: float) -> Published:
        """The newest state once its version passes ``version``, or the current one after ``timeout``."""
        import asyncio

        if self.current.version != version or self._changed is None:
            return self.current
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)
        return self.current
