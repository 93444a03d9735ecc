"""A stop with pages open: how long SIGTERM takes with 0, 30 and 100 open live pages.

Run: ``.venv/bin/python -m bench.bench_stop``. Starts `bankleser run --sim`, opens the pages (status-page
streams, and five virtual devices' streams, coroutines on the server's loop as the others), sends SIGTERM and
times the exit; counts tracebacks and ERROR lines in the process's output. Loopback only, bounded.
"""

from __future__ import annotations

import socket
import tempfile
import time
from pathlib import Path

from bench.liveserver import LiveServer


def open_page(port: int, path: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    return sock


def first_event(sock: socket.socket) -> None:
    data = b""
    while b"data:" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("stream closed before its first event")
        data += chunk


def stop_with(pages: int) -> tuple[float, int, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "bankleser.log"
        srv = LiveServer(Path(tmp) / "state", log=log).start()
        socks = [open_page(srv.port, b"/api/sim/events" if i < 5 else b"/api/events") for i in range(pages)]
        for sock in socks:
            first_event(sock)
        started = time.monotonic()
        code = srv.stop()
        took = time.monotonic() - started
        for sock in socks:
            sock.close()
        text = log.read_text(encoding="utf-8", errors="replace")
        return took, code, text.count("Traceback"), text.count("ERROR")


def main() -> None:
    for pages in (0, 30, 100):
        took, code, tracebacks, errors = stop_with(pages)
        print(f"{pages:3d} open pages: stop {took:.2f} s, exit {code}, {tracebacks} tracebacks, {errors} ERROR lines")


if __name__ == "__main__":
    main()
