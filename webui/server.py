"""The web server: uvicorn's asyncio loop in front, Flask behind it in two small thread pools.

Why this shape: a live status page is a connection that stays open for hours. On a
thread-per-request server (waitress) each one holds a thread; 32 open pages took them all and the
banker's commands stopped answering. Here the live streams (the status pages' and the virtual device's)
and `/api/state` are coroutines on one asyncio loop, serving the bytes the daemon published, so 100 open
pages cost memory, not threads. No stream may run in the pools: a WSGI generator cannot hear its page
leave, and each closed tab kept its worker until the pool was gone. Everything else is the Flask app,
run through a2wsgi in thread pools: one reserved for the banker (login, commands, cards, the sim keypad)
and one for the pages phones load, so no number of phones can starve the banker. uvicorn (with h11, pure
Python) is maintained, small, and runs on every Pi; a2wsgi is the maintained WSGI-in-ASGI bridge.

Bodies larger than :data:`MAX_BODY` are refused from their headers, before a byte of them is
read, and nothing is ever spooled to disk (waitress spooled up to 1 GB to the SD card).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from typing import Any

import words

from .asgi import ASGIApp, Receive, Scope, Send
from .backend import Simulation
from .devicestream import HEADERS, KEEPALIVE, device_events, gone_when_disconnected
from .language import cookies_of, page_language
from .live import Bell, Publisher
from .protocol import refused

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
BANKER_PATHS = ("/api/login", "/api/logout", "/api/commands", "/api/cards", "/api/admin", "/api/session",
                "/api/sim/key", "/api/sim/tap")


async def _respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


class Front:
    """The ASGI application: native answers for the hot paths, Flask for the rest."""

    def __init__(self, flask_app: Any, publisher: Publisher, *, stopping: threading.Event,
                 simulation: Simulation | None = None, banker_workers: int = 4, page_workers: int = 6) -> None:
        """``simulation``: the virtual device, whose stream is served here (None: no ``/device``)."""
        from a2wsgi import WSGIMiddleware

        self.publisher = publisher
        self.simulation = simulation
        self.frames = Bell()
        """Rung by the virtual device's display after each frame."""
        if simulation is not None:
            simulation.on_display(self.frames.ring)
        self.stopping = stopping
        self.banker = WSGIMiddleware(flask_app, workers=banker_workers)
        self.pages = WSGIMiddleware(flask_app, workers=page_workers)
        self.streams = 0

    def close(self) -> None:
        """From any thread, before the server stops: every open stream ends its response now, so the stop
        waits for no page (30 open pages logged 30 CancelledError tracebacks when uvicorn cancelled them)."""
        self.stopping.set()
        self.publisher.wake()
        self.frames.ring()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        too_big = self._too_big(scope)
        if too_big is not None:
            await _respond(send, too_big, self._too_large(scope), [(b"content-type", b"application/json"),
                                                                 (b"connection", b"close")])
            return
        if method in ("GET", "HEAD") and path == "/api/state":
            await self._state(scope, send)
        elif method == "GET" and path == "/api/events":
            await self._events(receive, send, self._language(scope))
        elif method == "GET" and path == "/api/sim/events" and self.simulation is not None:
            await device_events(self.simulation, self.frames, self.stopping, receive, send)
        elif path.startswith(BANKER_PATHS):
            await self.banker(scope, receive, send)  # type: ignore[arg-type]
        else:
            await self.pages(scope, receive, send)  # type: ignore[arg-type]

    @staticmethod
    def _too_large(scope: Scope) -> bytes:
        """The refusal of a body too large, in the asking page's language (the Flask app is never reached)."""
        with words.speaking(Front._language(scope)):
            message = words.text("pages.error.too_large")
        return json.dumps(refused("too_large", message), ensure_ascii=False).encode()

    @staticmethod
    def _too_big(scope: Scope) -> int | None:
        """413 for a declared length over the limit, 411 for a body without one (chunked uploads)."""
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                return 413 if int(length) > MAX_BODY else None
            except ValueError:
                return 400
        if b"transfer-encoding" in headers:
            return 411
        return None

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.publisher.attach(asyncio.get_running_loop())
                self.frames.attach(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    @staticmethod
    def _language(scope: Scope) -> str:
        """The language of the asking page (a phone's own choice, else the appliance's)."""
        headers = dict(scope["headers"])
        return page_language(cookies_of(headers.get(b"cookie", b"")),
                             headers.get(b"accept-language", b"").decode("latin-1"))

    async def _state(self, scope: Scope, send: Send) -> None:
        current = self.publisher.current.in_language(self._language(scope))
        headers = [(b"content-type", b"application/json; charset=utf-8"), (b"etag", current.etag.encode()),
                   (b"cache-control", b"no-cache")]
        if dict(scope["headers"]).get(b"if-none-match", b"").decode("latin-1") == current.etag:
            await _respond(send, 304, b"", headers)
        else:
            await _respond(send, 200, current.body if scope["method"] == "GET" else b"", headers)

    async def _events(self, receive: Receive, send: Send, language: str) -> None:
        """One coroutine per open page: the published bytes on every change (in the page's ``language``), a
        comment when idle."""
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        gone = asyncio.Event()
        watcher = asyncio.create_task(gone_when_disconnected(receive, gone))
        self.streams += 1
        try:
            current = self.publisher.current.in_language(language)
            await send({"type": "http.response.body", "body": current.event, "more_body": True})
            version = current.version
            while not gone.is_set() and not self.stopping.is_set():
                newer = await self.publisher.wait(version, KEEPALIVE)
                if gone.is_set() or self.stopping.is_set():
                    break
                chunk = b": ping\n\n" if newer.version == version else newer.in_language(language).event
                version = newer.version
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the phone left mid-write
        finally:
            self.streams -= 1
            watcher.cancel()


class WebServer:
    """uvicorn on a socket we bind ourselves (so the port is known at once), in its own thread."""

    def __init__(self, app: ASGIApp, host: str, port: int) -> None:
        import uvicorn

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named explicitly: asyncio turns Nagle off only on sockets that say they are TCP,
        # and with Nagle on, every keep-alive answer waited 40 ms for the phone's delayed ACK.
        self.sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(128)
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(app, http="h11", ws="none", lifespan="on", log_level="warning",
                                access_log=False, timeout_keep_alive=5, timeout_graceful_shutdown=2,
                                h11_max_incomplete_event_size=16 * 1024, server_header=False)
        self.server = uvicorn.Server(config)
        self.app = app
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)
        self.last_beat = time.monotonic()
        """When the server's event loop last turned (the watchdog reads it)."""

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except Exception:
            log.exception("web server stopped")

    async def _serve(self) -> None:
        beat = asyncio.create_task(self._beat())
        try:
            await self.server.serve(sockets=[self.sock])
        finally:
            beat.cancel()

    async def _beat(self) -> None:
        """The loop turns: tell the watchdog (a blocked loop stops the pings)."""
        while True:
            self.last_beat = time.monotonic()
            await asyncio.sleep(1.0)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        close_streams = getattr(self.app, "close", None)
        if close_streams is not None:
            close_streams()
        self.server.should_exit = True
        self.thread.join(timeout=5)
        self.sock.close()
