"""systemd's side of sd_notify for the tests: a datagram socket at ``NOTIFY_SOCKET`` that collects what the
service says (READY=1, WATCHDOG=1, STATUS=…), so a test reads the messages a unit's manager would."""

from __future__ import annotations

import socket
import time
from pathlib import Path


class NotifySocket:
    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.path = path

    def messages(self, seconds: float) -> list[str]:
        out, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                out.append(self.sock.recv(4096).decode())
            except TimeoutError:
                break
        return out

    def until(self, word: str, seconds: float) -> list[str]:
        seen, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            seen += self.messages(0.2)
            if any(word in m for m in seen):
                return seen
        raise AssertionError(f"no {word} in {seen}")
