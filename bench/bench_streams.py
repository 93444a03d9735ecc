"""How many open live streams the appliance holds before a page waits.

Run: ``.venv/bin/python -m bench.bench_streams [--step N] [--most N]``. Starts `bankleser run --sim`, opens live
streams in steps (half status pages' ``/api/events``, half virtual devices' ``/api/sim/events``, each read to its
first frame and then kept open and read no more: phones that sleep), and after each step times a page load
(``/``, ``/device``, ``/static/style.css``). Prints the count at which a page first took over a second, or that
none did up to ``--most``. The server runs with ``--files`` open files (1024: what systemd gives a service unless
its unit says more), as on the Pi; each step also prints the server's CPU while the streams idle (the virtual
devices look at their tone and LED four times a second). Loopback only.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import tempfile
import time
from pathlib import Path

from bench.liveserver import LiveServer

PAGES = ("/", "/device", "/static/style.css")
SLOW = 1.0


def open_stream(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def first_frame(sock: socket.socket, deadline: float) -> bool:
    data = b""
    while b"data:" not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return False
        if not chunk:
            return False
        data += chunk
    return True


def slowest_page(port: int) -> float:
    """Seconds of the slowest of :data:`PAGES` (capped at 5)."""
    worst = 0.0
    for path in PAGES:
        started = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                while sock.recv(65536):
                    pass
        except OSError:
            return 5.0
        worst = max(worst, time.monotonic() - started)
    return worst


def cpu(pid: int) -> float:
    """The process's CPU seconds so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--step", type=int, default=100)
    parser.add_argument("--most", type=int, default=1200)
    parser.add_argument("--files", type=int, default=1024)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this process holds every client socket
    socks: list[socket.socket] = []
    with tempfile.TemporaryDirectory() as tmp:
        files = args.files
        srv = LiveServer(Path(tmp) / "state",
                         preexec=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))).start()
        assert srv.proc is not None
        try:
            print(f"the server's open-file limit: {files}")
            held = 0
            while held < args.most:
                new = [open_stream(srv.port, "/api/events" if i % 2 else "/api/sim/events") for i in range(args.step)]
                deadline = time.monotonic() + 10
                served = sum(first_frame(sock, deadline) for sock in new)
                socks += new
                held += args.step
                worst = slowest_page(srv.port)
                before = cpu(srv.proc.pid)
                time.sleep(2.0)
                idle = (cpu(srv.proc.pid) - before) / 2.0 * 100
                print(f"{held:5d} open streams ({served} of the last {args.step} served): slowest page "
                      f"{worst * 1000:.0f} ms, CPU idle {idle:.1f} % of a core")
                if worst > SLOW or served < args.step:
                    print(f"a page waits from {held} open streams on")
                    return
            print(f"no page waited up to {held} open streams")
        finally:
            for sock in socks:
                sock.close()
            srv.stop()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


if __name__ == "__main__":
    main()
