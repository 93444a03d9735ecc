"""systemd's notify protocol: one datagram to ``$NOTIFY_SOCKET`` (READY=1, WATCHDOG=1, STATUS=…)."""

from __future__ import annotations

import _socket
import os


class Notifier:
    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        usec = os.environ.get("WATCHDOG_USEC", "")
        self.watchdog_interval = int(usec) / 1e6 / 2 if usec.isdigit() and int(usec) > 0 else None
        """Half the watchdog timeout, as systemd recommends; None without a watchdog."""

    def send(self, message: str) -> None:
        if not self.address:
            return
        addr = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            # The C module alone: socket.py's enums and selectors cost 60 ms on a Pi core before "Startet…".
            sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM)
            try:
                sock.sendto(message.encode(), addr)
            finally:
                sock.close()
        except OSError as err:
            import logging  # not before the first frame: "Startet…" is told before logging is loaded

            logging.getLogger(__name__).warning("sd_notify failed: %s", err)

    def ready(self, status: str) -> None:
        self.send(f"READY=1\nSTATUS={status}")

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
