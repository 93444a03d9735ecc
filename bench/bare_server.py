"""The yardstick of ``bench.bench_web``: the same work on a bare standard-library server.

The same ledger (rules, journal, fdatasync) and the same public state, built and serialized once
per change, served by ``http.server.ThreadingHTTPServer`` with a thread per live stream, and
nothing else: no login, no CSRF, no Flask, no uvicorn. What our server costs beyond this is the
price of its design; the issue's target is to stay within twice of it.

Run by the benchmark: ``python -m bench.bare_server STATE_DIR PORT``. Loopback only.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from device.daemon.public import public_body
from device.store.journal import Journal
from device.store.ledger import Ledger


class Bare:
    def __init__(self, state_dir: Path) -> None:
        self.ledger = Ledger(Journal(state_dir / "journal.sqlite3"))
        self.changed = threading.Condition()
        self.lock = threading.Lock()
        self.version, self.body = 0, b""
        self.publish()

    def publish(self) -> None:
        snap = self.ledger.snapshot()
        with self.changed:
            self.version += 1
            self.body = public_body(self.ledger.game.state, snap, cards=[], parts=[], version=self.version,
                                    problem=snap["problem"])
            self.changed.notify_all()

    def submit(self, cmd: dict[str, object]) -> dict[str, object]:
        with self.lock:  # one writer, as the daemon's loop
            out = self.ledger.submit(cmd).as_dict()
            self.publish()
        return out


def handler(bare: Bare) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # As our front does: without it a keep-alive answer's body waits ~40 ms for a delayed ACK.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, *args: object) -> None:
            pass

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/api/state":
                self._send(200, bare.body)
            elif self.path == "/api/events":
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                seen = -1
                try:
                    while True:
                        with bare.changed:
                            if bare.version == seen:
                                bare.changed.wait(15)
                            seen, body = bare.version, bare.body
                        self.wfile.write(b"event: state\ndata: " + body + b"\n\n")
                        self.wfile.flush()
                except OSError:
                    return
            else:
                self._send(404, b"{}")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path == "/api/login":
                self._send(200, b'{"csrf": ""}')
            elif self.path == "/api/commands":
                out = bare.submit(body)
                self._send(200 if out["ok"] else 422, json.dumps(out).encode())
            else:
                self._send(404, b"{}")

    return Handler


def main() -> None:
    state_dir, port = Path(sys.argv[1]), int(sys.argv[2])
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(Bare(state_dir)))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
