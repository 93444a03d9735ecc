"""What the appliance costs on a Pi Zero 2 W's budget: CPU-seconds per operation, memory, writes, start-up.

Run: ``.venv/bin/python -m bench.bench_pi``. Starts `bankleser run --sim` as a separate process
on loopback and reads its own CPU time (utime + stime), resident memory and bytes written from
/proc, so the figures are the server's cost, not the load generator's.

The Pi estimate multiplies this machine's CPU time by 14: a Pi 3B-class Cortex-A53 core (the
Zero 2 W's) runs pure-Python code about 14 times slower than one core of this machine, by the
pyperformance suite's published results for both (range 9–21 over its benchmarks). It is an
estimate; the README lists it under what is not yet measured on a real Pi.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.journal import journal as long_journal
from bench.liveserver import LiveServer
from device.journal import Journal

PI_FACTOR, PI_RANGE = 14, (9, 21)
TICK = os.sysconf("SC_CLK_TCK")
NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben", "Cem"]}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def written(pid: int) -> int:
    line = next(x for x in Path(f"/proc/{pid}/io").read_text().splitlines() if x.startswith("write_bytes"))
    return int(line.split()[1])


def pi(ms: float) -> str:
    return f"{ms * PI_FACTOR:.0f} ms on a Pi Zero 2 W (×{PI_FACTOR}, {ms * PI_RANGE[0]:.0f}–{ms * PI_RANGE[1]:.0f})"


def fill(state: Path, commands: int) -> None:
    journal = Journal(state / "journal.sqlite3")
    for line in long_journal(commands):
        journal.append(json.loads(line))
    journal.close()


def ready_time(state: Path) -> float:
    """Seconds from exec to READY=1, the process started as systemd would."""
    with tempfile.TemporaryDirectory() as tmp:
        sock_path = str(Path(tmp) / "notify.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(60)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        exe = Path(sys.executable).parent / "bankleser"
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(exe), "run", "--sim", "--state-dir", str(state), "--port", str(port)],
                                env={**os.environ, "NOTIFY_SOCKET": sock_path},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while "READY=1" not in sock.recv(4096).decode():
            pass
        ready = time.perf_counter() - t0
        proc.terminate()
        proc.wait(10)
        sock.close()
    return ready


def open_streams(port: int, count: int) -> list[socket.socket]:
    streams = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        streams.append(s)
    return streams


def drain(streams: list[socket.socket], stop: threading.Event) -> threading.Thread:
    """Read every stream (as phones do) so the server never blocks on a full socket buffer."""
    import selectors

    def run() -> None:
        sel = selectors.DefaultSelector()
        for s in streams:
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
        while not stop.is_set():
            for key, _ in sel.select(0.2):
                with contextlib.suppress(BlockingIOError):
                    key.fileobj.recv(65536)  # type: ignore[union-attr]

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def per_command(server: LiveServer, pid: int, phones: int, count: int, start: int) -> float:
    assert server.proc is not None
    streams = open_streams(server.port, phones)
    stop = threading.Event()
    reader = drain(streams, stop)
    time.sleep(0.5)
    before = cpu_seconds(pid)
    for i in range(count):
        cmd = {"op": "credit", "player": "Anna", "amount": 10, "id": f"p{start + i}"}
        status, _ = server.post("/api/commands", cmd)
        assert status == 200
    time.sleep(0.3)  # the last events reach every phone
    cost = (cpu_seconds(pid) - before) / count * 1000
    stop.set()
    reader.join(2)
    for s in streams:
        s.close()
    return cost


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty"
        t = ready_time(empty)
        print(f"start-up to READY=1, empty journal: {t:.2f} s; Pi estimate {t * PI_FACTOR:.1f} s")
        full = Path(tmp) / "full"
        fill(full, 10_000)
        t = ready_time(full)
        print(f"start-up to READY=1, 10,000-command journal: {t:.2f} s (target < 0.5 s); "
              f"Pi estimate {t * PI_FACTOR:.1f} s (target < 7 s)")

        server = LiveServer(full).start()
        assert server.proc is not None
        pid = server.proc.pid
        server.login()
        assert server.post("/api/commands", {**NEW, "id": "bench-game", "replace": True})[0] == 200
        time.sleep(0.5)
        print(f"resident memory after start-up with 10,000 commands: {rss_mb(pid):.1f} MB (target < 60 MB)")

        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        before = cpu_seconds(pid)
        for _ in range(1000):
            conn.request("GET", "/api/state")
            conn.getresponse().read()
        state_ms = (cpu_seconds(pid) - before)
        print(f"CPU per /api/state: {state_ms:.3f} ms; {pi(state_ms)}")

        costs = {}
        start = 0
        for phones in (0, 20, 100):
            costs[phones] = per_command(server, pid, phones, 100, start)
            start += 100
            print(f"CPU per command with {phones} open pages: {costs[phones]:.2f} ms; {pi(costs[phones])}"
                  + ("  (target < 5 ms here, < 70 ms on the Pi)" if phones == 20 else ""))
        print(f"CPU per event per phone: {(costs[100] - costs[0]) / 100:.3f} ms")

        mem0, io0 = rss_mb(pid), written(pid)
        for i in range(2000):
            server.post("/api/commands", {"op": "credit", "player": "Ben", "amount": 10, "id": f"m{i}"})
        mem1, io1 = rss_mb(pid), written(pid)
        print(f"memory growth: {(mem1 - mem0) / 2:.2f} MB per 1,000 commands (target < 0.5 MB)")
        print(f"bytes written per command: {(io1 - io0) / 2000:,.0f} (journal row, WAL frame, head record)")
        server.stop()


if __name__ == "__main__":
    main()
